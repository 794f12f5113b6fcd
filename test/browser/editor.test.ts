/**
 * The editor, in headless Chromium, against a real Node-RED 4.1 with this package installed
 * from its `npm pack` tarball, and the simulator:
 *  - every node type is in the palette under "modular device";
 *  - the config node's dialog: Discover and Test against the simulator, its limited fields;
 *  - every node type dragged from the palette, its dialog opened, each limited field given
 *    an out-of-range value (marked invalid with the message of limits.ts) then a valid one
 *    (mark gone), saved; then deployed, and each node shown working (green status, a debug
 *    message) against the simulator;
 *  - German when the browser asks for it.
 * Screenshots of every dialog go to test-artifacts/ (git-ignored) for a reviewer.
 */
import should from 'should';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startSimulator, Simulator } from '../../simulator';
import { httpJson } from '../helpers/sim-control';
import { launchChromium } from '../helpers/browser/chromium';
import { NodeRedServer, startNodeRed } from '../helpers/browser/node-red-server';
import { catalogsReady } from '../helpers/i18n';
import { CASES, Case, FieldCheck, Service, declaredTypes, expectedMessage, limitedFields, outOfRange, validValue } from '../helpers/browser/cases';
import * as editor from '../helpers/browser/editor';

declare const RED: any;
declare const $: any;
// Page-side code below runs in the browser; the project compiles without the DOM library.
declare const window: any;

const SLOTS: Record<Service, { service: string; slot: number }> = {
  io: { service: 'io', slot: 2 },
  io3: { service: 'io', slot: 3 },
  bmc: { service: 'bmc', slot: 0 },
  power: { service: 'power', slot: 1 },
};

/** Where a case's node goes on the canvas: two columns of ten nodes, inject left, debug right. */
function position(index: number): { x: number; y: number } {
  const column = Math.floor(index / 10);
  return { x: 330 + column * 560, y: 50 + (index % 10) * 70 };
}

/** The checks of one phase: every out-of-range value of every limited prop it shows. */
function checksOf(c: Case, props: string[]): FieldCheck[] {
  const fields = limitedFields(c.type);
  return props.flatMap((prop) => {
    const f = fields.find((x) => x.prop === prop);
    if (!f) throw new Error(`${c.type}: no validator('<limit>') default for ${prop} in nodes/${c.type}.html`);
    const good = c.deployText?.[prop] ?? validValue(f.limit);
    return outOfRange(f.limit).map((bad) => ({ selector: `#node-input-${prop}`, bad: String(bad), message: expectedMessage(f, bad), good }));
  });
}

/**
 * A limited field the user types into is a visible text input. A prop whose form is a
 * picker instead (no text to type) is checked through its editor validator, in the page.
 */
async function checkOrValidate(page: Page, type: string, check: FieldCheck): Promise<void> {
  const typeable = await page.$eval(check.selector, (el: any) => el.tagName === 'INPUT' && el.type === 'text' && el.offsetParent !== null).catch(() => false);
  if (typeable) return editor.checkField(page, check);
  const prop = check.selector.replace('#node-input-', '');
  const said = await page.evaluate(
    ({ t, p, v }) => {
      const def = RED.nodes.getType(t).defaults[p];
      return def.validate.call(RED.editor.__node ?? { type: t }, v, {});
    },
    { t: type, p: prop, v: check.bad },
  );
  should(said).equal(check.message, `${type} ${prop} (not a text field): validator of ${check.bad}`);
}

