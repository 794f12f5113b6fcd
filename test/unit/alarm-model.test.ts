/**
 * The alarm model (pure/alarm-model.ts) against ISA-18.2's state table: every transition
 * of the process states, the overlays (shelved, suppressed by design, out of service), and
 * refusals that change nothing, said in both languages. Time is a number the test moves.
 */
import fs from 'fs';
import nodePath from 'path';
import should from 'should';
import fc from 'fast-check';
import {
  Alarm,
  ALARM_STATES,
  AlarmEvent,
  createAlarm,
  deadlineOf,
  isAnnunciated,
  readAlarm,
  step,
  stateOf,
  Transition,
} from '../../nodes/lib/pure/alarm-model';
import { isPhrase, Phrase, render } from '../../nodes/lib/pure/phrase';
import { LIMITS } from '../../nodes/lib/pure/limits';
import { catalogsReady, english, inLanguage } from '../helpers/i18n';

const T0 = 1_700_000_000_000;
const raise = (value: number | boolean = 1): AlarmEvent => ({ type: 'condition', active: true, value });
const clear = (value: number | boolean = 0): AlarmEvent => ({ type: 'condition', active: false, value });
const ack: AlarmEvent = { type: 'acknowledge', user: 'ops', comment: 'seen' };

function fresh(): Alarm {
  const alarm = createAlarm('rail-12v.hi', T0);
  if (isPhrase(alarm)) throw new Error('a good id refused');
  return alarm;
}

/** Runs events one second apart; returns the alarm and every transition. */
function run(events: AlarmEvent[], alarm = fresh(), start = T0): { alarm: Alarm; transitions: Transition[] } {
  const transitions: Transition[] = [];
  events.forEach((event, i) => {
    const s = step(alarm, event, start + (i + 1) * 1000);
    should.not.exist(s.refusal, `${JSON.stringify(event)} refused: ${s.refusal && english(s.refusal)}`);
    alarm = s.alarm;
    transitions.push(...s.transitions);
  });
  return { alarm, transitions };
}

const path = (ts: Transition[]) => ts.map((t) => `${t.from}>${t.to}`);

/** Asserts a refusal that left the alarm as it was, and returns its English. */
function refused(alarm: Alarm, event: AlarmEvent, now = T0 + 5000): string {
  const s = step(alarm, event, now);
  should.exist(s.refusal, `${JSON.stringify(event).slice(0, 80)} accepted`);
  s.alarm.should.equal(alarm);
  s.transitions.should.be.empty();
  return english(s.refusal!);
}

