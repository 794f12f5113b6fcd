/**
 * The device sidebar (an editor plugin) on every Node-RED the package declares, not only on
 * the 4.1 devDependency: 3.1 (the declared minimum) and 5.0 (on Node 22, its minimum) from
 * scripts/runtimes.js, and 4.1 for the same picture. For each, in headless Chromium against
 * the npm-packed package and the simulator on loopback, in one language each:
 *  - the tab is there with its label from the plugin's catalogue;
 *  - the io module's pins show values, and a pin changed in the simulator shows up;
 *  - a second notification-poll on the module brings the two-polls finding.
 * Screenshots: test-artifacts/sidebar-<version>.png. The runtimes are installed before the
 * browser step starts (scripts/test.js), so no install runs inside a test's time.
 * Every wait is for a condition, bounded; nothing is timed.
 */
import fs from 'fs';
import path from 'path';
import type { Browser, Page } from 'playwright-core';
import { startSimulator, Simulator } from '../../simulator';
import { httpJson } from '../helpers/sim-control';
import { launchChromium } from './chromium';
import { NodeRedServer, Runtime, startNodeRed } from './node-red-server';
import { sidebarFlow } from './sidebar-flow';
import * as editor from './editor';

declare const RED: any;

// eslint-disable-next-line @typescript-eslint/no-var-requires
const runtimes = require(path.resolve(__dirname, '..', '..', '..', 'scripts', 'runtimes.js'));

/** Long enough for the runtime's low read rate and a slow shared machine; conditions, not delays. */
const SEEN = { timeout: 60000 };

const card = (config: string) => `.md-live-module[data-config="${config}"]`;
const pinValue = (config: string, n: number) => `${card(config)} .md-live-pin[data-pin="${n}"] .md-live-pin-value`;

/** How a version shows a sidebar tab: 3.1 and 4.1 a tab with its label; 5.0 an icon button named by its aria-label (the tab's `name`). */
const TAB_WITH_LABEL = { button: '#red-ui-tab-modular-device a', text: '#red-ui-tab-modular-device .red-ui-tab-label', attribute: undefined, sharedWith: undefined };
/** 5.0 shows the debug tab in a section below ours: its button folds that section away for the picture. */
const ICON_BUTTON = { button: 'button[data-tab-id="modular-device"]', text: 'button[data-tab-id="modular-device"]', attribute: 'aria-label', sharedWith: 'button[data-tab-id="debug"]' };

interface Version {
  series: string;
  locale: string;
  tab: typeof TAB_WITH_LABEL | typeof ICON_BUTTON;
  /** What the tab says in `locale`: its label, or (5.0) its name. */
  says: string;
  runtime: () => Runtime;
}

const VERSIONS: Version[] = [
  { series: '3.1', locale: 'de-DE', tab: TAB_WITH_LABEL, says: 'Gerät', runtime: () => ({ dir: runtimes.nodeRed('3.1').dir }) },
  { series: '4.1', locale: 'en-US', tab: TAB_WITH_LABEL, says: 'Device', runtime: () => ({}) },
  { series: '5.0', locale: 'de-DE', tab: ICON_BUTTON, says: 'Modulares Gerät', runtime: () => ({ dir: runtimes.nodeRed('5.0').dir, node: runtimes.node22().bin }) },
];

async function openSidebarTab(page: Page, tab: Version['tab']): Promise<string> {
  const button = page.locator(tab.button).first();
  await button.waitFor({ state: 'attached', ...SEEN });
  // A narrow sidebar lists some tabs in its menu only: then open the tab as the menu does.
  if (await button.isVisible()) await button.click();
  else await page.evaluate(() => RED.sidebar.show('modular-device'));
  await page.locator('.md-live').waitFor({ state: 'visible', ...SEEN });
  const shows = page.locator(tab.text).first();
  return (tab.attribute ? await shows.getAttribute(tab.attribute) : await shows.textContent()) ?? '';
}

