/**
 * Node labels say what the node does, and no more: in headless Chromium against a
 * real Node-RED 4.1 with the npm-packed package, in English and German (labels are the same
 * words in both: field values and units):
 *  - an io-output taking its state from msg.payload says so, not "high";
 *  - an invalid value is not repeated as if it were a setting (io-threshold "abc" mV);
 *  - every bmc-watchdog label stays short: placed as the demos place nodes, it never covers
 *    the debug node after it (named as the palette names a new one: "debug 1").
 * Screenshot: test-artifacts/labels-<locale>.png. Nothing is deployed.
 */
import 'should';
import type { Page } from 'playwright-core';
import { editorPage, nodeRedAndChromium } from '../helpers/browser/editor-suite';
import * as editor from '../helpers/browser/editor';

declare const RED: any;
declare const $: any;

/** Centre-to-centre distance of a node and the debug node after it, on Node-RED's 20 px grid. */
const SPACING = 240;
/** A label longer than this crowds the canvas (core nodes keep theirs to about 20 characters). */
const MAX_LABEL = 26;

const WATCHDOG_SETTINGS: Array<Record<string, unknown>> = [];
for (const operation of ['read', 'timeout', 'alive', 'save', 'shutdown', 'sw_shutdown_timeout', 'msg']) {
  for (const keepAlive of [false, true]) {
    for (const confirm of [false, true]) {
      WATCHDOG_SETTINGS.push({ operation, keepAlive, confirm, timeout: '600000', interval: '300000', swShutdownTimeout: '600000' });
    }
  }
}

/** Imports `nodes` onto the canvas and answers each one's label as the editor draws it. */
async function labelsOf(page: Page, nodes: Array<Record<string, unknown>>): Promise<string[]> {
  await editor.importNodes(page, nodes);
  return page.evaluate(
    (ids) => ids.map((i: string) => RED.utils.getNodeLabel(RED.nodes.node(i))),
    nodes.map((n) => n.id as string),
  );
}

function remove(page: Page, ids: string[]): Promise<void> {
  return page.evaluate((all) => {
    all.forEach((i: string) => RED.nodes.remove(i));
    RED.nodes.dirty(true);
    RED.view.redraw(true);
  }, ids);
}

describe('node labels tell the truth and stay short (Node-RED 4.1, npm-packed package, headless Chromium)', function () {
  this.timeout(180000);
  const running = nodeRedAndChromium();

  for (const locale of ['en-US', 'de-DE']) {
    describe(`in ${locale}`, function () {
      const open = editorPage(running, locale);

      it('io-output: "msg.payload" for a state from the msg, the state when typed in, "?" for a typed-in value that cannot be sent', async function () {
        const labels = await labelsOf(open.page, [
          { id: 'lbl-out-msg', type: 'io-output', pin: '1', pinType: 'num', mode: 'state', state: 'payload', stateType: 'msg', x: 200, y: 80, wires: [[]] },
          { id: 'lbl-out-high', type: 'io-output', pin: '1', pinType: 'num', mode: 'state', state: 'high', stateType: 'state', x: 200, y: 140, wires: [[]] },
          { id: 'lbl-out-bad', type: 'io-output', pin: '9', pinType: 'num', mode: 'state', state: 'high', stateType: 'state', x: 200, y: 200, wires: [[]] },
        ]);
        labels.should.eql(['pin 1 msg.payload', 'pin 1 high', 'pin ? high']);
        await remove(open.page, ['lbl-out-msg', 'lbl-out-high', 'lbl-out-bad']);
      });

      it('io-threshold: an invalid threshold is "?", never "abc mV"; a valid one and an env reference as set', async function () {
        const labels = await labelsOf(open.page, [
          { id: 'lbl-thr-bad', type: 'io-threshold', pin: '3', trigger: 'rising', threshold_mV: 'abc', x: 200, y: 80, wires: [[]] },
          { id: 'lbl-thr-ok', type: 'io-threshold', pin: '3', trigger: 'rising', threshold_mV: '3000', x: 200, y: 140, wires: [[]] },
          { id: 'lbl-thr-env', type: 'io-threshold', pin: '3', trigger: 'falling', threshold_mV: '${LEVEL}', x: 200, y: 200, wires: [[]] },
        ]);
        labels.should.eql(['pin 3 rising ? mV', 'pin 3 rising 3000 mV', 'pin 3 falling ${LEVEL} mV']);
        (await open.page.evaluate(() => RED.nodes.node('lbl-thr-bad').valid)).should.be.false();
        await remove(open.page, ['lbl-thr-bad', 'lbl-thr-ok', 'lbl-thr-env']);
      });

      it(`bmc-watchdog: every operation, with and without keep-alive and confirm, at most ${MAX_LABEL} characters and clear of a node ${SPACING} px on`, async function () {
        const nodes = WATCHDOG_SETTINGS.flatMap((s, i) => [
          { id: `lbl-wd-${i}`, type: 'bmc-watchdog', ...s, x: 160 + (i % 2) * 2 * SPACING, y: 40 + Math.floor(i / 2) * 45, wires: [[`lbl-dbg-${i}`]] },
          {
            id: `lbl-dbg-${i}`,
            type: 'debug',
            name: `debug ${i + 1}`,
            active: true,
            tosidebar: true,
            complete: 'payload',
            targetType: 'msg',
            x: 160 + (i % 2) * 2 * SPACING + SPACING,
            y: 40 + Math.floor(i / 2) * 45,
            wires: [],
          },
        ]);
        const labels = await labelsOf(open.page, nodes);
        await open.page.evaluate(() => RED.view.redraw(true));
        await open.page.screenshot({ path: `${editor.ARTIFACTS}/labels-watchdog-${locale}.png` });
        const watchdogs = labels.filter((_l, i) => i % 2 === 0);
        const long = watchdogs.filter((l) => l.length > MAX_LABEL);
        long.should.eql([], 'labels over the length');
        const overlaps = await open.page.evaluate((count) => {
          const found: string[] = [];
          for (let i = 0; i < count; i++) {
            const a = $(`#red-ui-workspace-chart g.red-ui-flow-node[id="lbl-wd-${i}"] rect.red-ui-flow-node`)[0].getBoundingClientRect();
            const b = $(`#red-ui-workspace-chart g.red-ui-flow-node[id="lbl-dbg-${i}"] rect.red-ui-flow-node`)[0].getBoundingClientRect();
            if (a.right > b.left) found.push(`${RED.utils.getNodeLabel(RED.nodes.node(`lbl-wd-${i}`))}: ${Math.round(a.right - b.left)} px over`);
          }
          return found;
        }, WATCHDOG_SETTINGS.length);
        overlaps.should.eql([]);
        await remove(
          open.page,
          nodes.map((n) => n.id),
        );
      });
    });
  }
});
