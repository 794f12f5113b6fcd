/**
 * An operator's command to the alarms (pure/alarm-command.ts): each action read as it is
 * meant, and every refusal said in words naming the field, the value and what is allowed,
 * bounded however large the input (a comment of 1 MB).
 */
import should from 'should';
import { readCommand, AlarmCommand } from '../../nodes/lib/pure/alarm-command';
import { isPhrase, Phrase } from '../../nodes/lib/pure/phrase';
import { catalogsReady, english } from '../helpers/i18n';

const HOUR = 3_600_000;
const read = (input: unknown) => readCommand(input, HOUR);
/** The refusal of `input`, in English (fails when the input is accepted). */
function refusal(input: unknown): string {
  const out = read(input);
  if (!isPhrase(out)) throw new Error(`accepted: ${JSON.stringify(out)}`);
  return english(out as Phrase);
}

describe('alarm commands', function () {
  before(() => catalogsReady);

  describe('each action', function () {
    for (const action of ['acknowledge', 'unshelve', 'remove-from-service', 'return-to-service'] as const) {
      it(`${action}: the alarm, with who and why`, function () {
        read({ action, alarm: 'tank.hi', user: 'anna', comment: 'checked on site' }).should.eql({
          action,
          alarm: 'tank.hi',
          user: 'anna',
          comment: 'checked on site',
        });
        read({ action, alarm: 'tank.hi' }).should.eql({ action, alarm: 'tank.hi' });
      });
    }

    it('shelve: the duration given, or the default', function () {
      read({ action: 'shelve', alarm: 'tank', duration: 60_000, user: 'anna' }).should.eql({ action: 'shelve', alarm: 'tank', duration: 60_000, user: 'anna' });
      read({ action: 'shelve', alarm: 'tank' }).should.eql({ action: 'shelve', alarm: 'tank', duration: HOUR });
      readCommand({ action: 'shelve', alarm: 'tank' }, 5000).should.eql({ action: 'shelve', alarm: 'tank', duration: 5000 });
    });

    it('acknowledge-all: for everything, a device, an area, or both', function () {
      read({ action: 'acknowledge-all' }).should.eql({ action: 'acknowledge-all' });
      read({ action: 'acknowledge-all', device: 'dev-1', user: 'anna', comment: 'shift start' }).should.eql({
        action: 'acknowledge-all',
        device: 'dev-1',
        user: 'anna',
        comment: 'shift start',
      });
      read({ action: 'acknowledge-all', area: 'north', device: 'press-7' }).should.eql({ action: 'acknowledge-all', area: 'north', device: 'press-7' });
    });

    it('list', function () {
      read({ action: 'list' }).should.eql({ action: 'list' } as AlarmCommand);
    });

    it('an empty user or comment is no user or comment', function () {
      read({ action: 'acknowledge', alarm: 'tank', user: '', comment: '' }).should.eql({ action: 'acknowledge', alarm: 'tank' });
    });
  });

  describe('refusals', function () {
    it('not an object', function () {
      for (const input of ['acknowledge', 42, null, undefined, ['acknowledge']]) refusal(input).should.startWith('an alarm command must be an object');
      refusal('ack').should.endWith('got "ack"');
      refusal(null).should.endWith('got null');
    });

    it('a field it does not know, named with the ones it knows', function () {
      refusal({ action: 'acknowledge', alarm: 'tank', alarmId: 'tank' }).should.equal(
        'an alarm command has no field alarmId (it may hold action, alarm, duration, user, comment, device, area)',
      );
    });

    it('an action it does not know', function () {
      refusal({ action: 'ack', alarm: 'tank' }).should.equal(
        'action must be one of acknowledge, shelve, unshelve, remove-from-service, return-to-service, acknowledge-all, list, got "ack"',
      );
      refusal({ alarm: 'tank' }).should.startWith('action must be one of');
    });

    it('a bad alarm id: missing, empty, of characters an id may not hold, too long', function () {
      for (const alarm of [undefined, '', 'tank/hi', 'x'.repeat(65), 42]) refusal({ action: 'acknowledge', alarm }).should.match(/^alarm /);
      refusal({ action: 'acknowledge', alarm: 'tank/hi' }).should.containEql('"tank/hi"');
      // 64 characters are an id.
      should(isPhrase(read({ action: 'acknowledge', alarm: 'x'.repeat(64) }))).be.false();
    });

    it('a shelve duration out of its bounds (1 s to 1 day)', function () {
      const twoDays = 2 * 86_400_000;
      refusal({ action: 'shelve', alarm: 'tank', duration: twoDays }).should.containEql(String(twoDays));
      refusal({ action: 'shelve', alarm: 'tank', duration: twoDays }).should.match(/^duration /);
      for (const duration of [999, -1, 1.5e3 + 0.5, '60000', false]) refusal({ action: 'shelve', alarm: 'tank', duration }).should.match(/^duration /);
      should(isPhrase(read({ action: 'shelve', alarm: 'tank', duration: 86_400_000 }))).be.false();
      should(isPhrase(read({ action: 'shelve', alarm: 'tank', duration: 1000 }))).be.false();
      // A default out of bounds is refused too, not used.
      isPhrase(readCommand({ action: 'shelve', alarm: 'tank' }, twoDays)).should.be.true();
    });

    it('a comment of 1 MB is refused in a short sentence', function () {
      const said = refusal({ action: 'acknowledge', alarm: 'tank', comment: 'x'.repeat(1 << 20) });
      said.should.match(/^comment /);
      said.should.containEql('500');
      said.length.should.be.below(300);
      refusal({ action: 'acknowledge-all', comment: 'x'.repeat(501) }).should.match(/^comment /);
      should(isPhrase(read({ action: 'acknowledge', alarm: 'tank', comment: 'x'.repeat(500) }))).be.false();
    });

    it('a user name too long, or not text', function () {
      refusal({ action: 'acknowledge', alarm: 'tank', user: 'u'.repeat(65) }).should.match(/^user /);
      refusal({ action: 'shelve', alarm: 'tank', user: 7 }).should.match(/^user /);
      should(isPhrase(read({ action: 'acknowledge', alarm: 'tank', user: 'u'.repeat(64) }))).be.false();
    });

    it('a bad device or area filter of acknowledge-all', function () {
      refusal({ action: 'acknowledge-all', device: '' }).should.equal('device must be a text of 1 to 200 characters, got ""');
      refusal({ action: 'acknowledge-all', area: 7 }).should.equal('area must be a text of 1 to 200 characters, got 7');
      refusal({ action: 'acknowledge-all', area: 'a'.repeat(201) }).should.startWith('area must be a text of 1 to 200 characters');
      refusal({ action: 'acknowledge-all', device: { id: 'dev-1' } }).should.startWith('device must be a text');
    });
  });
});
