/**
 * Dialog errors are readable where the user looks, in headless Chromium against a real
 * Node-RED 4.1 with the npm-packed package, in English and German (read by hovering with
 * the mouse, as a user does):
 *  - io-output's Pin, a typedInput, given 9: the visible box has the red edge, and hovering
 *    its value, its type button or its edge shows the message of limits.ts. Done saves the
 *    node anyway, as Node-RED saves every invalid node; the canvas then marks it with the
 *    warning triangle, whose tooltip names the message;
 *  - bmc-watchdog with keep-alive and Timeout 0: the Timeout is marked, with the message on
 *    hover, not "Send alive every", and the hint beside that field's "ms" says which
 *    timeouts carry a keep-alive; with a timeout that does, the interval's range, and an
 *    interval past half the timeout is marked on the interval.
 * Screenshots with the tooltip shown go to test-artifacts/dialog-errors-*.png.
 */
import path from 'path';
import 'should';
import type { Locator, Page } from 'playwright-core';
import { check, checkKeepAlive, checkKeepAliveTimeout, labelled, LIMITS } from '../../nodes/lib/pure/limits';
import { render, PhraseValue } from '../../nodes/lib/pure/phrase';
import { catalogsReady, inLanguage } from '../helpers/i18n';
import { configNode } from '../helpers/browser/config-node';
import * as editor from '../helpers/browser/editor';
import { editorPage, nodeRedAndChromium } from '../helpers/browser/editor-suite';

// Page-side code below runs in the browser; the project compiles without the DOM library.
declare const document: any;
declare const window: any;
declare const RED: any;

const LANGUAGES = [
  { name: 'English', locale: 'en-US', lang: 'en-US', tag: 'en' },
  { name: 'German', locale: 'de-DE', lang: 'de', tag: 'de' },
];

const WATCHDOG = '@modular-device/node-red/bmc-watchdog:bmc-watchdog.keepAlive.';

/** A refusal of limits.ts as the editor in `lang` says it. */
function sentence(lang: string, result: true | PhraseValue): string {
  if (result === true) throw new Error('expected a refusal, the value passed');
  const t = inLanguage(lang);
  return render(result, (id, values) => t(id, values));
}

/** Moves the mouse away and waits until no tooltip is left open. */
async function away(page: Page): Promise<void> {
  await page.mouse.move(1, 1);
  await page.waitForFunction(() => document.querySelectorAll('.red-ui-popover').length === 0, undefined, { timeout: 5000 });
}

/** Waits until `selector` is marked invalid (`input-error`) or, `marked` false, no longer; fails naming what was not seen. */
async function markedInvalid(page: Page, selector: string, marked: boolean, what: string): Promise<void> {
  await page
    .waitForFunction(({ s, m }) => document.querySelector(s).classList.contains('input-error') === m, { s: selector, m: marked }, { timeout: 5000 })
    .catch(() => {
      throw new Error(`${what}: ${selector} is ${marked ? 'not marked invalid' : 'still marked invalid'}`);
    });
}

/**
 * Puts the mouse at (x, y) of `target`'s box (its centre when not given) and reads the tooltip
 * that opens. A field that just appeared (the tray sliding in) may miss the first hover, as in
 * editor.checkField: up to three hovers, each from outside the field.
 */
async function tooltipAt(page: Page, target: Locator, at?: (box: { width: number; height: number }) => { x: number; y: number }): Promise<string> {
  const popover = page.locator('.red-ui-popover');
  for (let attempt = 0; attempt < 3; attempt++) {
    await away(page);
    const box = (await target.boundingBox())!;
    const p = at ? at(box) : { x: box.width / 2, y: box.height / 2 };
    await page.mouse.move(box.x + p.x, box.y + p.y, { steps: 2 });
    const shown = await popover
      .first()
      .waitFor({ state: 'visible', timeout: 3000 })
      .then(() => true)
      .catch(() => false);
    if (shown) return (await popover.first().innerText()).trim();
  }
  throw new Error(`no tooltip opened on hovering ${target}`);
}

