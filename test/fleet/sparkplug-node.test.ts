/**
 * fleet-publish in Sparkplug mode on a real Node-RED (the test helper's runtime) against an
 * embedded aedes broker: it connects with the credentials of its node, registers NDEATH as
 * its will with the bdSeq its NBIRTH then carries (decoded by sparkplug-payload, not by our
 * codec), shows `spBv1.0/<group>/<edge>` once born; a redeploy publishes NDEATH and
 * disconnects cleanly (the broker publishes no will), the next connection counts bdSeq on,
 * and no connection is left behind; bad settings are refused with the field named as the
 * dialog labels it and nothing connects; Protocol both serves the UNS topics too; a
 * Node-RED that never turns Sparkplug on loads neither mqtt.js nor protobufjs. The broad Sparkplug behaviour (births of modules, DDATA,
 * DCMD, a killed Node-RED, Mosquitto) is tested elsewhere (test/fleet's Sparkplug suites).
 */
import 'should';
import path from 'path';
import { spawnSync } from 'child_process';
import fleetPublish = require('../../nodes/fleet-publish');
import metricsPlugin = require('../../nodes/modular-device-metrics');
import { servedMetrics } from '../../nodes/fleet/metrics-route';
import { Broker, Subscriber } from '../helpers/fleet-harness';
import { FlowNode, helper, lastStatus, NodeModule, statusHistory, TAB, waitFor } from '../helpers/node-red';
import { deploy } from '../helpers/reliability';
import { clientIdFor } from '../../nodes/fleet/sparkplug/mqtt-link';
import { bdSeqFileIn } from '../../nodes/fleet/sparkplug/bdseq-store';
import fs from 'fs';

const spPayload = require('sparkplug-payload').get('spBv1.0') as { decodePayload(bytes: Uint8Array): { metrics?: Array<{ name?: string; value?: unknown }> } };

// The metrics plugin beside: refused commands are counted into its registry.
const NODES = [fleetPublish as NodeModule, metricsPlugin as NodeModule];
const EDGE = 'cell-7';
const CLIENT_ID = clientIdFor('plant', EDGE);
const PASSWORD = 's3cret-pw';
const bdSeqOf = (payload: Buffer) => Number(spPayload.decodePayload(payload).metrics!.find((m) => m.name === 'bdSeq')!.value);

interface Seen {
  connects: Array<{ id: string; will?: { topic: string; payload: Buffer } }>;
  published: Array<{ topic: string; payload: Buffer; client?: string }>;
  disconnects: Array<{ id: string; clean: boolean }>;
}

function flow(settings: Record<string, unknown>): FlowNode[] {
  return [
    { id: TAB, type: 'tab', label: 'sparkplug' },
    {
      id: 'pub',
      type: 'fleet-publish',
      z: TAB,
      x: 100,
      y: 100,
      name: '',
      protocol: 'sparkplug',
      prefix: 'plant',
      deviceName: '',
      commands: 'io-output',
      group: 'plant',
      edgeNode: EDGE,
      primaryHost: '',
      tls: '',
      wires: [['mqtt'], ['cmd']],
      ...settings,
    },
    { id: 'mqtt', type: 'helper', z: TAB, x: 300, y: 100, wires: [] },
    { id: 'cmd', type: 'helper', z: TAB, x: 300, y: 200, wires: [] },
    // As the help says to wire it: a Catch node's msgs back into fleet-publish (and to a helper, to count them).
    { id: 'catch', type: 'catch', z: TAB, x: 100, y: 300, name: '', scope: ['pub'], uncaught: false, wires: [['pub', 'caught']] },
    { id: 'caught', type: 'helper', z: TAB, x: 300, y: 300, wires: [] },
  ];
}

const errors = () =>
  (helper.log().args as unknown[][])
    .map((a) => a[0] as { level?: number; msg?: unknown })
    .filter((m) => m.level === 20)
    .map((m) => String(m.msg));
const logged = () => JSON.stringify(helper.log().args);

