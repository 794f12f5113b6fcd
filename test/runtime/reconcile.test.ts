/**
 * The device's state is the truth: what the package set on a module comes back
 * after every sign that the module forgot it, in the spec's order (power management before
 * the pins), and the nodes say so. Signs tested here: an answer that proves it (an output
 * refused for a missing power configuration), API 1.0's new driver_session after a restart
 * (seen by the health check), API 0.9's read-back of a pin set digital, and the package's
 * own module reset. Health events tell each reset noticed and each re-application.
 */
import should from 'should';
import { IS_API10, TEST_API } from '../helpers/api';
import { ActionDef, loadActions, Outcomes, send } from '../helpers/io-nodes';
import { helper, statusHistory, waitFor } from '../helpers/node-red';
import { runtimeSuite } from '../helpers/runtime-suite';
import { HEALTH_INTERVAL_MS } from '../../nodes/lib/config-node/connection';
import { HealthEvent, subscribe } from '../../nodes/lib/config-node/health';
import { ALL_MODULES } from '../helpers/reliability';

const SIX = [1, 2, 3, 4, 5, 6].map(() => ({ rail: '5_volt', current: '100' }));
const ACTIONS: ActionDef[] = [
  // Deliberately not in the spec's order in the flow: reconciliation orders them.
  { id: 'in', type: 'io-input', pin: '3', mode: 'digital', trigger: 'rising', debounce_time_ms: '20', counter: '', applyOnConnect: true },
  { id: 'thr', type: 'io-threshold', pin: '2', threshold_mV: '1000', trigger: 'rising', analogFirst: true, applyOnConnect: true },
  { id: 'pwr', type: 'io-power', pins: SIX, applyOnConnect: true },
  { id: 'out', type: 'io-output', pin: '1', mode: 'state', state: 'high', pwmInput: 'raw', prescaler: '47', period: '1000', time_on: '500' },
  { id: 'rst', type: 'io-reset', confirm: true },
];
const SETTING_PATHS = /\/(power-management|input\/mode|input\/digital\/interrupt|input\/analog\/threshold)$/;