/** Whether `selector`'s border is the editor's error colour (what `.input-error` gives it), on every side. */
function redEdge(page: Page, selector: string): Promise<boolean> {
  return page.evaluate((s) => {
    const probe = document.createElement('span');
    probe.style.color = 'var(--red-ui-form-input-border-error-color)';
    document.body.appendChild(probe);
    const red = window.getComputedStyle(probe).color;
    probe.remove();
    const style = window.getComputedStyle(document.querySelector(s));
    return ['Top', 'Right', 'Bottom', 'Left'].every((side) => style[`border${side}Color`] === red);
  }, selector);
}

/** The tray, and the tooltip open over it (which may reach past the tray onto the canvas), as a screenshot. */
async function screenshot(page: Page, name: string): Promise<void> {
  const boxes = [(await page.locator('.red-ui-tray').last().boundingBox())!];
  const popover = page.locator('.red-ui-popover');
  if (await popover.count()) boxes.push((await popover.first().boundingBox())!);
  const x = Math.max(0, Math.min(...boxes.map((b) => b.x)));
  const y = Math.max(0, Math.min(...boxes.map((b) => b.y)));
  const width = Math.max(...boxes.map((b) => b.x + b.width)) - x;
  const height = Math.max(...boxes.map((b) => b.y + b.height)) - y;
  await page.screenshot({ path: path.join(editor.ARTIFACTS, `${name}.png`), clip: { x, y, width, height } });
}

/** The text of the canvas's tooltip on node `id`'s warning triangle (Node-RED's own, on hover). */
async function triangleTooltip(page: Page, id: string): Promise<string> {
  const triangle = page.locator(`#red-ui-workspace-chart [id="${id}"] .red-ui-flow-node-error`);
  await triangle.waitFor({ state: 'visible', timeout: 5000 });
  await page.mouse.move(1, 1);
  await triangle.hover();
  const tip = page.locator('#red-ui-workspace-chart .red-ui-flow-port-tooltip');
  await tip.first().waitFor({ state: 'attached', timeout: 5000 });
  const text = await tip.first().evaluate((el: any) =>
    Array.from(el.querySelectorAll('text'))
      .map((t: any) => t.textContent)
      .join('\n'),
  );
  await page.mouse.move(1, 1);
  return text;
}

