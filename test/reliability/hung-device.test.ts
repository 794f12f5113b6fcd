/**
 * A hung device: the simulator freezes (its `hang` fault: connections accepted,
 * requests read, nothing processed or answered, as under SIGSTOP) while io-output writes
 * arrive every 200 ms (timeout 1000 ms, queue limit 10) and a notification-poll polls the
 * same module. Before, msgs waited behind requests that each took the whole timeout and the
 * device, once it woke, received a burst of writes issued up to 20 s earlier.
 *
 * Causal checks, from the arrival times the test records, the simulator's receive log and
 * the times the msgs ended (no speed is asserted):
 *  - no write reaches the device more than its msg's timeout after the msg arrived, and
 *    none after its msg ended;
 *  - every msg ends exactly once (its output, or one error at Catch); a msg that ended
 *    unsent (NOT_SENT, QUEUE_FULL) sent nothing, one with an output was answered;
 *  - the msgs waiting behind a request the device did not answer end at once with "the
 *    device did not answer: N msgs not sent";
 *  - every node is green again within the connection's backoff once the device answers.
 */
import should from 'should';
import { BACKOFF } from '../../nodes/lib/config-node/connection';
import { TEST_API } from '../helpers/api';
import { lastSeq } from '../helpers/io-nodes';
import { deviceNode, FlowNode, helper, lastStatus, sleep, statusHistory, waitFor } from '../helpers/node-red';
import { runtimeSuite } from '../helpers/runtime-suite';
import { fire, guardProcess, isGreen, loadCollect, reliabilityFlow, settle, waitAllStatus } from '../helpers/reliability';
import type { NodeMessage } from '../../nodes/lib/base/node-red';

const TIMEOUT_MS = 1000;
const EVERY_MS = 200;
const HANG_MSGS = 20; // 4 s of a frozen device
const NODES = ['io-power', 'io-output', 'notification-poll'];
const SIX = [1, 2, 3, 4, 5, 6].map(() => ({ rail: '5_volt', current: '100' }));

function flow(url: string): FlowNode[] {
  return reliabilityFlow(
    [
      { id: 'io-power', type: 'io-power', device: 'dev-io', pins: SIX, applyOnConnect: true },
      {
        id: 'io-output',
        type: 'io-output',
        device: 'dev-io',
        pin: '1',
        mode: 'pwm',
        pwmInput: 'raw',
        prescaler: '47',
        period: '1000',
        time_on: '500',
        state: 'high',
      },
      { id: 'notification-poll', type: 'notification-poll', device: 'dev-io', interval: '200', pins: '', alerts: '', combined: false },
    ],
    [deviceNode({ id: 'dev-io', url, service: 'io', slot: 2, timeout: TIMEOUT_MS, queueLimit: 10 })],
  );
}

