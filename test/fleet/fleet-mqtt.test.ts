/**
 * The fleet on real engines: three Node-RED instances (same flow file, examples/fleet-mqtt.json,
 * different env) against three simulated devices, a broker and a central subscriber (mqtt.js).
 * What a plant relies on: retained state of every module, "device down" told apart from
 * "Node-RED down", commands allowed and refused (too big, retained, on a topic that names no
 * module), no alert lost across a broker restart, and Prometheus metrics that match what the
 * devices saw. On the embedded broker (aedes, MQTT 3.1.1), and the same cases again on
 * Mosquitto (MQTT 5) where Debian's package is installed.
 */
import 'should';
import fs from 'fs';
import os from 'os';
import path from 'path';
import http from 'http';
import { startFleet } from '../../simulator';
import type { Fleet } from '../../simulator';
import { BACKOFF } from '../../nodes/lib/config-node/connection';
import { Broker, MOSQUITTO, Mosquitto, NodeRedInstance, Subscriber, TestBroker, waitFor, writeExampleFlow } from '../helpers/fleet-harness';
import { request } from '../helpers/http';
import { TEST_API } from '../helpers/api';

const parsePrometheus = require('parse-prometheus-text-format') as (text: string) => Array<{
  name: string;
  type: string;
  metrics: Array<{ value?: string; labels?: Record<string, string>; buckets?: Record<string, string>; count?: string }>;
}>;

const NAMES = ['cell-01', 'cell-02', 'cell-03'];
const MODULES = ['io/2', 'bmc/0', 'power/1'];
/** The example's request timeout (its config nodes' Timeout). */
const TIMEOUT_MS = 5000;
const WAIT = 30_000;

function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false, headers }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

