/**
 * The kit on real flows (issue #39): flows with Dashboard 2 and http in nodes run without
 * errors (Node-RED gets an HTTP server on a loopback port), a scenario file's mistakes come
 * all at once, a YAML error is one sentence, a wait at a node nothing feeds says why, and
 * the device reboots as long as under `npm start`.
 */
import fs from 'fs';
import http from 'http';
import os from 'os';
import path from 'path';
import should from 'should';
import { DEFAULT_REBOOT_MS } from '../../simulator';
import { runScenario, startFlows, KitError } from '../../testing';
import { run } from './kit.test';

const root = path.resolve(__dirname, '..', '..', '..');
const fixture = (name: string) => path.join(root, 'test', 'kit', 'fixtures', name);
const example = (name: string) => path.join(root, 'examples', name);
const CLI = path.join(root, 'dist', 'testing', 'cli.js');
const STACK = /^\s+at .+\(.+:\d+:\d+\)$/m;

/** GET over loopback: status, content type and body. */
function get(url: string): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), body }));
      })
      .on('error', reject);
  });
}

describe('flow test kit on real flows', function () {
  this.timeout(120_000);

  it('runs our exported Dashboard 2 demo with no error and no node warning in the Node-RED log', async () => {
    // MD_TEST_LOG=warn: the log the kit keeps quiet by default, shown down to warnings.
    const result = await run([CLI, example('device-dashboard-needs-flowfuse-dashboard.json'), fixture('dashboard.scenario.yaml')], { MD_TEST_LOG: 'warn' });
    const output = result.stdout + result.stderr;
    should(result.code).equal(0, output);
    should(result.stdout).match(/all 3 steps passed/);
    should(output).not.match(/\[error\]/);
    // A node's warning names it: "[warn] [ui-base:...]". Node-RED's own start-up notes
    // (projects disabled, no credentials file) name none.
    should(output).not.match(/\[warn\] \[/);
    should(output).not.match(/Circular config node dependency|No group configured|No UI configured/);
  });

  it("serves the flows' http in endpoints and Dashboard 2 on a loopback port (t.httpUrl)", async () => {
    const t = await startFlows({ flows: fixture('http-in.json') });
    try {
      should(t.httpUrl).match(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      const answer = await get(`${t.httpUrl}hello`);
      should(answer.status).equal(200);
      should(answer.body).equal('hello from the flow');
      await t.nextMsg('reply', { where: { payload: 'hello from the flow' } });
      // No admin API: nothing on that port deploys flows.
      should((await get(`${t.httpUrl}flows`)).status).equal(404);
    } finally {
      await t.stop();
    }
    const d = await startFlows({ flows: example('device-dashboard-needs-flowfuse-dashboard.json') });
    try {
      // The page of the demo, ui-base's setup, and its socket.io on Node-RED's own server
      // (what failed without a server: "Cannot read properties of null (reading 'on')").
      const page = await get(`${d.httpUrl}dashboard/device`);
      should(page.status).equal(200);
      should(page.type).match(/text\/html/);
      const setup = await get(`${d.httpUrl}dashboard/_setup`);
      should(JSON.parse(setup.body)).containDeep({ socketio: { path: '/dashboard/socket.io' } });
      const handshake = await get(`${d.httpUrl}dashboard/socket.io/?EIO=4&transport=polling`);
      should(handshake.status).equal(200);
      should(handshake.body).match(/^0\{"sid":/);
    } finally {
      await d.stop();
    }
  });

  it("lists every mistake of a scenario file at once, each with its place, and refuses an unknown field of expectDevice's state", async () => {
    const result = await run([CLI, example('alarm-on-notification.json'), fixture('many-mistakes.scenario.yaml')]);
    should(result.code).equal(2, result.stdout);
    const file = fixture('many-mistakes.scenario.yaml');
    const [first, ...mistakes] = result.stderr.trimEnd().split('\n');
    should(first).equal(`modular-device-test: 6 mistakes in ${file}:`);
    should(mistakes.map((line) => line.slice(`  ${file}: `.length).replace(/:.*/, ''))).eql([
      'steps[0].pin.pin',
      'steps[1].expect.node',
      'steps[2].expectDevice.state',
      'steps[3]',
      'steps[4].expectNone',
      'steps[5].expectDevice.state',
    ]);
    should(mistakes[0]).endWith('must be a whole number from 1 to 6, got 9');
    should(mistakes[1]).match(/: no node with id or name "no such node" in the flows; named nodes: "io slot 2 \(simulator\)"/);
    // The state of an io pin (pin given) and of a module (slot only): /sim/state's own fields.
    should(mistakes[2]).endWith(
      'unknown field "treshold"; known: pin, mode, threshold, interrupt, counter, output, pwm, alerts, pwmFrequencyHz, stimulus, reading, currentMa',
    );
    should(mistakes[3]).match(/: unknown event "explode"; a step has one of pin, short, /);
    should(mistakes[4]).endWith('expectNone needs within: how long nothing may arrive');
    should(mistakes[5]).match(/: unknown field "watchdg"; known: slot, service, session, .*\bwatchdog\b/);
    should(result.stderr).not.match(STACK);
  });

  it('tells a YAML error as one sentence with its line and column', async () => {
    // Written here, not a fixture: the repository's YAML files must all parse (Prettier checks them).
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'md-kit-yaml-'));
    const file = path.join(dir, 'bad.scenario.yaml');
    fs.writeFileSync(file, 'name: a flow map not closed\nsteps:\n  - pin: { pin: 3, voltage_mV: 4000\n  - expect: { node: ALARM }\n');
    try {
      const result = await run([CLI, example('alarm-on-notification.json'), file]);
      should(result.code).equal(2, result.stdout);
      should(result.stderr).equal(
        `modular-device-test: ${file}: line 4, column 3: not valid YAML: Flow map in block collection must be sufficiently indented and end with a }\n`,
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says why nothing can arrive at a node nothing is wired to (a scenario, and a wait)', async () => {
    const report = await runScenario({ flows: example('io-output.json'), scenario: fixture('no-input.scenario.yaml') });
    should(report.ok).be.false();
    should(report.steps[0].detail).equal(
      'no such msg in 300 ms: none arrived: nothing is wired to its input, so no msg can arrive there (the kit sees the msgs a node receives); it sends to "toggle": wait at one of those',
    );
    const t = await startFlows({ flows: example('io-output.json') });
    try {
      const error = await t.nextMsg('on deploy', { timeoutMs: 300 }).then(
        () => null,
        (e: Error) => e,
      );
      should(error).be.instanceOf(KitError);
      should(error!.message).match(
        /: none arrived: nothing is wired to its input, so no msg can arrive there .*; it sends to "power management": wait at one of those$/,
      );
    } finally {
      await t.stop();
    }
  });

  it("reboots the device as long as `npm start` does unless told otherwise (the simulator's default)", async () => {
    should(DEFAULT_REBOOT_MS).be.above(0);
    const t = await startFlows({ flows: example('io-output.json') });
    try {
      should((await t.device.state()).rebootMs).equal(DEFAULT_REBOOT_MS);
    } finally {
      await t.stop();
    }
    const quick = await startFlows({ flows: example('io-output.json'), rebootMs: 0 });
    try {
      should((await quick.device.state()).rebootMs).equal(0);
    } finally {
      await quick.stop();
    }
  });
});