describe('dialog errors where the user looks (Node-RED 4.1, npm-packed package, headless Chromium)', function () {
  this.timeout(180000);
  before(() => catalogsReady);
  const running = nodeRedAndChromium();

  LANGUAGES.forEach(({ name, locale, lang, tag }, n) => {
    describe(`in ${name}`, function () {
      const open = editorPage(running, locale);
      // Modules for the nodes' Module fields (never deployed: nothing here talks to a device).
      const io = `dialog-errors-io-${tag}`;
      const bmc = `dialog-errors-bmc-${tag}`;
      before(() => editor.importNodes(open.page, [configNode(io, 'io', 2, 'http://127.0.0.1:1'), configNode(bmc, 'bmc', 0, 'http://127.0.0.1:1')]));

      it('io-output: Pin 9 typed in marks the visible box red, its message shows on the value, the type button and the edge; Done saves it with the warning triangle naming it', async function () {
        const { page } = open;
        const message = sentence(lang, check('pin', 9, labelled('io-output', 'pin')));
        if (lang === 'de') message.should.not.equal(sentence('en-US', check('pin', 9, labelled('io-output', 'pin'))));
        const id = await editor.dropNode(page, 'io-output', 200, 80 + 200 * n);
        await editor.openDialog(page, id);
        await page.selectOption('#node-input-device', io);
        const boxSelector = '#node-input-pin + .red-ui-typedInput-container';
        const box = page.locator(boxSelector);
        (await redEdge(page, boxSelector)).should.be.false('the default pin (1) is not marked');

        const value = box.locator('input.red-ui-typedInput-input');
        await value.fill('9');
        await value.press('Tab');
        await markedInvalid(page, boxSelector, true, 'Pin 9');
        (await redEdge(page, boxSelector)).should.be.true('the visible box has the red edge');

        (await tooltipAt(page, value)).should.equal(message, 'hovering the value');
        (await tooltipAt(page, box.locator('button.red-ui-typedInput-type-select'))).should.equal(message, 'hovering the type button');
        (await tooltipAt(page, box, (b) => ({ x: b.width - 1, y: b.height / 2 }))).should.equal(message, 'hovering the right edge');
        (await tooltipAt(page, box, (b) => ({ x: b.width / 2, y: 0.5 }))).should.equal(message, 'hovering the top edge');
        await screenshot(page, `dialog-errors-io-output-pin-${tag}`);

        // A valid pin takes the mark and the tooltip away.
        await away(page);
        await value.fill('2');
        await value.press('Tab');
        await markedInvalid(page, boxSelector, false, 'Pin 2');
        await value.hover();
        (await page.locator('.red-ui-popover').count()).should.equal(0, 'no tooltip on a valid pin');

        // Node-RED's convention: Done saves an invalid node; the canvas marks it, and its triangle names why.
        await value.fill('9');
        await value.press('Tab');
        await away(page);
        await editor.clickDone(page);
        const saved = await page.evaluate((i) => {
          const node = RED.nodes.node(i);
          return { pin: String(node.pin), valid: node.valid, errors: node.validationErrors };
        }, id);
        saved.should.eql({ pin: '9', valid: false, errors: [message] });
        (await triangleTooltip(page, id)).should.containEql(message);
      });

      it('bmc-watchdog: keep-alive with Timeout 0 marks the Timeout with its message, not the interval, and the hint says which timeouts carry a keep-alive', async function () {
        const { page } = open;
        const t = inLanguage(lang);
        const off = sentence(lang, checkKeepAliveTimeout(0, 'bmc-watchdog'));
        const wd = LIMITS.watchdog_timeout;
        const k = LIMITS.keepalive_interval;
        const needs = t(`${WATCHDOG}needsTimeout`, { min: Math.max(wd.min, 2 * k.min), max: wd.max });
        if (lang === 'de') off.should.not.equal(sentence('en-US', checkKeepAliveTimeout(0, 'bmc-watchdog')));
        const id = await editor.dropNode(page, 'bmc-watchdog', 500, 80 + 200 * n);
        await editor.openDialog(page, id);
        await page.selectOption('#node-input-device', bmc);
        await page.check('#node-input-keepAlive');
        await page.check('#node-input-confirm');
        await editor.typeInto(page, '#node-input-timeout', '0');
        await markedInvalid(page, '#node-input-timeout', true, 'keep-alive with Timeout 0');
        (await redEdge(page, '#node-input-timeout')).should.be.true('the Timeout has the red edge');
        (await redEdge(page, '#node-input-interval')).should.be.false('Send alive every is not at fault');
        (await page.locator('#bmc-watchdog-interval-hint').innerText()).trim().should.equal(needs);
        (await tooltipAt(page, page.locator('#node-input-timeout'))).should.equal(off, 'hovering the Timeout');
        await screenshot(page, `dialog-errors-bmc-watchdog-timeout-${tag}`);

        // A timeout that carries a keep-alive: the mark goes, the hint gives the interval's range,
        // and an interval past half the timeout is the interval's own fault.
        await away(page);
        await editor.typeInto(page, '#node-input-timeout', '10000');
        await markedInvalid(page, '#node-input-timeout', false, 'keep-alive with Timeout 10000');
        (await page.locator('#bmc-watchdog-interval-hint').innerText()).trim().should.equal(t(`${WATCHDOG}range`, { min: k.min, max: 5000 }));
        await editor.typeInto(page, '#node-input-interval', '6000');
        await markedInvalid(page, '#node-input-interval', true, 'interval 6000 with Timeout 10000');
        (await redEdge(page, '#node-input-timeout')).should.be.false('a timeout of 10000 is not at fault');
        (await tooltipAt(page, page.locator('#node-input-interval'))).should.equal(sentence(lang, checkKeepAlive(6000, 10000, 'bmc-watchdog')));
        await screenshot(page, `dialog-errors-bmc-watchdog-interval-${tag}`);

        // Saved as Node-RED saves an invalid node, with the one message, the Timeout's.
        await away(page);
        await editor.typeInto(page, '#node-input-interval', '3000');
        await editor.typeInto(page, '#node-input-timeout', '0');
        await editor.clickDone(page);
        const saved = await page.evaluate((i) => ({ valid: RED.nodes.node(i).valid, errors: RED.nodes.node(i).validationErrors }), id);
        saved.should.eql({ valid: false, errors: [off] });
        (await triangleTooltip(page, id)).should.containEql(off);
      });
    });
  });
});
