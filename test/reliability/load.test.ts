/**
 * Ordering, load, memory and redeploys:
 *  - 10,000 writes alternating over the six pins and both states leave in arrival order and
 *    the device ends in the state of the last msg per pin;
 *  - a burst of 100,000 msgs into one node keeps the heap bounded by the queue limit, and
 *    every refused msg is one QUEUE_FULL error at Catch (counted against the requests sent);
 *  - 50 deploys in a row (full, modified nodes, modified flows, a flow disabled and enabled
 *    again) leave no duplicated polling, no timers, sockets or listeners behind.
 *
 * Against the API under test (MD_API=1.0: the released services); the request log is read
 * in the spec's terms (test/helpers/api.ts specView), so one 1.0 notification round counts once.
 */
import should from 'should';
import { FlowNode, helper, sleep, waitConnected, waitFor } from '../helpers/node-red';
import { SimHarness, Simulator, startSimulator } from '../helpers/sim-control';
import { specView, TEST_API } from '../helpers/api';
import {
  ALL_MODULES,
  attach,
  deploy,
  dropSpyHistory,
  grown,
  guardProcess,
  kindDevices,
  loadCollect,
  reliabilityFlow,
  resources,
  runtime,
  settledHeap,
} from '../helpers/reliability';
import { deviceNode } from '../helpers/node-red';

const MB = 1024 * 1024;

