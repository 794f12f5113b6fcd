/**
 * The device sidebar's live parts no other test covers, in headless Chromium against a real
 * Node-RED 4.1 with the npm-packed package and two simulators on loopback (API 0.9: bmc and
 * power; API 1.0: io):
 *  - the bmc's fields named as a user reads them ("SoC (ntc_0)", "USB port of slot 2", ...);
 *  - the watchdog's timeout_left counted down in the sidebar between snapshots, and re-synced
 *    from the device when it changes there;
 *  - the io power budget on API 1.0: the mW the io-power node's configuration asks per rail,
 *    as information (the limits are the device's budget daemon's, never reported);
 *  - the lease ends when the tab is hidden: after its DELETE the simulators see no more
 *    sidebar reads (beyond one possibly on the wire) while the flows' own reads go on;
 *  - the names and the budget in German.
 * Screenshots go to test-artifacts/sidebar-live-*.png. Every wait is for a condition, bounded;
 * nothing is timed.
 */
import path from 'path';
import should from 'should';
import type { Page } from 'playwright-core';
import { httpJson, SimHarness, startSimulator, Simulator } from '../helpers/sim-control';
import { editorPage, nodeRedAndChromium, Running } from '../helpers/browser/editor-suite';
import { POWER_PINS, sidebarLiveFlow } from '../helpers/browser/sidebar-live-flow';
import * as editor from '../helpers/browser/editor';

declare const RED: any;
declare const document: any;
declare const window: any;

/** Long enough for the runtime's low read rate and a slow shared machine; conditions, not delays. */
const SEEN = { timeout: 60000 };
/** Source reads of the witness after the DELETE: the sidebar's turns of all three modules would have come round several times. */
const WITNESS_READS = 30;
/** What the sidebar reads (nodes/sidebar/runtime/module-reads.ts), as wire paths end; `source` is not among them. */
const SIDEBAR_READ = /\/(input\/values(\/current)?|watchdog|temperature|voltage|usbhub|stats|protectionlog|fan(\/rpm)?)$/;

const flow = sidebarLiveFlow();
const card = (config: string) => `.md-live-module[data-config="${config}"]`;
const field = (config: string, name: string) => `${card(config)} .md-live-row[data-field="${name}"]`;
const label = (config: string, name: string) => `${field(config, name)} .md-live-label`;
const budget = (rail: string) => `${card(flow.io)} .md-live-budget[data-rail="${rail}"]`;
const countdown = `${card(flow.bmc)} .md-live-countdown .md-live-value`;

/** Opens a sidebar tab as a user does (its tab, or the menu's entry when the sidebar is narrow). */
async function showTab(page: Page, id: string): Promise<void> {
  const tab = page.locator(`#red-ui-tab-${id} a`).first();
  if (await tab.isVisible()) await tab.click();
  else await page.evaluate((i) => RED.sidebar.show(i), id);
}

/** Waits until the element's text is `expected`; the failure says what it showed. */
async function waitForText(page: Page, selector: string, expected: string): Promise<void> {
  await page
    .waitForFunction(({ s, e }) => document.querySelector(s)?.textContent.trim() === e, { s: selector, e: expected }, SEEN)
    .catch(async () => {
      const shown = await page
        .locator(selector)
        .first()
        .textContent()
        .catch(() => null);
      throw new Error(`${selector} shows ${JSON.stringify(shown)}, expected ${JSON.stringify(expected)}`);
    });
}

/** Waits for each [selector, text] in turn. */
async function seeTexts(page: Page, texts: Array<[string, string]>): Promise<void> {
  for (const [selector, text] of texts) await waitForText(page, selector, text);
}

