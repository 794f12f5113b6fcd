/**
 * The connection state as metrics and the fleet hear it, on the real runtime against the
 * simulator, the nginx fake (its 502 when a service is down, its 401), an HTTPS front of the
 * test's own and closed ports: a module driven into each state the connection can take, TLS
 * included, shows 1 on that state's series of the scraped gauge and 0 on every other; and a
 * user's request answered 502 by nginx, or refused at the port, moves the module to down or
 * unreachable at once, with the health check minutes away.
 */
import net from 'net';
import 'should';
import { deviceNode, FlowNode, helper, NodeModule, waitFor, withHealthInterval } from '../helpers/node-red';
import { closedPort, SimHarness, Simulator, startSimulator } from '../helpers/sim-control';
import { TEST_API } from '../helpers/api';
import { ALL_MODULES, fire, loadCollect, reliabilityFlow, serverSuite, settle, TLS_MODULE } from '../helpers/reliability';
import { makePki, startTlsFront, TlsFront, tlsConfigNode, tlsCredentials } from '../helpers/tls';
import { CONNECTION_STATES, ConnectionStateName } from '../../nodes/lib/config-node/connection-state';
import { LIMITS } from '../../nodes/lib/pure/limits';
import { subscribe } from '../../nodes/lib/config-node/health';
import metricsPlugin = require('../../nodes/modular-device-metrics');

const parsePrometheus = require('parse-prometheus-text-format') as (text: string) => Array<{
  name: string;
  metrics: Array<{ value?: string; labels?: Record<string, string> }>;
}>;

/** Loads the metrics plugin (its route) beside the nodes. */
const MODULES: NodeModule[] = [TLS_MODULE, ...ALL_MODULES, metricsPlugin as NodeModule];

/** A server that takes connections and never answers: a probe to it stays on the wire. */
function startSilent(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      const close = () =>
        new Promise<void>((done) => {
          server.close(() => done());
          for (const s of sockets) s.destroy();
        });
      resolve({ url: `http://127.0.0.1:${port}`, close });
    });
  });
}

/** The connection_state series of one config node's module, by state, from one scrape. */
async function scrapedStates(id: string): Promise<Record<string, string>> {
  const module = helper.getNode(id).connection.healthModule as { device: string; service: string; slot: number };
  const scrape = await helper.request().get('/modular-device/metrics');
  scrape.status.should.equal(200, scrape.text);
  const gauge = parsePrometheus(scrape.text).find((f) => f.name === 'modular_device_connection_state');
  const own = (gauge?.metrics ?? []).filter(
    (m) => m.labels?.device === module.device && m.labels?.service === module.service && m.labels?.slot === String(module.slot),
  );
  return Object.fromEntries(own.map((m) => [m.labels!.state, m.value!]));
}

const READ: FlowNode = {
  id: 'read',
  type: 'io-read',
  device: 'dev',
  source: 'values',
  pin: 'all',
  interval: '0',
  onlyOnChange: false,
  deadband: '0',
  output: 'record',
};

