/**
 * The device sidebar as a user sees it, in headless Chromium against a real
 * Node-RED 4.1 with the npm-packed package and the simulator on loopback, in English and
 * German:
 *  - the "Device" tab opens and shows the io module's six pins, its bmc neighbour too;
 *  - a pin's voltage set in the simulator shows in the sidebar, and again when it changes;
 *  - a click on a pin selects the node that uses it; a node selected in the workspace
 *    highlights its module (and pin);
 *  - a second notification-poll added on the same module brings the two-polls finding
 *    ("in your edits"); deleting it takes the finding away.
 * Screenshots of the sidebar go to test-artifacts/ (sidebar-en-US.png, sidebar-de-DE.png).
 * Every wait is for a condition, bounded; nothing is timed.
 */
import fs from 'fs';
import path from 'path';
import should from 'should';
import type { Browser, Page } from 'playwright-core';
import { startSimulator, Simulator } from '../../simulator';
import { httpJson } from '../helpers/sim-control';
import { launchChromium } from '../helpers/browser/chromium';
import { NodeRedServer, startNodeRed } from '../helpers/browser/node-red-server';
import { sidebarFlow } from '../helpers/browser/sidebar-flow';
import * as editor from '../helpers/browser/editor';

declare const RED: any;

/** Long enough for the runtime's low read rate and a slow shared machine; conditions, not delays. */
const SEEN = { timeout: 60000 };

const card = (config: string) => `.md-live-module[data-config="${config}"]`;
const pin = (config: string, n: number) => `${card(config)} .md-live-pin[data-pin="${n}"]`;

async function openSidebarTab(page: Page): Promise<void> {
  const tab = page.locator('#red-ui-tab-modular-device a').first();
  // A narrow sidebar lists some tabs in its menu only: then open the tab as the menu does.
  if (await tab.isVisible()) await tab.click();
  else await page.evaluate(() => RED.sidebar.show('modular-device'));
  await page.locator('.md-live').waitFor({ state: 'visible', timeout: 10000 });
}

/** The sidebar's text of one pin's value, once it shows `expected`. */
async function waitForPinValue(page: Page, config: string, n: number, expected: string): Promise<void> {
  await page
    .waitForFunction(
      ({ s, e }) => (globalThis as any).document.querySelector(s)?.textContent.trim() === e,
      { s: `${pin(config, n)} .md-live-pin-value`, e: expected },
      SEEN,
    )
    .catch(async () => {
      const shown = await page
        .locator(`${pin(config, n)} .md-live-pin-value`)
        .textContent()
        .catch(() => null);
      throw new Error(`pin ${n} of ${config} shows ${JSON.stringify(shown)}, expected ${expected}`);
    });
}

function selectedIds(page: Page): Promise<string[]> {
  return page.evaluate(
    () =>
      RED.view
        .selection()
        .nodes?.map((n: any) => n.id)
        .sort() ?? [],
  );
}

async function clickCanvasNode(page: Page, id: string): Promise<void> {
  await page.evaluate((i) => RED.view.reveal(i, false), id);
  await page.locator(`#red-ui-workspace-chart [id="${id}"] rect.red-ui-flow-node`).click();
}

/** The editor in a fresh browser context whose language is `locale` (Node-RED follows the browser's). */
async function editorIn(browser: Browser, url: string, locale: string): Promise<Page> {
  const page = await (await browser.newContext({ locale, viewport: { width: 1600, height: 1400 } })).newPage();
  await editor.openEditor(page, url);
  return page;
}

const LANGUAGES = [
  { locale: 'en-US', tab: 'Device', edited: 'In your edits' },
  { locale: 'de-DE', tab: 'Gerät', edited: 'In Ihren Änderungen' },
];

