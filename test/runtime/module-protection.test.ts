/**
 * The io module's own protections (issue #43), on the simulator, in both APIs:
 *  - the package's own power-management suspends the module, and the driver drops the
 *    notification it holds unread: an alert raised just before it is announced in one
 *    `notifications-lost` per notification-poll, not silently gone;
 *  - a protection event (a short, a voltage alert) switches the pin off: the node that set
 *    the pin says so (status, one error at Catch, the sidebar's pin), nothing is written to
 *    the pin and nothing put back until a msg sets it again, and it is no reset; after a
 *    real reset the other settings come back, the tripped pin's do not;
 *  - the custom voltage alert (a threshold crossing) changes nothing.
 * The health check runs every 150 ms (MD_HEALTH_INTERVAL_MS), so that "nothing sent again"
 * is checked over many checks (API 0.9: each reads the digital pin back).
 */
import should from 'should';
import { IS_API10, TEST_API } from '../helpers/api';
import { ActionDef, deviceCall, ioModule, lastSeq, loadActions, Outcomes, raiseAlert, send, waitRequests } from '../helpers/io-nodes';
import { device, expectCode, waitFor, waitStatus, withHealthInterval } from '../helpers/node-red';
import { httpJson, isProbe } from '../helpers/sim-control';
import { runtimeSuite } from '../helpers/runtime-suite';
import { ALL_MODULES } from '../helpers/reliability';
import { HealthEvent, HealthKind, ofKind, subscribe } from '../../nodes/lib/config-node/health';
import { liveModule } from '../../nodes/sidebar/runtime/modules';

const INTERVAL_MS = 150;
/** Health checks waited for before "nothing more happened" is judged. */
const ROUNDS = 8;
const PINS = [1, 2, 3, 4, 5, 6];

const power: ActionDef = { id: 'pwr', type: 'io-power', pins: PINS.map(() => ({ rail: '12_volt', current: '100' })), applyOnConnect: true };
const poll: ActionDef = { id: 'np', type: 'notification-poll', interval: '100', pins: '', alerts: '', combined: false };
const digital: ActionDef = {
  id: 'in',
  type: 'io-input',
  pin: '3',
  mode: 'digital',
  trigger: 'rising',
  debounce_time_ms: '20',
  counter: '',
  applyOnConnect: true,
};
const threshold: ActionDef = { id: 'thr', type: 'io-threshold', pin: '2', threshold_mV: '1000', trigger: 'rising', analogFirst: true, applyOnConnect: true };
const output = (id: string, pin: number): ActionDef => ({
  id,
  type: 'io-output',
  pin: String(pin),
  mode: 'state',
  state: 'high',
  pwmInput: 'raw',
  prescaler: '47',
  period: '1000',
  time_on: '500',
  restore: true,
});

