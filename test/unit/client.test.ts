/**
 * DeviceClient over loopback against the simulator (0.9 and 1.0), and the config node's
 * defaults: the version is detected once however many ask during the first probe;
 * `msg.request` names every wire call (one object, or a list in the order sent); the
 * defaults are written in one place (limits.ts) and read by the runtime and the dialog;
 * the probe's "not spoken here" is told as answered, never as a failed request.
 */
import fs from 'fs';
import path from 'path';
import vm from 'vm';
import should from 'should';
import { readSettings } from '../../nodes/lib/config-node/device-settings';
import { DeviceClient } from '../../nodes/lib/device/client';
import type { ExchangeInfo } from '../../nodes/lib/device/exchange-info';
import { SimHarness, Simulator, startSimulator, startStub } from '../helpers/sim-control';

const root = path.resolve(__dirname, '..', '..', '..');

/** The docs' (docs/config-node.md) and the help's defaults, written out on purpose (not read from limits.ts). */
const DEFAULTS = { timeout: 5000, queueLimit: 100, answerLimit: 64 };

/** The `defaults` of the modular-device dialog, as the editor registers them with the built bundle. */
function editorDefaults(): Record<string, { value: unknown }> {
  let registered: { defaults: Record<string, { value: unknown }> } | undefined;
  const RED = { nodes: { registerType: (_type: string, def: typeof registered) => (registered = def) }, _: (key: string) => key };
  const context = vm.createContext({ RED });
  vm.runInContext(fs.readFileSync(path.join(root, 'resources', 'editor.js'), 'utf8'), context);
  const html = fs.readFileSync(path.join(root, 'nodes', 'modular-device.html'), 'utf8');
  const script = /<script type="text\/javascript">([\s\S]*?)<\/script>/.exec(html);
  vm.runInContext(script![1], context);
  return registered!.defaults;
}

describe('client defaults: one place, read by the runtime and the editor', function () {
  it('the runtime: a config node without timeout, queue limit and answer limit gets 5000 ms, 100, 64 KiB', function () {
    const options = readSettings({ id: 'd', type: 'modular-device', z: '', service: 'io', slot: '2', timeout: '', queueLimit: '', answerLimit: '' });
    should({ timeout: options.timeout, queueLimit: options.queueLimit, answerLimit: options.answerLimitKiB }).eql(DEFAULTS);
  });

  it('the editor: a new config node starts with the same three values', function () {
    const defaults = editorDefaults();
    should({ timeout: defaults.timeout.value, queueLimit: defaults.queueLimit.value, answerLimit: defaults.answerLimit.value }).eql(DEFAULTS);
  });
});

for (const api of ['0.9', '1.0'] as const) {
  describe(`DeviceClient against a ${api} simulator (loopback)`, function () {
    let sim: Simulator;
    let ctl: SimHarness;
    let client: DeviceClient;
    const root = `/api/io/${api}`;
    before(async () => {
      sim = await startSimulator({ port: 0, api });
      ctl = new SimHarness(sim);
    });
    after(async () => {
      await sim.close();
    });
    beforeEach(async () => {
      await ctl.clearLog();
      client = new DeviceClient({ url: sim.url, service: 'io', slot: 2, apiVersion: 'auto' });
    });
    afterEach(() => client.close());

    const roots = async () => (await ctl.wireLog()).filter((e) => /^\/api\/io\/\d+\.\d+$/.test(e.path)).map((e) => `${e.method} ${e.path} ${e.status}`);
    /** What `auto` asks to detect the version once: the newest first. */
    const DETECTION = api === '1.0' ? ['GET /api/io/1.0 200'] : ['GET /api/io/1.0 400', 'GET /api/io/0.9 200'];

    it('a request made while the first version probe is on the wire waits for it: one detection, not two', async () => {
      // The probe is on the wire before the request is made (same tick, no timing involved):
      // without the shared read, the request would detect the version again.
      const probe = client.readVersionRecord();
      const request = client.request({ method: 'GET', endpoint: ['input', 'values'] });
      const [{ apiVersion }] = await Promise.all([probe, request]);
      apiVersion.should.equal(api);
      (await roots()).should.eql(DETECTION);
    });

    it('the probe of auto-detection is no failed request: health and metrics hear every exchange of it as answered', async () => {
      const told: ExchangeInfo[] = [];
      const probing = new DeviceClient({ url: sim.url, service: 'io', slot: 2, apiVersion: 'auto' });
      probing.listen({ exchange: (info) => told.push(info) });
      try {
        await probing.readVersionRecord();
      } finally {
        await probing.close();
      }
      // The device did answer 1.0's root with 400 on API 0.9: the probe's answer, not an error.
      (await roots()).should.eql(DETECTION);
      told.map((i) => `${i.method} ${i.path} ${i.ok ? 'answered' : i.code}`).should.eql(DETECTION.map((d) => `${d.replace(/ \d+$/, '')} answered`));
    });

    it('several requests and a probe at once: still one detection', async () => {
      const all = [
        client.request({ method: 'GET', endpoint: ['input', 'values'] }),
        client.readVersionRecord(),
        client.request({ method: 'GET', endpoint: ['input', 'values'] }),
      ];
      await Promise.all(all);
      (await roots()).should.eql(DETECTION);
    });

    it('msg.request: one wire call is the object itself', async () => {
      const { request } = await client.request({ method: 'POST', endpoint: ['input', 'mode'], body: { pin: 1, mode: 'analog' } });
      request.should.eql({ method: 'POST', path: `${root}/2/input/mode`, body: { pin: 1, mode: 'analog' } });
    });

    it('msg.request: several requests in one turn are listed in the order sent, never only the last', async () => {
      const { request } = await client.request([
        { method: 'POST', endpoint: ['input', 'mode'], body: { pin: 1, mode: 'analog' } },
        { method: 'GET', endpoint: ['input', 'values'] },
      ]);
      request.should.eql([
        { method: 'POST', path: `${root}/2/input/mode`, body: { pin: 1, mode: 'analog' } },
        { method: 'GET', path: `${root}/2/input/values` },
      ]);
    });

    it(`msg.request of a notification read: ${api === '1.0' ? 'the six per-pin calls' : 'one call'}`, async () => {
      const { request } = await client.request({ method: 'GET', endpoint: ['notification'] });
      const wire = (await ctl.wireLog()).filter((e) => e.path.includes('/notification')).map((e) => ({ method: e.method, path: e.path }));
      wire.should.have.length(api === '1.0' ? 6 : 1);
      request.should.eql(api === '1.0' ? wire : wire[0]);
    });
  });
}

describe('DeviceClient: a device that speaks no version of this package', function () {
  it('every version refused: the last refusal is the probe failing (told as DEVICE_ERROR), the ones before it answers', async () => {
    const stub = await startStub(() => ({ status: 400, body: { status: 'error', code: 400, message: 'Version not compatible' } }));
    const told: ExchangeInfo[] = [];
    const client = new DeviceClient({ url: stub.url, service: 'io', slot: 2, apiVersion: 'auto' });
    client.listen({ exchange: (info) => told.push(info) });
    try {
      const error = await client.readVersionRecord().then(
        () => undefined,
        (e: { code?: string; statusCode?: number }) => e,
      );
      should(error).containEql({ code: 'DEVICE_ERROR', statusCode: 400 });
    } finally {
      await client.close();
      await stub.close();
    }
    told.map((i) => `${i.path} ${i.ok ? 'answered' : i.code}`).should.eql(['/api/io/1.0 answered', '/api/io/0.9 DEVICE_ERROR']);
  });
});
