/**
 * device-status and the metrics, on the real Node-RED runtime against the simulator: the
 * node hears the module's connection go and come back, the queue alarm of a flood, only
 * the config node it watches (or every one), only the kinds it is set to; the config node's
 * metric events reach Node-RED's log when metrics logging is on, and only then.
 */
import should from 'should';
import deviceStatus = require('../../nodes/device-status');
import {
  ALL_NODES,
  deviceNode,
  FlowNode,
  helper,
  inject,
  ioFlow,
  loadFlow,
  NODE_RED_MAIN,
  NodeModule,
  Received,
  TAB,
  waitConnected,
  waitFor,
  waitOutcomes,
  waitStatus,
} from '../helpers/node-red';
import { runtimeSuite } from '../helpers/runtime-suite';
import { TEST_API } from '../helpers/api';
import type { NodeMessage } from '../../nodes/lib/base/node-red';

const NODES: NodeModule[] = [...ALL_NODES, deviceStatus as NodeModule];

interface HealthMsg extends NodeMessage {
  topic: string;
  payload: { kind: string; module: Record<string, unknown>; cause: string; time: string; detail: Record<string, unknown> };
}

/** A device-status node `id` wired to a helper that collects its msgs. */
function statusNode(id: string, settings: Record<string, unknown>): FlowNode[] {
  return [
    { id, type: 'device-status', z: TAB, x: 100, y: 300, name: '', device: '', kinds: [], wires: [[`${id}-seen`]], ...settings },
    { id: `${id}-seen`, type: 'helper', z: TAB, x: 300, y: 300, wires: [] },
  ];
}

/** Loads the flow and collects what each device-status node sends, by node id. */
async function load(flow: FlowNode[], ids: string[]): Promise<{ seen: Record<string, HealthMsg[]>; received: Received }> {
  const received = await loadFlow(flow, {}, NODES);
  const seen: Record<string, HealthMsg[]> = {};
  for (const id of ids) {
    seen[id] = [];
    helper.getNode(`${id}-seen`).on('input', (msg: HealthMsg) => seen[id].push(msg));
  }
  return { seen, received };
}

const states = (msgs: HealthMsg[]) => msgs.filter((m) => m.topic === 'connection').map((m) => m.payload.detail.state);

