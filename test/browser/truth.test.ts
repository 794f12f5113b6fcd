/**
 * The editor tells the truth, in headless Chromium against a real Node-RED 4.1 with
 * the npm-packed package and two simulators (API 0.9 and 1.0), in English and German:
 *  - the Device sidebar names each pin's mode as the simulator's own state has it: the output
 *    and the PWM the flows drive from the flows (level; frequency and duty), the digital input
 *    from the device; on both APIs; the power budget as information only;
 *  - each conflict (two polls, two keep-alives, two thresholds on one pin, an output without
 *    power) is a deployed finding linked to both nodes, a yellow status naming the other node,
 *    and a warning in the node's dialog naming it;
 *  - a watchdog with its keep-alive on and confirm off gets the red triangle, in the words
 *    the runtime refuses it with.
 * Screenshots: test-artifacts/truth-*.png. Every wait is for a condition, bounded.
 */
import path from 'path';
import 'should';
import type { Page } from 'playwright-core';
import { startSimulator, Simulator } from '../../simulator';
import { httpJson, SimHarness } from '../helpers/sim-control';
import { catalogsReady, inLanguage } from '../helpers/i18n';
import { editorPage, nodeRedAndChromium } from '../helpers/browser/editor-suite';
import { DIMMER, truthFlow } from '../helpers/browser/truth-flow';
import * as editor from '../helpers/browser/editor';

declare const RED: any;
declare const document: any;

const SEEN = { timeout: 60000 };
const flow = truthFlow();
const card = (config: string) => `.md-live-module[data-config="${config}"]`;
const pinRow = (config: string, n: number) => `${card(config)} .md-live-pin[data-pin="${n}"]`;
const PKG = '@modular-device/node-red';

/** A pin's mode word (without its source mark), its source and its value, as the sidebar shows them. */
function pinShown(page: Page, config: string, n: number): Promise<{ mode: string; source: string; value: string }> {
  return page.evaluate(
    (s) => {
      const row = document.querySelector(s);
      const mode = row?.querySelector('.md-live-pin-mode');
      return {
        mode: mode?.firstChild?.textContent ?? '',
        source: mode?.getAttribute('data-source') ?? '',
        value: row?.querySelector('.md-live-pin-value')?.textContent ?? '',
      };
    },
    pinRow(config, n),
  );
}

async function showDeviceTab(page: Page): Promise<void> {
  const tab = page.locator('#red-ui-tab-modular-device a').first();
  if (await tab.isVisible()) await tab.click();
  else await page.evaluate(() => RED.sidebar.show('modular-device'));
  await page.locator('.md-live').waitFor({ state: 'visible', timeout: 10000 });
}

async function shotSidebar(page: Page, scrollTo: string, name: string): Promise<void> {
  // The panel redraws on every snapshot: scrolled in one step, by the selector, not a held element.
  await page.evaluate((s) => document.querySelector(s)?.scrollIntoView({ block: 'start' }), scrollTo);
  await page.locator('#red-ui-sidebar').screenshot({ path: path.join(editor.ARTIFACTS, `truth-${name}.png`) });
}

const LANGUAGES = [
  { locale: 'en-US', lang: 'en-US', output: 'output', pwm: 'PWM', digital: 'digital', high: 'HIGH', flows: 'flows', device: 'device' },
  { locale: 'de-DE', lang: 'de', output: 'Ausgang', pwm: 'PWM', digital: 'digital', high: 'HIGH', flows: 'Flows', device: 'Gerät' },
];

/** Each conflict: the nodes it names, and for each node the other it must name. */
const CONFLICTS = [
  {
    kind: 'two-polls',
    pairs: [
      ['poll-a', 'Mine'],
      ['poll-b', 'Alarms'],
    ],
  },
  {
    kind: 'two-keepalives',
    pairs: [
      ['keep-a', 'Keeper B'],
      ['keep-b', 'Keeper A'],
    ],
  },
  {
    kind: 'pin-conflict',
    pairs: [
      ['thr-low', 'High'],
      ['thr-high', 'Low'],
    ],
  },
  { kind: 'no-power-config', pairs: [['orphan', '']] },
];