/** Asks `done` again every few hundred ms until it holds; fails after SEEN's bound, saying what it waited for. */
async function until(done: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + SEEN.timeout;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`waited ${SEEN.timeout} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The editor in `locale` (editor-suite.ts) with the Device tab open, and the snapshots it receives kept beside the panel's. */
function sidebarIn(running: Running, locale: string): { page: Page } {
  const open = editorPage(running, locale, { width: 1600, height: 1400 });
  before(async function () {
    await open.page.evaluate(() => {
      window.__snapshots = [];
      RED.comms.subscribe('modular-device/live', (_topic: string, s: unknown) => window.__snapshots.push(s));
    });
    await showTab(open.page, 'modular-device');
    await open.page.locator(card(flow.io)).waitFor({ state: 'visible', ...SEEN });
  });
  return open;
}

async function shot(page: Page, config: string, name: string): Promise<void> {
  // In one step inside the page: the cards are redrawn with each snapshot (at most 2/s), so
  // a locator resolved before a redraw can be detached by the time it scrolls.
  await page.locator(card(config)).waitFor();
  await page.evaluate((selector) => document.querySelector(selector)?.scrollIntoView({ block: 'nearest' }), card(config));
  await page.locator('#red-ui-sidebar').screenshot({ path: path.join(editor.ARTIFACTS, `sidebar-live-${name}.png`) });
}

/** The budget per rail as real §3.2 adds it up, written here from the reference, not from the package. */
function expectedUse(): { '5v0': number; '12v': number } {
  let p5 = 0;
  let p12 = 0;
  for (const { rail, current } of POWER_PINS) {
    if (rail === '5_volt') p5 += current * 5 + 200;
    else {
      p5 += 400;
      p12 += current * 12;
    }
  }
  return { '5v0': p5, '12v': p12 };
}

describe('device sidebar, live parts (Node-RED 4.1, simulators on API 0.9 and 1.0, headless Chromium)', function () {
  this.timeout(240000);
  const running = nodeRedAndChromium();
  let sim09: Simulator;
  let sim10: Simulator;

  before(async function () {
    sim09 = await startSimulator({ host: '127.0.0.1', port: 0 });
    sim10 = await startSimulator({ host: '127.0.0.1', port: 0, api: '1.0' });
    const deployed = await httpJson('POST', `${running.red.url}flows`, flow.nodes(sim09.url, sim10.url), { 'Node-RED-Deployment-Type': 'full' });
    if (deployed.status !== 200 && deployed.status !== 204) throw new Error(`deploy: ${deployed.status} ${deployed.text}`);
  });

  after(async function () {
    await sim09?.close();
    await sim10?.close();
  });

  describe('in en-US', function () {
    const open = sidebarIn(running, 'en-US');

    it("names the bmc's and the power module's fields as a user reads them, values with their units", async function () {
      await seeTexts(open.page, [
        [label(flow.bmc, 'ntc_0'), 'SoC (ntc_0)'],
        [label(flow.bmc, 'ntc_1'), 'Ambient (ntc_1)'],
        [label(flow.bmc, 'voltage_1v8'), '1.8 V rail'],
        [label(flow.bmc, 'port_slot_2'), 'USB port of slot 2'],
        [`${field(flow.bmc, 'port_slot_2')} .md-live-value`, 'enabled'],
        [label(flow.power, 'ovp_cnt_3v3'), 'Over voltage, 3.3 V rail'],
      ]);
      (await open.page.locator(`${field(flow.bmc, 'ntc_0')} .md-live-value`).textContent())!.should.match(/^-?\d+(\.\d)? °C$/);
      (await open.page.locator(`${field(flow.bmc, 'voltage_1v8')} .md-live-value`).textContent())!.should.match(/^\d+ mV$/);
      await shot(open.page, flow.power, 'names-en-US');
    });

    it("counts the watchdog's timeout_left down between snapshots and re-syncs it from the device", async function () {
      const arm = (timeout: number) => httpJson('POST', `${sim09.url}/api/bmc/0.9/0/watchdog`, { timeout });
      (await arm(300000)).status.should.equal(200);
      await waitForText(open.page, `${field(flow.bmc, 'timeout')} .md-live-value`, '300.0 s');
      // Below what the latest snapshot said, and that snapshot still the latest: counted here.
      await open.page.waitForFunction(
        ({ s, bmc }) => {
          const last = window.__snapshots[window.__snapshots.length - 1];
          const read = last?.modules.find((m: any) => m.config === bmc)?.bmc?.watchdog;
          const shown = parseFloat(document.querySelector(s)?.textContent ?? '');
          return read?.timeout > 0 && shown < Number((read.timeout_left / 1000).toFixed(1));
        },
        { s: countdown, bmc: flow.bmc },
        SEEN,
      );
      await shot(open.page, flow.bmc, 'watchdog-en-US');
      // Armed again with a longer timeout: the countdown cannot rise by itself, only from a new reading.
      (await arm(600000)).status.should.equal(200);
      await open.page.waitForFunction((s) => parseFloat(document.querySelector(s)?.textContent ?? '') > 300, countdown, SEEN);
      await waitForText(open.page, `${field(flow.bmc, 'timeout')} .md-live-value`, '600.0 s');
      (await arm(0)).status.should.equal(200);
      await waitForText(open.page, `${field(flow.bmc, 'timeout')} .md-live-value`, 'disabled');
      (await open.page.locator(`${card(flow.bmc)} .md-live-countdown`).count()).should.equal(0);
    });

    it('shows what the io power configuration asks of each rail on API 1.0, as information: no limit, no bar, no red', async function () {
      const api = open.page.locator(`${card(flow.io)} .md-live-row`).filter({ has: open.page.locator('.md-live-label', { hasText: /^API$/ }) });
      await api.waitFor({ state: 'visible', ...SEEN });
      (await api.locator('.md-live-value').textContent())!.should.equal('1.0');
      const use = expectedUse();
      for (const rail of ['5v0', '12v'] as const) await waitForText(open.page, `${budget(rail)} .md-live-value`, `${use[rail]} mW asked`);
      (await open.page.locator(`${budget('5v0')} .md-live-label`).textContent())!.should.equal('5 V rail');
      // The limits are the budget daemon's and no answer reports them (real §3.2): nothing judged here.
      (await open.page.locator(`${card(flow.io)} .md-live-note`).textContent())!.should.match(/limits no answer reports/);
      (await open.page.locator(`${card(flow.io)} .md-live-over, ${card(flow.io)} .md-live-bar`).count()).should.equal(0);
      // The device took that configuration (API 1.0 would have denied one its daemon refused).
      const sent = (await new SimHarness(sim10).wireLog()).filter((e) => e.method === 'POST' && e.path.endsWith('/power-management'));
      sent.length.should.be.above(0);
      sent.every((e) => e.status === 200).should.be.true();
      await shot(open.page, flow.io, 'budget-en-US');
    });

    it("stops reading the device once the tab is hidden: after the lease's DELETE, no sidebar read beyond one already on the wire", async function () {
      const ctl09 = new SimHarness(sim09);
      const ctl10 = new SimHarness(sim10);
      const currentReads = async () => (await ctl10.wireLog()).filter((e) => e.path.endsWith('/input/values/current')).length;
      // Reading while shown.
      const before = await currentReads();
      await until(async () => (await currentReads()) > before, 'a read of input/values/current while the tab is shown');
      const deleted = open.page.waitForResponse((r) => r.url().includes('modular-device/live/watch') && r.request().method() === 'DELETE', SEEN);
      await showTab(open.page, 'info');
      (await deleted).ok().should.be.true();
      const mark09 = (await ctl09.wireLog()).reduce((m, e) => Math.max(m, e.seq), 0);
      const mark10 = (await ctl10.wireLog()).reduce((m, e) => Math.max(m, e.seq), 0);
      // The flows go on: the witness reads the power module's source record again and again.
      await until(
        async () => (await ctl09.wireLog(mark09 + 1)).filter((e) => e.path.endsWith('/source')).length >= WITNESS_READS,
        `${WITNESS_READS} witness reads`,
      );
      const after = [...(await ctl09.wireLog(mark09 + 1)), ...(await ctl10.wireLog(mark10 + 1))].filter((e) => SIDEBAR_READ.test(e.path));
      should(after.length).be.belowOrEqual(1, `sidebar reads after the DELETE: ${after.map((e) => e.path).join(', ')}`);
    });
  });

  describe('in de-DE', function () {
    const open = sidebarIn(running, 'de-DE');

    it('names the fields and the budget in German', async function () {
      await seeTexts(open.page, [
        [label(flow.bmc, 'ntc_1'), 'Umgebung (ntc_1)'],
        [label(flow.bmc, 'port_slot_3'), 'USB-Port von Steckplatz 3'],
        [`${field(flow.bmc, 'port_slot_3')} .md-live-value`, 'aktiviert'],
      ]);
      const use = expectedUse();
      await waitForText(open.page, `${budget('12v')} .md-live-value`, `${use['12v']} mW angefragt`);
      (await open.page.locator(`${budget('12v')} .md-live-label`).textContent())!.should.equal('12-V-Schiene');
      await shot(open.page, flow.io, 'budget-de-DE');
    });
  });
});