describe(`reliability: connection states in metrics, and down or unreachable at once (API ${TEST_API})`, function () {
  this.timeout(30000);
  serverSuite();
  // The health check never comes within a test: what moves a state here is the request path.
  withHealthInterval(LIMITS.health_interval_ms.max);
  let sim: Simulator;
  let ctl: SimHarness;
  let guarded: Simulator;
  let front: TlsFront;
  let silent: { url: string; close(): Promise<void> };

  before(async () => {
    sim = await startSimulator({ port: 0, api: TEST_API, nginx: true });
    ctl = new SimHarness(sim);
    guarded = await startSimulator({ port: 0, api: TEST_API, nginx: true, auth: { username: 'plant', password: 'right' } });
    const pki = await makePki();
    // Its certificate's CA is not given: TLS refuses it.
    front = await startTlsFront(sim.url, { key: pki.leaf.private, cert: pki.leaf.cert });
    silent = await startSilent();
  });
  after(async () => {
    await silent?.close();
    await front?.close();
    await guarded?.close();
    await sim?.close();
  });
  afterEach(async () => {
    await ctl.serviceUp('io');
    await ctl.serviceUp('power');
  });

  it('a module in each state shows 1 on that series and 0 on every other, TLS included (scraped)', async () => {
    await ctl.serviceDown('power');
    const devices: Array<{ expect: ConnectionStateName; node: FlowNode }> = [
      // Its probe is still on the wire (the device accepted and says nothing, the timeout is the longest).
      { expect: 'connecting', node: deviceNode({ id: 'm-connecting', url: silent.url, timeout: LIMITS.request_timeout.max }) },
      { expect: 'connected', node: deviceNode({ id: 'm-connected', url: sim.url }) },
      { expect: 'unreachable', node: deviceNode({ id: 'm-unreachable', url: `http://127.0.0.1:${await closedPort()}` }) },
      { expect: 'down', node: deviceNode({ id: 'm-down', url: sim.url, service: 'power', slot: 1 }) },
      { expect: 'refused', node: deviceNode({ id: 'm-refused', url: guarded.url, auth: 'basic' }) },
      { expect: 'tls', node: { ...deviceNode({ id: 'm-tls', url: front.url }), tls: 'plant-tls' } },
      { expect: 'incompatible', node: deviceNode({ id: 'm-incompatible', url: sim.url, slot: 5 }) },
    ];
    // A config node that cannot be made (its settings refused) has no connection and no
    // module to count: 'invalid' is told to its nodes only, and is the one state not driven here.
    CONNECTION_STATES.filter((s) => !devices.some((d) => d.expect === s)).should.eql(['invalid']);
    await loadCollect(
      reliabilityFlow([], [tlsConfigNode('plant-tls'), ...devices.map((d) => d.node)]),
      { 'plant-tls': tlsCredentials(), 'm-refused': { username: 'plant', password: 'wrong' } },
      MODULES,
    );
    const stateOf = (d: { node: FlowNode }): string => helper.getNode(d.node.id).connection.state.state;
    await waitFor(() => devices.every((d) => stateOf(d) === d.expect), 'every module in its state', 20000, 20).catch((error: Error) => {
      throw new Error(`${error.message}: ${devices.map((d) => `${d.node.id} ${stateOf(d)}`).join(', ')}`);
    });
    for (const d of devices) {
      const series = await scrapedStates(d.node.id);
      Object.keys(series)
        .sort()
        .should.eql([...CONNECTION_STATES].sort(), `${d.node.id}: a series per state`);
      Object.keys(series)
        .filter((s) => series[s] === '1')
        .should.eql([d.expect], `${d.node.id}: 1 on its state only`);
    }
  });

  it('a request answered 502 by nginx (its service down): the module is down at once, before any health check', async () => {
    const outcomes = await loadCollect(reliabilityFlow([READ], [deviceNode({ id: 'dev', url: sim.url })]), {}, MODULES);
    await waitFor(() => helper.getNode('dev').connection.state.state === 'connected', 'connected', 10000);
    await ctl.serviceDown('io');
    await ctl.clearLog();
    // What fleet-publish hears (its retained module state): the health bus's connection events.
    const heard: string[] = [];
    const stop = subscribe((e) => e.kind === 'connection' && e.module.config === 'dev' && heard.push(String(e.detail?.state)));
    const [fate] = await settle(outcomes, [['read', fire([['read', { payload: {} }]])[0]]]).finally(stop);
    fate.errors.should.have.length(1);
    fate.errors[0].error.message.should.match(/failed: 502 Bad Gateway$/);
    // Told on the answer's way to Catch: the state was down before the msg's error arrived.
    helper.getNode('dev').connection.state.should.containEql({ state: 'down' });
    heard[0].should.equal('down');
    (await scrapedStates('dev')).should.containEql({ down: '1', connected: '0' });
    // The read was the first to meet the outage: no health check had read the version root.
    const [first] = await ctl.wireLog();
    first.should.containEql({ method: 'GET', status: 502 });
    first.path.should.match(/\/input\//);
  });

  it('a request refused at the port (connection refused): the module is unreachable at once, before any health check', async () => {
    const outcomes = await loadCollect(reliabilityFlow([READ], [deviceNode({ id: 'dev', url: sim.url })]), {}, MODULES);
    await waitFor(() => helper.getNode('dev').connection.state.state === 'connected', 'connected', 10000);
    await sim.pause();
    try {
      const [fate] = await settle(outcomes, [['read', fire([['read', { payload: {} }]])[0]]]);
      fate.errors.should.have.length(1);
      fate.errors[0].error.message.should.match(/connection refused/);
      helper.getNode('dev').connection.state.should.containEql({ state: 'unreachable' });
      (await scrapedStates('dev')).should.containEql({ unreachable: '1', connected: '0' });
    } finally {
      await sim.resume();
    }
  });
});
