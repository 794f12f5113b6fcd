/**
 * The device sidebar (an editor plugin) on every Node-RED the package declares, not only on
 * the 4.1 devDependency: 3.1 (the declared minimum) and 5.0 (on Node 22, its minimum) from
 * scripts/runtimes.js, and 4.1 for the same picture. For each, in headless Chromium at 1280 px
 * wide against the npm-packed package, the simulator on loopback and, as `npm start` has it,
 * FlowFuse Dashboard 2.0 (whose pinned tab competes for the sidebar's buttons):
 *  - the tab has one name, "Device" / "Gerät", as its label (whole, not cut off), in the tab
 *    menu, in the View menu and (5.0) on its panel and button, in English and German;
 *  - one click on its button opens it (3.1 and 4.1: a button of the sidebar, not an entry of
 *    its drop-down menu; 5.0: a button of the tab bar, not hidden in its overflow menu);
 *  - the io module's pins show values, and a pin changed in the simulator shows up;
 *  - a second notification-poll on the module brings the two-polls finding.
 * Screenshots: test-artifacts/sidebar-<version>.png, sidebar-tab-<version>-<locale>.png. The
 * runtimes are installed before the browser step starts (scripts/test.js), so no install runs
 * inside a test's time. Every wait is for a condition, bounded; nothing is timed.
 */
import fs from 'fs';
import path from 'path';
import type { Browser, Page } from 'playwright-core';
import { startSimulator, Simulator } from '../../simulator';
import { httpJson } from '../helpers/sim-control';
import { launchChromium } from '../helpers/browser/chromium';
import { NodeRedServer, Runtime, startNodeRed } from '../helpers/browser/node-red-server';
import { sidebarFlow } from '../helpers/browser/sidebar-flow';
import * as editor from '../helpers/browser/editor';

declare const $: any;

const runtimes = require(path.resolve(__dirname, '..', '..', '..', 'scripts', 'runtimes.js'));

/** Long enough for the runtime's low read rate and a slow shared machine; conditions, not delays. */
const SEEN = { timeout: 60000 };

const card = (config: string) => `.md-live-module[data-config="${config}"]`;
const pinValue = (config: string, n: number) => `${card(config)} .md-live-pin[data-pin="${n}"] .md-live-pin-value`;

/** The tab's one name, per editor language. */
const NAME: Record<string, string> = { 'en-US': 'Device', 'de-DE': 'Gerät' };
/** The dashboard npm start runs beside the package (a devDependency). */
const DASHBOARD = '@flowfuse/node-red-dashboard';
/** The editor's width the tab must be one click away at. */
const VIEWPORT = { width: 1280, height: 900 };

/**
 * How a version shows a sidebar tab. 3.1 and 4.1: a row of buttons (the drop-down menu takes
 * those that do not fit) and the open tab with its label. 5.0: a tab bar of buttons named by
 * their aria-label (an overflow menu takes them all when it does not fit) and a panel whose
 * banner says the name.
 */
interface Look {
  button: string;
  /** The info tab's button: clicked first when ours is open already (5.0 folds an open tab away on a click). */
  info: string;
  /** Where the open tab shows its name: a selector whose text (or `attribute`) is the name. */
  names: Array<{ selector: string; attribute?: string }>;
  /** 3.1, 4.1: the button of the drop-down menu listing every tab, and our entry in it. */
  menu?: { button: string; entry: string };
  /** 5.0 shows the debug tab in a section below ours: its button folds that section away for the picture. */
  sharedWith?: string;
}
const TABS: Look = {
  button: '#red-ui-tab-modular-device-link-button',
  info: '#red-ui-tab-info-link-button',
  names: [{ selector: '#red-ui-tab-modular-device .red-ui-tab-label' }],
  menu: { button: '#red-ui-sidebar .red-ui-tab-link-button-menu', entry: '#red-ui-tabs-menu-option-modular-device' },
};
const PANELS: Look = {
  button: 'button[data-tab-id="modular-device"]',
  info: 'button[data-tab-id="info"]',
  names: [
    { selector: 'button[data-tab-id="modular-device"]', attribute: 'aria-label' },
    // The banner of the panel our content is in (5.0 writes it in capitals by CSS: the text is the name).
    { selector: '.red-ui-sidebar-section:has(.md-live) .red-ui-sidebar-banner-label' },
  ],
  sharedWith: 'button[data-tab-id="debug"]',
};

interface Version {
  series: string;
  locale: string;
  tab: Look;
  runtime: () => Runtime;
}

const VERSIONS: Version[] = [
  { series: '3.1', locale: 'de-DE', tab: TABS, runtime: () => ({ dir: runtimes.nodeRed('3.1').dir }) },
  { series: '4.1', locale: 'en-US', tab: TABS, runtime: () => ({}) },
  { series: '5.0', locale: 'de-DE', tab: PANELS, runtime: () => ({ dir: runtimes.nodeRed('5.0').dir, node: runtimes.node22().bin }) },
];

