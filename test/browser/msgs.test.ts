/**
 * Issue 17, items 4 to 6, as a user sees them in the editor (headless Chromium, a real
 * Node-RED 4.1 with the npm-packed package, the simulator): a msg refused before anything
 * was sent reaches Catch as `InvalidInputError: <the limit's sentence>`, the field named as
 * the dialog labels it with the wire name in brackets; without a Catch node the debug
 * sidebar shows the error's cause as text, not `[object Object]`. Runtime texts are in the
 * runtime's language, so each language gets its own Node-RED (LANG), the browser asking
 * for the same one. Screenshots go to test-artifacts/.
 */
import should from 'should';
import type { Browser, Page } from 'playwright-core';
import { startSimulator, Simulator } from '../../simulator';
import { launchChromium } from '../helpers/browser/chromium';
import { NodeRedServer, startNodeRed } from '../helpers/browser/node-red-server';
import * as editor from '../helpers/browser/editor';

declare const RED: any;
declare const $: any;
declare const window: any;

interface Language {
  /** Node-RED's runtime language (LANG of its process) and the browser's locale. */
  env: string;
  locale: string;
  /** What Catch shows for pin 7 sent to an io-output node. */
  catchText: string;
}

const LANGUAGES: Language[] = [
  { env: 'en_US.UTF-8', locale: 'en-US', catchText: 'InvalidInputError: Pin (pin) must be an integer from 1 to 6, got 7' },
  { env: 'de_DE.UTF-8', locale: 'de-DE', catchText: 'InvalidInputError: Pin (pin) muss eine ganze Zahl von 1 bis 6 sein, erhalten: 7' },
];

/** Two tabs: one with a Catch node, one without (the error goes to the debug sidebar as such). */
function flow(url: string): Array<Record<string, unknown>> {
  const device = {
    id: 'msgs-io',
    type: 'modular-device',
    name: 'io slot 2',
    url,
    service: 'io',
    slot: '2',
    apiVersion: 'auto',
    timeout: '5000',
    queueLimit: '100',
    auth: 'none',
    tls: '',
  };
  const refused = (z: string, suffix: string) => [
    {
      id: `inject-${suffix}`,
      z,
      type: 'inject',
      name: 'pin 7',
      props: [{ p: 'payload' }],
      payload: '{"pin":7,"state":"high"}',
      payloadType: 'json',
      repeat: '',
      once: false,
      x: 140,
      y: 80,
      wires: [[`out-${suffix}`]],
    },
    { id: `out-${suffix}`, z, type: 'io-output', name: '', device: 'msgs-io', pin: '1', mode: 'state', state: 'high', x: 360, y: 80, wires: [[]] },
  ];
  return [
    { id: 'tab-catch', type: 'tab', label: 'refused, caught' },
    { id: 'tab-uncaught', type: 'tab', label: 'refused, uncaught' },
    device,
    ...refused('tab-catch', 'c'),
    { id: 'catch', z: 'tab-catch', type: 'catch', name: '', scope: null, uncaught: false, x: 140, y: 180, wires: [['caught']] },
    {
      id: 'caught',
      z: 'tab-catch',
      type: 'debug',
      name: 'caught',
      active: true,
      tosidebar: true,
      complete: 'error',
      targetType: 'msg',
      x: 380,
      y: 180,
      wires: [],
    },
    ...refused('tab-uncaught', 'u'),
  ];
}

async function deployFlow(page: Page, url: string): Promise<void> {
  await page.evaluate((nodes) => {
    RED.view.importNodes(nodes, { generateIds: false, addFlow: false });
    RED.view.select({ nodes: [] });
  }, flow(url));
  await editor.deploy(page);
}

/** The debug sidebar's entries as text, newest last. */
function sidebarText(page: Page): Promise<string> {
  return page.evaluate(() =>
    $('.red-ui-debug-content .red-ui-debug-msg')
      .toArray()
      .map((e: any) => $(e).text())
      .join('\n'),
  );
}

describe('runtime messages in the editor (Node-RED 4.1, npm-packed package, headless Chromium)', function () {
  this.timeout(180000);
  let sim: Simulator;
  let browser: Browser;

  before(async function () {
    sim = await startSimulator({ host: '127.0.0.1', port: 0 });
    browser = await launchChromium();
  });

  after(async function () {
    await browser?.close();
    await sim?.close();
  });

  for (const language of LANGUAGES) {
    describe(`in ${language.locale}`, function () {
      let red: NodeRedServer;
      let page: Page;

      before(async function () {
        const saved = process.env.LANG;
        process.env.LANG = language.env;
        try {
          red = await startNodeRed();
        } finally {
          if (saved === undefined) delete process.env.LANG;
          else process.env.LANG = saved;
        }
        const context = await browser.newContext({ locale: language.locale, viewport: { width: 1400, height: 900 } });
        page = await context.newPage();
        await editor.openEditor(page, red.url);
        await deployFlow(page, sim.url);
      });

      after(async function () {
        await page?.context().close();
        await red?.stop();
      });

      it('a refused msg reaches Catch as InvalidInputError with the limit’s sentence, the field as the dialog names it', async function () {
        await page.evaluate(() => RED.workspaces.show('tab-catch'));
        await editor.clickInject(page, 'inject-c');
        await page.waitForFunction(() => (window as any).__debug.some((m: any) => m.id === 'caught'), undefined, { timeout: 15000 });
        const [shown] = await editor.debugMessages(page, 'caught');
        const error = JSON.parse(shown.msg);
        should(error.message).equal(language.catchText);
        should(error.cause.code).equal('INVALID_INPUT');
        await page.click('#red-ui-tab-debug-link-button').catch(() => undefined);
        await page.screenshot({ path: `${editor.ARTIFACTS}/msgs-catch-${language.locale}.png` });
      });

      it('without a Catch node, the debug sidebar shows the cause as text', async function () {
        await page.evaluate(() => RED.workspaces.show('tab-uncaught'));
        await editor.clickInject(page, 'inject-u');
        await page.waitForFunction(() => (window as any).__debug.some((m: any) => m.id === 'out-u' && m.format === 'error'), undefined, { timeout: 15000 });
        const logged = (await editor.debugMessages(page, 'out-u')).map((m) => JSON.parse(m.msg).data);
        should(logged[0].name).equal('InvalidInputError');
        should(logged[0].cause).equal('INVALID_INPUT');
        await page.waitForFunction(() => $('.red-ui-debug-content .red-ui-debug-msg').length >= 2, undefined, { timeout: 10000 });
        const text = await sidebarText(page);
        should(text).not.containEql('[object Object]');
        await page.screenshot({ path: `${editor.ARTIFACTS}/msgs-uncaught-${language.locale}.png` });
      });
    });
  }
});
