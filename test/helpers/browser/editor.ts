/**
 * Playwright steps in the Node-RED editor, with the selectors of Node-RED 4.1 (palette
 * `.red-ui-palette-node[data-palette-type]`, canvas `#red-ui-workspace-chart`, edit tray
 * `.red-ui-tray`, Deploy `#red-ui-header-button-deploy`): palette, canvas, edit tray, deploy. The things a user
 * does (drag from the palette, double-click, type, Tab, click) are done with real mouse and
 * keyboard events; `page.evaluate` only reads the editor's state or wires nodes.
 */
import fs from 'fs';
import path from 'path';
import type { Page } from 'playwright-core';
import type { FieldCheck, Settings } from './cases';

export const ARTIFACTS = path.resolve(__dirname, '..', '..', '..', '..', 'test-artifacts');

declare const RED: any;
declare const $: any;
// Page-side code below runs in the browser; the project compiles without the DOM library.
declare const window: any;
declare const document: any;

export async function openEditor(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForSelector('.red-ui-palette-node[data-palette-type="io-output"]', { timeout: 60000 });
  await page.waitForFunction(() => typeof RED !== 'undefined' && RED.nodes && RED.workspaces.active());
  // The debug messages the sidebar receives, kept for the assertions.
  await page.evaluate(() => {
    (window as any).__debug = [];
    RED.comms.subscribe('debug', (_topic: string, msg: unknown) => (window as any).__debug.push(msg));
  });
}

/** The label of the palette category a node type is listed under. */
export function paletteCategory(page: Page, type: string): Promise<string> {
  return page.evaluate(
    (t) => $(`.red-ui-palette-node[data-palette-type="${t}"]`).closest('.red-ui-palette-category').find('.red-ui-palette-header span').first().text(),
    type,
  );
}

/** Drags a node type from the palette onto the canvas at (x, y) of the chart; returns its id. */
export async function dropNode(page: Page, type: string, x: number, y: number): Promise<string> {
  const before: string[] = await page.evaluate((t) => RED.nodes.filterNodes({ type: t }).map((n: any) => n.id), type);
  const item = page.locator(`.red-ui-palette-node[data-palette-type="${type}"]`);
  // A drag while the canvas still settles (a tray closing) can be lost: try again before
  // giving up, as openDialog does with its double-click.
  for (let attempt = 1; ; attempt++) {
    await item.scrollIntoViewIfNeeded();
    const from = (await item.boundingBox())!;
    const chart = (await page.locator('#red-ui-workspace-chart').boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(chart.x + x, chart.y + y, { steps: 12 });
    await page.mouse.up();
    const id = await page
      .waitForFunction(
        ({ t, ids }) =>
          RED.nodes
            .filterNodes({ type: t })
            .map((n: any) => n.id)
            .find((i: string) => !ids.includes(i)),
        { t: type, ids: before },
        { timeout: 8000 },
      )
      .then((handle) => handle.jsonValue() as Promise<string>)
      .catch(() => undefined);
    if (id) return id;
    if (attempt === 3) throw new Error(`dropping ${type} from the palette made no node`);
    await page.keyboard.press('Escape');
    await page.waitForTimeout(500);
  }
}

/** Double-clicks a node on the canvas and waits for its edit tray. */
export async function openDialog(page: Page, id: string): Promise<void> {
  const node = page.locator(`#red-ui-workspace-chart [id="${id}"] rect.red-ui-flow-node`);
  // A double-click while the canvas still settles (a drop, a tray closing) can be taken as
  // two clicks: try again before giving up.
  for (let attempt = 1; ; attempt++) {
    await node.dblclick();
    const opened = await page
      .waitForSelector('#node-dialog-ok', { state: 'visible', timeout: 5000 })
      .then(() => true)
      .catch(() => false);
    if (opened) break;
    if (attempt === 3) throw new Error(`the edit dialog of ${id} did not open on double-click`);
    await page.waitForTimeout(500);
  }
  await page.waitForTimeout(300); // the tray slides in
}

/** Selects options and ticks checkboxes: `#<prefix>-<prop>`. */
export async function applySettings(page: Page, settings: Settings, prefix = 'node-input'): Promise<void> {
  for (const [prop, value] of Object.entries(settings)) {
    const selector = `#${prefix}-${prop}`;
    if (!(await page.locator(selector).isVisible())) {
      // A field the current settings hide (e.g. "wait" of a fan read): set it as the form would keep it.
      await page.evaluate(({ s, v }) => (typeof v === 'boolean' ? $(s).prop('checked', v) : $(s).val(v)).trigger('change'), { s: selector, v: value });
    } else if (typeof value === 'boolean') await page.setChecked(selector, value);
    else await page.selectOption(selector, value);
  }
}

export async function typeInto(page: Page, selector: string, text: string): Promise<void> {
  await page.fill(selector, text);
  await page.press(selector, 'Tab');
}

function hasError(page: Page, selector: string): Promise<boolean> {
  return page.$eval(selector, (el: any) => el.classList.contains('input-error'));
}

/**
 * Types the out-of-range value: the field must get `input-error` and its tooltip the
 * message of limits.ts. Then the valid value: the mark must go.
 */
export async function checkField(page: Page, check: FieldCheck): Promise<void> {
  await typeInto(page, check.selector, check.bad);
  await page
    .waitForFunction((s) => document.querySelector(s)?.classList.contains('input-error'), check.selector, { timeout: 5000 })
    .catch(() => {
      throw new Error(`${check.selector}: "${check.bad}" was not marked invalid`);
    });
  // The message is a tooltip shown on hover; a field that just appeared may miss the first hover.
  const popover = page.locator('.red-ui-popover:visible', { hasText: check.message });
  let shownOnHover = false;
  for (let attempt = 0; attempt < 3 && !shownOnHover; attempt++) {
    await page.mouse.move(1, 1);
    await page.hover(check.selector);
    shownOnHover = await popover
      .first()
      .waitFor({ state: 'visible', timeout: 3000 })
      .then(() => true)
      .catch(() => false);
  }
  if (!shownOnHover) {
    const shown = await page.locator('.red-ui-popover:visible').allTextContents();
    const title = await page.$eval(check.selector, (el) => el.getAttribute('title'));
    // A field with its own checker (the io-power table) shows the message as its title.
    if (title !== check.message) {
      throw new Error(`${check.selector}: "${check.bad}" shows ${JSON.stringify(shown.length ? shown : title)}, expected "${check.message}"`);
    }
  }
  await page.mouse.move(1, 1);
  await typeInto(page, check.selector, check.good);
  if (await hasError(page, check.selector)) {
    await page.waitForTimeout(200);
    if (await hasError(page, check.selector)) throw new Error(`${check.selector}: "${check.good}" is still marked invalid`);
  }
}

export async function screenshotTray(page: Page, name: string): Promise<void> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  await page
    .locator('.red-ui-tray')
    .last()
    .screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
}