describe(`reliability: a hung device, writes every ${EVERY_MS} ms (runtime, simulator, API ${TEST_API})`, function () {
  this.timeout(90000);
  guardProcess();
  const { sim, ctl } = runtimeSuite({ server: true });

  it('no write reaches the device after its msg timed out, the msgs behind a silent request end at once, all green again after', async () => {
    const outcomes = await loadCollect(flow(sim.url));
    await waitAllStatus(NODES, isGreen, 'every node green', 15000);
    await waitFor(
      async () => (await ctl.log()).some((e) => e.path.endsWith('/power-management') && e.status === 200),
      'the power configuration applied',
      10000,
    );
    const since = await lastSeq(ctl);

    // When each msg arrived and ended (Date.now, the simulator's log clock: same process).
    const arrived = new Map<string, number>();
    const ended = new Map<string, number>();
    const stamp = (msg: NodeMessage) => {
      if (msg._msgid && !ended.has(msg._msgid)) ended.set(msg._msgid, Date.now());
    };
    helper.getNode('caught').on('input', stamp);
    helper.getNode('completed').on('input', stamp);
    const sent: Array<[string, string]> = [];
    /** Msg n sets PWM with time_on n: its write is recognised in the log. */
    const write = async () => {
      const n = sent.length + 1;
      const msg = { payload: { pin: 1, prescaler: 47, period: 1000, time_on: n } };
      const at = Date.now();
      const [id] = fire([['io-output', msg]], 'hang');
      arrived.set(id, at);
      sent.push(['io-output', id]);
      await sleep(EVERY_MS);
    };

    for (let i = 0; i < 5; i++) await write();
    await ctl.fault({ path: '*', hang: true });
    for (let i = 0; i < HANG_MSGS; i++) await write();
    await ctl.clearFaults();
    const woke = Date.now();
    // Writes keep arriving while the module recovers: within the backoff the connection
    // has reached (it doubles up to BACKOFF.maxMs) and one request timeout.
    const bound = BACKOFF.maxMs + TIMEOUT_MS;
    for (let i = 0; i < bound / EVERY_MS && !NODES.every((id) => isGreen(lastStatus(helper.getNode(id)))); i++) await write();
    const green = Date.now() - woke;
    // Green again means something: each node said the device was gone meanwhile.
    for (const id of ['io-output', 'notification-poll'])
      statusHistory(helper.getNode(id))
        .some((st) => st.fill === 'red')
        .should.be.true(`${id} red while the device hung`);
    await waitAllStatus(NODES, isGreen, 'every node green again after the device answers', 1000);
    const firstAfter = sent.length;
    for (let i = 0; i < 5; i++) await write();

    const fates = await settle(outcomes, sent, 2 * TIMEOUT_MS + 5000);
    const fateOf = new Map(fates.map((f) => [f.id, f]));
    const idOf = (timeOn: number) => sent[timeOn - 1][1];
    const writes = (await ctl.log(since)).filter((e) => e.method === 'POST' && e.path.endsWith('/output/pwm'));

    let latest = 0;
    const seen = new Set<string>();
    for (const w of writes) {
      const id = idOf((w.body as { time_on: number }).time_on);
      seen.has(id).should.be.false(`msg ${id}'s write reached the device twice`);
      seen.add(id);
      const age = w.time - arrived.get(id)!;
      latest = Math.max(latest, age);
      age.should.not.be.above(TIMEOUT_MS, `msg ${id}'s write reached the device ${age} ms after the msg arrived (timeout ${TIMEOUT_MS} ms)`);
      w.time.should.not.be.above(ended.get(id)!, `msg ${id}'s write reached the device after the msg had ended`);
    }
    const codes = new Map<string, number>();
    for (const [, id] of sent) {
      const fate = fateOf.get(id)!;
      const code = fate.errors[0]?.error?.code ?? 'output';
      codes.set(code, (codes.get(code) ?? 0) + 1);
      if (code === 'NOT_SENT' || code === 'QUEUE_FULL') seen.has(id).should.be.false(`msg ${id} ended ${code} but its write reached the device`);
      if (code === 'output')
        should(writes.find((w) => idOf((w.body as { time_on: number }).time_on) === id)?.status).equal(200, `msg ${id} has an output: its write was answered`);
    }
    const notAnswered = fates.flatMap((f) => f.errors).filter((e) => /the device did not answer: \d+ msgs? not sent \(/.test(e.error.message ?? ''));
    notAnswered.length.should.be.above(0, 'msgs waiting behind a request the device did not answer ended at once');
    // Once green again, the device answers every write.
    for (const [, id] of sent.slice(firstAfter)) should(fateOf.get(id)!.outputs).have.length(1, `msg ${id} after the recovery`);
    const burst = writes.filter((w) => w.time >= woke && w.time < woke + 3000).length;
    console.log(
      `      [reliability] hung device (${TEST_API}): ${sent.length} msgs, ${[...codes].map(([c, n]) => `${c} ${n}`).join(', ')}; ` +
        `${writes.length} writes reached the device, the latest ${latest} ms after its msg (timeout ${TIMEOUT_MS}); ` +
        `${burst} writes in the 3 s after waking; all green ${green} ms after the device answered again`,
    );
  });
});