/** Opens the tab with one click on its button, which must be on screen to be clicked. */
async function openSidebarTab(page: Page, tab: Look): Promise<void> {
  const button = page.locator(tab.button).first();
  await button.waitFor({ state: 'visible', ...SEEN });
  // The editor remembers the last tab shown (per user, so across browser contexts): show another first.
  if (await page.locator('.md-live').isVisible()) {
    await page.locator(tab.info).first().click();
    await page.locator('.md-live').waitFor({ state: 'hidden', ...SEEN });
  }
  await button.click();
  await page.locator('.md-live').waitFor({ state: 'visible', ...SEEN });
}

/** Every place of the editor that names the open tab, as said there. */
async function namesShown(page: Page, tab: Look): Promise<string[]> {
  const said: string[] = [];
  for (const { selector, attribute } of tab.names) {
    const shown = page.locator(selector).first();
    said.push(((attribute ? await shown.getAttribute(attribute) : await shown.textContent()) ?? '').trim());
  }
  if (tab.menu) {
    await page.locator(tab.menu.button).click();
    const entry = page.locator(tab.menu.entry);
    await entry.waitFor({ state: 'visible', ...SEEN });
    said.push((await entry.textContent())!.trim());
    await page.locator(tab.menu.button).click();
    await entry.waitFor({ state: 'hidden', ...SEEN });
  }
  // The View menu lists every sidebar tab by its name (built even while the menu is closed).
  said.push(await page.evaluate(() => $('#menu-item-view-menu-modular-device').text().trim()));
  return said;
}

/** Waits until the pin's value reads `expected`; says what it showed instead. */
async function waitForPinValue(page: Page, config: string, n: number, expected: string): Promise<void> {
  const s = pinValue(config, n);
  await page
    .waitForFunction(({ s, e }) => (globalThis as any).document.querySelector(s)?.textContent.trim() === e, { s, e: expected }, SEEN)
    .catch(async () => {
      const shown = await page
        .locator(s)
        .textContent()
        .catch(() => null);
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

  VERSIONS.forEach(({ series, locale, tab, runtime }, index) => {
    describe(`Node-RED ${series} (${locale})`, function () {
      let sim: Simulator;
      let red: NodeRedServer;
      let page: Page;

      before(async function () {
        sim = await startSimulator({ host: '127.0.0.1', port: 0 });
        // With the dashboard, as npm start runs it: its pinned tab takes a button of the sidebar too.
        red = await startNodeRed([DASHBOARD], runtime());
        const deployed = await httpJson('POST', `${red.url}flows`, flow.nodes(sim.url), { 'Node-RED-Deployment-Type': 'full' });
        if (deployed.status !== 200 && deployed.status !== 204) throw new Error(`deploy: ${deployed.status} ${deployed.text}`);
        // 1280 px wide; tall, so the picture shows the whole panel.
        page = await (await browser.newContext({ locale, viewport: { width: VIEWPORT.width, height: 1400 } })).newPage();
        await editor.openEditor(page, red.url);
      });

      after(async function () {
        await page?.context().close();
        await red?.stop();
        await sim?.close();
      });

      it(`opens the "${NAME[locale]}" tab in one click and shows the io module's pins and their values`, async function () {
        await openSidebarTab(page, tab);
        await page.locator(`${card(flow.io)} .md-live-pin[data-pin="6"]`).waitFor({ state: 'visible', ...SEEN });
        (await page.locator(`${card(flow.io)} .md-live-pin`).count()).should.equal(6);
        await page.locator(`${card(flow.io)} .md-live-dot[data-state="connected"]`).waitFor({ state: 'visible', ...SEEN });
        // Once the first read is in, every pin shows a value ('–' until then).
        const values = `${card(flow.io)} .md-live-pin-value`;
        await page
          .waitForFunction(
            (s) => [...(globalThis as any).document.querySelectorAll(s)].every((e: any) => !['', '–'].includes(e.textContent.trim())),
            values,
            SEEN,
          )
          .catch(async () => {
            throw new Error(`pins show ${JSON.stringify(await page.locator(values).allTextContents())}`);
          });
      });

      it('names the tab one way everywhere, in English and German, and opens it in one click at 1280 px', async function () {
        for (const language of Object.keys(NAME)) {
          const context = await browser.newContext({ locale: language, viewport: VIEWPORT });
          try {
            const other = await context.newPage();
            await editor.openEditor(other, red.url);
            await openSidebarTab(other, tab);
            const names = await namesShown(other, tab);
            const clipped = await other.evaluate(
              (s) =>
                $(s)
                  .toArray()
                  .filter((e: any) => e.scrollWidth > e.clientWidth).length,
              tab.names.map((n) => n.selector).join(', '),
            );
            clipped.should.equal(0, `${series} in ${language}: the name is cut off`);
            names.should.eql(
              names.map(() => NAME[language]),
              `${series} in ${language}: ${JSON.stringify(names)}`,
            );
            await other.screenshot({ path: path.join(editor.ARTIFACTS, `sidebar-tab-${series}-${language}.png`) });
          } finally {
            await context.close();
          }
        }
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
          await page
            .locator('#red-ui-sidebar .red-ui-debug-content')
            .first()
            .waitFor({ state: 'hidden', ...SEEN });
        }
        await page.evaluate(() => (globalThis as any).document.querySelector('.md-live').scrollTo(0, 0));
        await page.locator('#red-ui-sidebar').screenshot({ path: path.join(editor.ARTIFACTS, `sidebar-${series}.png`) });
      });
    });
  });
});