describe('the editor tells the truth: pin modes, conflicts, refused settings (Node-RED 4.1, simulators on API 0.9 and 1.0, headless Chromium)', function () {
  this.timeout(240000);
  const running = nodeRedAndChromium();
  let sim09: Simulator;
  let sim10: Simulator;

  before(async function () {
    await catalogsReady;
    sim09 = await startSimulator({ host: '127.0.0.1', port: 0 });
    sim10 = await startSimulator({ host: '127.0.0.1', port: 0, api: '1.0' });
    const deployed = await httpJson('POST', `${running.red.url}flows`, flow.nodes(sim09.url, sim10.url), { 'Node-RED-Deployment-Type': 'full' });
    if (deployed.status !== 200 && deployed.status !== 204) throw new Error(`deploy: ${deployed.status} ${deployed.text}`);
    // Fire each output's inject once its module took the power configuration (an output before it is refused).
    for (const [p, sim] of [
      ['t09', sim09],
      ['t10', sim10],
    ] as const) {
      const ctl = new SimHarness(sim);
      const deadline = Date.now() + SEEN.timeout;
      for (const [inject, pin, mode] of [
        [`${p}-i-lamp`, 1, 'output'],
        [`${p}-i-dim`, 2, 'pwm'],
      ] as const) {
        while ((await ctl.pinState(2, pin)).mode !== mode) {
          if (Date.now() > deadline) throw new Error(`${inject}: pin ${pin} never became ${mode}`);
          await httpJson('POST', `${running.red.url}inject/${inject}`);
          await new Promise((r) => setTimeout(r, 300));
        }
      }
    }
  });

  after(async function () {
    await sim09?.close();
    await sim10?.close();
  });

  for (const L of LANGUAGES) {
    describe(`in ${L.locale}`, function () {
      const open = editorPage(running, L.locale, { width: 1600, height: 1400 });

      it("names each pin's mode as the simulator's state has it, and says whether the flows or the device tell it, on both APIs", async function () {
        await showDeviceTab(open.page);
        for (const [config, sim] of [
          [flow.io09, sim09],
          [flow.io10, sim10],
        ] as const) {
          const ctl = new SimHarness(sim);
          await open.page
            .waitForFunction((s) => document.querySelector(s)?.getAttribute('data-source') === 'flows', `${pinRow(config, 2)} .md-live-pin-mode`, SEEN)
            .catch(async () => {
              throw new Error(
                `${config} pin 2 shows ${JSON.stringify(await pinShown(open.page, config, 2))}; the simulator has ${JSON.stringify(await ctl.pinState(2, 2))}`,
              );
            });
          const state = await Promise.all([1, 2, 4].map((n) => ctl.pinState(2, n)));
          state.map((p) => p.mode).should.eql(['output', 'pwm', 'digital']);
          (await pinShown(open.page, config, 1)).should.eql({ mode: L.output, source: 'flows', value: state[0].output === 'high' ? L.high : 'LOW' });
          const pwm = state[1].pwm!;
          pwm.should.match({ prescaler: DIMMER.prescaler, period: DIMMER.period, timeOn: DIMMER.time_on });
          (await pinShown(open.page, config, 2)).should.eql({ mode: L.pwm, source: 'flows', value: '1000 Hz, 25 %' });
          (await pinShown(open.page, config, 4)).should.match({ mode: L.digital, source: 'device' });
          (await open.page.locator(`${pinRow(config, 1)} .md-live-pin-source`).textContent())!.should.equal(L.flows);
          (await open.page.locator(`${pinRow(config, 4)} .md-live-pin-source`).textContent())!.should.equal(L.device);
        }
        // The budget is information: no bar, nothing red, on either API.
        (await open.page.locator(`${card(flow.io09)} .md-live-over, ${card(flow.io10)} .md-live-over, .md-live-bar`).count()).should.equal(0);
        await shotSidebar(open.page, card(flow.io10), `pins-1.0-${L.lang}`);
        await shotSidebar(open.page, card(flow.io09), `pins-0.9-${L.lang}`);
      });

      it('lists each conflict as a deployed finding linked to both nodes', async function () {
        for (const c of CONFLICTS) {
          const finding = open.page.locator(`.md-live-finding[data-kind="${c.kind}"]`).first();
          await finding.waitFor({ state: 'visible', ...SEEN });
          for (const [id] of c.pairs) (await finding.locator(`.md-live-node-link[data-node="${id}"]`).count()).should.equal(1, `${c.kind} links ${id}`);
          (await finding.locator('.md-live-node-link').count()).should.be.aboveOrEqual(2, `${c.kind} links both nodes`);
          (await finding.locator('.md-live-finding-text').textContent())!.should.not.match(/finding\./);
        }
        await open.page.evaluate(() => document.querySelector('.md-live').scrollTo(0, 0));
        await open.page.locator('#red-ui-sidebar').screenshot({ path: path.join(editor.ARTIFACTS, `truth-findings-${L.lang}.png`) });
      });

      it('shows each conflict as a yellow status naming the other node', async function () {
        for (const c of CONFLICTS) {
          for (const [id, other] of c.pairs) {
            await open.page
              .waitForFunction(
                ({ i, o }) => {
                  const s = RED.nodes.node(i)?.status;
                  return s?.fill === 'yellow' && (!o || String(s.text).includes(o));
                },
                { i: id, o: other },
                SEEN,
              )
              .catch(async () => {
                throw new Error(`${id}: status ${JSON.stringify(await editor.nodeStatus(open.page, id))}, expected yellow naming "${other}"`);
              });
          }
        }
        await open.page.evaluate((tab) => RED.workspaces.show(tab), flow.tab);
        await open.page.locator('#red-ui-workspace-chart').screenshot({ path: path.join(editor.ARTIFACTS, `truth-statuses-${L.lang}.png`) });
      });

      it("warns in each conflicting node's dialog, naming the other node", async function () {
        for (const c of CONFLICTS) {
          const [id, other] = c.pairs[0];
          await open.page.evaluate((i) => RED.view.reveal(i, false), id);
          await editor.openDialog(open.page, id);
          const warning = open.page.locator('#md-conflict-warning');
          await warning.waitFor({ state: 'visible', timeout: 10000 });
          const text = (await warning.textContent())!;
          if (other) text.should.containEql(other);
          text.should.not.match(/finding\./);
          await editor.screenshotTray(open.page, `truth-dialog-${c.kind}-${L.lang}`);
          await open.page.click('#node-dialog-cancel');
          await open.page.waitForSelector('#node-dialog-ok', { state: 'detached' });
        }
      });

      it("marks a watchdog with its keep-alive on and confirm off invalid: the red triangle, in the runtime's words", async function () {
        const id = `unconfirmed-${L.lang}`;
        await editor.importNodes(open.page, [
          {
            id,
            type: 'bmc-watchdog',
            name: '',
            device: flow.bmc,
            operation: 'read',
            timeout: '60000',
            swShutdownTimeout: '60000',
            keepAlive: true,
            interval: '3000',
            confirm: false,
            x: 1000,
            y: 420,
            wires: [[]],
          },
        ]);
        const said = inLanguage(L.lang);
        const words = said(`${PKG}/modular-device:modular-device.runtime.common.needsConfirm`, {
          operation: 'keep-alive',
          confirm: said(`${PKG}/bmc-watchdog:bmc-watchdog.label.confirm`),
        });
        words.should.not.match(/needsConfirm/);
        const editorWords = await open.page.evaluate((i) => {
          const node = RED.nodes.node(i);
          return { valid: node.valid, errors: node.validationErrors, said: RED.nodes.getType('bmc-watchdog').defaults.confirm.validate.call(node, false, {}) };
        }, id);
        editorWords.should.match({ valid: false, errors: [words], said: words });
        await open.page.locator(`#red-ui-workspace-chart [id="${id}"] .red-ui-flow-node-error:not(.hide)`).waitFor({ state: 'visible', timeout: 10000 });
        await editor.openDialog(open.page, id);
        await open.page.waitForFunction(() => document.querySelector('#node-input-confirm')?.classList.contains('input-error'), undefined, { timeout: 10000 });
        await editor.screenshotTray(open.page, `truth-unconfirmed-${L.lang}`);
        await open.page.setChecked('#node-input-confirm', true);
        await open.page.waitForFunction(() => !document.querySelector('#node-input-confirm')?.classList.contains('input-error'), undefined, { timeout: 10000 });
        await open.page.click('#node-dialog-cancel');
        await open.page.waitForSelector('#node-dialog-ok', { state: 'detached' });
      });
    });
  }
});
