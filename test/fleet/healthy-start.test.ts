/**
 * A healthy start counts no request errors: Node-RED as `npm start` runs it (the demo flows
 * scripts/start.js deploys, the same function, against the simulator with the same reboot
 * time), on API 0.9 and 1.0, left to work until every module is connected and has made a
 * good number of exchanges, then scraped with the field's parser. An alert on
 * modular_device_request_errors_total must not fire after every start: on 0.9 the version
 * probe's 400 to 1.0's root is the answer it asks for, not a failed request.
 */
import 'should';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { DEFAULT_REBOOT_MS, startSimulator } from '../../simulator';
import type { Simulator } from '../../simulator';
import { NodeRedInstance, waitFor } from '../helpers/fleet-harness';
import { freePort, getText as get } from '../helpers/http';

const parsePrometheus = require('parse-prometheus-text-format') as (text: string) => Array<{
  name: string;
  metrics: Array<{ value?: string; labels?: Record<string, string> }>;
}>;

type FlowNode = Record<string, unknown> & { id: string; type: string };

const root = path.resolve(__dirname, '..', '..', '..');
const start = require(path.join(root, 'scripts', 'start.js')) as {
  demoNodes(simUrl: string, port: number, lang: string): FlowNode[];
  optionalDemos: Array<{ module: string; dir?: string }>;
};

/** Exchanges each module makes before the scrape: the first connect, several health checks, the demos' own. */
const EXCHANGES = 10;
/** The health check's pace here: the exchanges come within seconds. */
const HEALTH_MS = 500;

for (const api of ['0.9', '1.0'] as const) {
  describe(`a healthy start: npm start's demos on API ${api} count no request errors`, function () {
    this.timeout(90_000);
    let sim: Simulator;
    let red: NodeRedInstance | undefined;
    let work: string;
    let modules: string[];

    before(async () => {
      sim = await startSimulator({ port: 0, api, rebootMs: DEFAULT_REBOOT_MS });
      work = fs.mkdtempSync(path.join(os.tmpdir(), 'md-healthy-start-'));
      const port = await freePort();
      const flow = start.demoNodes(sim.url, port, 'en');
      modules = [...new Set(flow.filter((n) => n.type === 'modular-device').map((n) => `${n.service}/${n.slot}`))].sort();
      const flowFile = path.join(work, 'flows.json');
      fs.writeFileSync(flowFile, JSON.stringify(flow));
      red = new NodeRedInstance(`demos-${api}`, flowFile, {}, `modularDevice: { healthIntervalMs: ${HEALTH_MS} },`);
      red.port = port;
      // The demos of other modules npm start deploys (the dashboard), linked as it links them.
      // Once per module: several demos may need the same one (the dashboard's two pages).
      for (const demo of [...new Map(start.optionalDemos.filter((d) => d.dir).map((d) => [d.module, d])).values()]) {
        const link = path.join(red.userDir, 'node_modules', ...demo.module.split('/'));
        fs.mkdirSync(path.dirname(link), { recursive: true });
        fs.symlinkSync(demo.dir!, link, 'dir');
      }
      await red.start();
    });

    after(async () => {
      await red?.stop();
      red?.remove();
      await sim?.close();
      if (work) fs.rmSync(work, { recursive: true, force: true });
    });

    afterEach(function () {
      if (this.currentTest?.state === 'failed' && red) console.log(`--- Node-RED\n${red.output().slice(-4000)}`);
    });

    it(`every module connected and ${EXCHANGES} exchanges on; every modular_device_request_errors_total is 0`, async () => {
      modules.length.should.be.above(0);
      const key = (m: { labels?: Record<string, string> }) => `${m.labels?.service}/${m.labels?.slot}`;
      const families = await waitFor(`every module (${modules.join(', ')}) connected with ${EXCHANGES} exchanges`, 60_000, async () => {
        const scrape = await get(`${red!.url}/modular-device/metrics`);
        if (scrape.status !== 200) return undefined;
        const all = parsePrometheus(scrape.body);
        const family = (name: string) => all.find((f) => f.name === name)?.metrics ?? [];
        const connected = new Set(
          family('modular_device_connection_state')
            .filter((m) => m.labels?.state === 'connected' && m.value === '1')
            .map(key),
        );
        const requests = new Map(family('modular_device_requests_total').map((m) => [key(m), Number(m.value)]));
        return modules.every((m) => connected.has(m) && (requests.get(m) ?? 0) >= EXCHANGES) ? all : undefined;
      });
      const errors = families.find((f) => f.name === 'modular_device_request_errors_total')?.metrics ?? [];
      errors
        .filter((m) => Number(m.value) > 0)
        .map((m) => `${key(m)} ${m.labels?.code} ${m.value}`)
        .should.eql([]);
      if (api === '0.9') {
        // The probe did meet "this version is not spoken here": what would have counted.
        sim.log
          .entries()
          .some((e) => /^\/api\/\w+\/1\.0$/.test(e.path) && e.status === 400)
          .should.be.true();
      }
    });
  });
}