describe(`the module's own protections (runtime, simulator, API ${TEST_API})`, function () {
  this.timeout(30000);
  const { ctl } = runtimeSuite();
  withHealthInterval(INTERVAL_MS);
  let events: HealthEvent[] = [];
  let stop: () => void = () => undefined;
  beforeEach(() => {
    events = [];
    stop = subscribe((e) => events.push(e));
  });
  afterEach(() => stop());
  const told = <K extends HealthKind>(kind: K) => events.filter(ofKind(kind));

  async function load(actions: ActionDef[]): Promise<Outcomes> {
    const outcomes = await loadActions(ctl.url, actions, { modules: ALL_MODULES });
    await waitFor(async () => (await ioModule(ctl)).powerConfig !== null, 'the power configuration applied', 10000);
    await waitRequests(ctl, '/notification', 1);
    return outcomes;
  }
  /** Waits for `ROUNDS` health checks after seq `since`. */
  async function checks(since: number): Promise<void> {
    const probes = async () => (await ctl.log(since)).filter((e) => isProbe(e) && /^\/api\/io\/[\d.]+$/.test(e.path)).length;
    await waitFor(async () => (await probes()) >= ROUNDS, `${ROUNDS} health checks`, 15000);
  }
  const posts = async (since: number) =>
    (await ctl.log(since))
      .filter((e) => e.method === 'POST' && !e.path.startsWith('/sim'))
      .map((e) => `${e.path.replace(/^\/api\/io\/[\d.]+\/2\//, '')} ${JSON.stringify(e.body)}`);
  const lost = (outcomes: Outcomes) => outcomes.sent('np').filter((m) => m.topic === 'notifications-lost');

  it("an alert raised just before the package's own power-management: one notifications-lost, with the reason", async () => {
    const outcomes = await load([power, poll]);
    should(await send(outcomes, 'np', { payload: 'stop' })).be.undefined();
    should(await send(outcomes, 'np', { payload: 'flush' })).be.undefined();
    await raiseAlert(ctl, 2, 4, 'custom_voltage_alert');
    should(await send(outcomes, 'pwr', { payload: {} })).be.undefined();
    // The driver dropped it with the suspend: no read finds it any more.
    (await ioModule(ctl)).pins[3].alerts.custom_voltage_alert.should.be.false();
    should(await send(outcomes, 'np', { payload: 'start' })).be.undefined();
    await waitFor(() => lost(outcomes).length > 0, 'a notifications-lost msg', 5000);
    const since = await lastSeq(ctl);
    await checks(since);
    await waitRequests(ctl, '/notification', 5, since);
    lost(outcomes).should.have.length(1, 'once per suspend');
    const payload = lost(outcomes)[0].payload as { pins: number[]; reason: string; from: string; to: string };
    payload.pins.should.eql(PINS);
    payload.reason.should.match(/power-management suspended the module/);
    (Date.parse(payload.from) <= Date.parse(payload.to)).should.be.true();
    told('notifications-lost').should.have.length(1);
    told('reset').should.have.length(0);
    outcomes
      .sent('np')
      .filter((m) => m.topic === 'pin/4')
      .should.have.length(0);
  });

  it('a short on a driven output: its status and one error, no reset, nothing written to the pin until a new msg drives it', async () => {
    const outcomes = await load([power, poll, digital, output('out', 5), output('out1', 1)]);
    should(await send(outcomes, 'out', { payload: { pin: 5, state: 'high' } })).be.undefined();
    should(await send(outcomes, 'out1', { payload: { pin: 1, state: 'high' } })).be.undefined();
    await waitFor(async () => (await ioModule(ctl)).pins[2].interrupt !== null, 'pin 3 digital with its interrupt', 5000);
    const since = await lastSeq(ctl);
    (await httpJson('POST', `${ctl.url}/sim/io/2/pins/5/short`)).status.should.equal(200);
    await waitStatus('out', 'red', 'ring', /pin 5 off by protection: high_current_alert/);
    await waitFor(() => outcomes.sent('np').some((m) => m.topic === 'pin/5'), 'the alert delivered');
    await checks(since);
    const caught = outcomes.caughtFrom('out');
    caught.should.have.length(1);
    expectCode(caught[0].error, 'DEVICE_ERROR');
    caught[0].error.message.should.match(/pin 5 switched off by the module's protection \(high_current_alert\)/);
    caught[0].error.cause!.should.containEql({ deviceMessage: 'high_current_alert', pin: 5, protection: ['high_current_alert'] });
    outcomes.caughtFrom('out1').should.have.length(0);
    (await posts(since)).should.eql([], 'nothing written: no re-apply, no drive into the short');
    told('reset').should.have.length(0);
    told('reapplied').should.have.length(0);
    const pins = (await ioModule(ctl)).pins;
    pins[4].mode.should.equal('analog');
    pins[0].should.containEql({ mode: 'output', output: 'high' });
    // The Device sidebar: pin 5 switched off, in the device's words; no longer shown driven.
    const shown = liveModule(
      { def: { id: 'dev', type: 'modular-device' }, node: device(), service: 'io', slot: 2 },
      { io: { pins: [{ pin: 5, type: 'voltage_mV', value: 0 }] } },
    );
    shown.io!.pins[0].should.eql({ pin: 5, type: 'voltage_mV', value: 0, tripped: ['high_current_alert'], alerts: ['high_current_alert'] });
    // The user's next msg is the explicit act: the pin is driven again, once.
    should(await send(outcomes, 'out', { payload: { pin: 5, state: 'high' } })).be.undefined();
    (await posts(since)).should.eql([`output/state ${JSON.stringify({ pin: 5, state: 'high' })}`]);
    await waitStatus('out', 'green', 'dot', /pin 5/);
    should(device().connection!.desired.trips.of(5)).be.undefined();
    (await ioModule(ctl)).pins[4].should.containEql({ mode: 'output', output: 'high' });
  });

  it('a high voltage alert on a pin with a threshold: reported, the threshold not re-armed, not even by a real reset that puts the rest back', async () => {
    const outcomes = await load([power, poll, digital, threshold, output('out1', 1)]);
    should(await send(outcomes, 'out1', { payload: { pin: 1, state: 'high' } })).be.undefined();
    await waitFor(async () => (await ioModule(ctl)).pins[1].threshold !== null, 'pin 2 armed', 5000);
    const since = await lastSeq(ctl);
    await raiseAlert(ctl, 2, 2, 'high_voltage_alert');
    await waitFor(() => outcomes.sent('np').some((m) => m.topic === 'pin/2'), 'the alert delivered');
    (outcomes.sent('np').find((m) => m.topic === 'pin/2')!.alerts as string[]).should.eql(['high_voltage_alert']);
    await waitStatus('thr', 'red', 'ring', /pin 2 off by protection: high_voltage_alert/);
    await checks(since);
    outcomes.caughtFrom('thr').should.have.length(1);
    (await posts(since)).should.eql([]);
    should((await ioModule(ctl)).pins[1].threshold).be.null();
    // A reset by someone else: everything comes back but the tripped pin's threshold.
    const reset = await lastSeq(ctl);
    await deviceCall(ctl, 'GET', '/api/io/0.9/2/reset');
    await waitFor(() => told('reapplied').length > 0, 'the settings re-applied', 10000);
    const back = (await posts(reset)).map((p) => p.split(' ')[0]);
    back.should.containEql('power-management');
    back.should.containEql('output/state');
    back.filter((p) => p === 'input/analog/threshold').should.eql([]);
    const pins = (await ioModule(ctl)).pins;
    should(pins[1].threshold).be.null();
    pins[0].should.containEql({ mode: 'output', output: 'high' });
    told('reset').should.have.length(1);
  });

  it('the custom voltage alert (a threshold crossing) changes nothing', async () => {
    const outcomes = await load([power, poll, output('out', 5)]);
    should(await send(outcomes, 'out', { payload: { pin: 5, state: 'high' } })).be.undefined();
    const since = await lastSeq(ctl);
    await raiseAlert(ctl, 2, 5, 'custom_voltage_alert');
    await waitFor(() => outcomes.sent('np').some((m) => m.topic === 'pin/5'), 'the alert delivered');
    await checks(since);
    outcomes.caught.should.have.length(0);
    await waitStatus('out', 'green', 'dot', /pin 5/);
    (await ioModule(ctl)).pins[4].should.containEql({ mode: 'output', output: 'high' });
    should(device().connection!.desired.trips.of(5)).be.undefined();
    (await posts(since)).should.eql([]);
    told('notifications-lost').should.have.length(0);
  });

  if (IS_API10)
    it('API 1.0: a denied power-management suspended the module too: announced', async () => {
      const outcomes = await load([power, poll]);
      const caught = await send(outcomes, 'pwr', { payload: { config: PINS.map((pin) => ({ pin, rail: '12_volt', current: 500 })) } });
      should(caught).not.be.undefined();
      await waitFor(() => lost(outcomes).length > 0, 'a notifications-lost msg', 5000);
    });
});
