/**
 * After an outage the config node finds out whether the module forgot what the package set
 * before it sends anything (API 0.9: read-backs, desired-state.ts verify; API 1.0: sessions):
 *  - a network outage the module lives through: no `reset`, no `reapplied`, no setting sent
 *    again (0.9: a digital pin read back tells, so not even the output is tried again);
 *  - an outage after which the module is at factory state: one `reset` with its cause (what
 *    was read back), counted in `modular_device_resets_total` and the fleet state's
 *    `lastReset`, every setting back in the spec's order, one `reapplied`;
 *  - the watchdog of a keep-alive expiring (the board down 3 s, as `npm start` runs the
 *    simulator): the same, the timeout armed again; a network outage: nothing sent again;
 *  - where only an output can tell (power configuration, threshold, output): it is sent again
 *    as the read-back, refused for a missing power configuration after a reset;
 *  - where nothing can tell (power configuration and threshold only): everything goes back
 *    after an outage on 0.9, with a `reapplied` and no `reset` (the package cannot know).
 */
import should from 'should';
import { IS_API10, TEST_API } from '../helpers/api';
import { ActionDef, lastSeq, loadActions, loadActionsQuiet, Outcomes, send, SETTING_ACTIONS } from '../helpers/io-nodes';
import { simModule, watchdogNode } from '../helpers/bmc-power';
import { waitFor, withHealthInterval } from '../helpers/node-red';
import { httpJson } from '../helpers/sim-control';
import { runtimeSuite } from '../helpers/runtime-suite';
import { HealthEvent, subscribe, HealthKind, ofKind } from '../../nodes/lib/config-node/health';
import { ModuleMetrics } from '../../nodes/fleet/metrics';
import { FleetPublisher, MqttMsg } from '../../nodes/fleet/publisher';
import { Scheme } from '../../nodes/fleet/scheme';
import { ALL_MODULES } from '../helpers/reliability';

/** A users' read: it waits in the queue behind whatever the reconnection put ahead of it. */
const READ: ActionDef = { id: 'rd', type: 'io-read', source: 'values', pin: 'all', interval: '0', onlyOnChange: false, deadband: '0', output: 'record' };
const SETTINGS = /\/(power-management|input\/mode|input\/digital\/interrupt|input\/analog\/threshold|output\/state|watchdog)$/;
/** As `npm start` runs the simulator (scripts/start.js). */
const REBOOT_MS = 3000;