describe('device sidebar (Node-RED 4.1, npm-packed package, simulator, headless Chromium)', function () {
  this.timeout(180000);
  let sim: Simulator;
  let red: NodeRedServer;
  let browser: Browser;
  const flow = sidebarFlow();

  before(async function () {
    sim = await startSimulator({ host: '127.0.0.1', port: 0 });
    red = await startNodeRed();
    const deployed = await httpJson('POST', `${red.url}flows`, flow.nodes(sim.url), { 'Node-RED-Deployment-Type': 'full' });
    if (deployed.status !== 200 && deployed.status !== 204) throw new Error(`deploy: ${deployed.status} ${deployed.text}`);
    browser = await launchChromium();
    fs.mkdirSync(editor.ARTIFACTS, { recursive: true });
  });

  after(async function () {
    await browser?.close();
    await red?.stop();
    await sim?.close();
  });

  LANGUAGES.forEach(({ locale, tab, edited }, index) => {
    describe(`in ${locale}`, function () {
      let page: Page;

      before(async function () {
        page = await editorIn(browser, red.url, locale);
      });
      after(() => page?.context().close());

      it("opens the Device tab and shows the io module's six pins", async function () {
        await openSidebarTab(page);
        (await page.locator('#red-ui-tab-modular-device .red-ui-tab-label').textContent())!.should.containEql(tab);
        await page.locator(`${pin(flow.io, 6)}`).waitFor({ state: 'visible', ...SEEN });
        (await page.locator(`${card(flow.io)} .md-live-pin`).count()).should.equal(6);
        await page.locator(card(flow.bmc)).waitFor({ state: 'visible', ...SEEN });
        await page.locator(`${card(flow.io)} .md-live-dot[data-state="connected"]`).waitFor({ state: 'visible', ...SEEN });
      });

      it("follows a pin's voltage as the simulator changes it", async function () {
        const base = 1000 + index * 100;
        await httpJson('POST', `${sim.url}/sim/io/${flow.ioSlot}/pins/3`, { voltage_mV: base + 234 });
        await waitForPinValue(page, flow.io, 3, `${base + 234} mV`);
        await httpJson('POST', `${sim.url}/sim/io/${flow.ioSlot}/pins/3`, { voltage_mV: base + 567 });
        await waitForPinValue(page, flow.io, 3, `${base + 567} mV`);
      });

      it('selects the node that uses a pin when the pin is clicked', async function () {
        await page.locator(pin(flow.io, 3)).click();
        await page
          .waitForFunction(
            (want) =>
              JSON.stringify(
                RED.view
                  .selection()
                  .nodes?.map((n: any) => n.id)
                  .sort() ?? [],
              ) === JSON.stringify(want),
            [flow.input],
            { timeout: 10000 },
          )
          .catch(() => undefined);
        should(await selectedIds(page)).eql([flow.input]);
      });

      it('highlights the module (and pin) of a node selected in the workspace', async function () {
        await clickCanvasNode(page, flow.bmcRead);
        await page.locator(`${card(flow.bmc)}.md-live-selected`).waitFor({ state: 'attached', timeout: 10000 });
        (await page.locator(`${card(flow.io)}.md-live-selected`).count()).should.equal(0);
        await clickCanvasNode(page, flow.input);
        await page.locator(`${card(flow.io)}.md-live-selected`).waitFor({ state: 'attached', timeout: 10000 });
        (await page.locator(`${pin(flow.io, 3)}.md-live-selected`).count()).should.equal(1);
        (await page.locator(`${pin(flow.io, 1)}.md-live-selected`).count()).should.equal(0);
        (await page.locator(`${card(flow.bmc)}.md-live-selected`).count()).should.equal(0);
      });

      it('lists the two-polls finding when a second notification-poll is added, and drops it when deleted', async function () {
        const finding = page.locator('.md-live-finding[data-kind="two-polls"][data-where="edited"]');
        (await finding.count()).should.equal(0, 'no finding on the deployed flow');
        const second = `${flow.poll}-second-${index}`;
        await editor.importNodes(page, [flow.secondPoll(second)]);
        await finding.first().waitFor({ state: 'visible', timeout: 10000 });
        const text = (await finding.first().locator('.md-live-finding-text').textContent())!;
        text.should.not.match(/finding\./, 'said from the catalogue');
        (await page.locator('.md-live-findings-where').first().textContent())!.should.equal(edited);
        (await finding.first().locator(`.md-live-node-link[data-node="${second}"]`).count()).should.equal(1);
        // The picture from the top: the findings, then the modules.
        await page.evaluate(() => (globalThis as any).document.querySelector('.md-live').scrollTo(0, 0));
        await page.locator('#red-ui-sidebar').screenshot({ path: path.join(editor.ARTIFACTS, `sidebar-${locale}.png`) });
        await clickCanvasNode(page, second);
        await page.keyboard.press('Delete');
        await page.waitForFunction((id) => !RED.nodes.node(id), second, { timeout: 10000 });
        await finding.first().waitFor({ state: 'detached', timeout: 10000 });
      });
    });
  });
});