describe('device-status (runtime, simulator)', function () {
  this.timeout(30000);
  const at = runtimeSuite({ powered: true });

  it('a connection change msg when the device goes away and comes back; status the last event', async () => {
    const { seen } = await load([...ioFlow({ url: at.sim.url }), ...statusNode('st', { device: 'dev' })], ['st']);
    await waitFor(() => states(seen.st).includes('connected'), 'the connected event');
    // The device stops listening: the next request fails to connect, and says so at once.
    await at.sim.pause();
    inject({ payload: true });
    await waitFor(() => states(seen.st).includes('unreachable'), 'the unreachable event');
    await waitStatus('st', 'red', 'ring', 'connection: unreachable');
    await at.sim.resume();
    await waitFor(() => states(seen.st).filter((s) => s === 'connected').length === 2, 'connected again');
    // The 'connecting' of the config node's start may come before this node listens.
    const said = states(seen.st);
    said.slice(said[0] === 'connecting' ? 1 : 0).should.eql(['connected', 'unreachable', 'connected']);
    const back = seen.st[seen.st.length - 1];
    back.topic.should.equal('connection');
    back.payload.module.should.eql({ config: 'dev', service: 'io', slot: 2, device: new URL(at.sim.url).host });
    back.payload.cause.should.equal(`connected (API ${TEST_API})`);
    back.payload.detail.should.eql({ state: 'connected', apiVersion: TEST_API });
    new Date(back.payload.time).toISOString().should.equal(back.payload.time);
    seen.st.find((m) => m.payload.detail.state === 'unreachable')!.payload.cause.should.match(/^unreachable: /);
    await waitStatus('st', 'green', 'dot', 'connection: connected');
  });

  it("a 'queue' msg when a flood fills more than 80 % of the queue limit, one when under half again; filtered by config node and kind", async () => {
    const flow: FlowNode[] = [
      ...ioFlow({ url: at.sim.url, queueLimit: 10 }),
      { ...deviceNode({ url: at.sim.url, slot: 3 }), id: 'dev3' },
      ...statusNode('watch-dev', { device: 'dev' }),
      ...statusNode('watch-dev3', { device: 'dev3' }),
      ...statusNode('every-queue', { device: '', kinds: ['queue'] }),
    ];
    const { seen, received } = await load(flow, ['watch-dev', 'watch-dev3', 'every-queue']);
    await waitConnected('dev');
    await waitConnected('dev3');
    // The first request is held, so the other nine wait behind it whatever the machine's pace.
    await at.ctl.fault({ path: 'output/state', latency_ms: 300, count: 1 });
    for (let i = 0; i < 10; i++) inject({ payload: i % 2 === 0 });
    await waitOutcomes(received, 10, 15000);
    await waitFor(() => seen['every-queue'].length === 2, 'the queue alarm raised and cleared');
    const queue = seen['every-queue'].map((m) => ({ topic: m.topic, config: m.payload.module.config, detail: m.payload.detail }));
    queue.should.eql([
      { topic: 'queue', config: 'dev', detail: { queued: 9, limit: 10, rise: 8, fall: 5 } },
      { topic: 'queue', config: 'dev', detail: { queued: 4, limit: 10, rise: 8, fall: 5 } },
    ]);
    seen['watch-dev'].filter((m) => m.topic === 'queue').should.have.length(2);
    // The other module's watcher heard its own connection, nothing of dev's flood.
    seen['watch-dev3'].every((m) => m.payload.module.config === 'dev3').should.be.true();
    states(seen['watch-dev3']).should.containEql('connected');
    seen['watch-dev3'].filter((m) => m.topic === 'queue').should.have.length(0);
  });

  describe('metrics', () => {
    const log: { init(settings: unknown): void; metric(): boolean } = require(NODE_RED_MAIN).log;
    const metricsOf = () =>
      (helper.log().args as unknown[][]).map((a) => a[0] as Record<string, unknown>).filter((m) => /^node\.modular-device\./.test(String(m.event)));
    after(() => log.init({ logging: { console: { level: 'off' } } }));

    it('per request, when metrics logging is on: request latency ms, error code, queue depth', async () => {
      // As settings.js `logging: {console: {metrics: true}}` does, with a handler that prints nothing.
      log.init({ logging: { quiet: { level: 'off', metrics: true, handler: () => () => undefined } } });
      log.metric().should.be.true();
      const received = await loadFlow(ioFlow({ url: at.sim.url }), {}, NODES);
      await waitConnected();
      await at.ctl.fault({ path: 'output/state', status: 500, message: 'broken', count: 1 });
      inject({ payload: true });
      inject({ payload: false });
      await waitOutcomes(received, 2);
      const metrics = metricsOf();
      const of = (event: string) => metrics.filter((m) => m.event === `node.modular-device.${event}`);
      // One `request` per exchange on the wire (version detection and the credential proof
      // included), one `error` per failed one: as the simulator logged them, in that order
      // (the simulator logs an exchange before the client hears its answer).
      const wire = (await at.ctl.wireLog()).slice(0, of('request').length);
      of('request').length.should.equal(wire.length).and.aboveOrEqual(4);
      for (const m of of('request')) {
        m.nodeid!.should.equal('dev');
        should(m.value).be.a.Number().and.aboveOrEqual(0);
      }
      // A 0.9 device's 400 to 1.0's version root is the probe's answer, not a failed exchange.
      const notSpoken = (e: { path: string; status: number }) => /^\/api\/io\/1\.0$/.test(e.path) && e.status === 400;
      of('error')
        .map((m) => m.value)
        .should.eql(wire.filter((e) => e.status >= 400 && !notSpoken(e)).map(() => 'DEVICE_ERROR'));
      of('error').length.should.be.aboveOrEqual(1);
      of('queue').length.should.equal(of('request').length);
      for (const m of of('queue')) should(m.value).be.a.Number().and.aboveOrEqual(0);
    });

    it('none when metrics logging is off', async () => {
      log.init({ logging: { console: { level: 'off' } } });
      log.metric().should.be.false();
      const received = await loadFlow(ioFlow({ url: at.sim.url }), {}, NODES);
      await waitConnected();
      inject({ payload: true });
      await waitOutcomes(received, 1);
      metricsOf().should.eql([]);
    });
  });
});
