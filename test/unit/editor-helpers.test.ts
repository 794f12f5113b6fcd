/**
 * The pure parts of the editor helpers: which io nodes use which pin of a module (the pin
 * picker), the PWM read-out of io-output (what the device really gives), and the
 * device-alarm dialog's checks (the runtime's reading of the settings, field by field).
 */
import should from 'should';
import { pwmFrequencyHz } from '../../nodes/lib/pure/limit-rules';
import { planPwm } from '../../nodes/lib/pure/pwm';
import { EditorNode, ModuleAddress, outputConflicts, pinNumber, pinUses, roleOf } from '../../nodes/editor/pin-picker';
import { pwmReadout } from '../../nodes/editor/pwm-readout';
import { deviceAlarm } from '../../nodes/editor/device-alarm';
import { typed, validator } from '../../nodes/editor/validator';
import { catalogsReady, english } from '../helpers/i18n';

describe('pin picker: pins used on a module', () => {
  const configs: Record<string, ModuleAddress> = {
    devA: { url: 'http://127.0.0.1:8080', service: 'io', slot: '2' },
    devA2: { url: 'http://127.0.0.1:8080/', service: 'io', slot: 2 }, // same module, another config node
    devB: { url: 'http://127.0.0.1:8080', service: 'io', slot: '3' },
  };
  const configOf = (id: string) => configs[id];
  const nodes: EditorNode[] = [
    { id: 'self', type: 'io-output', device: 'devA', pin: '1' },
    { id: 'o2', type: 'io-output', name: 'pump', device: 'devA', pin: '1', mode: 'state' },
    { id: 'o3', type: 'io-output', device: 'devA2', pin: 2, mode: 'pwm' },
    { id: 't1', type: 'io-threshold', device: 'devA', pin: '3' },
    { id: 'i1', type: 'io-input', device: 'devA', pin: '4', mode: 'digital' },
    { id: 'i2', type: 'io-input', device: 'devA', pin: '5', mode: 'analog' },
    { id: 'r1', type: 'io-read', device: 'devA', pin: 'all' },
    { id: 'r2', type: 'io-read', device: 'devA', pin: '6' },
    { id: 'other', type: 'io-output', device: 'devB', pin: '1' },
    { id: 'off', type: 'io-output', device: 'devA', pin: '1', d: true },
    { id: 'env', type: 'io-output', device: 'devA', pin: '${PIN}' },
    { id: 'p', type: 'io-power', device: 'devA' },
  ];

  it('lists the other io nodes of the same module (also through another config node), with their roles', () => {
    const uses = pinUses(nodes, 'self', 'devA', configOf);
    uses
      .map((u) => `${u.id}:${u.pin}:${u.role}`)
      .should.eql(['o2:1:output', 'o3:2:pwm', 't1:3:threshold', 'i1:4:digitalInput', 'i2:5:analogInput', 'r2:6:read']);
    uses[0].name.should.equal('pump');
  });

  it('warns an io-output only about other io-outputs on its pin', () => {
    const uses = pinUses(nodes, 'self', 'devA', configOf);
    outputConflicts('io-output', 1, uses)
      .map((u) => u.id)
      .should.eql(['o2']);
    outputConflicts('io-output', 3, uses).should.eql([]);
    outputConflicts('io-threshold', 1, uses).should.eql([]);
    outputConflicts('io-output', undefined, uses).should.eql([]);
  });

  it('reads pin numbers 1..6 only', () => {
    should(pinNumber('3')).equal(3);
    should(pinNumber(6)).equal(6);
    for (const v of ['0', '7', 'all', '', '${PIN}', 2.5, undefined]) should(pinNumber(v)).be.undefined();
    should(roleOf({ type: 'io-power' })).be.undefined();
  });
});

