/**
 * Faults, for every node kind at once: all fifteen action nodes deployed against one
 * simulator (io slot 2, io slot 3 for the reset, bmc, power), then the device goes down at
 * deploy, goes down mid-flow and comes back, answers slower than the timeout, answers 500,
 * resets connections, sends truncated or non-JSON bodies, and restarts.
 *
 * For each: every msg ends exactly once (its output or one error at Catch, never both,
 * never neither), every status turns red within one poll interval and green again once
 * the device is back, polling nodes resume by themselves (no redeploy), and no unhandled
 * rejection or uncaught exception occurs (guardProcess fails the test on one).
 *
 * Against the API under test (MD_API=1.0: the released services, as `npm test`'s api-1.0
 * step runs it); expectations are in the spec's terms (test/helpers/api.ts).
 */
import should from 'should';
import { POLL_BACKOFF_MAX_MS } from '../../nodes/lib/action/poller';
import { device, helper, sleep, waitFor, withHealthInterval } from '../helpers/node-red';
import { ActionDef, lastSeq, loadActions, raiseAlert, send, SETTING_ACTIONS, settingsInPlace } from '../helpers/io-nodes';
import { runtimeSuite } from '../helpers/runtime-suite';
import { subscribe } from '../../nodes/lib/config-node/health';
import { BACKOFF } from '../../nodes/lib/config-node/connection';
import { IS_API10, TEST_API, wirePath } from '../helpers/api';
import {
  Counted,
  fire,
  guardProcess,
  isGreen,
  isRed,
  Kind,
  kindDevices,
  kindNode,
  KINDS,
  ALL_MODULES,
  loadCollect,
  reliabilityFlow,
  settle,
  SLOT,
  waitAllStatus,
} from '../helpers/reliability';

const ALL = KINDS.map((k) => k.type);
const POLLING = KINDS.filter((k) => k.poll);
/** Nodes on a config node that polls (io slot 3 has only the reset node, which never polls). */
const WATCHED = KINDS.filter((k) => k.device !== 'dev-io3').map((k) => k.type);
const LONGEST_POLL = Math.max(...POLLING.map((k) => k.poll!));
/** A fault path matching every request below a module (not the version roots the health checks read). */
const MODULE_PATHS = `/${TEST_API}/`;