describe(`reconciliation: settings come back after the module forgot them (runtime, simulator, API ${TEST_API})`, function () {
  this.timeout(40000);
  const { ctl } = runtimeSuite();
  let events: HealthEvent[] = [];
  let stop: () => void = () => undefined;
  beforeEach(() => {
    events = [];
    stop = subscribe((e) => events.push(e));
  });
  afterEach(() => stop());

  async function load(): Promise<Outcomes> {
    const outcomes = await loadActions(ctl.url, ACTIONS, { modules: ALL_MODULES });
    await waitFor(async () => (await settingWrites()).length >= 4, 'the settings applied on connect');
    return outcomes;
  }
  /** The settings sent, in order, as `<endpoint>`. */
  async function settingWrites(since = 0): Promise<string[]> {
    return (await ctl.log(since)).filter((e) => e.method === 'POST' && SETTING_PATHS.test(e.path)).map((e) => e.path.replace(/^\/api\/io\/\d\.\d\/2\//, ''));
  }
  const lastSeq = async () => (await ctl.log()).slice(-1)[0]?.seq ?? 0;
  /** Power management first, then the pins (each node's own order kept). */
  function inSpecOrder(writes: string[]): void {
    writes[0].should.equal('power-management');
    writes.slice(1).should.containDeep(['input/mode', 'input/digital/interrupt', 'input/analog/threshold']);
  }

  it("on connect: applied in the spec's order whatever the flow's order", async () => {
    await load();
    inSpecOrder(await settingWrites());
  });

  it('an output refused for a missing power configuration: the msg says why, the settings come back, the next msg passes', async () => {
    const outcomes = await load();
    await ctl.restart(); // factory state: every setting gone (on 0.9 nothing shows it yet)
    const since = await lastSeq();
    const caught = await send(outcomes, 'out', { payload: { pin: 1, state: 'high' } });
    should(caught).not.be.undefined();
    caught!.error.message.should.match(
      /failed: 400 Power config missing: the module lost its settings \(Power config missing\): they are being applied again; send the msg again$/,
    );
    await waitFor(async () => (await settingWrites(since)).length >= 4, 'the settings applied again');
    inSpecOrder(await settingWrites(since));
    await waitFor(() => events.some((e) => e.kind === 'reapplied'), 'a reapplied health event');
    should(await send(outcomes, 'out', { payload: { pin: 1, state: 'high' } })).be.undefined();
    events.find((e) => e.kind === 'reset')!.cause.should.equal('Power config missing');
    events.find((e) => e.kind === 'reapplied')!.detail!.should.eql({ settings: 3, failed: 0 });
    events.every((e) => e.module.service === 'io' && e.module.slot === 2 && e.module.config === 'dev').should.be.true();
    await waitFor(() => /\(re-applied\)$/.test(statusHistory(helper.getNode('pwr')).slice(-1)[0]?.text ?? ''), 'io-power: re-applied');
    statusHistory(helper.getNode('in'))
      .some((s) => s.fill === 'yellow' && /^re-applying: Power config missing$/.test(s.text ?? ''))
      .should.be.true();
  });

  it("the package's own module reset (io-reset): the settings come back", async () => {
    const outcomes = await load();
    const since = await lastSeq();
    should(await send(outcomes, 'rst', { payload: {} })).be.undefined();
    await waitFor(async () => (await settingWrites(since)).length >= 4, 'the settings applied again');
    inSpecOrder(await settingWrites(since));
    should(await send(outcomes, 'out', { payload: { pin: 1, state: 'low' } })).be.undefined();
  });

  it(
    IS_API10
      ? 'a device restart the health check sees (new driver_session and device_session): the settings come back without any msg'
      : 'a reset the health check reads back (the digital pin is analog again): the settings come back without any msg',
    async () => {
      await load();
      await ctl.restart();
      const since = await lastSeq();
      await waitFor(async () => (await settingWrites(since)).length >= 4, 'the settings applied again by the health check', HEALTH_INTERVAL_MS + 8000);
      inSpecOrder(await settingWrites(since));
      const reset = events.find((e) => e.kind === 'reset')!;
      reset.cause.should.equal(
        IS_API10
          ? 'driver_session and device_session changed: the device or its driver restarted, the module starts anew'
          : 'a setting read back differs from what was set: pin 3 reads as analog (voltage_mV), it was set digital',
      );
    },
  );
});

describe(`reconciliation: an output's last state, where asked (runtime, simulator, API ${TEST_API})`, function () {
  this.timeout(40000);
  const { ctl } = runtimeSuite();

  it('io-output with "restore the last state": after a reset the pin is high again, after the power configuration', async () => {
    const outcomes = await loadActions(ctl.url, [ACTIONS[2], { ...ACTIONS[3], restore: true }], { modules: ALL_MODULES });
    should(await send(outcomes, 'out', { payload: { pin: 1, state: 'high' } })).be.undefined();
    await ctl.restart();
    const since = (await ctl.log()).slice(-1)[0]?.seq ?? 0;
    // The reset shows on the next msg (0.9) or the health check (1.0): a msg to another pin.
    const caught = await send(outcomes, 'out', { payload: { pin: 2, state: 'low' } });
    should(caught?.error.message).match(/lost its settings/);
    await waitFor(async () => (await ctl.log(since)).some((e) => e.path.endsWith('/output/state') && e.status === 200), 'the last state put back');
    const writes = (await ctl.log(since))
      .filter((e) => e.method === 'POST' && e.status === 200)
      .map((e) => [e.path.replace(/^\/api\/io\/\d\.\d\/2\//, ''), e.body]);
    // The last state a msg set (the refused msg set nothing), after the power configuration.
    writes.map(([path]) => path).should.eql(['power-management', 'output/state']);
    should(writes[1][1]).eql({ pin: 1, state: 'high' });
    (await ctl.pinState(2, 1)).output.should.equal('high');
  });
});