describe(`after an outage: read back, then reset or nothing (runtime, simulator, API ${TEST_API})`, function () {
  this.timeout(40000);
  const { sim, ctl } = runtimeSuite();
  // The outage seen within 200 ms: no msg is needed to find it.
  withHealthInterval(200);
  let events: HealthEvent[] = [];
  let metrics: ModuleMetrics;
  let mqtt: MqttMsg[] = [];
  let stop: () => void = () => undefined;
  beforeEach(() => {
    events = [];
    mqtt = [];
    metrics = new ModuleMetrics();
    const fleet = new FleetPublisher(new Scheme('plant', 'cell'), new Set(), {
      mqtt: (m) => mqtt.push(m),
      command: () => undefined,
      // One device here: no two modules can share a topic.
      warn: (text) => {
        throw new Error(text);
      },
    });
    const unsubscribe = subscribe((e) => {
      events.push(e);
      fleet.onHealth(e);
    });
    stop = () => {
      unsubscribe();
      metrics.stop();
    };
  });
  afterEach(() => stop());

  const told = <K extends HealthKind>(kind: K) => events.filter(ofKind(kind));
  const writes = async (since: number) =>
    (await ctl.log(since))
      .filter((e) => e.method === 'POST' && SETTINGS.test(e.path) && e.status === 200)
      .map((e) => e.path.replace(/^\/api\/[a-z]+\/[\d.]+\/\d\//, ''));
  /** The value of a counter series of the module (`service`), 0 when absent. */
  async function counter(name: string, service: string): Promise<number> {
    const line = (await metrics.text()).split('\n').find((l) => l.startsWith(`${name}{`) && l.includes(`service="${service}"`));
    return line ? Number(line.split(' ').pop()) : 0;
  }
  /** The fleet's retained state of the module, as last published. */
  const fleetState = (service: string) =>
    mqtt
      .filter((m) => m.retain && m.topic.endsWith(`/${service}/${service === 'io' ? 2 : 0}/state`))
      .map((m) => m.payload)
      .pop();
  /** The device away (connections refused) until `back` resolves; then the connection is back. */
  async function outage(during: () => void | Promise<void> = () => undefined): Promise<void> {
    const from = events.length;
    const state = (s: string) => events.slice(from).some((e) => e.kind === 'connection' && e.detail?.state === s);
    await sim.pause();
    await waitFor(() => state('unreachable'), 'the module unreachable', 10000);
    await during();
    await sim.resume();
    await waitFor(() => state('connected'), 'connected again', 15000);
  }
  /** GET input/values since `since`: the read-back of a digital pin (and users' reads). */
  const readsBack = async (since: number) => (await ctl.log(since)).filter((e) => e.method === 'GET' && e.path.endsWith('/input/values')).length;
  let outcomes: Outcomes;
  /** A users' read (io-read): it waits behind whatever the reconnection put ahead of it. */
  const userRead = async () => should(await send(outcomes, 'rd', { payload: {} })).be.undefined();

  /** Whether the settings of `actions` (a part of SETTING_ACTIONS) are on the module. */
  async function inPlace(actions: ActionDef[]): Promise<boolean> {
    const io = (await ctl.state()).modules.find((m: { slot: number }) => m.slot === 2);
    const pin = (n: number) => io.pins[n - 1];
    const has = (id: string) => actions.some((a) => a.id === id);
    return (
      io.powerConfig !== null &&
      (!has('in') || (pin(3).mode === 'digital' && pin(3).interrupt !== null)) &&
      (!has('thr') || pin(2).threshold !== null) &&
      (!has('out') || pin(1).output === 'high')
    );
  }

  async function loadSettings(actions: ActionDef[] = SETTING_ACTIONS): Promise<number> {
    outcomes = await loadActions(ctl.url, [...actions, READ], { modules: ALL_MODULES });
    if (actions.some((a) => a.id === 'out')) should(await send(outcomes, 'out', { payload: { pin: 1, state: 'high' } })).be.undefined();
    await waitFor(() => inPlace(actions), 'the settings on the module', 10000);
    events = [];
    mqtt = [];
    return lastSeq(ctl);
  }

  it('a network outage the module lives through: no reset, no reapplied, no setting sent again', async () => {
    const since = await loadSettings();
    await outage();
    // 0.9: the digital pin read back (and then nothing more); 1.0: the sessions said it all.
    if (!IS_API10) await waitFor(async () => (await readsBack(since)) > 0, 'the read-back', 10000);
    await userRead();
    (await writes(since)).should.eql([]);
    told('reset').should.eql([]);
    told('reapplied').should.eql([]);
    (await counter('modular_device_resets_total', 'io')).should.equal(0);
    (await inPlace(SETTING_ACTIONS)).should.be.true();
  });

  it('an outage after which the module is at factory state: one reset with its cause, counted and in the fleet state, every setting back, one reapplied', async () => {
    const since = await loadSettings();
    await outage(() => sim.restart());
    await waitFor(() => told('reapplied').length > 0, 'the settings put back', 15000);
    await waitFor(() => inPlace(SETTING_ACTIONS), 'every setting on the module', 10000);
    told('reset').should.have.length(1);
    const cause = told('reset')[0].cause;
    cause.should.match(IS_API10 ? /^driver_session and device_session changed/ : /^the module forgot its settings during the outage: pin 3 reads as analog/);
    told('reapplied').should.have.length(1);
    told('reapplied')[0].detail!.should.eql({ settings: 4, failed: 0 });
    const sent = await writes(since);
    sent[0].should.equal('power-management');
    sent[sent.length - 1].should.equal('output/state');
    (await counter('modular_device_resets_total', 'io')).should.equal(1);
    (await counter('modular_device_reapplies_total', 'io')).should.equal(1);
    should(fleetState('io')?.lastReset).containEql({ cause });
  });

  it(`where only an output can tell: ${IS_API10 ? 'the sessions do, nothing is sent' : 'it is sent again, and after a reset refused for the missing power configuration'}`, async () => {
    const actions = SETTING_ACTIONS.filter((a) => a.id !== 'in');
    let since = await loadSettings(actions);
    await outage();
    if (!IS_API10) await waitFor(async () => (await writes(since)).length > 0, 'the output tried again', 10000);
    await userRead();
    (await writes(since)).should.eql(IS_API10 ? [] : ['output/state']);
    told('reset').should.eql([]);
    told('reapplied').should.eql([]);

    since = await lastSeq(ctl);
    await outage(() => sim.restart());
    await waitFor(() => told('reapplied').length > 0, 'the settings put back', 15000);
    told('reset').should.have.length(1);
    told('reset')[0].cause.should.match(IS_API10 ? /device_session changed/ : /^Power config missing$/);
    (await writes(since)).should.eql(['power-management', 'input/mode', 'input/analog/threshold', 'output/state']);
    (await ctl.pinState(2, 1)).output.should.equal('high');
  });

  it(`where nothing can tell (power configuration, threshold): ${IS_API10 ? 'the sessions do, nothing is sent' : 'everything goes back, a reapplied and no reset'}`, async () => {
    const since = await loadSettings(SETTING_ACTIONS.filter((a) => a.id === 'pwr' || a.id === 'thr'));
    await outage();
    if (!IS_API10) await waitFor(() => told('reapplied').length > 0, 'the settings put back', 10000);
    await userRead();
    told('reset').should.eql([]);
    if (IS_API10) (await writes(since)).should.eql([]);
    else {
      told('reapplied')[0].cause.should.equal('reconnected after an outage; nothing on the module tells whether it kept its settings');
      (await writes(since)).should.eql(['power-management', 'input/mode', 'input/analog/threshold']);
    }
  });
});

describe(`a keep-alive's watchdog expires (runtime, simulator, API ${TEST_API}, reboot ${REBOOT_MS} ms)`, function () {
  this.timeout(40000);
  const { ctl } = runtimeSuite({ simulator: { rebootMs: REBOOT_MS } });
  let events: HealthEvent[] = [];
  let metrics: ModuleMetrics;
  let stop: () => void = () => undefined;
  beforeEach(() => {
    events = [];
    metrics = new ModuleMetrics();
    const unsubscribe = subscribe((e) => events.push(e));
    stop = () => {
      unsubscribe();
      metrics.stop();
    };
  });
  afterEach(() => stop());
  const told = <K extends HealthKind>(kind: K) => events.filter(ofKind(kind));
  const KEEP_ALIVE = watchdogNode({ keepAlive: true, confirm: true, timeout: '10000', interval: '1000' });

  it('a network outage shorter than the timeout: no reset, no reapplied, the timeout not sent again', async () => {
    await loadActionsQuiet(ctl, [KEEP_ALIVE], { service: 'bmc' });
    await waitFor(async () => (await simModule(ctl, 'bmc')).watchdog.timeoutMs === 10000, 'the watchdog armed', 5000);
    events = [];
    const since = await lastSeq(ctl);
    await ctl.sim.pause();
    await waitFor(() => told('connection').some((e) => e.detail?.state === 'unreachable'), 'the failed alive seen', 10000);
    await ctl.sim.resume();
    await waitFor(() => told('connection').some((e) => e.detail?.state === 'connected'), 'connected again', 15000);
    // Alives through again after the reconnection (0.9: after the timeout was read back).
    const back = await lastSeq(ctl);
    await waitFor(async () => (await ctl.log(back)).filter((e) => e.path.endsWith('/watchdog/alive') && e.status === 200).length >= 2, 'two alives', 10000);
    if (!IS_API10) (await ctl.log(since)).some((e) => e.method === 'GET' && e.path.endsWith('/watchdog')).should.be.true();
    (await ctl.log(since)).filter((e) => e.method === 'POST').should.eql([]);
    told('reset').should.eql([]);
    told('reapplied').should.eql([]);
  });

  it('the board down and back: one reset with its cause and in the metrics, the timeout armed again, one reapplied', async () => {
    await loadActionsQuiet(ctl, [KEEP_ALIVE], { service: 'bmc' });
    await waitFor(async () => (await simModule(ctl, 'bmc')).watchdog.timeoutMs === 10000, 'the watchdog armed', 5000);
    events = [];
    const since = await lastSeq(ctl);
    const { watchdog } = await simModule(ctl, 'bmc');
    // The device's clock past the deadline: it resets as if no alive had come for 10 s.
    await httpJson('POST', `${ctl.url}/sim/advance`, { ms: watchdog.leftMs + 1 });
    await waitFor(() => told('reapplied').length > 0, 'the timeout put back', 30000);
    await waitFor(async () => (await simModule(ctl, 'bmc')).watchdog.timeoutMs === 10000, 'the watchdog armed again', 5000);
    told('connection')
      .map((e) => e.detail?.state)
      .should.containDeepOrdered(['unreachable', 'connected']);
    told('reset').should.have.length(1);
    told('reset')[0].cause.should.match(
      IS_API10
        ? /^driver_session and device_session changed/
        : /^the module forgot its settings: alive refused|the watchdog timeout reads 0 ms, 10000 ms was set$/,
    );
    told('reapplied').should.have.length(1);
    told('reapplied')[0].detail!.should.eql({ settings: 1, failed: 0 });
    (await ctl.state()).lastReset.cause.should.equal('watchdog expired');
    const line = (await metrics.text()).split('\n').find((l) => l.startsWith('modular_device_resets_total{') && l.includes('service="bmc"'));
    should(line).endWith(' 1');
    // The timeout went back once or twice (the package's, and a round that met "not enabled" first).
    (await ctl.log(since)).filter((e) => e.method === 'POST' && e.path.endsWith('/watchdog')).length.should.be.within(1, 2);
  });
});
