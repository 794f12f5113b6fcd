/**
 * An operator's command (pure/alarm-command.ts) and a device-alarm node's settings
 * (pure/alarm-settings.ts), read from untrusted input: what each accepts, the alarms the
 * settings define, and every refusal naming the field, the value and what is allowed.
 */
import should from 'should';
import { readCommand } from '../../nodes/lib/pure/alarm-command';
import { definedAlarms, readAlarmSettings, AlarmSettings } from '../../nodes/lib/pure/alarm-settings';
import { isPhrase, Phrase } from '../../nodes/lib/pure/phrase';
import { english, speak } from '../helpers/i18n';

const refusal = (value: unknown): string => {
  isPhrase(value).should.be.true(`expected a refusal, got ${JSON.stringify(value)}`);
  return english(value as Phrase);
};
const settings = (def: Record<string, unknown>): AlarmSettings => {
  const s = readAlarmSettings(def, 'node-1');
  if (isPhrase(s)) throw new Error(english(s));
  return s;
};

describe('alarm command and settings (pure)', () => {
  before(() => speak());

  describe('readCommand', () => {
    it('reads each action; user and comment kept, an empty one left out; a shelve takes the default duration', () => {
      should(readCommand({ action: 'acknowledge', alarm: 'a.b', user: 'ops', comment: '' }, 60000)).eql({ action: 'acknowledge', alarm: 'a.b', user: 'ops' });
      should(readCommand({ action: 'shelve', alarm: 'a' }, 60000)).eql({ action: 'shelve', alarm: 'a', duration: 60000 });
      should(readCommand({ action: 'shelve', alarm: 'a', duration: 1000, comment: 'why' }, 60000)).eql({
        action: 'shelve',
        alarm: 'a',
        duration: 1000,
        comment: 'why',
      });
      should(readCommand({ action: 'acknowledge-all', area: 'hall', device: 'dev' }, 1)).eql({ action: 'acknowledge-all', area: 'hall', device: 'dev' });
      should(readCommand({ action: 'list' }, 1)).eql({ action: 'list' });
      for (const action of ['unshelve', 'remove-from-service', 'return-to-service']) should(readCommand({ action, alarm: 'a' }, 1)).eql({ action, alarm: 'a' });
    });

    it('refuses, naming what is wrong and what is allowed', () => {
      refusal(readCommand('acknowledge', 1)).should.startWith('an alarm command must be an object');
      refusal(readCommand([], 1)).should.startWith('an alarm command must be an object');
      refusal(readCommand({ action: 'acknowledge', alarm: 'a', operator: 'x' }, 1)).should.equal(
        'an alarm command has no field operator (it may hold action, alarm, duration, user, comment, device, area)',
      );
      refusal(readCommand({ action: 'ack', alarm: 'a' }, 1)).should.startWith('action must be one of acknowledge, shelve,');
      refusal(readCommand({ action: 'acknowledge' }, 1)).should.startWith('alarm must be text of 1 to 64 characters');
      refusal(readCommand({ action: 'acknowledge', alarm: 'a/b' }, 1)).should.startWith('alarm must be text of 1 to 64 characters');
      refusal(readCommand({ action: 'shelve', alarm: 'a', duration: 999 }, 1)).should.equal('duration must be an integer from 1000 to 86400000 ms, got 999');
      refusal(readCommand({ action: 'shelve', alarm: 'a' }, 86_400_001)).should.startWith('duration must be');
      refusal(readCommand({ action: 'acknowledge', alarm: 'a', user: 'u'.repeat(65) }, 1)).should.startWith('user must be text of 0 to 64 characters');
      const long = refusal(readCommand({ action: 'acknowledge', alarm: 'a', comment: 'c'.repeat(1_000_000) }, 1));
      long.should.startWith('comment must be text of 0 to 500 characters');
      long.length.should.be.below(300);
      refusal(readCommand({ action: 'acknowledge-all', area: '' }, 1)).should.startWith('area must be a text of 1 to 200 characters');
      refusal(readCommand({ action: 'acknowledge-all', device: 5 }, 1)).should.equal('device must be a text of 1 to 200 characters, got 5');
    });
  });

  describe('readAlarmSettings', () => {
    it('the defaults: id from the node, priority 3, delays 0/0, clearAfter 5 s, every pin, flag and kind', () => {
      const s = settings({ alarmId: '' });
      s.should.containEql({ id: 'node-1', priority: 3, source: 'condition', property: 'payload', onDelay: 0, offDelay: 0, clearAfter: 5000, limits: {} });
      s.pins.should.eql([1, 2, 3, 4, 5, 6]);
      definedAlarms(s).should.eql([{ id: 'node-1' }]);
    });

    it('the alarms defined: one per limit, per pin and flag, per health kind', () => {
      definedAlarms(settings({ alarmId: 't', hi: '80', hihi: '90', deadband: '2' })).should.eql([
        { id: 't.hihi', limit: 'hihi' },
        { id: 't.hi', limit: 'hi' },
      ]);
      definedAlarms(settings({ alarmId: 'p', source: 'notification', pins: '3, 1', flags: 'high_current_alert' })).should.eql([
        { id: 'p.p1.high_current_alert', pin: 1, flag: 'high_current_alert' },
        { id: 'p.p3.high_current_alert', pin: 3, flag: 'high_current_alert' },
      ]);
      definedAlarms(settings({ alarmId: 'h', source: 'health', kinds: ['unreachable', 'reset'] })).should.eql([
        { id: 'h.unreachable', kind: 'unreachable' },
        { id: 'h.reset', kind: 'reset' },
      ]);
    });

    it('refuses a bad setting naming the field as the dialog labels it (and its name in a msg)', () => {
      refusal(readAlarmSettings({ hi: '90', hihi: '80' }, 'n')).should.equal('HiHi (80) must be above Hi (90)');
      refusal(readAlarmSettings({ lo: '10', lolo: '10' }, 'n')).should.equal('Lo (10) must be above LoLo (10)');
      refusal(readAlarmSettings({ priority: '5' }, 'n')).should.startWith('Priority (priority) must be');
      refusal(readAlarmSettings({ alarmId: 'x'.repeat(41) }, 'n')).should.startWith('Alarm id (alarmId) must be at most 40 characters');
      refusal(readAlarmSettings({ source: 'mqtt' }, 'n')).should.startWith('Source (source) must be one of condition, notification, health');
      refusal(readAlarmSettings({ onDelay: '600001' }, 'n')).should.startWith('On-delay (onDelay) must be');
      refusal(readAlarmSettings({ hi: 'hot' }, 'n')).should.startWith('Hi (hi) must be');
      refusal(readAlarmSettings({ deadband: '-1', hi: '1' }, 'n')).should.startWith('Deadband (deadband) must be');
      refusal(readAlarmSettings({ source: 'notification', pins: '7' }, 'n')).should.startWith('Pins (pins) must be');
      refusal(readAlarmSettings({ source: 'notification', flags: 'smoke' }, 'n')).should.startWith('Alerts (flags) may list only under_voltage_alert');
      refusal(readAlarmSettings({ source: 'health', kinds: 'fire' }, 'n')).should.startWith('Events (kinds) may list only unreachable');
    });
  });
});