describe(`reliability: ordering, load, memory and redeploys (runtime, simulator, API ${TEST_API})`, function () {
  this.timeout(180000);
  guardProcess();
  let sim: Simulator;
  let ctl: SimHarness;
  const figures: string[] = [];

  before(async () => {
    sim = await startSimulator({ port: 0, logCapacity: 20000, api: TEST_API });
    ctl = new SimHarness(sim);
    await helper.startServer();
  });
  after(async () => {
    await helper.stopServer();
    await sim.close();
    console.log(`      [reliability] load: ${figures.join('; ')}`);
  });
  beforeEach(async () => {
    await ctl.reset();
    await ctl.powerConfig(2);
    await ctl.clearLog();
  });
  afterEach(async () => {
    await helper.unload();
  });

  // A msg's timeout bounds its wait in the queue: the flood below keeps msgs
  // queued for longer than the default 5 s, and this suite is about order, memory and
  // refusals, so it gives them a timeout longer than the flood (deadlines: hung-device.test.ts).
  const output = (queueLimit: number) =>
    reliabilityFlow(
      [
        {
          id: 'out',
          type: 'io-output',
          device: 'dev',
          pin: '1',
          mode: 'state',
          state: 'low',
          pwmInput: 'raw',
          prescaler: '47',
          period: '1000',
          time_on: '500',
        },
      ],
      [deviceNode({ id: 'dev', url: sim.url, service: 'io', slot: 2, queueLimit, timeout: 120000 })],
    );

  it('10,000 writes alternating over pins and states: arrival order on the wire, the last msg per pin wins', async () => {
    const N = 10000;
    const outcomes = await loadCollect(output(N));
    await waitConnected('dev');
    await ctl.clearLog();
    const plan = Array.from({ length: N }, (_, n) => {
      const pin = (n % 6) + 1;
      // Alternates per pin, with a phase per pin so the final states differ between pins.
      const state = (Math.floor(n / 6) + pin) % 2 ? 'high' : 'low';
      return { pin, state };
    });
    const start = Date.now();
    plan.forEach((payload, n) => helper.getNode('out').receive({ payload: { ...payload }, n, _msgid: `order-${n}` }));
    await waitFor(() => outcomes.errors + outcomes.completes >= N, `${N} msgs to end`, 120000, 50);
    const ms = Date.now() - start;
    outcomes.errors.should.equal(0);
    outcomes
      .sent('out')
      .map((m) => m.n)
      .should.eql(
        plan.map((_, n) => n),
        'outputs in msg order',
      );
    // The connection's health checks read the version root meanwhile: only writes count here.
    const log = specView(sim.log.entries()).filter((e) => e.path.endsWith('/output/state'));
    log.should.have.length(N);
    log
      .map((e) => JSON.stringify(e.body))
      .should.eql(
        plan.map((p) => JSON.stringify(p)),
        'requests on the wire in msg order',
      );
    log.every((e) => e.status === 200).should.be.true();
    for (let pin = 1; pin <= 6; pin++) {
      const last = [...plan].reverse().find((p) => p.pin === pin)!;
      (await ctl.pinState(2, pin)).output.should.equal(last.state, `pin ${pin}`);
    }
    figures.push(`10,000 alternating writes in order in ${(ms / 1000).toFixed(1)} s (${Math.round(N / (ms / 1000))} msgs/s)`);
  });

  it('a burst of 100,000 msgs into one node: heap bounded by the queue limit, every overflow one QUEUE_FULL error', async () => {
    const N = 100000;
    const LIMIT = 1000;
    const CHUNK = 1000;
    const outcomes = await loadCollect(output(LIMIT), {}, ALL_MODULES, { keep: false });
    await waitConnected('dev');
    // Warm up the path once so the baseline includes compiled code and a warm socket.
    helper.getNode('out').receive({ payload: true });
    await waitFor(() => outcomes.completes === 1, 'the warm-up msg');
    await ctl.clearLog();
    dropSpyHistory();
    const baseline = settledHeap();
    // Retained heap (after a full GC) every 10 chunks, and the raw heap (garbage included) every chunk.
    let retained = baseline;
    let raw = baseline;
    const start = Date.now();
    for (let sent = 0, chunk = 0; sent < N; sent += CHUNK, chunk++) {
      for (let i = 0; i < CHUNK; i++) {
        const n = sent + i;
        helper.getNode('out').receive({ payload: { pin: (n % 6) + 1, state: n % 2 ? 'high' : 'low' }, n });
      }
      // As a flow delivers them: the next chunk after the event loop turned once.
      await new Promise((resolve) => setImmediate(resolve));
      dropSpyHistory();
      raw = Math.max(raw, process.memoryUsage().heapUsed);
      if (chunk % 10 === 9) retained = Math.max(retained, settledHeap());
    }
    await waitFor(() => outcomes.errors + outcomes.completes >= N + 1, `${N} msgs to end`, 120000, 50);
    const ms = Date.now() - start;
    dropSpyHistory();
    const after = settledHeap();
    const accepted = outcomes.completes - 1;
    const refused = outcomes.errorCodes.get('QUEUE_FULL') ?? 0;
    // Any third ending is a defect, and the message names it: a count of 99,998 once was two
    // TIMEOUTs of answers that had reached the socket in time but were read after the deadline
    // (this flood keeps the event loop busy, and timers run before the poll phase that reads).
    (accepted + refused).should.equal(N, `every msg ended once: sent or refused (${accepted} sent; errors: ${outcomes.errorSummary()})`);
    outcomes.errors.should.equal(refused, `no error but QUEUE_FULL (errors: ${outcomes.errorSummary()})`);
    const writes = () => specView(sim.log.entries()).filter((e) => e.path.endsWith('/output/state')).length;
    await waitFor(() => writes() >= accepted, 'the log to show every request', 5000);
    writes().should.equal(accepted, 'requests on the wire = msgs accepted');
    accepted.should.be.aboveOrEqual(LIMIT);
    const growth = (retained - baseline) / MB;
    const left = (after - baseline) / MB;
    growth.should.be.below(50, `retained heap grew ${growth.toFixed(1)} MB during the burst`);
    left.should.be.below(10, `heap left after the burst: ${left.toFixed(1)} MB`);
    figures.push(
      `100,000-msg burst (queue limit ${LIMIT}) in ${(ms / 1000).toFixed(1)} s: ${accepted} sent, ${refused} refused with QUEUE_FULL (sum ${accepted + refused}), ` +
        `retained heap at most +${growth.toFixed(1)} MB during it (raw peak with garbage +${((raw - baseline) / MB).toFixed(1)} MB), +${left.toFixed(1)} MB after it`,
    );
  });

  describe('redeploys', () => {
    const A = 'tab-a';
    const B = 'tab-b';
    const POLLED = ['/notification', '/input/values', '/watchdog/alive', '/voltage', '/stats'];

    function flow(variant: { name?: string; bmcTimeout?: number; bName?: string; aDisabled?: boolean } = {}): FlowNode[] {
      const devices = kindDevices(sim.url);
      const byId = (id: string) => devices.find((d) => d.id === id)!;
      const dev = [byId('dev-io'), { ...byId('dev-bmc'), timeout: String(variant.bmcTimeout ?? 5000) }, byId('dev-power')];
      const node = (z: string, y: number, n: Record<string, unknown> & { id: string; type: string }): FlowNode => ({ name: '', z, x: 200, y, wires: [], ...n });
      return [
        { id: A, type: 'tab', label: 'io', disabled: variant.aDisabled ?? false },
        { id: B, type: 'tab', label: 'bmc and power' },
        ...dev,
        node(A, 40, {
          id: 'poll',
          type: 'notification-poll',
          device: 'dev-io',
          interval: '100',
          pins: '',
          alerts: '',
          combined: false,
          name: variant.name ?? '',
        }),
        node(A, 80, {
          id: 'read',
          type: 'io-read',
          device: 'dev-io',
          source: 'values',
          pin: 'all',
          interval: '200',
          onlyOnChange: false,
          deadband: '0',
          output: 'record',
        }),
        node(A, 120, {
          id: 'power',
          type: 'io-power',
          device: 'dev-io',
          pins: [1, 2, 3, 4, 5, 6].map(() => ({ rail: '5_volt', current: '100' })),
          applyOnConnect: true,
        }),
        node(A, 160, {
          id: 'out',
          type: 'io-output',
          device: 'dev-io',
          pin: '1',
          mode: 'state',
          state: 'high',
          pwmInput: 'raw',
          prescaler: '47',
          period: '1000',
          time_on: '500',
        }),
        node(B, 40, {
          id: 'dog',
          type: 'bmc-watchdog',
          device: 'dev-bmc',
          operation: 'read',
          timeout: '60000',
          keepAlive: true,
          interval: '200',
          confirm: true,
          swShutdownTimeout: '60000',
        }),
        node(B, 80, {
          id: 'bmcr',
          type: 'bmc-readings',
          device: 'dev-bmc',
          voltage: true,
          temperature: true,
          interval: '200',
          deadband: '0',
          onlyOnChange: false,
          output: 'record',
          name: variant.bName ?? '',
        }),
        node(B, 120, {
          id: 'pwr',
          type: 'power-readings',
          device: 'dev-power',
          stats: true,
          interval: '200',
          deadband: '0',
          onlyOnChange: false,
          output: 'record',
        }),
      ];
    }

    /** Requests per polled path over `ms`, after the flows settled. */
    async function rate(ms = 2000): Promise<Record<string, number>> {
      await sleep(800);
      const from = sim.log.entries().length ? sim.log.entries()[sim.log.entries().length - 1].seq : 0;
      await sleep(ms);
      const entries = specView(sim.log.entries(from));
      return Object.fromEntries(POLLED.map((p) => [p, entries.filter((e) => e.path.endsWith(p)).length]));
    }

    function listeners(): Record<string, number> {
      const counts: Record<string, number> = {};
      for (const name of process.eventNames()) counts[`process:${String(name)}`] = process.listenerCount(name);
      const events = runtime().events;
      for (const name of events.eventNames()) counts[`runtime:${String(name)}`] = events.listenerCount(name);
      return counts;
    }

    it('50 deploys in a row (full, modified nodes, modified flows, a flow disabled and enabled): no duplicated polling, no leaks', async () => {
      const idle = await resources();
      const idleListeners = listeners();
      await loadCollect(flow());
      for (const id of ['dev-io', 'dev-bmc', 'dev-power']) await waitConnected(id);
      const before = await rate();
      const running = await resources();
      const runningListeners = listeners();

      const DEPLOYS = 50;
      const kinds: Record<string, number> = {};
      const start = Date.now();
      for (let i = 0; i < DEPLOYS; i++) {
        const step = i % 5;
        // 0 full; 1 modified nodes (one node); 2 modified nodes (a config node: its users restart);
        // 3 modified flows (tab B restarts); 4 modified flows with tab A disabled (enabled again by 0).
        const [variant, type] = (
          [
            [{}, 'full'],
            [{ name: `poll ${i}` }, 'nodes'],
            [{ name: `poll ${i}`, bmcTimeout: 4000 + i }, 'nodes'],
            [{ name: `poll ${i}`, bmcTimeout: 4000 + i, bName: `readings ${i}` }, 'flows'],
            [{ name: `poll ${i}`, bmcTimeout: 4000 + i, bName: `readings ${i}`, aDisabled: true }, 'flows'],
          ] as const
        )[step];
        await deploy(flow(variant), type);
        kinds[`${type}${step === 4 ? ' (disable)' : ''}`] = (kinds[`${type}${step === 4 ? ' (disable)' : ''}`] ?? 0) + 1;
        await sleep(20 + (i % 3) * 60); // deploys land while requests are in flight
      }
      // Back to the first flow (tab A enabled again), as a modified-flows deploy.
      await deploy(flow(), 'flows');
      const ms = Date.now() - start;
      for (const id of ['dev-io', 'dev-bmc', 'dev-power']) await waitConnected(id);
      attach(flow()); // the flow runs and answers msgs after all that
      const after = await rate();
      for (const path of POLLED) {
        after[path].should.be.belowOrEqual(
          Math.ceil(before[path] * 1.3) + 2,
          `${path}: ${before[path]} per 2 s before, ${after[path]} after (duplicated polling?)`,
        );
        after[path].should.be.aboveOrEqual(Math.floor(before[path] * 0.6), `${path}: ${before[path]} before, ${after[path]} after (polling stopped?)`);
      }
      // The same timers and at most the same sockets as the first deploy (a socket may be
      // mid-handshake). Closed config nodes let their last reads finish (bounded by the
      // timeout) before their sockets go, which on a busy machine can outlast the last deploy:
      // wait for it to settle. A leak never settles.
      let grew: string[] = [];
      await waitFor(async () => (grew = grown(running, await resources(), 2)).length === 0, 'resources as after the first deploy', 8000).catch(() => {
        throw new Error(`resources running after 50 deploys vs after the first: ${grew.join(', ')}`);
      });
      should(grown(runningListeners, listeners(), 0)).eql([], 'listeners after 50 deploys vs after the first');

      await helper.unload();
      await sleep(300);
      let left: string[] = [];
      await waitFor(
        async () => (left = grown(idle, await resources(), 0)).length === 0,
        'resources back to what they were before the first deploy',
        8000,
      ).catch(() => {
        throw new Error(`still active after stopping: ${left.join(', ')}`);
      });
      should(grown(idleListeners, listeners(), 0)).eql([], 'listeners after stopping');
      await helper.load(ALL_MODULES, [deviceNode({ url: sim.url })]); // afterEach unloads it again
      const show = (r: Record<string, number>) => POLLED.map((p) => `${p.slice(1)} ${r[p]}`).join(', ');
      figures.push(
        `${DEPLOYS + 1} deploys (${Object.entries(kinds)
          .map(([k, v]) => `${v} ${k}`)
          .join(', ')}, 1 back to the start) in ${(ms / 1000).toFixed(1)} s: ` +
          `polls per 2 s before [${show(before)}], after [${show(after)}]; active resources ${JSON.stringify(running)} running, back to ${JSON.stringify(idle)} when stopped`,
      );
    });
  });
});