/** The cases, on one broker: each broker gets a describe of its own (below). */
function fleetCases(this: Mocha.Suite, broker: TestBroker) {
  this.timeout(90_000);
  let fleet: Fleet;
  const central = new Subscriber();
  const instances: NodeRedInstance[] = [];
  let work: string;

  const state = (device: string, module: string) => central.last.get(`plant/${device}/${module}/state`);

  before(async function () {
    fleet = await startFleet({ devices: 3, namePrefix: 'cell', api: TEST_API });
    await broker.start();
    await central.connect(broker.port, 'central');
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'md-fleet-flow-'));
    const flowFile = path.join(work, 'flows.json');
    writeExampleFlow(flowFile, broker.protocol);
    // bcryptjs comes with node-red: the read-only user the metrics scrape logs in as (instance 3).

    const hash = require('bcryptjs').hashSync('scrape-secret', 4);
    const adminAuth = `adminAuth: { type: 'credentials', users: [{ username: 'prometheus', password: ${JSON.stringify(hash)}, permissions: 'read' }] },`;
    fleet.devices.forEach((device, i) => {
      const env = {
        DEVICE_URL: device.url,
        IO_SLOT: '2',
        BMC_SLOT: '0',
        POWER_SLOT: '1',
        FLEET_PREFIX: 'plant',
        FF_DEVICE_NAME: NAMES[i],
        MQTT_BROKER: '127.0.0.1',
        MQTT_PORT: String(broker.port),
        FLEET_INSTANCE_TOPIC: `plant/${NAMES[i]}/node-red`,
        FLEET_COMMAND_TOPIC: `plant/${NAMES[i]}/+/+/command`,
      };
      instances.push(new NodeRedInstance(NAMES[i], flowFile, env, i === 2 ? adminAuth : ''));
    });
    await Promise.all(instances.map((n) => n.start()));
  });

  after(async function () {
    await Promise.all(instances.map((n) => n.stop()));
    instances.forEach((n) => n.remove());
    await central.close();
    await broker.stop();
    broker.remove();
    await fleet?.close();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  afterEach(function () {
    if (this.currentTest?.state === 'failed') for (const n of instances) console.log(`--- ${n.name}\n${n.output().slice(-3000)}`);
  });

  it('every module of every device has its retained state, and each instance its birth; a late subscriber gets them too', async function () {
    await waitFor('every module connected', WAIT, () => NAMES.every((d) => MODULES.every((m) => state(d, m)?.state === 'connected')));
    await waitFor('every instance online', WAIT, () => NAMES.every((d) => central.last.get(`plant/${d}/node-red`) === 'online'));
    const late = new Subscriber();
    await late.connect(broker.port, 'late-subscriber');
    try {
      await waitFor('retained states for the late subscriber', WAIT, () => late.all.filter((m) => m.retain && m.topic.endsWith('/state')).length >= 9);
      for (const d of NAMES) {
        for (const m of MODULES) {
          const s = late.last.get(`plant/${d}/${m}/state`);
          s.should.containEql({ state: 'connected' });
          s.cause.should.startWith(`connected (API ${TEST_API})`);
          Date.parse(s.time).should.not.be.NaN();
        }
      }
    } finally {
      await late.close();
    }
  });

  it('Prometheus metrics: parsed from the text format, behind read permission; requests and errors match the device log', async function () {
    const instance = instances[2];
    const device = fleet.devices[2];
    (await get(`${instance.url}/modular-device/metrics`)).status.should.equal(401);
    const token = await request(instance.url, 'POST', '/auth/token', {
      client_id: 'node-red-admin',
      grant_type: 'password',
      scope: 'read',
      username: 'prometheus',
      password: 'scrape-secret',
    });
    token.status.should.equal(200, token.text);
    const auth = { Authorization: `Bearer ${token.body.access_token}` };
    // One error the device logs: the next io request of this device answers 500.
    (await request(device.url, 'POST', '/sim/faults', { path: `/api/io/${TEST_API}/2/`, status: 500, count: 1 })).status.should.equal(200);
    await waitFor('the fault used up', WAIT, () => device.log.entries().some((e) => e.status === 500));
    const before = device.log.entries();
    const scrape = await get(`${instance.url}/modular-device/metrics`, auth);
    const after = device.log.entries();
    scrape.status.should.equal(200, scrape.body);
    const families = parsePrometheus(scrape.body);
    const family = (name: string) => families.find((f) => f.name === name) ?? { metrics: [] };
    const sum = (name: string) => family(name).metrics.reduce((n, m) => n + Number(m.value ?? m.count ?? 0), 0);
    // Each module has at most one exchange on the wire (its ordered queue) plus a keep-alive lane: the
    // counters lie between what the device had logged before the scrape less those, and after it.
    const inFlight = MODULES.length;
    sum('modular_device_requests_total').should.be.within(before.length - inFlight, after.length);
    // A 0.9 device's "not spoken here" to the version probe (400 at 1.0's root) is the answer
    // auto-detection asks for, counted as a request but not as an error.
    const probeAnswer = (e: (typeof before)[number]) => /^\/api\/\w+\/1\.0$/.test(e.path) && e.status === 400;
    const failed = (entries: typeof before) => entries.filter((e) => e.status >= 400 && !probeAnswer(e)).length;
    sum('modular_device_request_errors_total').should.be.within(Math.max(0, failed(before) - inFlight), failed(after));
    family('modular_device_request_errors_total')
      .metrics.some((m) => m.labels?.service === 'io' && m.labels?.slot === '2')
      .should.be.true();
    const histogram = family('modular_device_request_duration_seconds');
    (histogram as { type?: string }).type!.should.equal('HISTOGRAM');
    const connected = family('modular_device_connection_state').metrics.filter((m) => m.labels?.state === 'connected' && m.value === '1');
    connected
      .map((m) => `${m.labels!.service}/${m.labels!.slot}`)
      .sort()
      .should.eql(['bmc/0', 'io/2', 'power/1']);
    for (const name of ['modular_device_queue_depth', 'modular_device_resets_total', 'modular_device_alerts_delivered_total']) {
      families.some((f) => f.name === name).should.be.true(name);
    }
  });

  it('a device stopped shows unreachable within its timeout and backoff, and connected again when it is back', async function () {
    const device = fleet.devices[0];
    const stoppedAt = Date.now();
    await device.pause();
    const down = await waitFor('cell-01 io unreachable', WAIT, () =>
      /^(unreachable|refused)$/.test(state('cell-01', 'io/2')?.state) ? state('cell-01', 'io/2') : undefined,
    );
    (Date.parse(down.time) - stoppedAt).should.be.below(TIMEOUT_MS + BACKOFF.maxMs);
    central.last.get('plant/cell-01/node-red').should.equal('online'); // the device is down, not Node-RED
    state('cell-02', 'io/2').state.should.equal('connected');
    await device.resume();
    await waitFor('cell-01 io connected again', WAIT, () => state('cell-01', 'io/2')?.state === 'connected');
  });

  it('a Node-RED stopped shows its last will, and online again on restart', async function () {
    const instance = instances[1];
    await instance.stop('SIGKILL'); // a crash: no clean disconnect, so the broker sends the will
    await waitFor('cell-02 last will', WAIT, () => central.last.get('plant/cell-02/node-red') === 'offline');
    state('cell-02', 'io/2').state.should.equal('connected'); // the device's state stays what it was
    await instance.start();
    await waitFor('cell-02 online again', WAIT, () => central.last.get('plant/cell-02/node-red') === 'online');
  });

  it('a command round-trips through the action node; a disallowed one is refused and nothing is sent', async function () {
    const device = fleet.devices[2];
    const replies = () => central.all.filter((m) => m.topic === 'plant/cell-03/io/2/reply').map((m) => m.payload);
    const seq = device.log.entries().at(-1)?.seq ?? 0;
    await central.publish('plant/cell-03/io/2/command', { id: 'read-1', op: 'io-read', payload: {} });
    const ok = await waitFor('the io-read reply', WAIT, () => replies().find((r) => r.id === 'read-1'));
    ok.should.containEql({ op: 'io-read', ok: true });
    ok.payload.pins.should.have.length(6);
    const first = Array.isArray(ok.request) ? ok.request[0] : ok.request;
    first.path.should.startWith(`/api/io/${TEST_API}/2/input/`);
    await central.publish('plant/cell-03/io/2/command', { id: 'reset-1', op: 'io-reset', payload: {} });
    const refused = await waitFor('the io-reset refusal', WAIT, () => replies().find((r) => r.id === 'reset-1'));
    refused.should.containEql({ ok: false });
    refused.refused.should.match(/op "io-reset" is not allowed here \(allowed: io-read, io-output\)/);
    await central.publish('plant/cell-03/io/2/command', 'not json');
    await waitFor('the malformed command refused', WAIT, () => replies().find((r) => /must be a JSON object/.test(r.refused ?? '')));
    const sent = device.log.entries(seq).map((e) => e.path);
    sent.some((p) => /reset/.test(p)).should.be.false();
    sent.filter((p) => /\/input\//.test(p)).length.should.be.above(0);
  });

  /** The replies on a module's reply topic of a device, in order. */
  const repliesOn = (topic: string) => central.all.filter((m) => m.topic === topic).map((m) => m.payload);
  /** The device's writes since `seq` (an io-output is a POST): nothing of a refused command reaches it. */
  const writesSince = (device: Fleet['devices'][number], seq: number) => device.log.entries(seq).filter((e) => e.method === 'POST');

  it('a valid JSON command over 4 KB (5 KB, 1 MB) is refused, whatever parses it; nothing reaches the device', async function () {
    const device = fleet.devices[2];
    const seq = device.log.entries().at(-1)?.seq ?? 0;
    for (const size of [5 * 1024, 1024 * 1024]) {
      const text = JSON.stringify({ id: `big-${size}`, op: 'io-output', payload: { pin: 1, state: 'high', pad: 'x'.repeat(size) } });
      await central.publishRaw('plant/cell-03/io/2/command', text);
      // Too big to be read for its id: the refusal names the size it measured.
      const refused = await waitFor(`the ${size} bytes command refused`, WAIT, () =>
        repliesOn('plant/cell-03/io/2/reply').find((r) => r.refused === `a command must be at most 4096 bytes, got ${Buffer.byteLength(text)}`),
      );
      refused.should.containEql({ device: 'cell-03', id: '', ok: false });
    }
    writesSince(device, seq).should.eql([]);
  });

  it('a retained command is never run: published while its Node-RED is down, it is refused, saying why, when Node-RED subscribes', async function () {
    const instance = instances[1];
    const device = fleet.devices[1];
    const topic = 'plant/cell-02/io/2/command';
    await instance.stop();
    const seq = device.log.entries().at(-1)?.seq ?? 0;
    await central.publish(topic, { id: 'retained-1', op: 'io-output', payload: { pin: 1, state: 'high' } }, true);
    try {
      await instance.start();
      const refused = await waitFor('the retained command refused', WAIT, () => repliesOn('plant/cell-02/io/2/reply').find((r) => r.id === 'retained-1'));
      refused.should.containEql({ device: 'cell-02', ok: false });
      refused.refused.should.match(/^a retained command is not run: the broker hands it out again on every \(re\)subscribe/);
      // The module is connected again (the restarted Node-RED reads it), and was never written.
      await waitFor('cell-02 io connected', WAIT, () => state('cell-02', 'io/2')?.state === 'connected');
      writesSince(device, seq)
        .filter((e) => /output/.test(e.path))
        .should.eql([]);
    } finally {
      await central.publishRaw(topic, '', true); // cleared: later subscribers do not get it
    }
  });

  if (broker.protocol === 5) {
    it('(MQTT 5) a retained command published while Node-RED is subscribed keeps its flag and is refused at once', async function () {
      const device = fleet.devices[2];
      const topic = 'plant/cell-03/io/2/command';
      const seq = device.log.entries().at(-1)?.seq ?? 0;
      await central.publish(topic, { id: 'retained-live', op: 'io-output', payload: { pin: 1, state: 'high' } }, true);
      try {
        const refused = await waitFor('the live retained command refused', WAIT, () =>
          repliesOn('plant/cell-03/io/2/reply').find((r) => r.id === 'retained-live'),
        );
        refused.refused.should.match(/^a retained command is not run/);
        writesSince(device, seq)
          .filter((e) => /output/.test(e.path))
          .should.eql([]);
      } finally {
        await central.publishRaw(topic, '', true);
      }
    });
  }

  it('every topic under the command subscription gets a reply: a service or slot that names no module is refused on its .../reply', async function () {
    for (const [module, id] of [
      ['foo/2', 'no-service'],
      ['io/x', 'no-slot'],
    ]) {
      await central.publish(`plant/cell-03/${module}/command`, { id, op: 'io-read', payload: {} });
      const refused = await waitFor(`the reply on ${module}`, WAIT, () => repliesOn(`plant/cell-03/${module}/reply`).find((r) => r.id === id));
      refused.should.containEql({ device: 'cell-03', ok: false });
      refused.refused.should.equal(
        `"${module}" names no module or alarm: a command's topic is plant/<device>/<io|bmc|power>/<slot>/command or plant/<device>/alarms/<alarm id or *>/command`,
      );
    }
    // A module this device does not have (no config node for power slot 7) is refused too.
    await central.publish('plant/cell-03/power/7/command', { id: 'no-module', op: 'io-read', payload: {} });
    const refused = await waitFor('the reply on power/7', WAIT, () => repliesOn('plant/cell-03/power/7/reply').find((r) => r.id === 'no-module'));
    refused.refused.should.equal('no power module in slot 7 of cell-03 in this Node-RED');
  });

  it('no alert is lost across a broker restart: delivered once the broker is back, or announced', async function () {
    const device = fleet.devices[0];
    const alerts = () => central.all.filter((m) => m.topic === 'plant/cell-01/io/2/alert' || m.topic === 'plant/cell-01/io/2/notifications-lost');
    const seen = alerts().length;
    await broker.stop();
    await waitFor('the central subscriber disconnected', WAIT, () => !central.client.connected);
    (await request(device.url, 'POST', '/sim/io/2/pins/3/alert', { alert: 'high_current_alert' })).status.should.equal(200);
    const raisedSeq = device.log.entries().at(-1)?.seq ?? 0;
    // The device handed the flag to Node-RED (a notification read after the raise) while the broker was down.
    await waitFor('a notification read after the raise', WAIT, () =>
      device.log.entries(raisedSeq).some((e) => /notification/.test(e.path) && e.status === 200),
    );
    await broker.start();
    const news = await waitFor('the alert or its announcement', WAIT, () =>
      alerts()
        .slice(seen)
        .find((m) => m.topic.endsWith('/notifications-lost') || m.payload.pin === 3),
    );
    if (news.topic.endsWith('/alert')) news.payload.alerts.should.containEql('high_current_alert');
    await waitFor('states republished after the restart', WAIT, () => state('cell-01', 'io/2')?.state === 'connected');
  });
}

const title = (broker: TestBroker) => `fleet: three Node-RED instances, one broker (${broker.name}), MQTT and Prometheus`;
const aedes = new Broker();
describe(title(aedes), function () {
  fleetCases.call(this, aedes);
});
const mosquitto = fs.existsSync(MOSQUITTO) ? new Mosquitto() : undefined;
if (mosquitto)
  describe(title(mosquitto), function () {
    fleetCases.call(this, mosquitto);
  });
else console.log(`fleet: ${MOSQUITTO} is not installed: the fleet suite runs on the embedded broker only (apt-get install mosquitto adds it)`);
