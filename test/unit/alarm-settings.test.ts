/**
 * A device-alarm node's settings (pure/alarm-settings.ts): the defaults of an empty dialog,
 * every field refused with the dialog's label, the value and what is allowed, limits out of
 * order naming both, and the alarms the settings define (their ids per source).
 */
import should from 'should';
import { AlarmSettings, definedAlarms, readAlarmSettings } from '../../nodes/lib/pure/alarm-settings';
import { ALERT_FLAGS, PINS } from '../../nodes/lib/pure/facts';
import { isPhrase, Phrase } from '../../nodes/lib/pure/phrase';
import { catalogsReady, english } from '../helpers/i18n';

/** The settings of `def`, which must be accepted. */
function settings(def: Record<string, unknown>, nodeId = 'node-1'): AlarmSettings {
  const out = readAlarmSettings(def, nodeId);
  if (isPhrase(out)) throw new Error(`refused: ${english(out)}`);
  return out;
}

/** The refusal of `def`, in English (fails when accepted). */
function refusal(def: Record<string, unknown>): string {
  const out = readAlarmSettings(def, 'node-1');
  if (!isPhrase(out)) throw new Error(`accepted: ${JSON.stringify(out)}`);
  return english(out as Phrase);
}

describe('device-alarm settings', function () {
  before(() => catalogsReady);

  it('an empty dialog: the defaults, the id from the node id made safe', function () {
    settings({}, '3f0c1a2b.8d9e$4').should.eql({
      id: '3f0c1a2b.8d9e_4',
      priority: 3,
      message: '',
      area: '',
      source: 'condition',
      property: 'payload',
      limits: {},
      pins: PINS,
      flags: ALERT_FLAGS,
      kinds: ['unreachable', 'reset', 'restarted', 'watchdog', 'notifications-lost'],
      onDelay: 0,
      offDelay: 0,
      clearAfter: 5000,
    });
  });

  it('the fields as a dialog stores them (text) read into their types', function () {
    const s = settings({
      alarmId: ' boiler ',
      priority: '1',
      message: 'Boiler too hot',
      area: 'hall 2',
      property: 'payload.temperature',
      hi: '80',
      hihi: '95.5',
      deadband: '2',
      onDelay: '15000',
      offDelay: '5000',
      clearAfter: '0',
    });
    s.should.containDeep({
      id: 'boiler',
      priority: 1,
      message: 'Boiler too hot',
      area: 'hall 2',
      property: 'payload.temperature',
      onDelay: 15000,
      offDelay: 5000,
      clearAfter: 0,
    });
    s.limits.should.eql({ hi: 80, hihi: 95.5, deadband: 2 });
    settings({ source: 'notification', pins: '3, 1,3', flags: 'high_current_alert' }).should.containDeep({ pins: [1, 3], flags: ['high_current_alert'] });
    settings({ source: 'health', kinds: ['reset', 'watchdog'] }).kinds.should.eql(['reset', 'watchdog']);
  });

  describe('each field refused, named as the dialog labels it', function () {
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ['Alarm id: characters an id may not hold', { alarmId: 'tank/hi' }, /^Alarm id \(alarmId\).*"tank\/hi"/],
      ['Alarm id: longer than 40, leaving room for a suffix', { alarmId: 'x'.repeat(41) }, /^Alarm id \(alarmId\) must be at most 40 characters/],
      ['Priority', { priority: '5' }, /^Priority \(priority\).*5/],
      ['Priority: not a number', { priority: 'high' }, /^Priority \(priority\)/],
      ['Message', { message: 'm'.repeat(501) }, /^Message \(message\)/],
      ['Area', { area: 'a'.repeat(65) }, /^Area \(area\) must be at most 64 characters/],
      ['Source', { source: 'mqtt' }, /^Source \(source\) must be one of condition, notification, health, got "mqtt"/],
      ['On-delay', { onDelay: '600001' }, /^On-delay \(onDelay\).*600001/],
      ['Off-delay', { offDelay: '-1' }, /^Off-delay \(offDelay\).*-1/],
      ['Clear after', { clearAfter: 'soon' }, /^Clear after \(clearAfter\)/],
      ['HiHi', { hihi: 'hot' }, /^HiHi \(hihi\)/],
      ['Hi', { hi: '2e9' }, /^Hi \(hi\)/],
      ['Lo', { lo: 'cold' }, /^Lo \(lo\)/],
      ['LoLo', { lolo: '-2e9' }, /^LoLo \(lolo\)/],
      ['Deadband', { hi: '80', deadband: '-1' }, /^Deadband \(deadband\).*-1/],
      ['Pins', { source: 'notification', pins: '7' }, /^Pins \(pins\).*7/],
      ['Alerts', { source: 'notification', flags: 'smoke_alert' }, /^Alerts \(flags\) may list only .*high_current_alert.*, got "smoke_alert"/],
      ['Events', { source: 'health', kinds: 'fire' }, /^Events \(kinds\) may list only unreachable, .*, got "fire"/],
    ];
    for (const [name, def, said] of cases) {
      it(name, function () {
        refusal(def).should.match(said);
      });
    }
  });

  it('HiHi below Hi refused naming both, with their values; LoLo above Lo too', function () {
    refusal({ hi: '80', hihi: '70' }).should.equal('HiHi (70) must be above Hi (80)');
    refusal({ lo: '20', lolo: '25' }).should.equal('Lo (20) must be above LoLo (25)');
    refusal({ lo: '90', hi: '80' }).should.equal('Hi (80) must be above Lo (90)');
    settings({ lolo: '10', lo: '20', hi: '80', hihi: '90' }).limits.should.eql({ lolo: 10, lo: 20, hi: 80, hihi: 90 });
  });

  describe('the alarms defined, their ids per source', function () {
    it('a boolean condition: the id itself', function () {
      definedAlarms(settings({ alarmId: 'door' })).should.eql([{ id: 'door' }]);
    });

    it('a value against limits: one per limit given', function () {
      definedAlarms(settings({ alarmId: 'temp', hihi: '95', hi: '80', lo: '5' })).should.eql([
        { id: 'temp.hihi', limit: 'hihi' },
        { id: 'temp.hi', limit: 'hi' },
        { id: 'temp.lo', limit: 'lo' },
      ]);
    });

    it('notifications: one per pin and alert flag', function () {
      definedAlarms(settings({ alarmId: 'io2', source: 'notification', pins: '3,1', flags: 'high_current_alert,under_voltage_alert' })).should.eql([
        { id: 'io2.p1.high_current_alert', pin: 1, flag: 'high_current_alert' },
        { id: 'io2.p1.under_voltage_alert', pin: 1, flag: 'under_voltage_alert' },
        { id: 'io2.p3.high_current_alert', pin: 3, flag: 'high_current_alert' },
        { id: 'io2.p3.under_voltage_alert', pin: 3, flag: 'under_voltage_alert' },
      ]);
      // Every pin and flag by default: 6 × 4, the longest id within alarm_id's 64 characters.
      const all = definedAlarms(settings({ alarmId: 'x'.repeat(40), source: 'notification' }));
      all.should.have.length(PINS.length * ALERT_FLAGS.length);
      Math.max(...all.map((a) => a.id.length)).should.be.belowOrEqual(64);
    });

    it('health: one per kind', function () {
      definedAlarms(settings({ alarmId: 'rack', source: 'health', kinds: 'unreachable,reset' })).should.eql([
        { id: 'rack.unreachable', kind: 'unreachable' },
        { id: 'rack.reset', kind: 'reset' },
      ]);
      definedAlarms(settings({ alarmId: 'rack', source: 'health' }))
        .map((a) => a.id)
        .should.eql(['rack.unreachable', 'rack.reset', 'rack.restarted', 'rack.watchdog', 'rack.notifications-lost']);
    });

    it('a flag or kind listed twice defines its alarm once', function () {
      const ids = (def: Record<string, unknown>) => definedAlarms(settings(def)).map((a) => a.id);
      ids({ alarmId: 'io2', source: 'notification', pins: '1', flags: 'high_current_alert,high_current_alert' }).should.eql(['io2.p1.high_current_alert']);
      ids({ alarmId: 'rack', source: 'health', kinds: 'reset,reset' }).should.eql(['rack.reset']);
    });
  });

  it('a limit may be 0 and negative; an empty limit is none', function () {
    settings({ lo: '-5', hi: '0', hihi: '' }).limits.should.eql({ lo: -5, hi: 0 });
    should(settings({ hi: '' }).limits.hi).be.undefined();
  });
});
