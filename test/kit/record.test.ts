/**
 * Record, then replay: the simulator plays "the real device" (Basic auth on), the recording
 * proxy of modular-device-sim sits between it and the flow; the recording, replayed as the
 * device, gives the flow the same outputs, and the file holds no credential.
 */
import { ChildProcess, spawn } from 'child_process';
import fs from 'fs';
import os from 'os';
import path from 'path';
import should from 'should';
import http from 'http';
import { RECORD_LIMITS, startRecorder, startSimulator } from '../../simulator';
import { DeviceControl, KitError, startFlows } from '../../testing';

const root = path.resolve(__dirname, '..', '..', '..');
const SIM_CLI = path.join(root, 'dist', 'simulator', 'cli.js');
const USER = 'operator';
const SECRET = 'Pl4nt-S3cret!';

/** The alarm flow with its config node behind Basic auth, credentials kept apart as Node-RED does. */
function alarmFlowWithAuth(): unknown[] {
  const flows = JSON.parse(fs.readFileSync(path.join(root, 'examples', 'alarm-on-notification.json'), 'utf8'));
  return flows.map((n: Record<string, unknown>) => (n.type === 'modular-device' ? { ...n, auth: 'basic' } : n));
}

/** Starts `modular-device-sim record` and resolves with its URL once it listens. */
function startRecording(target: string, out: string): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SIM_CLI, 'record', '--target', target, '--out', out, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout!.on('data', (c) => {
      text += c;
      const m = /recording on (http:\/\/127\.0\.0\.1:\d+)/.exec(text);
      if (m) resolve({ child, url: m[1] });
    });
    child.stderr!.on('data', (c) => (text += c));
    child.on('exit', (code) => reject(new Error(`record exited ${code}: ${text}`)));
  });
}

describe('record and replay', function () {
  this.timeout(120_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'md-record-'));
  const out = path.join(dir, 'session.json');
  const credentials = { 'md-io-slot-2': { username: USER, password: SECRET } };
  let recorded: unknown[] = [];
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('records a session with the device, without a credential in the file', async () => {
    const sim = await startSimulator({ api: '1.0', modules: [{ service: 'io', slot: 2 }], auth: { username: USER, password: SECRET } });
    const { child, url } = await startRecording(sim.url, out);
    const t = await startFlows({ flows: alarmFlowWithAuth(), credentials, deviceUrl: url });
    try {
      const device = new DeviceControl(sim.url); // the control API, beside the proxy: not part of the session
      await t.until(async () => (await device.module(2)).pins[2].threshold !== null, { what: 'pin 3 armed' });
      await device.pin(2, 3, { voltage_mV: 4000 });
      await t.nextMsg('ALARM', { where: { topic: 'pin/3' } });
      await device.short(2, 5);
      await t.nextMsg('ALARM', { where: { topic: 'pin/5' } });
      recorded = t.received('ALARM').map((m) => ({ topic: m.topic, payload: m.payload }));
      should(t.caught()).eql([]);
    } finally {
      await t.stop();
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGINT');
      await exited;
      await sim.close();
    }
    const text = fs.readFileSync(out, 'utf8');
    const recording = JSON.parse(text);
    should(recording.api).equal('1.0');
    should(recording.exchanges.length).be.above(10);
    should(recording.exchanges.some((e: { path: string }) => e.path.includes('/notification'))).be.true();
    should(text).not.containEql(SECRET);
    should(text).not.containEql(Buffer.from(`${USER}:${SECRET}`).toString('base64'));
    should(text).not.match(/authorization/i);
  });

  it('replays it as the device: the flow gives the same outputs', async () => {
    should(recorded.length).equal(2);
    const t = await startFlows({ flows: alarmFlowWithAuth(), credentials, replay: out, api: '1.0' });
    try {
      await t.until(() => t.received('ALARM').length >= 2, { what: 'two alarms from the replayed session' });
      should(
        t
          .received('ALARM')
          .slice(0, 2)
          .map((m) => ({ topic: m.topic, payload: m.payload })),
      ).eql(recorded);
    } finally {
      await t.stop();
    }
  });

  it('refuses a recording of another API version, naming the file', async () => {
    const error = await startFlows({ flows: alarmFlowWithAuth(), replay: out, api: '0.9' }).then(
      () => null,
      (e: Error) => e,
    );
    should(error).be.instanceOf(KitError);
    should(error!.message).equal(`recording ${out}: recorded against API 1.0, the test asks for API 0.9: replay it with api 1.0, or record again`);
  });

  it('keeps bodies bounded and masks credential-like query values', async () => {
    const sim = await startSimulator({ modules: [{ service: 'io', slot: 2 }] });
    const recorder = await startRecorder({ target: sim.url });
    try {
      const big = JSON.stringify({ pin: 1, filler: 'x'.repeat(RECORD_LIMITS.bodyChars + 1000) });
      const status = await new Promise<number>((resolve, reject) => {
        const req = http.request(
          `${recorder.url}/api/io/0.9/2/output/state?token=${SECRET}`,
          { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${SECRET}` } },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.end(big);
      });
      should(status).be.above(0); // whatever the device said, it reached the client
      const [exchange] = recorder.recording().exchanges;
      should(exchange.path).equal('/api/io/0.9/2/output/state?token=***');
      should(exchange.cut).be.true();
      should(exchange.request!.length).equal(RECORD_LIMITS.bodyChars);
      should(JSON.stringify(recorder.recording())).not.containEql(SECRET);
    } finally {
      await recorder.close();
      await sim.close();
    }
  });
});
