/**
 * bmc-watchdog's built-in keep-alive against the simulator: the interval bound at deploy,
 * confirm required (it arms the watchdog: without confirm nothing is sent, ever), the
 * timeout set on connect and shown armed in the status over several timeouts, the device
 * resetting once the flow is closed, one Catch msg per outage, and the timeout set again
 * after the device came back.
 */
import 'should';
import {
  apiPath,
  SERVICE_DOWN_STATUS,
  deviceRequests,
  expectRefused,
  needsConfirm,
  simModule,
  WATCHDOG_CONFIRM,
  watchdogNode as watchdog,
  wireSince,
} from '../helpers/bmc-power';
import { lastSeq, loadActions, requestsTo, waitRequests } from '../helpers/io-nodes';
import { expectCode, helper, sleep, statusHistory, waitFor, waitStatus } from '../helpers/node-red';
import { runtimeSuite } from '../helpers/runtime-suite';
import { wirePath, wireRequest } from '../helpers/api';

const WD = apiPath('bmc', 'watchdog');

describe('bmc-watchdog keep-alive (runtime, simulator)', function () {
  this.timeout(30000);
  const { sim, ctl } = runtimeSuite({ server: true });

  it('without "confirm" it is a settings problem: red status at deploy, nothing sent on connect or later, every msg refused', async () => {
    const outcomes = await loadActions(ctl.url, [watchdog({ keepAlive: true, timeout: '2000', interval: '200' })], { service: 'bmc' });
    const message = needsConfirm('bmc-watchdog', 'keep-alive', WATCHDOG_CONFIRM);
    await waitStatus('wd', 'red', 'ring', '"keep-alive" refused: tick "Allow this node');
    // Several intervals: neither the on-connect timeout nor any alive round went out.
    await sleep(1000);
    (await wireSince(ctl)).should.eql([], 'nothing reached the watchdog');
    await expectRefused(ctl, outcomes, 'wd', { operation: 'read' }, message);
    (await simModule(ctl, 'bmc')).watchdog.timeoutMs.should.equal(0);
    // With confirm the same node arms the watchdog on connect and keeps it alive.
    await helper.unload();
    await ctl.clearLog();
    await loadActions(ctl.url, [watchdog({ keepAlive: true, confirm: true, timeout: '20000', interval: '200' })], { service: 'bmc' });
    await waitRequests(ctl, '/watchdog/alive', 2);
    (await wireSince(ctl))[0].should.eql(['POST', WD, { timeout: 20000 }]);
    (await simModule(ctl, 'bmc')).watchdog.timeoutMs.should.equal(20000);
  });

  it('an interval above timeout / 2 is refused at deploy: red status, every msg fails, nothing sent', async () => {
    const outcomes = await loadActions(ctl.url, [watchdog({ keepAlive: true, confirm: true, timeout: '2000', interval: '1001' })], { service: 'bmc' });
    const message = 'Send alive every (interval) must be an integer from 100 to 1000 ms, got 1001';
    await waitStatus('wd', 'red', 'ring', 'Send alive every (interval) must be an integer');
    await expectRefused(ctl, outcomes, 'wd', { operation: 'read' }, message);
    await expectRefused(ctl, outcomes, 'wd', { operation: 'alive' }, message);
    (await wireSince(ctl)).should.eql([], 'neither the timeout nor any alive was sent');
    (await simModule(ctl, 'bmc')).watchdog.timeoutMs.should.equal(0);
  });

  it('a timeout of 0 with keep-alive on is refused at deploy', async () => {
    const outcomes = await loadActions(ctl.url, [watchdog({ keepAlive: true, confirm: true, timeout: '0', interval: '500' })], { service: 'bmc' });
    await waitStatus('wd', 'red', 'ring', 'Timeout (timeout) must not be 0 (off) while keep-alive is on');
    await expectRefused(ctl, outcomes, 'wd', { payload: 1 }, 'Timeout (timeout) must not be 0 (off) while keep-alive is on');
    (await wireSince(ctl)).should.eql([]);
  });

  it('sets the timeout on connect, keeps it armed over 3 timeouts, and the device resets once closed', async () => {
    const TIMEOUT = 2000;
    const outcomes = await loadActions(ctl.url, [watchdog({ keepAlive: true, confirm: true, timeout: String(TIMEOUT), interval: '500' })], { service: 'bmc' });
    await waitRequests(ctl, '/watchdog/alive', 1);
    // The first request of the node sets the timeout; the alive rounds follow it.
    const first = (await deviceRequests(ctl))[0];
    [first.method, first.path, first.body, first.status].should.eql(['POST', WD, { timeout: TIMEOUT }, 200]);

    // Watch the device over three timeouts: the watchdog stays armed and never runs out.
    const start = Date.now();
    const since = await lastSeq(ctl);
    let minLeft = Infinity;
    let samples = 0;
    while (Date.now() - start < 3 * TIMEOUT + 200) {
      const bmc = await simModule(ctl, 'bmc');
      bmc.resets.should.equal(0, 'the device must not reset while the keep-alive runs');
      bmc.watchdog.timeoutMs.should.equal(TIMEOUT);
      minLeft = Math.min(minLeft, bmc.watchdog.leftMs);
      samples++;
      await sleep(50);
    }
    minLeft.should.be.above(0);
    samples.should.be.above(10);
    const alive = await requestsTo(ctl, '/watchdog/alive', since);
    alive.length.should.be.aboveOrEqual(5, 'about 12 alive rounds in 6 s at 500 ms');
    alive.every((e) => e.status === 200).should.be.true();
    // No alive gap reaches the timeout (a loaded machine may stretch rounds, not by 4x).
    for (let i = 1; i < alive.length; i++) (alive[i].time - alive[i - 1].time).should.be.below(TIMEOUT);
    // Each round reads the state for the status: the interval and the timeout the device armed.
    const armed = statusHistory(helper.getNode('wd'))
      .map((s) => /^alive every (\d+) ms, timeout (\d+) ms$/.exec(s.text ?? ''))
      .filter((m): m is RegExpExecArray => !!m)
      .map((m) => Number(m[2]));
    armed.length.should.be.above(0);
    armed.every((timeout) => timeout === TIMEOUT).should.be.true();
    outcomes.caught.should.have.length(0);
    // Keep-alive rounds send no msgs (only the on-connect POST's answer may have gone out).
    outcomes.sent('wd').length.should.be.belowOrEqual(1, 'keep-alive rounds send no msgs');
    outcomes.sent('wd').forEach((m) => m.request!.should.eql(wireRequest({ method: 'POST', path: WD, body: { timeout: TIMEOUT } })));

    // Close the flow: the keep-alive stops and the watchdog resets the device.
    await helper.unload();
    await waitFor(async () => (await simModule(ctl, 'bmc')).resets >= 1, 'the watchdog to reset the device', TIMEOUT + 5000, 50);
    const after = await simModule(ctl, 'bmc');
    after.lastReset.cause.should.equal('watchdog expired');
    const lastAlive = (await requestsTo(ctl, '/watchdog/alive')).pop()!;
    // The reset is due exactly one timeout after the last alive the device saw.
    (after.lastReset.at - lastAlive.time).should.be.within(TIMEOUT - 20, TIMEOUT + 50);
    after.resets.should.equal(1);
    after.watchdog.timeoutMs.should.equal(0, 'after the reset the unsaved timeout is off');
  });

  it('a failing keep-alive is reported at once, exactly once per outage, and recovers', async () => {
    // A long timeout so the device does not reset during the outages.
    const outcomes = await loadActions(ctl.url, [watchdog({ keepAlive: true, confirm: true, timeout: '30000', interval: '200' })], { service: 'bmc' });
    await waitStatus('wd', 'green', 'dot', /^alive every \d+ ms, timeout \d+ ms$/);

    for (let outage = 1; outage <= 2; outage++) {
      const since = await lastSeq(ctl);
      const down = Date.now();
      await ctl.serviceDown('bmc');
      await waitFor(() => outcomes.caught.length >= outage, `the Catch msg of outage ${outage}`, 5000);
      (Date.now() - down).should.be.below(3000, 'reported at the next round, not later');
      // Several more rounds fail; none adds a Catch msg.
      await waitFor(async () => (await requestsTo(ctl, '/watchdog/alive', since)).filter((e) => e.status === 502).length >= 4, '4 failed rounds', 5000, 20);
      outcomes.caught.should.have.length(outage, `exactly one Catch msg for outage ${outage}`);
      const error = outcomes.caught[outage - 1].error;
      error.source.id.should.equal('wd');
      expectCode(error, 'DEVICE_ERROR');
      error.cause!.should.containEql({ statusCode: 502, method: 'GET', path: wirePath(`${WD}/alive`) });
      await waitStatus('wd', 'red', 'ring', SERVICE_DOWN_STATUS);
      // The pace is kept while failing (no backoff for a keep-alive).
      const failed = (await requestsTo(ctl, '/watchdog/alive', since)).filter((e) => e.status === 502);
      (failed[failed.length - 1].time - failed[0].time).should.be.below(3 * 1000);

      await ctl.serviceUp('bmc');
      await waitStatus('wd', 'green', 'dot', /^alive every \d+ ms, timeout \d+ ms$/);
    }
    const bmc = await simModule(ctl, 'bmc');
    bmc.resets.should.equal(0);
    bmc.watchdog.timeoutMs.should.equal(30000);
    outcomes.caught.should.have.length(2);
  });

  // Found while writing these tests: the timeout was only ever set on (re)connect, so a
  // failed on-connect POST (a 500 from the driver, no connection drop) left the device
  // unguarded with every alive refused. The round now re-arms on "not enabled".
  it('a failed on-connect timeout is set again by the keep-alive, which then runs', async () => {
    // The device refuses the first POST watchdog (a transient driver error); nothing else fails.
    await ctl.fault({ path: WD, method: 'POST', status: 500, message: 'Internal driver communication failed: failed', count: 1 });
    const outcomes = await loadActions(ctl.url, [watchdog({ keepAlive: true, confirm: true, timeout: '20000', interval: '200' })], { service: 'bmc' });
    await waitFor(() => outcomes.caught.length >= 1, 'the failed on-connect setting at Catch', 5000);
    outcomes.caught[0].error.cause!.should.containEql({ statusCode: 500, method: 'POST', path: wirePath(WD) });
    await waitFor(async () => (await simModule(ctl, 'bmc')).watchdog.timeoutMs === 20000, 'the watchdog to be armed after all', 5000, 50);
    const since = await lastSeq(ctl);
    await waitRequests(ctl, '/watchdog/alive', 3, since);
    (await requestsTo(ctl, '/watchdog/alive', since)).every((e) => e.status === 200).should.be.true();
  });

  it('sets the timeout again when the device comes back after a restart', async () => {
    const outcomes = await loadActions(ctl.url, [watchdog({ keepAlive: true, confirm: true, timeout: '20000', interval: '200' })], { service: 'bmc' });
    await waitRequests(ctl, '/watchdog/alive', 1);
    await sim.pause();
    await waitStatus('wd', 'red', 'ring', /unreachable|connection refused/);
    sim.restart(); // factory state: the watchdog is off
    await ctl.clearLog().catch(() => undefined);
    await sim.resume();
    await ctl.clearLog();
    await waitFor(async () => (await simModule(ctl, 'bmc')).watchdog.timeoutMs === 20000, 'the timeout to be set again', 10000, 50);
    const since = await lastSeq(ctl);
    await waitRequests(ctl, '/watchdog/alive', 2, since);
    (await requestsTo(ctl, '/watchdog/alive', since)).every((e) => e.status === 200).should.be.true();
    // Set again on the reconnection (and, racing it, by a round re-arming after "not enabled").
    const posts = (await wireSince(ctl)).filter((r) => r[0] === 'POST');
    posts.length.should.be.within(1, 2);
    posts.forEach((r) => r.should.eql(['POST', WD, { timeout: 20000 }]));
    await waitStatus('wd', 'green', 'dot', /^alive every \d+ ms, timeout \d+ ms$/);
    outcomes.caught.length.should.be.aboveOrEqual(1, 'the outage was reported');
  });
});
