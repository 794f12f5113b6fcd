/**
 * The Prometheus endpoint is the plugin modular-device-metrics (nodes/modular-device-metrics.ts):
 * served with no fleet-publish node loaded or deployed, behind read permission as before, and
 * absent (404) when settings.js says `modularDevice: { metrics: false }`. Twice: on the test
 * helper's runtime, and in a real Node-RED (MD_NODE_RED's: the runtime-3.1 and -5.0 steps
 * run this file on Node-RED 3.1 and 5.0, the runtime step on 4.1) that finds the plugin in
 * package.json's `node-red.plugins` as a user's install does.
 */
import fs from 'fs';
import os from 'os';
import path from 'path';
import 'should';
import { deviceNode, helper, MODULES, NODE_RED_VERSION, NodeModule, TAB, waitConnected, waitFor } from '../helpers/node-red';
import { Simulator, simulatorSuite } from '../helpers/sim-control';
import { NodeRedInstance, waitFor as waitForValue } from '../helpers/fleet-harness';
import metricsPlugin = require('../../nodes/modular-device-metrics');

const ROUTE = '/modular-device/metrics';
const CONNECTED = /modular_device_connection_state\{[^}]*service="io"[^}]*state="connected"[^}]*\} 1/;

describe('metrics plugin (runtime, simulator)', function () {
  this.timeout(60000);
  let sim: Simulator;
  simulatorSuite((s) => (sim = s), { server: true });

  /** The config node alone with the plugin: no fleet-publish among the loaded types. */
  const load = () => helper.load([MODULES.modularDevice, metricsPlugin as NodeModule], [deviceNode({ url: sim.url })]);

  describe('on the test helper', () => {
    let saved: Record<string, unknown>;
    beforeEach(() => (saved = helper.settings()));
    afterEach(() => void helper.settings(saved));

    it('serves the metrics by default, with no fleet-publish node: the config node connected', async () => {
      await load();
      await waitConnected();
      let text = '';
      await waitFor(async () => CONNECTED.test((text = (await helper.request().get(ROUTE).expect(200)).text)), 'the module connected in the metrics');
      text.should.match(/# TYPE modular_device_requests_total counter/);
    });

    it('a setting neither true nor false: said in the log (its value), the metrics stay on', async () => {
      helper.settings({ ...saved, modularDevice: { metrics: 'no' } });
      await load();
      await waitConnected();
      (await helper.request().get(ROUTE)).status.should.equal(200);
      const warned = (helper.log().args as unknown[][]).map((a) => String((a[0] as { msg?: unknown }).msg)).filter((m) => m.includes('modularDevice.metrics'));
      warned.should.have.length(1);
      warned[0].should.containEql('"no"');
    });

    it('serves nothing (404) with settings.js modularDevice: { metrics: false }', async () => {
      helper.settings({ ...saved, modularDevice: { metrics: false } });
      await load();
      await waitConnected();
      (await helper.request().get(ROUTE)).status.should.equal(404);
    });
  });

  describe('in a real Node-RED, found in package.json', () => {
    const started: NodeRedInstance[] = [];
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'md-metrics-plugin-'));
    after(async () => {
      for (const red of started) {
        await red.stop();
        red.remove();
      }
      fs.rmSync(work, { recursive: true, force: true });
    });

    /** A Node-RED with one config node and nothing else; `settings` go into its settings.js. */
    async function start(name: string, settings = ''): Promise<NodeRedInstance> {
      const flowFile = path.join(work, `${name}.json`);
      fs.writeFileSync(
        flowFile,
        JSON.stringify([
          { id: TAB, type: 'tab', label: 'metrics' },
          { ...deviceNode({ url: sim.url }), z: undefined },
        ]),
      );
      const red = new NodeRedInstance(name, flowFile, {}, settings);
      started.push(red);
      await red.start();
      return red;
    }

    /** An answer of `url`, once its server listens (Node-RED logs "Started flows" just before it does). */
    async function answer(url: string): Promise<{ status: number; text: string }> {
      return waitForValue(`an answer of ${url}`, 20000, async () => {
        try {
          const res = await fetch(url);
          return { status: res.status, text: await res.text() };
        } catch {
          return undefined;
        }
      });
    }

    it('serves the metrics by default, and nothing (404) with the setting off', async () => {
      const on = await start('metrics-on');
      await waitForValue('the module connected in the metrics', 20000, async () => {
        const res = await answer(`${on.url}${ROUTE}`);
        return res.status === 200 && CONNECTED.test(res.text);
      });
      const off = await start('metrics-off', 'modularDevice: { metrics: false },');
      // The same Node-RED serves its admin API (the 404 is the route's absence, not a dead
      // server), and it is the Node-RED under test (3.1, 4.1 or 5.0).
      const settings = await answer(`${off.url}/settings`);
      settings.status.should.equal(200);
      String(JSON.parse(settings.text).version).split('-')[0].should.equal(NODE_RED_VERSION);
      (await answer(`${off.url}${ROUTE}`)).status.should.equal(404);
    });
  });
});