describe(`reliability: faults, every node kind (runtime, simulator, API ${TEST_API})`, function () {
  this.timeout(60000);
  guardProcess();
  const { sim, ctl } = runtimeSuite({ server: true });
  const figures: string[] = [];
  after(() => console.log(`      [reliability] faults: ${figures.join('; ')}`));
  afterEach(async () => {
    await ctl.clearFaults();
  });

  async function load(timeout = 5000): Promise<Counted> {
    return loadCollect(reliabilityFlow(KINDS.map(kindNode), kindDevices(sim.url, { timeout })));
  }

  /** Waits until every poller's wire path answered 200 after `since`; returns the ms it took. */
  async function pollsResumed(since: number, timeoutMs = 15000): Promise<number> {
    const start = Date.now();
    await waitFor(
      async () => {
        const entries = await ctl.log(since);
        return POLLING.every((k) => entries.some((e) => e.path.endsWith(k.pollPath!) && e.status === 200));
      },
      'every polling node to poll successfully',
      timeoutMs,
      20,
    );
    return Date.now() - start;
  }

  /** Waits until the settings applied on connect reached the device after `since`. */
  async function applied(since: number): Promise<void> {
    await waitFor(
      async () => {
        const entries = await ctl.log(since);
        return ['/power-management', '/input/analog/threshold', '/input/digital/interrupt', '/bmc/0.9/0/watchdog'].every((p) =>
          entries.some((e) => e.path.endsWith(p) && e.method === 'POST' && e.status === 200),
        );
      },
      'the settings applied on connect',
      15000,
      20,
    );
  }

  /** Everything healthy: every status green, settings applied, every poller polled. */
  async function ready(since = 0): Promise<void> {
    await waitAllStatus(ALL, isGreen, 'every node green', 15000);
    await applied(since);
    await pollsResumed(since);
  }

  /** One msg into every node; waits until each ended exactly once. */
  async function oneEach(outcomes: Counted, timeoutMs = 20000) {
    const sent = KINDS.map((k: Kind) => [k.type, k.msg()] as [string, any]);
    const ids = fire(sent);
    const fates = await settle(
      outcomes,
      sent.map(([node], i) => [node, ids[i]]),
      timeoutMs,
    );
    return fates.map((fate, i) => ({ node: sent[i][0], ...fate }));
  }

  /** Every msg failed with `code` (and a message matching `message`). */
  function allFailed(fates: Awaited<ReturnType<typeof oneEach>>, code: string, message?: RegExp): void {
    for (const fate of fates) {
      fate.errors.should.have.length(1, `${fate.node} should fail`);
      should(fate.errors[0].error.code).equal(code, `${fate.node}: ${fate.errors[0].error.message}`);
      if (message) fate.errors[0].error.message.should.match(message, fate.node);
      fate.outputs.should.have.length(0);
    }
  }

  function allSucceeded(fates: Awaited<ReturnType<typeof oneEach>>): void {
    for (const fate of fates) {
      if (fate.errors.length) throw new Error(`${fate.node} failed: ${fate.errors[0].error.message}`);
      fate.completes.should.equal(1);
    }
  }

  /** After a fault is gone: statuses green, pollers back, one msg into each node succeeds. Returns ms to green / to polls. */
  async function recovers(outcomes: Counted, since: number): Promise<{ green: number; polls: number }> {
    const start = Date.now();
    const pollMs = await pollsResumed(since);
    // Polling nodes turn green by themselves; a msg-driven node keeps the red of its last
    // failed msg until its next msg (unless the connection itself was down): that is the truth.
    await waitAllStatus(
      POLLING.map((k) => k.type),
      isGreen,
      'polling nodes green again',
      15000,
    );
    const green = Date.now() - start;
    allSucceeded(await oneEach(outcomes));
    await waitAllStatus(ALL, isGreen, 'every node green after a successful msg', 5000);
    // "Within one poll of recovery": the first round after the fault is gone succeeds; its
    // delay is the poller's backoff, capped at POLL_BACKOFF_MAX_MS.
    pollMs.should.be.below(POLL_BACKOFF_MAX_MS + LONGEST_POLL + 1500);
    return { green, polls: pollMs };
  }

  it('device down at deploy: each msg fails once (UNREACHABLE), red rings, then all resumes by itself', async () => {
    await sim.pause();
    const outcomes = await load();
    await waitAllStatus(ALL, isRed(/^unreachable: .*connection refused/), 'every node red: unreachable');
    allFailed(await oneEach(outcomes), 'UNREACHABLE', /connection refused/);
    await sim.resume();
    const start = Date.now();
    await ready(0);
    const back = Date.now() - start;
    allSucceeded(await oneEach(outcomes));
    figures.push(`down at deploy → all green and polling ${back} ms after the device came up`);
  });

  it('device down mid-flow and back: red within one poll interval, green and polling again without redeploy', async () => {
    const outcomes = await load();
    await ready();
    await sim.pause();
    const red = await waitAllStatus(WATCHED, isRed(/^unreachable/), 'nodes red: unreachable', 5000);
    red.should.be.below(LONGEST_POLL + 1000, 'red within one poll interval (plus the time to notice)');
    const fates = await oneEach(outcomes);
    allFailed(fates, 'UNREACHABLE', /connection refused|connection reset/);
    await waitAllStatus(ALL, isRed(), 'every node red after its msg failed');
    await sleep(1500); // an outage of a while: backoffs have grown
    await sim.resume();
    const { green, polls } = await recovers(outcomes, await lastSeq(ctl));
    figures.push(
      `down mid-flow → red after ${red} ms (poll intervals ${LONGEST_POLL} ms or less), green ${green} ms and polls back ${polls} ms after recovery`,
    );
  });

  it('answers slower than the timeout: each msg fails once (TIMEOUT, or NOT_SENT behind a request not answered), nothing answers twice', async () => {
    const outcomes = await load(400);
    await ready();
    await ctl.fault({ path: '*', latency_ms: 1200 });
    const fates = await oneEach(outcomes, 30000);
    // A msg that waited behind a request the module did not answer ends at once, unsent.
    for (const fate of fates) {
      fate.errors.should.have.length(1, `${fate.node} should fail`);
      fate.outputs.should.have.length(0);
      const { code, message } = fate.errors[0].error;
      if (code === 'NOT_SENT') message.should.match(/the device did not answer: \d+ msgs? not sent|not sent: the msg's timeout of 400 ms/, fate.node);
      else should(code).equal('TIMEOUT', `${fate.node}: ${message}`);
      if (code === 'TIMEOUT') message.should.match(/no answer from .* within 400 ms/, fate.node);
    }
    fates.filter((f) => f.errors[0].error.code === 'TIMEOUT').length.should.be.above(0);
    await waitAllStatus(WATCHED, isRed(/^unreachable: no answer/), 'nodes red: no answer');
    await ctl.clearFaults();
    await sleep(1300); // the late answers arrive after the client gave up: they must change nothing
    const since = await lastSeq(ctl);
    const { green, polls } = await recovers(outcomes, since);
    // Late answers produced no second outcome: every msg of this test ended exactly once.
    const ends = [...outcomes.caught, ...outcomes.completed].filter((m) => String(m._msgid).startsWith('rel-'));
    ends.should.have.length(2 * KINDS.length);
    figures.push(`timeouts → green ${green} ms, polls back ${polls} ms after the latency went`);
  });

  it('HTTP 500 bursts: each msg fails once with DEVICE_ERROR 500, polls resume when it ends', async () => {
    const outcomes = await load();
    await ready();
    await ctl.fault({ path: MODULE_PATHS, status: 500, message: 'driver gone' });
    const fates = await oneEach(outcomes);
    allFailed(fates, 'DEVICE_ERROR', /failed: 500 driver gone/);
    for (const fate of fates) should(fate.errors[0].error.cause?.statusCode).equal(500);
    await waitAllStatus(ALL, isRed(/^500 driver gone/), 'every node red: 500 driver gone');
    await ctl.clearFaults();
    const since = await lastSeq(ctl);
    const { polls } = await recovers(outcomes, since);
    // A short burst: 20 answers of 500, then healthy again, msgs sent meanwhile.
    await ctl.fault({ path: MODULE_PATHS, status: 500, count: 20 });
    const mixed = await oneEach(outcomes);
    const failed = mixed.filter((f) => f.errors.length).length;
    await ctl.clearFaults();
    const more = await oneEach(outcomes);
    allSucceeded(more);
    figures.push(
      `500s → polls back ${polls} ms after the burst; a 20-answer burst failed ${failed} of ${KINDS.length} msgs, the next ${KINDS.length} all passed`,
    );
  });

  it('connection resets: each msg fails once (UNREACHABLE: connection reset), then recovers', async () => {
    const outcomes = await load();
    await ready();
    await ctl.fault({ path: '*', reset: true });
    allFailed(await oneEach(outcomes), 'UNREACHABLE', /connection reset|socket hang up/);
    await waitAllStatus(WATCHED, isRed(/^unreachable/), 'nodes red: unreachable');
    await ctl.clearFaults();
    const since = await lastSeq(ctl);
    const { green, polls } = await recovers(outcomes, since);
    figures.push(`resets → green ${green} ms, polls back ${polls} ms`);
  });

  it('a notification round failing partway (1.0: pin 4 of six reads): one error at Catch, an unread flag arrives later, polling goes on', async () => {
    const outcomes = await load();
    await ready();
    // Polling paused and no round on the wire, so the next round is the one that fails.
    const pausing = fire([['notification-poll', { payload: 'stop' }]]);
    await settle(outcomes, [['notification-poll', pausing[0]]]);
    const flushed = fire([['notification-poll', { payload: 'now' }]]);
    await settle(outcomes, [['notification-poll', flushed[0]]]);
    // And the wire quiet: no notification read for a while (a loaded machine once had a
    // round still under way here, which took the fault meant for the next one).
    const reads = async () => (await ctl.wireLog()).filter((e) => e.path.includes('/notification')).length;
    let seen = await reads();
    await waitFor(
      async () => {
        const now = await reads();
        const quiet = now === seen;
        seen = now;
        return quiet;
      },
      'no notification read for 300 ms',
      10000,
      300,
    );
    // Pin 5 is read after the failing request on 1.0. (Flags of the pins read before the
    // failure are delivered too: notifications-lost.test.ts shows it.)
    await raiseAlert(ctl, SLOT.io, 5, 'custom_voltage_alert');
    const failing = IS_API10 ? '/notification/4' : '/notification';
    await ctl.fault({ path: failing, status: 500, message: 'driver gone', count: 1 });
    const since = await lastSeq(ctl);
    const resumed = fire([['notification-poll', { payload: 'start' }]]);
    await settle(outcomes, [['notification-poll', resumed[0]]]);

    await waitFor(() => outcomes.caughtFrom('notification-poll').length >= 1, 'the failed round at Catch', 5000);
    const [caught] = outcomes.caughtFrom('notification-poll');
    should(caught.error.code).equal('DEVICE_ERROR');
    should(caught.error.cause).containEql({ statusCode: 500, deviceMessage: 'driver gone', path: wirePath(`/api/io/0.9/${SLOT.io}${failing}`) });
    const wire = (await ctl.wireLog(since)).filter((e) => e.path.includes('/notification'));
    if (IS_API10) {
      // Partway: pins 1 to 3 were read (and cleared on the device) before pin 4 failed.
      wire
        .slice(0, 4)
        .map((e) => `${e.path.replace(/.*\/notification/, 'notification')} ${e.status}`)
        .should.eql(['notification/1 200', 'notification/2 200', 'notification/3 200', 'notification/4 500']);
    }
    // The unread flag is delivered once, by a later round.
    const topics = () => outcomes.sent('notification-poll').map((m) => m.topic);
    await waitFor(() => topics().includes('pin/5'), 'the alert of pin 5, read by a later round', 5000);
    // One more whole round after it: nothing is sent twice.
    const delivered = await lastSeq(ctl);
    await waitFor(async () => (await ctl.log(delivered)).some((e) => e.path.endsWith('/notification') && e.status === 200), 'a round after the delivery', 5000);
    topics().should.eql(['pin/5']);
    outcomes.caughtFrom('notification-poll').should.have.length(1);
    await waitAllStatus(['notification-poll'], isGreen, 'notification-poll green again');
  });

  for (const body of ['truncated', 'nonjson'] as const) {
    it(`${body} bodies: each msg fails once with BAD_RESPONSE, then recovers`, async () => {
      const outcomes = await load();
      await ready();
      await ctl.fault({ path: MODULE_PATHS, body });
      allFailed(await oneEach(outcomes), 'BAD_RESPONSE', /not JSON/);
      await waitAllStatus(ALL, isRed(/not JSON/), 'every node red: not JSON');
      await ctl.clearFaults();
      await recovers(outcomes, await lastSeq(ctl));
    });
  }

  it('device restart (state back to defaults): each msg ends once, polls go on, a restart with downtime re-applies settings', async () => {
    const outcomes = await load();
    await ready();
    // Instant restart (the control API): the device forgets its settings without going away.
    let since = await lastSeq(ctl);
    await ctl.restart();
    // Outputs need the power configuration, which the restart lost: the device says so, once.
    const ids = fire([['io-output', { payload: { pin: 1, state: 'high' } }]]);
    const [lost] = await settle(outcomes, [['io-output', ids[0]]]);
    lost.errors.should.have.length(1);
    should(lost.errors[0].error.code).equal('DEVICE_ERROR');
    should(lost.errors[0].error.cause?.deviceMessage).equal('Power config missing');
    await waitAllStatus(['io-output'], isRed(/Power config missing/), 'io-output red: power config missing');
    // io-power's msg (sent first) configures the module again; then every msg passes.
    allSucceeded(await oneEach(outcomes));
    await pollsResumed(since);
    await waitAllStatus(
      POLLING.map((k) => k.type),
      isGreen,
      'polling nodes green after the restart',
    );
    // The keep-alive found the watchdog off after the restart and armed it again.
    await waitFor(
      async () => (await ctl.log(since)).some((e) => e.method === 'POST' && e.path.endsWith('/bmc/0.9/0/watchdog') && e.status === 200),
      'the watchdog re-armed',
      5000,
    );

    // A restart as a real device does it: gone for a while, back with factory state.
    since = await lastSeq(ctl);
    await sim.pause();
    sim.restart();
    await waitAllStatus(WATCHED, isRed(/^unreachable/), 'nodes red while restarting');
    await sleep(500);
    await sim.resume();
    const start = Date.now();
    await ready(since); // io-power, io-threshold, io-input and the watchdog apply their settings again
    const back = Date.now() - start;
    allSucceeded(await oneEach(outcomes)); // io-output works again: its power configuration is back
    figures.push(`restart with downtime → settings re-applied and all green ${back} ms after the device came back`);
  });
});

/**
 * Settings put back never wait for room in the users' queue, and never give up:
 * the device goes away and comes back with factory state while a flood keeps the module's
 * queue full (each read slowed down by the simulator). The re-application takes the
 * module's reserved place ahead of the users' msgs, and every setting is back, every node
 * green; a setting that met the outage is tried again with the connection's backoff.
 */
describe(`reliability: an outage with the queue full ends with every setting back (runtime, simulator, API ${TEST_API})`, function () {
  this.timeout(60000);
  guardProcess();
  const { sim, ctl } = runtimeSuite();
  // A health check every 200 ms: a reset without an outage is seen at once.
  withHealthInterval(200);
  const SETTERS = ['pwr', 'in', 'thr', 'out'];
  const QUEUE_LIMIT = 5;
  const ACTIONS: ActionDef[] = [
    ...SETTING_ACTIONS,
    { id: 'rd', type: 'io-read', source: 'values', pin: 'all', interval: '0', onlyOnChange: false, deadband: '0', output: 'record' },
  ];
  const inPlace = () => settingsInPlace(ctl);
  const inPlaceNoOutput = () => settingsInPlace(ctl, false);

  it("the device down and back at factory state while users' msgs fill the queue: every setting back, every node green", async () => {
    const outcomes = await loadActions(ctl.url, ACTIONS, { modules: ALL_MODULES, devices: [{ url: ctl.url, queueLimit: QUEUE_LIMIT, timeout: 2000 }] });
    should(await send(outcomes, 'out', { payload: { pin: 1, state: 'high' } })).be.undefined();
    await waitFor(inPlace, 'the settings on the module', 10000);
    // Each users' read takes 300 ms on the device: a handful of msgs keeps the queue full.
    await ctl.fault({ path: '/api/io/0.9/2/input/values', latency_ms: 300 });
    let queuedAtReset = -1;
    const stop = subscribe((e) => {
      if (e.kind === 'reset' || (e.kind === 'connection' && e.detail?.state === 'connected'))
        queuedAtReset = Math.max(queuedAtReset, device().connection!.client.queued);
    });
    try {
      await sim.pause();
      sim.restart(); // comes back at factory state: every setting gone
      await waitAllStatus(SETTERS, isRed(/^unreachable/), 'red while the device is away');
      await sim.resume();
      // Users' msgs keep the queue full until the settings are back (bounded: 600 msgs).
      let refused = 0;
      for (let i = 0; i < 600 && !(await inPlace()); i++) {
        helper.getNode('rd').receive({ payload: {} });
        await sleep(20);
        refused = outcomes.caughtFrom('rd').filter((m) => m.error.code === 'QUEUE_FULL').length;
      }
      (await inPlace()).should.be.true();
      refused.should.be.above(0);
      queuedAtReset.should.be.aboveOrEqual(QUEUE_LIMIT - 1);
      await ctl.clearFaults();
      await waitAllStatus(SETTERS, isGreen, 'every node green', 15000);
    } finally {
      stop();
    }
  });

  it('a setting that meets the outage is tried again with the backoff until the device takes it', async () => {
    await loadActions(ctl.url, ACTIONS.slice(0, 3), { modules: ALL_MODULES });
    await waitFor(inPlaceNoOutput, 'the settings on the module', 10000);
    // The threshold meets a dropped connection twice (no answer: the device did not decide), then is taken.
    await ctl.fault({ path: '/api/io/0.9/2/input/analog/threshold', reset: true, count: 2 });
    const since = await lastSeq(ctl);
    await ctl.restart();
    await waitFor(inPlaceNoOutput, 'the settings back after the retries', 20000);
    const thresholds = (await ctl.log(since)).filter((e) => e.path.endsWith('/input/analog/threshold'));
    thresholds
      .map((e) => e.status)
      .slice(-1)
      .should.eql([200]);
    thresholds.length.should.equal(3);
    await waitAllStatus(SETTERS.slice(0, 3), isGreen, 'every node green', 15000);
  });

  it("a setting the device refuses is shown on its node in the device's words, and not repeated", async () => {
    const outcomes = await loadActions(ctl.url, ACTIONS.slice(0, 3), { modules: ALL_MODULES });
    await waitFor(inPlaceNoOutput, 'the settings on the module', 10000);
    await ctl.fault({ path: '/api/io/0.9/2/input/analog/threshold', status: 400, message: 'Invalid mode' });
    const since = await lastSeq(ctl);
    await ctl.restart();
    await waitAllStatus(['thr'], isRed(/Invalid mode/), "io-threshold red in the device's words", 15000);
    await waitAllStatus(['pwr', 'in'], isGreen, 'the others green', 15000);
    await waitFor(() => outcomes.caughtFrom('thr').some((m) => /Invalid mode/.test(m.error.message)), "Catch told in the device's words", 5000);
    const tries = async () => (await ctl.log(since)).filter((e) => e.path.endsWith('/input/analog/threshold')).length;
    const once = await tries();
    once.should.equal(1);
    await sleep(3 * BACKOFF.firstMs); // longer than a retry would wait: still one
    (await tries()).should.equal(1);
  });
});