describe('fleet-publish in Sparkplug mode (runtime, aedes)', function () {
  this.timeout(30000);
  const broker = new Broker();
  let seen: Seen;
  const connected = () => (broker as unknown as { aedes: { connectedClients: number } }).aedes.connectedClients;

  before(async () => {
    await broker.start();
    broker.on('client', (client: { id: string; will?: { topic: string; payload: Buffer } }) =>
      seen.connects.push({ id: client.id, will: client.will ? { topic: client.will.topic, payload: Buffer.from(client.will.payload) } : undefined }),
    );
    broker.on('publish', (packet: { topic: string; payload: Buffer }, client?: { id: string }) => {
      if (!packet.topic.startsWith('$SYS')) seen.published.push({ topic: packet.topic, payload: Buffer.from(packet.payload), client: client?.id });
    });
    broker.on('clientDisconnect', (client: { id: string; _disconnected?: boolean }) =>
      seen.disconnects.push({ id: client.id, clean: client._disconnected === true }),
    );
  });
  beforeEach(() => (seen = { connects: [], published: [], disconnects: [] }));
  afterEach(async () => {
    await helper.unload();
    await waitFor(() => connected() === 0, 'no connection left at the broker');
  });
  after(() => broker.stop());

  const url = () => `mqtt://127.0.0.1:${broker.port}`;
  const credentials = { pub: { username: 'edge-user', password: PASSWORD } };

  it('connects with its credentials and NDEATH as its will, its NBIRTH carries the same bdSeq, and it shows the edge node born', async () => {
    const logins: string[] = [];
    (broker as unknown as { aedes: { authenticate: unknown } }).aedes.authenticate = (
      _c: unknown,
      user: string,
      password: Buffer,
      done: (e: null, ok: boolean) => void,
    ) => {
      logins.push(`${user}:${password}`);
      done(null, true);
    };
    await helper.load(NODES, flow({ broker: url() }), credentials);
    await waitFor(() => seen.published.some((p) => p.topic === `spBv1.0/plant/NBIRTH/${EDGE}`), 'the NBIRTH');
    seen.connects.map((c) => c.id).should.eql([CLIENT_ID]);
    const will = seen.connects[0].will!;
    will.topic.should.equal(`spBv1.0/plant/NDEATH/${EDGE}`);
    const birth = seen.published.find((p) => p.topic === `spBv1.0/plant/NBIRTH/${EDGE}`)!;
    bdSeqOf(birth.payload).should.equal(bdSeqOf(will.payload));
    await waitFor(() => lastStatus(helper.getNode('pub'))?.text === `spBv1.0/plant/${EDGE}`, 'the born status');
    lastStatus(helper.getNode('pub'))!.should.containEql({ fill: 'green', shape: 'dot' });
    logins.should.eql([`edge-user:${PASSWORD}`]);
    logged().should.not.containEql(PASSWORD);
  });

  it('a refused NCMD: a yellow ring, counted, Catch gets each refusal once, marked; wired back in, nothing more is raised', async () => {
    await helper.load(NODES, flow({ broker: url() }), credentials);
    const caught: Array<{ payload: unknown; sparkplugRefused?: boolean }> = [];
    helper.getNode('caught').on('input', (msg: (typeof caught)[number]) => caught.push(msg));
    await waitFor(() => seen.published.some((p) => p.topic.includes('/NBIRTH/')), 'the NBIRTH');
    const host = new Subscriber();
    await host.connect(broker.port, 'scada-host', 'spBv1.0/#');
    try {
      // Two malformed NCMDs, each refused once.
      await host.publishRaw(`spBv1.0/plant/NCMD/${EDGE}`, Buffer.from([0xff, 0xff, 0xff]));
      await waitFor(() => caught.length >= 1, 'the first refusal at Catch');
      lastStatus(helper.getNode('pub'))!.should.containEql({ fill: 'yellow', shape: 'ring' });
      await host.publishRaw(`spBv1.0/plant/NCMD/${EDGE}`, Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff]));
      await waitFor(() => caught.length >= 2, 'the second refusal at Catch');
    } finally {
      await host.close();
    }
    // A loop would have raised the first again and again before the second NCMD's round trip.
    caught.should.have.length(2);
    caught.map((m) => m.sparkplugRefused).should.eql([true, true]);
    (await servedMetrics()!.text()).should.match(/modular_device_fleet_commands_refused_total\{kind="sparkplug"\} 2\b/);
  });

  it('a redeploy: NDEATH published, a clean DISCONNECT (no will), the next connection one bdSeq on, one connection only', async () => {
    const first = flow({ broker: url() });
    await helper.load(NODES, first, credentials);
    await waitFor(() => seen.published.some((p) => p.topic.includes('/NBIRTH/')), 'the first NBIRTH');
    const bdSeq = bdSeqOf(seen.connects[0].will!.payload);
    await deploy(
      first.map((n) => (n.id === 'pub' ? { ...n, name: 'renamed' } : n)),
      'full',
      credentials,
    );
    await waitFor(() => seen.published.filter((p) => p.topic.includes('/NBIRTH/')).length === 2, 'the second NBIRTH');
    const deaths = seen.published.filter((p) => p.topic === `spBv1.0/plant/NDEATH/${EDGE}`);
    deaths.should.have.length(1);
    bdSeqOf(deaths[0].payload).should.equal(bdSeq);
    seen.disconnects.should.eql([{ id: CLIENT_ID, clean: true }]);
    // The NDEATH came before the DISCONNECT and the new CONNECT: in the order the broker heard them.
    const births = seen.published.flatMap((p, i) => (p.topic.includes('/NBIRTH/') ? [i] : []));
    seen.published.findIndex((p) => p.topic.includes('/NDEATH/')).should.be.within(births[0], births[1]);
    seen.connects.should.have.length(2);
    bdSeqOf(seen.connects[1].will!.payload).should.equal((bdSeq + 1) % 256);
    connected().should.equal(1);
  });

  it('a broker that is not there: a red ring naming it; once it is back it connects, one bdSeq on whatever the attempts between', async () => {
    // The test helper's Node-RED has no userDir: the store is the temporary folder's, as the node warns.
    const file = bdSeqFileIn(undefined).store.file;
    const last = fs.existsSync(file) ? ((JSON.parse(fs.readFileSync(file, 'utf8')).bdSeq[EDGE] as number | undefined) ?? -1) : -1;
    await broker.stop();
    try {
      await helper.load(NODES, flow({ broker: url() }), credentials);
      await waitFor(() => lastStatus(helper.getNode('pub'))?.fill === 'red', 'the red status');
      // At least one attempt more, with the broker still away.
      await waitFor(() => statusHistory(helper.getNode('pub')).filter((s) => s.fill === 'yellow').length >= 2, 'a second attempt', 20000);
      lastStatus(helper.getNode('pub'))!.should.containEql({ shape: 'ring' });
      String(lastStatus(helper.getNode('pub'))!.text).should.match(/ECONNREFUSED|broker/);
    } finally {
      await broker.start();
    }
    await waitFor(() => seen.published.some((p) => p.topic.includes('/NBIRTH/')), 'the NBIRTH after the broker came back', 20000);
    bdSeqOf(seen.published.find((p) => p.topic.includes('/NBIRTH/'))!.payload).should.equal((last + 1) % 256);
    logged().should.not.containEql(PASSWORD);
  });

  it('both: births on its own connection, and the UNS topics on output 1', async () => {
    await helper.load(NODES, flow({ broker: url(), protocol: 'both', deviceName: EDGE }), credentials);
    const out: Array<{ topic?: string }> = [];
    helper.getNode('mqtt').on('input', (msg: { topic?: string }) => out.push(msg));
    await waitFor(() => seen.published.some((p) => p.topic === `spBv1.0/plant/NBIRTH/${EDGE}`), 'the NBIRTH');
    // A UNS command for a module this Node-RED does not have: refused on its reply topic, output 1.
    helper.getNode('pub').receive({ topic: `plant/${EDGE}/io/2/command`, payload: { id: 'c1', op: 'io-output', payload: {} } });
    await waitFor(() => out.some((m) => m.topic === `plant/${EDGE}/io/2/reply`), 'the UNS reply');
  });

  for (const [settings, said] of [
    [{ broker: 'http://127.0.0.1:1883' }, 'Broker URL must be mqtt://host[:port] or mqtts://host[:port], at most 1024 characters, got "http://127.0.0.1:1883"'],
    [
      { broker: `mqtt://user:${PASSWORD}@127.0.0.1:1883` },
      'Broker URL must not hold a username or password (put them in Username and Password), got "mqtt://127.0.0.1:1883"',
    ],
    [{ broker: 'mqtt://127.0.0.1:1883', group: 'plant/#' }, `Group id must be 1 to 64 letters, digits, '.', '_' or '-', got "plant/#"`],
    [{ broker: 'mqtt://127.0.0.1:1883', edgeNode: '' }, `Edge node id must be 1 to 64 letters, digits, '.', '_' or '-', got ""`],
    [{ broker: 'mqtt://127.0.0.1:1883', primaryHost: 'scada+1' }, 'Primary host id must be empty (no primary host) or 1 to 64'],
    [{ broker: 'mqtt://127.0.0.1:1883', protocol: 'opc' }, 'Protocol must be one of uns, sparkplug, both, got "opc"'],
  ] as Array<[Record<string, unknown>, string]>) {
    it(`refuses ${JSON.stringify(settings)}: the field named, a red status, no connection`, async () => {
      await helper.load(NODES, flow(settings), credentials);
      await waitFor(() => errors().some((e) => e.includes(said)), `the error "${said}"`);
      lastStatus(helper.getNode('pub'))!.should.containEql({ fill: 'red', shape: 'ring', text: 'invalid settings' });
      logged().should.not.containEql(PASSWORD);
      seen.connects.should.eql([]);
    });
  }

  it('a Node-RED that never turns Sparkplug on loads neither mqtt.js nor protobufjs', () => {
    // Our own modules are one file (scripts/bundle-runtime.js), each evaluated when first
    // required: what shows is which packages were loaded, and that fleet-publish was.
    const script = `require(${JSON.stringify(path.join(__dirname, '..', '..', 'nodes', 'fleet-publish.js'))});
      const loaded = Object.keys(require.cache).filter((f) => /node_modules[\\\\/](mqtt|protobufjs)[\\\\/]/.test(f) || f.endsWith('fleet-publish.js'));
      process.stdout.write(JSON.stringify(loaded));`;
    const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    run.status!.should.equal(0, run.stderr);
    JSON.parse(run.stdout).should.eql([path.join(__dirname, '..', '..', 'nodes', 'fleet-publish.js')]);
  });
});