describe('io-output PWM read-out', () => {
  before(() => catalogsReady);
  it('raw values: the frequency and duty of the device integer maths', () => {
    const r = pwmReadout({ pwmInput: 'raw', prescaler: '47', period: '1000', time_on: '250' });
    r.should.containEql({ ok: true, input: 'raw', prescaler: 47, period: 1000, time_on: 250, frequencyHz: 1000, dutyPercent: 25 });
    // 48 MHz / 3 / 7 = 2285714.28..., floored twice by the device: not 2285714.29.
    const odd = pwmReadout({ pwmInput: 'raw', prescaler: '2', period: '70', time_on: '7' });
    odd.should.containEql({ ok: true, frequencyHz: pwmFrequencyHz({ prescaler: 2, period: 70 }), dutyPercent: 10 });
    (odd as { frequencyHz: number }).frequencyHz.should.equal(228571);
  });

  it('frequency and duty: the plan the runtime sends and what it really gives', () => {
    const r = pwmReadout({ pwmInput: 'frequency', frequency: '7', duty: '33' });
    const plan = planPwm(7, 33)!;
    r.should.containEql({
      ok: true,
      input: 'frequency',
      prescaler: plan.prescaler,
      period: plan.period,
      time_on: plan.time_on,
      requestedHz: 7,
      requestedDuty: 33,
    });
    (r as { frequencyHz: number }).frequencyHz.should.equal(pwmFrequencyHz(plan));
    (r as { dutyPercent: number }).dutyPercent.should.equal((plan.time_on / plan.period) * 100);
  });

  it('explains values it cannot use, and leaves ${VAR} to the runtime', () => {
    pwmReadout({ pwmInput: 'raw', prescaler: '1', period: '10', time_on: '9' }).should.containEql({ ok: false, reason: 'invalid' });
    // The refusal is a phrase: the dialog says it in the editor's language (English here).
    const refusal = (r: ReturnType<typeof pwmReadout>) => english(r.ok ? true : (r.message ?? true));
    should(refusal(pwmReadout({ pwmInput: 'raw', prescaler: '1', period: '10', time_on: '9' }))).match(/^time_on must be/);
    should(refusal(pwmReadout({ pwmInput: 'frequency', frequency: '2000000', duty: '50' }))).match(/^Frequency \(frequency\) must be/);
    pwmReadout({ pwmInput: 'frequency', frequency: '12.5', duty: '50' }).should.containEql({ ok: false, reason: 'invalid' });
    pwmReadout({ pwmInput: 'frequency', frequency: '${HZ}', duty: '50' }).should.containEql({ ok: false, reason: 'env' });
  });
});

describe('device-alarm dialog checks: the runtime reading of each field alone', () => {
  // Outside the editor a refusal is said as its message id: enough to tell refused from taken.
  const { valid, validLimit } = deviceAlarm.dialog();
  const refused = (verdict: true | string, key: string) => should(verdict).be.a.String().and.containEql(key);

  it('a limit is held to the nearest valid limit below it: the higher of a pair out of order is marked, the lower not', () => {
    const node = { hihi: '50', hi: '80', lo: '', lolo: 'abc' };
    refused(validLimit('hihi').call(node, '50'), 'alarm.limitOrder');
    should(validLimit('hi').call(node, '80')).be.true();
    // An invalid limit below is its own field's fault, not the order's: Lo is held to nothing.
    should(validLimit('lo').call(node, '10')).be.true();
    refused(validLimit('lolo').call(node, 'abc'), 'limits.mustBe');
    // Numbers as the runtime reads them (parseNumber): fractions and exponents.
    should(validLimit('hihi').call(node, '8.5e1')).be.true();
    should(validLimit('hihi').call(node, '${HIHI}')).be.true();
  });

  it('priority, id, delays and lists as readAlarmSettings refuses them; empty is the default', () => {
    refused(valid('priority').call({}, '5'), 'limits.mustBe');
    should(valid('priority').call({}, '')).be.true();
    refused(valid('alarmId').call({}, 'line/1'), 'limits.mustBe');
    refused(valid('alarmId').call({}, 'x'.repeat(41)), 'alarm.tooLong');
    should(valid('alarmId').call({}, '')).be.true();
    refused(valid('onDelay').call({}, '600001'), 'limits.mustBe');
    refused(valid('pins').call({}, [7]), 'limits.mustBe');
    refused(valid('kinds').call({}, ['queue']), 'alarm.badList');
    should(valid('flags').call({}, [])).be.true();
  });

  it("the editor's validator reads a number limit with parseNumber", () => {
    should(validator('alarm_deadband', 'deadband').call({}, '2.5')).be.true();
    refused(validator('alarm_deadband', 'deadband').call({}, '2,5') as string, 'limits.mustBe');
    should(typed('alarm_limit', ' -1e3 ')).equal(-1000);
    should(typed('alarm_priority', '3')).equal(3);
  });
});