/** Closes whatever edit trays a failed step left open, so the next test starts on the canvas. */
export async function closeTrays(page: Page): Promise<void> {
  for (const cancel of ['#node-config-dialog-cancel', '#node-dialog-cancel']) {
    if (
      await page
        .locator(cancel)
        .isVisible()
        .catch(() => false)
    ) {
      await page.click(cancel);
      await page.waitForTimeout(300);
    }
  }
}

export async function clickDone(page: Page): Promise<void> {
  await page.click('#node-dialog-ok');
  await page.waitForSelector('#node-dialog-ok', { state: 'detached' });
}

/** Wires `from` output 0 to `to` (dragging wires is not what this test is about). */
export async function wire(page: Page, from: string, to: string): Promise<void> {
  await page.evaluate(
    ({ a, b }) => {
      RED.nodes.addLink({ source: RED.nodes.node(a), sourcePort: 0, target: RED.nodes.node(b) });
      RED.nodes.dirty(true);
      RED.view.redraw(true);
    },
    { a: from, b: to },
  );
}

/** Imports nodes (inject, debug, config nodes) onto the active tab; returns the ids given. */
export async function importNodes(page: Page, nodes: Array<Record<string, unknown>>): Promise<void> {
  await page.evaluate((list) => {
    const z = RED.workspaces.active();
    RED.view.importNodes(
      list.map((n: any) => (n.type === 'modular-device' ? n : { ...n, z })),
      { generateIds: false, addFlow: false, touchImport: true },
    );
    RED.view.select({ nodes: [] });
  }, nodes);
}

export async function deploy(page: Page): Promise<void> {
  const invalid: string[] = await page.evaluate(() => {
    const bad: string[] = [];
    RED.nodes.eachNode((n: any) => {
      if (!n.valid) bad.push(`${n.type} ${n.id} ${JSON.stringify(n.validationErrors)}`);
    });
    RED.nodes.eachConfig((n: any) => {
      if (n.valid === false) bad.push(`${n.type} ${n.id} ${JSON.stringify(n.validationErrors)}`);
    });
    return bad;
  });
  if (invalid.length) throw new Error(`not deploying invalid nodes: ${invalid.join('; ')}`);
  await page.click('#red-ui-header-button-deploy');
  // Node-RED asks before deploying unused config nodes and the like: confirm.
  const confirm = page.locator('#node-dialog-confirm-deploy-deploy');
  await confirm
    .waitFor({ state: 'visible', timeout: 1500 })
    .then(() => confirm.click())
    .catch(() => undefined);
  await page.waitForFunction(() => !RED.nodes.dirty(), undefined, { timeout: 20000 });
}

export async function clickInject(page: Page, id: string): Promise<void> {
  await page.locator(`#red-ui-workspace-chart [id="${id}"] .red-ui-flow-node-button`).click();
}

export function nodeStatus(page: Page, id: string): Promise<{ fill?: string; shape?: string; text?: string } | undefined> {
  return page.evaluate((i) => RED.nodes.node(i)?.status, id);
}

export function debugMessages(page: Page, debugId: string): Promise<Array<{ msg: string }>> {
  return page.evaluate((i) => (window as any).__debug.filter((m: any) => m.id === i), debugId);
}
