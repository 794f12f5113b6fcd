/**
 * Hostile device answers: every node kind, the config node's health check and both admin
 * routes against a device on loopback that answers with oversized bodies (with and without
 * Content-Length), a body that trickles, error bodies crafted for regex backtracking or
 * made of megabytes of markup, deep JSON, huge strings and arrays, wrong content types, a
 * redirect, and broken HTTP (test/helpers/hostile-device.ts).
 *
 * For each: every msg ends exactly once, with BAD_RESPONSE at Catch; nothing reaches an
 * output (each node is wired to two nodes, so Node-RED clones every msg it sends); no
 * uncaught exception or unhandled rejection (guardProcess); the node answers a healthy
 * request right after; the health check shows a short red status; the admin routes answer
 * 502 with a short, printable error. The event loop's longest delay during each attack is
 * measured and printed (not asserted: these machines are shared; answer.test.ts shows
 * structurally that device text is read only up to a bound).
 */
import should from 'should';
import { monitorEventLoopDelay } from 'perf_hooks';
import { ATTACKS, HostileDevice, startHostileDevice } from '../helpers/hostile-device';
import { FlowNode, helper, lastStatus, waitFor } from '../helpers/node-red';
import { fire, guardProcess, isGreen, Kind, kindDevices, KINDS, kindNode, loadCollect, reliabilityFlow, settle, waitAllStatus } from '../helpers/reliability';

/** Each kind as a msg-driven node: no polling, nothing applied on connect, no keep-alive. */
const QUIET: Record<string, Record<string, unknown>> = {
  'io-power': { applyOnConnect: false },
  'io-threshold': { applyOnConnect: false },
  'io-input': { applyOnConnect: false },
  'io-read': { interval: '0' },
  'notification-poll': { interval: '3600000' },
  'bmc-watchdog': { operation: 'read', keepAlive: false },
  'bmc-readings': { interval: '0' },
  'power-readings': { interval: '0' },
};
const KINDS_QUIET: Kind[] = KINDS.map((k) => ({ ...k, settings: { ...k.settings, ...QUIET[k.type] } }));
// Long enough that a loaded machine still sees the status line of every attack in time
// (at 400 ms an endless chunked body once ended as TIMEOUT instead of BAD_RESPONSE).
const TIMEOUT_MS = 1500;

/** The reliability flow with every action node wired to a second helper too, so each sent msg is cloned. */
function flowFor(url: string): FlowNode[] {
  const flow = reliabilityFlow(KINDS_QUIET.map(kindNode), kindDevices(url, { apiVersion: '0.9', timeout: TIMEOUT_MS }));
  for (const node of [...flow]) {
    if (!KINDS_QUIET.some((k) => k.type === node.id)) continue;
    (node.wires as string[][])[0].push(`${node.id}-clone`);
    flow.push({ id: `${node.id}-clone`, type: 'helper', z: node.z, wires: [] });
  }
  return flow;
}

/** Runs `work` with the event loop's delay monitored; resolves with the longest delay in ms. */
async function longestDelay(work: () => Promise<void>): Promise<number> {
  const monitor = monitorEventLoopDelay({ resolution: 10 });
  monitor.enable();
  try {
    await work();
  } finally {
    monitor.disable();
  }
  return monitor.max / 1e6;
}