describe('alarm model (ISA-18.2 states)', function () {
  before(() => catalogsReady);

  describe('the process states A-D', function () {
    it('raise → active-unack; acknowledge → active-ack; clear → normal', function () {
      const { alarm, transitions } = run([raise(130), ack, clear(90)]);
      path(transitions).should.eql(['normal>active-unack', 'active-unack>active-ack', 'active-ack>normal']);
      stateOf(alarm).should.equal('normal');
      transitions[0].should.containEql({ alarm: 'rail-12v.hi', value: 130, active: true, time: T0 + 1000, cause: 'condition' });
      transitions[1].should.containEql({ user: 'ops', comment: 'seen', cause: 'acknowledge', time: T0 + 2000 });
      transitions[2].should.containEql({ value: 90, active: false });
    });

    it('clear first → rtn-unack, then acknowledge → normal', function () {
      const { alarm, transitions } = run([raise(), clear(), ack]);
      path(transitions).should.eql(['normal>active-unack', 'active-unack>rtn-unack', 'rtn-unack>normal']);
      alarm.state.should.equal('normal');
    });

    it('rtn-unack raised again → active-unack (D → B)', function () {
      path(run([raise(), clear(), raise()]).transitions).should.eql(['normal>active-unack', 'active-unack>rtn-unack', 'rtn-unack>active-unack']);
    });

    it('a condition that does not change the state records nothing, but its value is kept', function () {
      const { alarm, transitions } = run([raise(120), raise(125), ack, raise(131), clear(), clear(2)]);
      path(transitions).should.eql(['normal>active-unack', 'active-unack>active-ack', 'active-ack>normal']);
      alarm.value!.should.equal(2);
    });

    it('acknowledge with nothing to acknowledge (normal, active-ack) is refused, nothing changed', function () {
      refused(fresh(), ack).should.equal('acknowledge refused: alarm rail-12v.hi is normal');
      refused(run([raise(), ack]).alarm, ack).should.equal('acknowledge refused: alarm rail-12v.hi is active acknowledged');
      render(step(fresh(), ack, T0).refusal!, inLanguage('de')).should.equal('Quittieren abgelehnt: Alarm rail-12v.hi ist normal');
    });
  });

  describe('shelved (E)', function () {
    it('shelve N s → not annunciated; at its end back as the condition is then', function () {
      const shelved = run([raise(), { type: 'shelve', duration: 30_000, user: 'tech', comment: 'repair' }]);
      let alarm = shelved.alarm;
      path(shelved.transitions).should.eql(['normal>active-unack', 'active-unack>shelved']);
      isAnnunciated(alarm).should.be.false();
      deadlineOf(alarm)!.should.equal(T0 + 2000 + 30_000);
      // Cleared and raised while shelved: no transition, no annunciation.
      for (const e of [clear(), raise(), clear()]) {
        const s = step(alarm, e, T0 + 10_000);
        s.transitions.should.be.empty();
        alarm = s.alarm;
      }
      step(alarm, { type: 'tick' }, T0 + 31_999).transitions.should.be.empty();
      const end = step(alarm, { type: 'tick' }, T0 + 32_000);
      path([...end.transitions]).should.eql(['shelved>normal']);
      end.transitions[0].cause.should.equal('shelve-ended');
      should.not.exist(deadlineOf(end.alarm));
      end.alarm.should.not.have.property('shelvedUntil');
    });

    it('a shelf ending on an active condition annunciates it afresh (active-unack, even if it was acknowledged)', function () {
      const { alarm } = run([raise(), ack, { type: 'shelve', duration: 5000 }]);
      path([...step(alarm, { type: 'tick' }, T0 + 10_000).transitions]).should.eql(['shelved>active-unack']);
    });

    it('unshelve by hand before the end; a shelve renewed is journalled with who and why', function () {
      const { alarm, transitions } = run([
        raise(),
        { type: 'shelve', duration: 5000 },
        { type: 'shelve', duration: 60_000, user: 'tech', comment: 'longer' },
        { type: 'unshelve', user: 'tech' },
      ]);
      path(transitions).should.eql(['normal>active-unack', 'active-unack>shelved', 'shelved>shelved', 'shelved>active-unack']);
      transitions[2].should.containEql({ user: 'tech', comment: 'longer' });
      stateOf(alarm).should.equal('active-unack');
    });

    it('a shelve past its bound, an unshelve of an alarm not shelved, acknowledge while shelved: refused', function () {
      const max = LIMITS.shelve_duration.max;
      refused(fresh(), { type: 'shelve', duration: max + 1 }).should.equal(`duration must be an integer from 1000 to ${max} ms, got ${max + 1}`);
      refused(fresh(), { type: 'shelve', duration: 999 }).should.startWith('duration must be');
      refused(fresh(), { type: 'unshelve' }).should.equal('unshelve refused: alarm rail-12v.hi is normal');
      refused(run([raise(), { type: 'shelve', duration: 5000 }]).alarm, ack).should.equal('acknowledge refused: alarm rail-12v.hi is shelved');
    });
  });

  describe('suppressed by design (F)', function () {
    it('suppressed → nothing raised or cleared; unsuppressed → the frozen state, then follows the condition', function () {
      let { alarm, transitions } = run([raise(), { type: 'suppress' }]);
      path(transitions).should.eql(['normal>active-unack', 'active-unack>suppressed']);
      const frozen = alarm;
      for (const e of [clear(), raise(7), clear(), { type: 'tick' } as AlarmEvent, { type: 'suppress' } as AlarmEvent]) {
        const s = step(alarm, e, T0 + 9000);
        s.transitions.should.be.empty();
        s.alarm.should.equal(frozen);
        should(s.stale).equal(e.type === 'condition' ? true : undefined);
      }
      refused(alarm, ack).should.equal('acknowledge refused: alarm rail-12v.hi is suppressed by design');
      refused(alarm, { type: 'shelve', duration: 5000 }).should.startWith('shelve refused');
      ({ alarm, transitions } = run([{ type: 'unsuppress' }, clear()], alarm, T0 + 10_000));
      path(transitions).should.eql(['suppressed>active-unack', 'active-unack>rtn-unack']);
    });

    it('a shelf that ends while suppressed ends quietly; unsuppressed, the alarm shows the state as of then', function () {
      let { alarm } = run([raise(), { type: 'shelve', duration: 5000 }, { type: 'suppress' }]);
      stateOf(alarm).should.equal('suppressed');
      const tick = step(alarm, { type: 'tick' }, T0 + 60_000);
      tick.transitions.should.be.empty();
      alarm = tick.alarm;
      should.not.exist(deadlineOf(alarm));
      path([...step(alarm, { type: 'unsuppress' }, T0 + 61_000).transitions]).should.eql(['suppressed>active-unack']);
    });
  });

  describe('out of service (G)', function () {
    it('removed → no annunciation, the condition followed underneath; returned → as the condition is now', function () {
      const { alarm, transitions } = run([
        raise(),
        { type: 'shelve', duration: 5000 },
        { type: 'remove-from-service', user: 'tech', comment: 'sensor swap' },
        clear(),
        raise(),
        clear(),
        { type: 'return-to-service', user: 'tech' },
      ]);
      path(transitions).should.eql(['normal>active-unack', 'active-unack>shelved', 'shelved>out-of-service', 'out-of-service>normal']);
      should.not.exist(deadlineOf(alarm));
      refused(alarm, { type: 'return-to-service' }).should.equal('return to service refused: alarm rail-12v.hi is normal');
      refused(run([{ type: 'remove-from-service' }]).alarm, { type: 'remove-from-service' }).should.equal(
        'remove from service refused: alarm rail-12v.hi is out of service',
      );
    });
  });

  describe('bad input: refused, named, nothing changed', function () {
    it('ids, users, comments, values, times, event types', function () {
      english(createAlarm('a/b', T0) as Phrase).should.equal('id must be text of 1 to 64 characters from A-Za-z0-9_.:-, got "a/b"');
      english(createAlarm('', T0) as Phrase).should.startWith('id must be');
      english(createAlarm(7, T0) as Phrase).should.startWith('id must be');
      const alarm = run([raise()]).alarm;
      refused(alarm, { type: 'acknowledge', comment: 'x'.repeat(1_000_000) }).should.equal(
        'comment must be text of 0 to 500 characters, got "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx..."',
      );
      refused(alarm, { type: 'acknowledge', user: 'u'.repeat(65) }).should.startWith('user must be text of 0 to 64 characters');
      refused(alarm, { type: 'acknowledge', user: 5 } as never).should.startWith('user must be');
      refused(alarm, { type: 'condition', active: 'yes' } as never).should.equal('active must be true or false, got "yes"');
      refused(alarm, { type: 'condition', active: true, value: 'high' } as never).should.startWith('value must be a finite number');
      refused(alarm, { type: 'condition', active: true, value: NaN }).should.endWith('got NaN');
      refused(alarm, { type: 'explode' } as never).should.startWith('the event must be one of condition, acknowledge');
      refused(alarm, null as never).should.startWith('the event must be');
      refused(alarm, ack, NaN).should.equal('the time must be a finite number of ms, got NaN');
      step(alarm, ack, T0).alarm.should.not.equal(alarm);
    });

    it('an alarm read back from a journal: its shape checked', function () {
      const alarm = run([raise(), { type: 'shelve', duration: 5000 }]).alarm;
      readAlarm(JSON.parse(JSON.stringify(alarm)))!.should.eql(alarm);
      readAlarm(JSON.parse(JSON.stringify(fresh())))!.should.eql(fresh());
      for (const bad of [null, 'x', { ...alarm, state: 'shelved' }, { ...alarm, id: '../x' }, { ...alarm, value: 'v' }, { ...alarm, since: 'now' }]) {
        should.not.exist(readAlarm(bad));
      }
    });
  });

  describe('words in both languages', function () {
    const root = nodePath.resolve(__dirname, '..', '..', '..');
    const catalog = (lang: string) => JSON.parse(fs.readFileSync(nodePath.join(root, 'locales', lang, 'modular-device.json'), 'utf8'))['modular-device'].alarm;
    /** Every `phrase('alarm.<key>'` of the alarm files (pure/alarm-*.ts, nodes/alarms/), and the states and acts they name by template. */
    const used = [
      ...new Set(
        [
          ...fs.readdirSync(nodePath.join(root, 'nodes', 'lib', 'pure')).filter((f) => f.startsWith('alarm-')).map((f) => nodePath.join('lib', 'pure', f)),
          ...fs.readdirSync(nodePath.join(root, 'nodes', 'alarms')).map((f) => nodePath.join('alarms', f)),
        ].flatMap((f) => [...fs.readFileSync(nodePath.join(root, 'nodes', f), 'utf8').matchAll(/phrase\('alarm\.(\w+)'/g)].map((m) => m[1])),
      ),
      ...ALARM_STATES.map((s) => `state.${s}`),
      ...['acknowledge', 'shelve', 'unshelve', 'remove-from-service', 'return-to-service'].map((e) => `event.${e}`),
    ].sort();
    const keys = (section: Record<string, unknown>): string[] =>
      Object.entries(section)
        .flatMap(([k, v]) => (typeof v === 'object' ? Object.keys(v as object).map((sub) => `${k}.${sub}`) : [k]))
        .sort();

    for (const lang of ['en-US', 'de']) {
      it(`${lang}: the catalog's alarm words are exactly those the code says`, function () {
        keys(catalog(lang)).should.eql(used);
      });
    }

    it('each state said differently in German and English, no placeholder left', function () {
      const de = inLanguage('de');
      const said = ALARM_STATES.flatMap((s) => [english({ key: `alarm.state.${s}` }), render({ key: `alarm.state.${s}` }, de)]);
      for (const text of said) text.should.not.match(/__\w+__|@modular-device|alarm\./);
      new Set(said.filter((_, i) => i % 2 === 0)).size.should.equal(ALARM_STATES.length);
      new Set(said.filter((_, i) => i % 2 === 1)).size.should.equal(ALARM_STATES.length);
    });
  });

  describe('any sequence of events (property)', function () {
    const act = fc.record({
      user: fc.option(fc.string({ maxLength: 70 }), { nil: undefined }),
      comment: fc.option(fc.string({ maxLength: 3 }), { nil: undefined }),
    });
    const event: fc.Arbitrary<AlarmEvent> = fc.oneof(
      fc.record({ type: fc.constant('condition' as const), active: fc.boolean(), value: fc.oneof(fc.double(), fc.boolean(), fc.constant(null)) }),
      act.map((a) => ({ type: 'acknowledge' as const, ...a })),
      fc.record({ type: fc.constant('shelve' as const), duration: fc.integer({ min: 0, max: 90_000_000 }) }),
      ...(['unshelve', 'remove-from-service', 'return-to-service', 'suppress', 'unsuppress', 'tick'] as const).map((type) =>
        fc.constant({ type } as AlarmEvent),
      ),
    );

    it('stays within the states; each transition starts where the last one ended; refusals change nothing', function () {
      fc.assert(
        fc.property(fc.array(fc.tuple(event, fc.integer({ min: 0, max: 4_000_000 })), { maxLength: 60 }), (events) => {
          let alarm = fresh();
          let now = T0;
          let shown = stateOf(alarm);
          for (const [e, dt] of events) {
            now += dt;
            const s = step(alarm, e, now);
            if (s.refusal) should(s.alarm).equal(alarm);
            for (const t of s.transitions) {
              should(ALARM_STATES).containEql(t.to);
              should(t.from).equal(shown);
              should(t.time).equal(now);
              shown = t.to;
            }
            alarm = s.alarm;
            should(stateOf(alarm)).equal(shown);
            should(readAlarm(JSON.parse(JSON.stringify(alarm)))).eql(alarm);
            if (alarm.shelvedUntil !== undefined) should(alarm.shelvedUntil - now).belowOrEqual(LIMITS.shelve_duration.max);
          }
        }),
        { numRuns: 500 },
      );
    });
  });
});