describe('editor in a browser (Node-RED 4.1, npm-packed package, headless Chromium)', function () {
  this.timeout(180000);
  let sim: Simulator;
  let red: NodeRedServer;
  let browser: Browser;

  before(async function () {
    // The expected refusals are said by Node-RED's i18n from the package's catalogs.
    await catalogsReady;
    sim = await startSimulator({ host: '127.0.0.1', port: 0 });
    red = await startNodeRed();
    browser = await launchChromium();
  });

  after(async function () {
    await browser?.close();
    await red?.stop();
    await sim?.close();
  });

  describe('in English', function () {
    let context: BrowserContext;
    let page: Page;
    /** Node id per index of CASES. */
    const placed = new Map<number, string>();
    /** Config node id per service. */
    const configs = new Map<Service, string>();

    before(async function () {
      context = await browser.newContext({ locale: 'en-US', viewport: { width: 1700, height: 1000 } });
      page = await context.newPage();
      await editor.openEditor(page, red.url);
    });

    after(async function () {
      await context?.close();
    });

    afterEach(async function () {
      if (this.currentTest?.state === 'failed') await editor.closeTrays(page);
    });

    it('lists every node type in the palette under "modular device"', async function () {
      for (const type of declaredTypes().filter((t) => t !== 'modular-device')) {
        (await editor.paletteCategory(page, type)).should.equal('modular device', type);
      }
    });

    it('config node dialog: Discover and Test against the simulator; its limited fields', async function () {
      const index = CASES.findIndex((c) => c.type === 'device-info');
      const at = position(index);
      const id = await editor.dropNode(page, 'device-info', at.x, at.y);
      placed.set(index, id);
      await editor.openDialog(page, id);
      await page.click('#node-input-btn-device-add');
      await page.waitForSelector('#node-config-dialog-ok', { state: 'visible' });
      await page.waitForTimeout(300);
      await page.fill('#node-config-input-name', 'io slot 2 (dialog)');
      await editor.typeInto(page, '#node-config-input-url', sim.url);

      await page.click('#modular-device-discover');
      const ioSlot2 = page.locator('.modular-device-module[data-service="io"][data-slot="2"]');
      await ioSlot2.waitFor({ state: 'visible', timeout: 10000 });
      (await page.locator('.modular-device-module').count()).should.be.aboveOrEqual(4, 'bmc 0, power 1, io 2, io 3');
      await page.selectOption('#node-config-input-service', 'bmc');
      await ioSlot2.click();
      (await page.inputValue('#node-config-input-service')).should.equal('io');
      (await page.inputValue('#node-config-input-slot')).should.equal('2');

      await page.click('#modular-device-test');
      await page.waitForFunction(
        () => /0\.9/.test($('#modular-device-result').text()) && !$('#modular-device-result').hasClass('modular-device-error'),
        undefined,
        { timeout: 10000 },
      );

      for (const f of limitedFields('modular-device').filter((x) => ['slot', 'timeout', 'queueLimit', 'answerLimit'].includes(x.prop))) {
        const good = { slot: '2', timeout: '5000', queueLimit: '100', answerLimit: '64' }[f.prop as 'slot'];
        for (const bad of outOfRange(f.limit)) {
          await editor.checkField(page, { selector: `#node-config-input-${f.prop}`, bad: String(bad), message: expectedMessage(f, bad), good });
        }
      }
      await editor.screenshotTray(page, 'modular-device');
      await page.click('#node-config-dialog-ok');
      await page.waitForSelector('#node-config-dialog-ok', { state: 'detached' });
      const configId: string = await page.inputValue('#node-input-device');
      configId.should.not.equal('_ADD_');
      configs.set('io', configId);
      await editor.clickDone(page);
      (await page.evaluate((i) => RED.nodes.node(i).valid, id)).should.be.true();

      // The other modules' config nodes, imported as a user would paste them.
      const imported: Array<Record<string, unknown>> = (['bmc', 'power', 'io3'] as Service[]).map((s) => ({
        id: `cfg-${s}`,
        type: 'modular-device',
        name: `${s}`,
        url: sim.url,
        service: SLOTS[s].service,
        slot: String(SLOTS[s].slot),
        apiVersion: 'auto',
        timeout: '5000',
        queueLimit: '100',
        auth: 'none',
        tls: '',
      }));
      await editor.importNodes(page, imported);
      for (const s of ['bmc', 'power', 'io3'] as Service[]) configs.set(s, `cfg-${s}`);
    });

    CASES.forEach((c, index) => {
      const shows = c.phases.flatMap((p) => [...p.props, ...(p.extra ?? []).map((e) => e.selector)]);
      it(`${c.type}: palette drag, dialog, ${shows.length ? `limits of ${shows.join(', ')}` : 'no limited field'}${Object.keys(c.deploy).length ? `; deployed with ${JSON.stringify(c.deploy)}` : ''}`, async function () {
        if (!configs.size) throw new Error('no config nodes: the config node test failed');
        let id = placed.get(index);
        if (!id) {
          const at = position(index);
          id = await editor.dropNode(page, c.type, at.x, at.y);
          placed.set(index, id);
        }
        await editor.openDialog(page, id);
        await page.selectOption('#node-input-device', configs.get(c.service)!);
        for (const [n, phase] of c.phases.entries()) {
          await editor.applySettings(page, phase.settings);
          for (const check of [...checksOf(c, phase.props), ...(phase.extra ?? [])]) await checkOrValidate(page, c.type, check);
          await editor.screenshotTray(page, `${c.type}${c.phases.length > 1 ? `-${n + 1}` : ''}`);
        }
        await editor.applySettings(page, c.deploy);
        for (const [prop, text] of Object.entries(c.deployText ?? {})) {
          if (await page.locator(`#node-input-${prop}`).isVisible()) await editor.typeInto(page, `#node-input-${prop}`, text);
          else await page.evaluate(({ p, v }) => $(`#node-input-${p}`).val(v), { p: prop, v: text });
        }
        if (!c.phases.length) await editor.screenshotTray(page, `${c.type}-${index}-deployed`);
        await editor.clickDone(page);
        const state = await page.evaluate((i) => ({ valid: RED.nodes.node(i).valid, errors: RED.nodes.node(i).validationErrors }), id);
        should(state.valid).equal(true, `${c.type} saved invalid: ${JSON.stringify(state.errors)}`);
      });
    });

    it('deploys the flow; every node works against the simulator (green status, a debug message)', async function () {
      if (placed.size !== CASES.length) throw new Error(`only ${placed.size} of ${CASES.length} nodes were placed: see the failures above`);
      const extra: Array<Record<string, unknown>> = [];
      CASES.forEach((c, index) => {
        const at = position(index);
        extra.push({
          id: `inject-${index}`,
          type: 'inject',
          name: '',
          props: [{ p: 'payload' }],
          payloadType: 'date',
          repeat: '',
          once: false,
          x: at.x - 190,
          y: at.y,
          wires: [[]],
        });
        extra.push({
          id: `debug-${index}`,
          type: 'debug',
          name: `out ${c.type}`,
          active: true,
          tosidebar: true,
          complete: 'payload',
          targetType: 'msg',
          x: at.x + 210,
          y: at.y,
          wires: [],
        });
      });
      await editor.importNodes(page, extra);
      for (const [index, id] of placed) {
        if (!CASES[index].listens) await editor.wire(page, `inject-${index}`, id);
        await editor.wire(page, id, `debug-${index}`);
      }
      await editor.deploy(page);
      await page.screenshot({ path: `${editor.ARTIFACTS}/flow-deployed.png` });

      const problems: string[] = [];
      for (const [index, c] of CASES.entries()) {
        const id = placed.get(index)!;
        if (c.notification) {
          await httpJson('POST', `${sim.url}/sim/io/2/pins/3/alert`, { alert: 'custom_voltage_alert' });
        } else if (!c.listens) {
          await page
            .waitForFunction(
              (i) => {
                const s = RED.nodes.node(i)?.status;
                return !s || s.fill !== 'yellow';
              },
              id,
              { timeout: 10000 },
            )
            .catch(() => undefined);
          await editor.clickInject(page, `inject-${index}`);
        }
        try {
          // device-status shows the last health event in its colour: in this flow io-power's
          // power-management suspends the module, and the notifications-lost that follows is yellow.
          await page.waitForFunction(
            ({ i, d, events }) => {
              const status = RED.nodes.node(i)?.status;
              const shown = status?.fill === 'green' || (events && status?.fill === 'yellow' && /notifications lost/.test(status.text));
              return shown && (window as any).__debug.some((m: any) => m.id === d);
            },
            { i: id, d: `debug-${index}`, events: c.type === 'device-status' },
            { timeout: 15000 },
          );
        } catch {
          problems.push(
            `${c.type} (${JSON.stringify(c.deploy)}): status ${JSON.stringify(await editor.nodeStatus(page, id))}, ${(await editor.debugMessages(page, `debug-${index}`)).length} debug message(s)`,
          );
        }
      }
      await page.click('#red-ui-tab-debug-link-button').catch(() => undefined);
      await page.screenshot({ path: `${editor.ARTIFACTS}/flow-working.png` });
      should(problems).eql([], 'nodes that did not show a green status and a debug message');
      // A fixed status text arrives as its message id: the editor must show its words.
      const unsaid: string[] = [];
      for (const id of placed.values()) {
        const text = (await editor.nodeStatus(page, id))?.text ?? '';
        if (/@modular-device|\.status\./.test(text)) unsaid.push(`${id}: ${text}`);
      }
      should(unsaid).eql([], 'status texts the editor showed as message ids');
    });
  });

  describe('in German (browser language de-DE)', function () {
    let context: BrowserContext;
    let page: Page;

    before(async function () {
      context = await browser.newContext({ locale: 'de-DE', viewport: { width: 1400, height: 900 } });
      page = await context.newPage();
      await editor.openEditor(page, red.url);
    });

    after(async function () {
      await context?.close();
    });

    it('shows the dialog labels and the help of io-output in German', async function () {
      const id = await editor.dropNode(page, 'io-output', 300, 100);
      await editor.openDialog(page, id);
      // locales/de/io-output.json: label.mode "Modus", label.state "Zustand"
      (await page.locator('label[for="node-input-mode"]').innerText()).trim().should.equal('Modus');
      (await page.locator('label[for="node-input-state"]').innerText()).trim().should.equal('Zustand');
      // The help sidebar of the node: locales/de/io-output.html.
      await page.evaluate(() => RED.sidebar.help.show('io-output'));
      const help = page.locator('.red-ui-help:visible', { hasText: 'Setzt einen Pin eines io-Moduls' });
      await help.first().waitFor({ state: 'visible', timeout: 10000 });
      (await help.first().innerText()).should.match(/Eingangsdaten/, 'German help sections');
      await editor.screenshotTray(page, 'io-output-de');
      await page.screenshot({ path: `${editor.ARTIFACTS}/io-output-de-help.png` });
    });
  });
});