describe('reliability: hostile device answers (runtime, hostile server on loopback)', function () {
  this.timeout(60000);
  guardProcess();
  let device: HostileDevice;
  const delays: Array<[string, number]> = [];
  let baseline = 0;

  before(async () => {
    device = await startHostileDevice();
    await helper.startServer();
  });
  after(async () => {
    await helper.stopServer();
    await device.close();
    const worst = delays.reduce((a, b) => (b[1] > a[1] ? b : a), ['none', 0] as [string, number]);
    const sorted = delays.map(([, ms]) => ms).sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
    console.log(
      `      [hostile] ${delays.length} attack runs; longest event-loop delay: median ${median.toFixed(0)} ms, worst ${worst[1].toFixed(0)} ms (${worst[0]}); ` +
        `the same flow against a healthy device: ${baseline.toFixed(0)} ms`,
    );
  });
  afterEach(async () => {
    await helper.unload();
    device.attack = undefined;
    device.attackRoot = false;
  });

  it('baseline: the same flow against a plain device (each msg ends once; the event-loop delay to compare with)', async () => {
    const outcomes = await loadCollect(flowFor(device.url));
    await waitAllStatus(
      KINDS_QUIET.map((k) => k.type),
      isGreen,
      'every node connected',
    );
    baseline = await longestDelay(async () => {
      const ids = fire(
        KINDS_QUIET.map((k) => [k.type, k.msg()]),
        'healthy',
      );
      await settle(
        outcomes,
        KINDS_QUIET.map((k, i) => [k.type, ids[i]]),
        20000,
      );
    });
    // The plain answer suits most nodes; a few refuse it (a missing field): either way each msg ended once.
    outcomes.completed.length.should.be.above(KINDS_QUIET.length / 2);
  });

  for (const attack of ATTACKS) {
    describe(attack.name, () => {
      it('every node kind: each msg ends once at Catch, BAD_RESPONSE (or NOT_SENT / TIMEOUT when its timeout ran out in the queue); nothing is sent on; the next healthy answer passes', async () => {
        const flow = flowFor(device.url);
        const outcomes = await loadCollect(flow);
        await waitAllStatus(
          KINDS_QUIET.map((k) => k.type),
          isGreen,
          'every node connected',
        );
        // notification-poll reads when it starts and again when its module connects, in the
        // turn its dot turns green. A read still on its way when the attack begins meets it
        // too and announces a second loss (a fresh clone's full run saw that once). So its
        // polling stops, and one healthy read, queued behind any earlier one on the module's
        // one queue, ends before the attack.
        const quiet = fire(
          [
            ['notification-poll', { payload: 'stop' }],
            ['notification-poll', { payload: 'now' }],
          ],
          'before',
        );
        await settle(
          outcomes,
          quiet.map((id) => ['notification-poll', id]),
        );
        outcomes.outputs.should.equal(0, 'the reads before the attack found nothing to send');
        device.attack = attack;
        let sent: Array<[string, string]> = [];
        const ms = await longestDelay(async () => {
          const ids = fire(
            KINDS_QUIET.map((k) => [k.type, k.msg()]),
            'hostile',
          );
          sent = KINDS_QUIET.map((k, i) => [k.type, ids[i]]);
          await settle(outcomes, sent, 20000);
        });
        delays.push([`${attack.name}, nodes`, ms]);
        // Nodes on one module queue behind each other, and a msg's timeout bounds its wait:
        // one whose turn came after its timeout ends NOT_SENT, never having reached the
        // device; one whose turn came with a sliver of its time left ends TIMEOUT. Every
        // other one met the attack and ends BAD_RESPONSE.
        for (const [node, msgid] of sent) {
          const caught = outcomes.caught.filter((m) => m._msgid === msgid);
          caught.length.should.equal(1, `${node}: one outcome at Catch`);
          ['BAD_RESPONSE', 'NOT_SENT', 'TIMEOUT'].includes(String(caught[0].error.code)).should.be.true(`${node}: ${caught[0].error.message}`);
          caught[0].error.message.length.should.be.below(400, `${node}: a short message`);
        }
        const met = sent.filter(([, msgid]) => outcomes.caught.some((m) => m._msgid === msgid && m.error.code === 'BAD_RESPONSE'));
        met.length.should.be.above(0, 'the attack itself was met (the first msg on each module)');
        // No answer reached an output. notification-poll's read may have cleared flags on
        // the device before its answer went bad: it announces that (notifications-lost),
        // once for its msg, and Node-RED clones it to both wires.
        const out = [...outcomes.out.values()].flat();
        out.every((m) => m.topic === 'notifications-lost').should.be.true(`only loss announcements reached an output: ${out.map((m) => m.topic).join(', ')}`);
        outcomes.outputs.should.be.belowOrEqual(
          2,
          `no msg reached an output but one announcement (two wires); reached: ${out.map((m) => `${m.topic} (${(m.payload as { reason?: string })?.reason})`).join(', ')}`,
        );

        // Node-RED and the connection are fine: a healthy answer passes at once.
        device.attack = undefined;
        const [id] = fire([['io-output', { payload: { pin: 1, state: 'high' } }]], 'healthy');
        await settle(outcomes, [['io-output', id]]);
        outcomes
          .sent('io-output')
          .map((m) => m._msgid)
          .should.eql([id]);
      });

      it('the health check shows a short red status; Discover and Test answer 502 with a short printable error', async () => {
        device.attack = attack;
        device.attackRoot = true;
        const flow = flowFor(device.url).map((n) => (n.type === 'modular-device' ? { ...n, apiVersion: 'auto' } : n));
        const ms = await longestDelay(async () => {
          await loadCollect(flow);
          await waitFor(() => lastStatus(helper.getNode('io-output'))?.fill === 'red', 'io-output red', 10000);
          const discover = await helper.request().post('/modular-device/discover').send({ url: device.url });
          discover.status.should.equal(502);
          const test = await helper
            .request()
            .post('/modular-device/test')
            .send({ url: device.url, service: 'io', slot: '2', timeout: String(TIMEOUT_MS) });
          test.status.should.equal(502);
          for (const text of [discover.body.error, ...Object.values(discover.body.errors as Record<string, string>), test.body.error]) {
            should(text).be.a.String();
            text.length.should.be.belowOrEqual(300);
            text.should.not.match(/[\u0000-\u001f\u007f]/);
          }
          should(JSON.stringify(discover.body).length).be.below(2000);
        });
        delays.push([`${attack.name}, health/admin`, ms]);
        const status = lastStatus(helper.getNode('io-output'))!;
        status.should.have.properties({ fill: 'red', shape: 'ring' });
        status.text!.length.should.be.belowOrEqual(60);
      });
    });
  }
});