/** Waits until the pin's value reads `expected`; says what it showed instead. */
async function waitForPinValue(page: Page, config: string, n: number, expected: string): Promise<void> {
  const s = pinValue(config, n);
  await page.waitForFunction(({ s, e }) => (globalThis as any).document.querySelector(s)?.textContent.trim() === e, { s, e: expected }, SEEN).catch(async () => {
    const shown = await page.locator(s).textContent().catch(() => null);
    throw new Error(`pin ${n} of ${config} shows ${JSON.stringify(shown)}, expected ${expected}`);
  });
}

describe('device sidebar on Node-RED 3.1, 4.1 and 5.0 (npm-packed package, simulator, headless Chromium)', function () {
  this.timeout(180000);
  let browser: Browser;
  const flow = sidebarFlow();

  before(async function () {
    browser = await launchChromium();
    fs.mkdirSync(editor.ARTIFACTS, { recursive: true });
  });
  after(() => browser?.close());

  VERSIONS.forEach(({ series, locale, tab, says, runtime }, index) => {
    describe(`Node-RED ${series} (${locale})`, function () {
      let sim: Simulator;
      let red: NodeRedServer;
      let page: Page;

      before(async function () {
        sim = await startSimulator({ host: '127.0.0.1', port: 0 });
        red = await startNodeRed([], runtime());
        const deployed = await httpJson('POST', `${red.url}flows`, flow.nodes(sim.url), { 'Node-RED-Deployment-Type': 'full' });
        if (deployed.status !== 200 && deployed.status !== 204) throw new Error(`deploy: ${deployed.status} ${deployed.text}`);
        page = await (await browser.newContext({ locale, viewport: { width: 1600, height: 1400 } })).newPage();
        await editor.openEditor(page, red.url);
      });

      after(async function () {
        await page?.context().close();
        await red?.stop();
        await sim?.close();
      });

      it(`shows the "${says}" tab with the io module's pins and their values`, async function () {
        (await openSidebarTab(page, tab)).trim().should.equal(says);
        await page.locator(`${card(flow.io)} .md-live-pin[data-pin="6"]`).waitFor({ state: 'visible', ...SEEN });
        (await page.locator(`${card(flow.io)} .md-live-pin`).count()).should.equal(6);
        await page.locator(`${card(flow.io)} .md-live-dot[data-state="connected"]`).waitFor({ state: 'visible', ...SEEN });
        // Once the first read is in, every pin shows a value ('–' until then).
        const values = `${card(flow.io)} .md-live-pin-value`;
        await page
          .waitForFunction((s) => [...(globalThis as any).document.querySelectorAll(s)].every((e: any) => !['', '–'].includes(e.textContent.trim())), values, SEEN)
          .catch(async () => {
            throw new Error(`pins show ${JSON.stringify(await page.locator(values).allTextContents())}`);
          });
      });

      it('follows a pin changed in the simulator', async function () {
        const mV = 2000 + index * 111;
        await httpJson('POST', `${sim.url}/sim/io/${flow.ioSlot}/pins/3`, { voltage_mV: mV });
        await waitForPinValue(page, flow.io, 3, `${mV} mV`);
      });

      it('lists the two-polls finding when a second notification-poll is added', async function () {
        const finding = page.locator('.md-live-finding[data-kind="two-polls"][data-where="edited"]');
        (await finding.count()).should.equal(0, 'no finding on the deployed flow');
        const second = `${flow.poll}-second`;
        await editor.importNodes(page, [flow.secondPoll(second)]);
        await finding.first().waitFor({ state: 'visible', ...SEEN });
        (await finding.first().locator('.md-live-finding-text').textContent())!.should.not.match(/finding\./, 'said from the catalogue');
        (await finding.first().locator(`.md-live-node-link[data-node="${second}"]`).count()).should.equal(1);
        if (tab.sharedWith) {
          await page.locator(tab.sharedWith).click();
          await page.locator('#red-ui-sidebar .red-ui-debug-content').first().waitFor({ state: 'hidden', ...SEEN });
        }
        await page.evaluate(() => (globalThis as any).document.querySelector('.md-live').scrollTo(0, 0));
        await page.locator('#red-ui-sidebar').screenshot({ path: path.join(editor.ARTIFACTS, `sidebar-${series}.png`) });
      });
    });
  });
});
