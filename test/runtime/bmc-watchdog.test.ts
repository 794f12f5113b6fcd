/**
 * bmc-watchdog against the simulator: every operation on the wire (msg.operation and
 * msg.payload overrides, bare defaults from the settings), every validation failure (one
 * error at Catch, nothing sent), device error statuses, and the keep-alive: the interval
 * bound at deploy, the timeout set on connect, timeout_left never reaching 0 over several
 * timeouts, the device resetting once the flow is closed, one Catch msg per outage, and the
 * timeout set again after the device came back.
 */
import should from 'should';
import { apiPath, deviceErrorStatus, deviceRequests, expectFailed, expectRefused, loadBmcPower, sendOk, sendOne, simModule, wireSince } from '../helpers/bmc-power';
import { lastSeq, requestsTo, waitRequests } from '../helpers/io-nodes';
import { expectCode, helper, sleep, statusHistory, waitFor, waitStatus } from '../helpers/node-red';
import { SimControl, Simulator, simulatorSuite } from '../helpers/sim-control';
import { wirePath, wireRequest } from '../helpers/api';

const WD = apiPath('bmc', 'watchdog');

describe('bmc-watchdog (runtime, simulator)', function () {
  this.timeout(30000);
  let sim: Simulator;
  let ctl: SimControl;
  simulatorSuite((s, c) => {
    sim = s;
    ctl = c;
  }, { server: true });

  const watchdog = (settings: Record<string, unknown> = {}) => ({
    id: 'wd',
    type: 'bmc-watchdog',
    operation: 'read',
    timeout: '',
    swShutdownTimeout: '',
    confirm: false,
    keepAlive: false,
    interval: '',
    ...settings,
  });

  describe('operations', () => {
    it('msg.operation and msg.payload.timeout choose the request: timeout, read, alive, save, sw_shutdown_timeout', async () => {
      const outcomes = await loadBmcPower(ctl, 'bmc', [watchdog()]);
      const set = await sendOne(outcomes, 'wd', { operation: 'timeout', payload: { timeout: 5000 }, topic: 't1' });
      set.payload!.should.eql({ status: 'success' });
      should(set.topic).equal('t1');
      set.request!.should.eql(wireRequest({ method: 'POST', path: WD, body: { timeout: 5000 } }));

      const read = await sendOne(outcomes, 'wd', { operation: 'read' });
      const state = read.payload as Record<string, unknown>;
      Object.keys(state).sort().should.eql(['emergency_mode', 'shutdown_timeout', 'timeout', 'timeout_left']);
      state.timeout!.should.equal(5000);
      (state.timeout_left as number).should.be.within(1, 5000);
      state.shutdown_timeout!.should.equal(30000);
      state.emergency_mode!.should.equal(false);
      await waitStatus('wd', 'green', 'dot', /^timeout 5000 ms, left \d+ ms$/);

      await sendOne(outcomes, 'wd', { operation: 'alive' });
      await sendOne(outcomes, 'wd', { operation: 'save' });
      await sendOne(outcomes, 'wd', { operation: 'sw_shutdown_timeout', payload: { timeout: 45000 } });
      await sendOne(outcomes, 'wd', { operation: 'timeout', payload: { timeout: 0 } });
      await waitStatus('wd', 'green', 'dot', 'watchdog off');

      (await wireSince(ctl)).should.eql([
        ['POST', WD, { timeout: 5000 }],
        ['GET', WD, null],
        ['GET', `${WD}/alive`, null],
        ['GET', `${WD}/save`, null],
        ['POST', `${WD}/sw_shutdown_timeout`, { timeout: 45000 }],
        ['POST', WD, { timeout: 0 }],
      ]);
      const bmc = await simModule(ctl, 'bmc');
      bmc.persistent.savedWatchdogMs.should.equal(5000);
      bmc.persistent.swShutdownMs.should.equal(45000);
      bmc.watchdog.timeoutMs.should.equal(0);
      outcomes.caught.should.have.length(0);
    });

    it('bare msgs use the settings: timeout, sw_shutdown_timeout (default 60000), read by default', async () => {
      const outcomes = await loadBmcPower(ctl, 'bmc', [
        watchdog({ id: 'set', operation: 'timeout', timeout: '3000' }),
        watchdog({ id: 'sw', operation: 'sw_shutdown_timeout' }),
        watchdog({ id: 'plain', operation: '' }),
      ]);
      await sendOk(outcomes, 'set', { payload: 1732170000000 });
      await sendOk(outcomes, 'sw', { payload: '' });
      await sendOk(outcomes, 'plain', { payload: true });
      (await wireSince(ctl)).should.eql([
        ['POST', WD, { timeout: 3000 }],
        ['POST', `${WD}/sw_shutdown_timeout`, { timeout: 60000 }],
        ['GET', WD, null],
      ]);
    });

    it('shutdown is refused without "confirm" and sent as {shutdown: "start"} with it', async () => {
      const outcomes = await loadBmcPower(ctl, 'bmc', [watchdog({ id: 'no', operation: 'shutdown' }), watchdog({ id: 'yes', operation: 'shutdown', confirm: true })]);
      await expectRefused(ctl, outcomes, 'no', { payload: true }, /^shutdown refused: turn on "confirm"/);
      await expectRefused(ctl, outcomes, 'no', { operation: 'shutdown', payload: { shutdown: 'start' } }, /^shutdown refused/);
      await waitStatus('no', 'red', 'ring', 'shutdown refused');
      should((await simModule(ctl, 'bmc')).shutdown.at).be.null();

      await sendOk(outcomes, 'yes', { payload: true });
      (await wireSince(ctl)).should.eql([['POST', `${WD}/shutdown`, { shutdown: 'start' }]]);
      const bmc = await simModule(ctl, 'bmc');
      should(bmc.shutdown.at).be.a.Number();
      bmc.shutdown.leftMs.should.be.within(1, 30000);
      outcomes.caught.should.have.length(2);
    });
  });

  describe('validation (one error at Catch, nothing sent)', () => {
    it('refuses timeouts outside 0 or 1000..600000, non-integers, strings and unknown operations', async () => {
      const outcomes = await loadBmcPower(ctl, 'bmc', [watchdog({ operation: 'timeout', timeout: '2000' })]);
      const range = 'timeout must be 0 or an integer from 1000 to 600000 ms';
      await expectRefused(ctl, outcomes, 'wd', { payload: { timeout: 999 } }, `${range}, got 999`);
      await expectRefused(ctl, outcomes, 'wd', { payload: { timeout: 600001 } }, `${range}, got 600001`);
      await expectRefused(ctl, outcomes, 'wd', { payload: { timeout: 1 } }, `${range}, got 1`);
      await expectRefused(ctl, outcomes, 'wd', { payload: { timeout: 1500.5 } }, `${range}, got 1500.5`);
      await expectRefused(ctl, outcomes, 'wd', { payload: { timeout: '5000' } }, `${range}, got "5000"`);
      await expectRefused(ctl, outcomes, 'wd', { payload: { timeout: -1000 } }, `${range}, got -1000`);
      const sw = 'timeout must be an integer from 10000 to 600000 ms';
      await expectRefused(ctl, outcomes, 'wd', { operation: 'sw_shutdown_timeout', payload: { timeout: 9999 } }, `${sw}, got 9999`);
      await expectRefused(ctl, outcomes, 'wd', { operation: 'sw_shutdown_timeout', payload: { timeout: 600001 } }, `${sw}, got 600001`);
      await expectRefused(ctl, outcomes, 'wd', { operation: 'reboot' }, 'operation must be one of read, timeout, alive, save, shutdown, sw_shutdown_timeout, got "reboot"');
      await waitStatus('wd', 'red', 'ring', 'operation must be one of');
      outcomes.caught.should.have.length(9);
      // The bounds themselves pass.
      await sendOk(outcomes, 'wd', { payload: { timeout: 1000 } });
      await sendOk(outcomes, 'wd', { payload: { timeout: 600000 } });
      await sendOk(outcomes, 'wd', { operation: 'sw_shutdown_timeout', payload: { timeout: 10000 } });
      (await wireSince(ctl)).map((r) => r[2]).should.eql([{ timeout: 1000 }, { timeout: 600000 }, { timeout: 10000 }]);
    });

    it('a bad timeout in the settings is refused for every msg', async () => {
      const outcomes = await loadBmcPower(ctl, 'bmc', [watchdog({ operation: 'timeout', timeout: '500' })]);
      await expectRefused(ctl, outcomes, 'wd', { payload: 1 }, 'timeout must be 0 or an integer from 1000 to 600000 ms, got 500');
    });
  });

  describe('device errors', () => {
    it('alive while the watchdog is off: DEVICE_ERROR 500 with the device message, red status', async () => {
      const outcomes = await loadBmcPower(ctl, 'bmc', [watchdog({ operation: 'alive' })]);
      const caught = await expectFailed(outcomes, 'wd', { payload: true, topic: 'kick' });
      expectCode(caught.error, 'DEVICE_ERROR');
      caught.error.cause!.should.containEql({
        statusCode: 500,
        deviceMessage: 'Internal driver communication failed: watchdog timeout not enabled',
        method: 'GET',
        path: wirePath(`${WD}/alive`),
      });
      should(caught.topic).equal('kick');
      await waitStatus('wd', 'red', 'ring', deviceErrorStatus(500, 'Internal driver communication failed'));
      (await deviceRequests(ctl)).map((e) => [e.path, e.status]).should.eql([[`${WD}/alive`, 500]]);
    });

    it('a config node for the power module is refused at deploy: nothing reaches the power service', async () => {
      const outcomes = await loadBmcPower(ctl, 'power', [watchdog({ keepAlive: true, timeout: '2000', interval: '500' })], { clearLog: false });
      await waitStatus('wd', 'red', 'ring', /needs a module of the bmc service/);
      const caught = await expectFailed(outcomes, 'wd', { payload: true });
      caught.error.message.should.match(/needs a module of the bmc service, the chosen config node is for power/);
      (await wireSince(ctl)).should.eql([], 'no keep-alive sent to the power service');
    });

    it('bmc service down (nginx 502): DEVICE_ERROR 502 Bad Gateway', async () => {
      const outcomes = await loadBmcPower(ctl, 'bmc', [watchdog()]);
      await ctl.serviceDown('bmc');
      const caught = await expectFailed(outcomes, 'wd', { payload: true });
      expectCode(caught.error, 'DEVICE_ERROR');
      caught.error.cause!.should.containEql({ statusCode: 502, deviceMessage: '502 Bad Gateway', method: 'GET', path: wirePath(WD) });
      await waitStatus('wd', 'red', 'ring', deviceErrorStatus(502));
      outcomes.caught.should.have.length(1);
    });
  });

  describe('keep-alive', () => {
    it('an interval above timeout / 2 is refused at deploy: red status, every msg fails, nothing sent', async () => {
      const outcomes = await loadBmcPower(ctl, 'bmc', [watchdog({ keepAlive: true, timeout: '2000', interval: '1001' })], { clearLog: false });
      const message = 'keep-alive interval must be an integer from 100 to 1000 ms, got 1001';
      await waitStatus('wd', 'red', 'ring', 'keep-alive interval must be an integer from 100 to 1000');
      await expectRefused(ctl, outcomes, 'wd', { operation: 'read' }, message);
      await expectRefused(ctl, outcomes, 'wd', { operation: 'alive' }, message);
      (await wireSince(ctl)).should.eql([], 'neither the timeout nor any alive was sent');
      (await simModule(ctl, 'bmc')).watchdog.timeoutMs.should.equal(0);
    });

    it('a timeout of 0 with keep-alive on is refused at deploy', async () => {
      const outcomes = await loadBmcPower(ctl, 'bmc', [watchdog({ keepAlive: true, timeout: '0', interval: '500' })], { clearLog: false });
      await waitStatus('wd', 'red', 'ring', 'timeout must not be 0 (off) while keep-alive is on');
      await expectRefused(ctl, outcomes, 'wd', { payload: 1 }, 'timeout must not be 0 (off) while keep-alive is on');
      (await wireSince(ctl)).should.eql([]);
    });

    it('sets the timeout on connect, keeps timeout_left above 0 over 3 timeouts, and the device resets once closed', async () => {
      const TIMEOUT = 2000;
      const outcomes = await loadBmcPower(ctl, 'bmc', [watchdog({ keepAlive: true, timeout: String(TIMEOUT), interval: '500' })], { clearLog: false });
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
      // Each round reads the state for the status: timeout_left shown, never 0.
      const lefts = statusHistory(helper.getNode('wd'))
        .map((s) => /^alive, timeout_left (\d+) ms$/.exec(s.text ?? ''))
        .filter((m): m is RegExpExecArray => !!m)
        .map((m) => Number(m[1]));
      lefts.length.should.be.above(0);
      lefts.every((left) => left > 0 && left <= TIMEOUT).should.be.true();
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
      const outcomes = await loadBmcPower(ctl, 'bmc', [watchdog({ keepAlive: true, timeout: '30000', interval: '200' })], { clearLog: false });
      await waitStatus('wd', 'green', 'dot', /^alive, timeout_left \d+ ms$/);

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
        await waitStatus('wd', 'red', 'ring', deviceErrorStatus(502));
        // The pace is kept while failing (no backoff for a keep-alive).
        const failed = (await requestsTo(ctl, '/watchdog/alive', since)).filter((e) => e.status === 502);
        (failed[failed.length - 1].time - failed[0].time).should.be.below(3 * 1000);

        await ctl.serviceUp('bmc');
        await waitStatus('wd', 'green', 'dot', /^alive, timeout_left \d+ ms$/);
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
      const outcomes = await loadBmcPower(ctl, 'bmc', [watchdog({ keepAlive: true, timeout: '20000', interval: '200' })], { clearLog: false });
      await waitFor(() => outcomes.caught.length >= 1, 'the failed on-connect setting at Catch', 5000);
      outcomes.caught[0].error.cause!.should.containEql({ statusCode: 500, method: 'POST', path: wirePath(WD) });
      await waitFor(async () => (await simModule(ctl, 'bmc')).watchdog.timeoutMs === 20000, 'the watchdog to be armed after all', 5000, 50);
      const since = await lastSeq(ctl);
      await waitRequests(ctl, '/watchdog/alive', 3, since);
      (await requestsTo(ctl, '/watchdog/alive', since)).every((e) => e.status === 200).should.be.true();
    });

    it('sets the timeout again when the device comes back after a restart', async () => {
      const outcomes = await loadBmcPower(ctl, 'bmc', [watchdog({ keepAlive: true, timeout: '20000', interval: '200' })], { clearLog: false });
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
      await waitStatus('wd', 'green', 'dot', /^alive, timeout_left \d+ ms$/);
      outcomes.caught.length.should.be.aboveOrEqual(1, 'the outage was reported');
    });
  });
});
