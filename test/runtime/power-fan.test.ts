/**
 * power-fan against the simulator (fan apply delay 1000 ms): read, set, rpm and rpm
 * measurement on the wire (msg.operation with "from msg.operation", msg.payload overrides,
 * bare defaults); a msg.operation the dialog does not allow refused with nothing sent;
 * "wait until applied" holds the msg until the delayed mode is reached, and fails with
 * TIMEOUT when the wait is shorter than the delay; validation failures and device errors.
 */
import should from 'should';
import {
  apiPath,
  SERVICE_DOWN_STATUS,
  expectFailed,
  expectRefused,
  operationFixed,
  sendOk,
  sendOne,
  simConfig,
  simModule,
  wireSince,
} from '../helpers/bmc-power';
import { loadActionsQuiet, send } from '../helpers/io-nodes';
import { expectCode, helper, statusHistory, waitStatus } from '../helpers/node-red';
import { runtimeSuite } from '../helpers/runtime-suite';
import { wirePath, wireRequest } from '../helpers/api';

const FAN = apiPath('power', 'fan');
const RPM = apiPath('power', 'fan/rpm');
const DELAY = 1000;

describe('power-fan (runtime, simulator)', function () {
  this.timeout(20000);
  const { ctl } = runtimeSuite({ server: true, simulator: { fanApplyDelayMs: DELAY } });
  beforeEach(async () => {
    (await simConfig(ctl)).fan_apply_delay_ms.should.equal(DELAY);
  });

  const fan = (settings: Record<string, unknown> = {}) => ({
    id: 'fan',
    type: 'power-fan',
    operation: 'read',
    fan_forced: true,
    fan_mode: '60',
    measurement_enabled: true,
    waitApplied: false,
    wait: '',
    ...settings,
  });

  describe('operations', () => {
    it('"from msg.operation": read, set (not applied at once), measurement and rpm through msg.operation and msg.payload', async () => {
      const outcomes = await loadActionsQuiet(ctl, [fan({ operation: 'msg' })], { service: 'power' });
      // Factory state: automatic, 60 % for the 52 °C PMC temperature.
      const read = await sendOne(outcomes, 'fan', { operation: 'read', payload: 1, topic: 'fan' });
      read.payload!.should.eql({ fan_forced: false, fan_current_mode: 60, fan_setting_mode: 0 });
      should(read.topic).equal('fan');
      await waitStatus('fan', 'green', 'dot', 'fan at 60 %');

      const set = await sendOne(outcomes, 'fan', { operation: 'set', payload: { fan_forced: true, fan_mode: 100 } });
      set.payload!.should.eql({ status: 'success' });
      set.request!.should.eql(wireRequest({ method: 'POST', path: FAN, body: { fan_forced: true, fan_mode: 100 } }));
      const pending = await sendOne(outcomes, 'fan', { operation: 'read' });
      pending.payload!.should.eql({ fan_forced: true, fan_current_mode: 60, fan_setting_mode: 100 }, 'the delay is not over yet');

      await sendOk(outcomes, 'fan', { operation: 'measurement', payload: { measurement_enabled: true } });
      const rpm = await sendOne(outcomes, 'fan', { operation: 'rpm' });
      (rpm.payload as { enabled: boolean }).enabled.should.equal(true);
      should((rpm.payload as { rpm: number }).rpm).be.a.Number();
      await waitStatus('fan', 'green', 'dot', / rpm$/);
      await sendOk(outcomes, 'fan', { operation: 'set', payload: { fan_forced: false } });

      (await wireSince(ctl)).should.eql([
        ['GET', FAN, null],
        ['POST', FAN, { fan_forced: true, fan_mode: 100 }],
        ['GET', FAN, null],
        ['POST', RPM, { measurement_enabled: true }],
        ['GET', RPM, null],
        ['POST', FAN, { fan_forced: false, fan_mode: 60 }],
      ]);
      outcomes.caught.should.have.length(0);
    });

    it('bare msgs use the settings: set forced 40 %, measurement off', async () => {
      const outcomes = await loadActionsQuiet(
        ctl,
        [fan({ id: 'set', operation: 'set', fan_forced: true, fan_mode: '40' }), fan({ id: 'meas', operation: 'measurement', measurement_enabled: false })],
        { service: 'power' },
      );
      await sendOk(outcomes, 'set', { payload: 1732170000000 });
      await waitStatus('set', 'green', 'dot', 'fan 40 %');
      await sendOk(outcomes, 'meas', { payload: true });
      (await wireSince(ctl)).should.eql([
        ['POST', FAN, { fan_forced: true, fan_mode: 40 }],
        ['POST', RPM, { measurement_enabled: false }],
      ]);
      const power = await simModule(ctl, 'power');
      power.fan.settingMode.should.equal(40);
      power.rpm.enabled.should.equal(false);
    });
  });

  describe('which operation a msg may choose', () => {
    it("a msg.operation other than the dialog's is refused, naming both and how to allow it: nothing sent", async () => {
      const outcomes = await loadActionsQuiet(ctl, [fan()], { service: 'power' });
      await expectRefused(
        ctl,
        outcomes,
        'fan',
        { operation: 'set', payload: { fan_forced: true, fan_mode: 100 } },
        operationFixed('power-fan', '"set"', 'read'),
      );
      await expectRefused(
        ctl,
        outcomes,
        'fan',
        { operation: 'measurement', payload: { measurement_enabled: false } },
        operationFixed('power-fan', '"measurement"', 'read'),
      );
      await expectRefused(ctl, outcomes, 'fan', { operation: 'speed' }, operationFixed('power-fan', '"speed"', 'read'));
      await waitStatus('fan', 'red', 'ring', 'msg.operation "speed" refused');
      const power = await simModule(ctl, 'power');
      power.fan.forced.should.equal(false);
      power.fan.settingMode.should.equal(0);
      await sendOk(outcomes, 'fan', { operation: 'read' });
      (await wireSince(ctl)).should.eql([['GET', FAN, null]]);
    });

    it('with "from msg.operation", msg.operation is required and must be one of the node\'s operations', async () => {
      const outcomes = await loadActionsQuiet(ctl, [fan({ operation: 'msg' })], { service: 'power' });
      const ops = 'read, set, rpm, measurement';
      await expectRefused(ctl, outcomes, 'fan', { payload: { fan_mode: 40 } }, `Operation (msg.operation) must be one of ${ops}, got nothing`);
      await expectRefused(ctl, outcomes, 'fan', { operation: 'speed' }, `Operation (msg.operation) must be one of ${ops}, got "speed"`);
      await expectRefused(ctl, outcomes, 'fan', { operation: {} }, `Operation (msg.operation) must be one of ${ops}, got an object`);
    });
  });

  describe('wait until applied', () => {
    it('holds the msg until fan_current_mode reaches the forced mode, then sends the fan record', async () => {
      const outcomes = await loadActionsQuiet(ctl, [fan({ operation: 'set', fan_mode: '100', waitApplied: true, wait: '5000' })], { service: 'power' });
      const start = Date.now();
      const out = await sendOne(outcomes, 'fan', { payload: true, topic: 'wait' }, 8000);
      const elapsed = Date.now() - start;
      elapsed.should.be.aboveOrEqual(DELAY - 50, 'not before the simulated apply delay');
      out.payload!.should.eql({ fan_forced: true, fan_current_mode: 100, fan_setting_mode: 100 });
      should(out.topic).equal('wait');

      const wire = await wireSince(ctl);
      wire[0].should.eql(['POST', FAN, { fan_forced: true, fan_mode: 100 }]);
      wire
        .slice(1)
        .every((r) => r[0] === 'GET' && r[1] === FAN)
        .should.be.true();
      wire.length.should.be.aboveOrEqual(3, 'read at least once before and once after the mode was applied');
      // msg.request names the set and every read, as the device saw them.
      out.request!.should.eql([
        wireRequest({ method: 'POST', path: FAN, body: { fan_forced: true, fan_mode: 100 } }),
        ...wire.slice(1).map(() => ({ method: 'GET', path: wirePath(FAN) })),
      ]);
      const history = statusHistory(helper.getNode('fan'));
      history.some((s) => s.fill === 'blue' && s.text === 'fan → 100 %').should.be.true();
      await waitStatus('fan', 'green', 'dot', 'fan at 100 %');
      outcomes.caught.should.have.length(0);
    });

    it('a wait shorter than the delay fails with TIMEOUT and no output', async () => {
      const outcomes = await loadActionsQuiet(ctl, [fan({ operation: 'set', fan_mode: '20', waitApplied: true, wait: '300' })], { service: 'power' });
      const start = Date.now();
      const caught = await expectFailed(outcomes, 'fan', { payload: true, topic: 'short' });
      (Date.now() - start).should.be.below(DELAY + 2000);
      expectCode(caught.error, 'TIMEOUT');
      caught.error.message.should.equal('DeviceError: fan did not reach mode 20 % within 300 ms (now 60 %)');
      should(caught.topic).equal('short');
      await waitStatus('fan', 'red', 'ring', /^(timeout|fan did not reach mode 20 %)/);
      // The setting itself was sent; the fan gets there later.
      (await wireSince(ctl))[0].should.eql(['POST', FAN, { fan_forced: true, fan_mode: 20 }]);
      (await simModule(ctl, 'power')).fan.settingMode.should.equal(20);
      outcomes.caught.should.have.length(1);
    });

    it('automatic mode is not waited for (no known target)', async () => {
      const outcomes = await loadActionsQuiet(ctl, [fan({ operation: 'set', fan_forced: false, fan_mode: '0', waitApplied: true, wait: '300' })], {
        service: 'power',
      });
      const out = await sendOne(outcomes, 'fan', { payload: true });
      out.payload!.should.eql({ status: 'success' });
      (await wireSince(ctl)).should.eql([['POST', FAN, { fan_forced: false, fan_mode: 0 }]]);
    });
  });

  describe('validation (one error at Catch, nothing sent)', () => {
    it('refuses fan modes other than 0/20/40/60/80/100 and non-boolean flags', async () => {
      const outcomes = await loadActionsQuiet(ctl, [fan({ operation: 'set' }), fan({ id: 'meas', operation: 'measurement' })], { service: 'power' });
      const modes = 'Speed (fan_mode) must be one of 0, 20, 40, 60, 80, 100';
      await expectRefused(ctl, outcomes, 'fan', { payload: { fan_mode: 50 } }, `${modes}, got 50`);
      await expectRefused(ctl, outcomes, 'fan', { payload: { fan_mode: 120 } }, `${modes}, got 120`);
      await expectRefused(ctl, outcomes, 'fan', { payload: { fan_mode: '60' } }, `${modes}, got "60"`);
      await expectRefused(ctl, outcomes, 'fan', { payload: { fan_forced: false, fan_mode: 10 } }, `${modes}, got 10`);
      await expectRefused(
        ctl,
        outcomes,
        'fan',
        { payload: { fan_forced: 'true', fan_mode: 60 } },
        'Forced: run at the speed below (unticked: automatic) (fan_forced) must be true or false, got "true"',
      );
      await expectRefused(
        ctl,
        outcomes,
        'meas',
        { operation: 'measurement', payload: { measurement_enabled: 1 } },
        'Measure the rpm (measurement_enabled) must be true or false, got 1',
      );
      outcomes.caught.should.have.length(6);
    });

    it('a wait above 60000 ms or a bad fan mode in the settings is refused at deploy', async () => {
      const outcomes = await loadActionsQuiet(
        ctl,
        [fan({ id: 'wait', operation: 'set', waitApplied: true, wait: '60001' }), fan({ id: 'mode', operation: 'set', fan_mode: '30' })],
        { service: 'power' },
      );
      await waitStatus('wait', 'red', 'ring', 'At most (wait) must be an integer from 0 to 60000 ms');
      await expectRefused(ctl, outcomes, 'wait', { payload: true }, 'At most (wait) must be an integer from 0 to 60000 ms, got 60001');
      await expectRefused(ctl, outcomes, 'mode', { payload: true }, 'Speed (fan_mode) must be one of 0, 20, 40, 60, 80, 100, got 30');
    });
  });

  describe('device errors', () => {
    it('400 from POST fan and 502 with the power service down reach Catch with statusCode', async () => {
      const outcomes = await loadActionsQuiet(ctl, [fan({ operation: 'msg', fan_mode: '80', waitApplied: true, wait: '3000' })], { service: 'power' });
      await ctl.fault({ path: FAN, method: 'POST', status: 400, message: 'Failed setting fan mode', count: 1 });
      const failed = await expectFailed(outcomes, 'fan', { operation: 'set', payload: true });
      expectCode(failed.error, 'DEVICE_ERROR');
      failed.error.cause!.should.containEql({ statusCode: 400, deviceMessage: 'Failed setting fan mode', method: 'POST', path: wirePath(FAN) });
      (await wireSince(ctl)).should.eql([['POST', FAN, { fan_forced: true, fan_mode: 80 }]], 'no waiting after a failed set');
      await ctl.serviceDown('power');
      const down = await expectFailed(outcomes, 'fan', { operation: 'rpm' });
      down.error.cause!.should.containEql({ statusCode: 502, method: 'GET', path: wirePath(RPM) });
      await waitStatus('fan', 'red', 'ring', SERVICE_DOWN_STATUS);
      // A failure while waiting (the service goes down between set and applied) fails the msg too.
      await ctl.serviceUp('power');
      const pendingSend = send(outcomes, 'fan', { operation: 'set', payload: true, topic: 'midway' }, 8000);
      await ctl.serviceDown('power');
      const midway = await pendingSend;
      should(midway).not.be.undefined();
      outcomes.caught.should.have.length(3);
    });
  });
});
