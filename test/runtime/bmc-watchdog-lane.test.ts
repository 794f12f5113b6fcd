/**
 * The keep-alive never waits behind the module's other requests. A watchdog that
 * misses its alive hard-resets the whole device, and the module's queue is one FIFO: one
 * slow answer (within the timeout) or a flood of reads there used to push the gap between
 * alives past the watchdog timeout. Now alives have a lane of their own, and when one is
 * late anyway the node says so (a yellow status and a `keepalive-late` msg) before the
 * device resets.
 *
 * The gap between alives is read from the simulator's request log (receipt times); the
 * bound asserted is the watchdog timeout itself (the device reset or it did not), far
 * above the interval the gaps really show, so a busy machine does not flip it.
 */
import should from 'should';
import { apiPath, simModule, watchdogNode as watchdog } from '../helpers/bmc-power';
import { loadActionsQuiet, requestsTo, waitRequests } from '../helpers/io-nodes';
import { sleep, statusHistory, helper, waitFor } from '../helpers/node-red';
import { SimHarness } from '../helpers/sim-control';
import { runtimeSuite } from '../helpers/runtime-suite';
import { wirePath } from '../helpers/api';

const TIMEOUT_MS = 2000;
const INTERVAL_MS = 300;

function readings(): Record<string, unknown> & { id: string; type: string } {
  return { id: 'rd', type: 'bmc-readings', voltage: true, temperature: true, interval: '0', deadband: '0', onlyOnChange: false, output: 'record' };
}

/** Largest gap (ms) between consecutive alives after `since`, and how many there were. */
async function aliveGaps(ctl: SimHarness, since: number): Promise<{ count: number; largest: number }> {
  const alives = await requestsTo(ctl, '/watchdog/alive', since);
  let largest = 0;
  for (let i = 1; i < alives.length; i++) largest = Math.max(largest, alives[i].time - alives[i - 1].time);
  return { count: alives.length, largest };
}

describe('bmc-watchdog keep-alive lane (runtime, simulator)', function () {
  this.timeout(30000);
  const { ctl } = runtimeSuite();

  it('a slow, flooded module: alives keep their pace, the device never resets', async () => {
    await loadActionsQuiet(ctl, [watchdog({ keepAlive: true, confirm: true, timeout: String(TIMEOUT_MS), interval: String(INTERVAL_MS) }), readings()], {
      service: 'bmc',
    });
    await waitRequests(ctl, '/watchdog/alive', 2);
    const resetsBefore = (await simModule(ctl, 'bmc')).resets;
    const since = (await ctl.log()).slice(-1)[0]?.seq ?? 0;
    // Each reading answers after 1.5 s (within the 5 s request timeout); 12 of them queue
    // 18 s of work on the module's FIFO, nine watchdog timeouts' worth.
    await ctl.fault({ path: wirePath(apiPath('bmc', 'voltage')), latency_ms: 1500, count: 12 });
    const rd = helper.getNode('rd');
    for (let i = 0; i < 12; i++) rd.receive({ payload: {} });
    await sleep(3 * TIMEOUT_MS);
    const gaps = await aliveGaps(ctl, since);
    console.log(
      `      [lane] ${gaps.count} alives in ${3 * TIMEOUT_MS} ms under a slow flood; largest gap ${gaps.largest} ms (interval ${INTERVAL_MS}, watchdog ${TIMEOUT_MS})`,
    );
    gaps.count.should.be.above(3, 'alives kept going');
    gaps.largest.should.be.below(TIMEOUT_MS, 'no gap as long as the watchdog timeout');
    (await simModule(ctl, 'bmc')).resets.should.equal(resetsBefore, 'the watchdog never reset the device');
  });

  it('an alive late anyway: a yellow status and a keepalive-late msg before the device would reset', async () => {
    const outcomes = await loadActionsQuiet(ctl, [watchdog({ keepAlive: true, confirm: true, timeout: String(TIMEOUT_MS), interval: String(INTERVAL_MS) })], {
      service: 'bmc',
    });
    await waitRequests(ctl, '/watchdog/alive', 2);
    // One alive answered after 1.6 s: late (after 1.15 s) but before the 2 s reset.
    await ctl.fault({ path: wirePath(apiPath('bmc', 'watchdog/alive')), latency_ms: 1600, count: 1 });
    await waitFor(() => outcomes.sent('wd').some((m) => m.topic === 'keepalive-late'), 'a keepalive-late msg', 5000);
    const late = outcomes.sent('wd').find((m) => m.topic === 'keepalive-late')!;
    const payload = late.payload as { since_ms: number; timeout_ms: number; reset_in_ms: number };
    payload.timeout_ms.should.equal(TIMEOUT_MS);
    payload.since_ms.should.be.within(1, TIMEOUT_MS);
    (payload.since_ms + payload.reset_in_ms).should.equal(TIMEOUT_MS);
    statusHistory(helper.getNode('wd'))
      .some((s) => s.fill === 'yellow' && /^keep-alive late: \d+ ms, reset in \d+ ms$/.test(s.text ?? ''))
      .should.be.true();
    // The late alive went through in time; the keep-alive goes on, green again.
    await waitFor(() => statusHistory(helper.getNode('wd')).slice(-1)[0]?.fill === 'green', 'green again', 5000);
    should(outcomes.caught).have.length(0);
  });
});
