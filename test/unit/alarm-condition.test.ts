/**
 * Alarm conditions (pure/alarm-condition.ts): limits with a deadband, limits out of order
 * refused, and on-/off-delays against a chattering input, with the model and the health
 * downstream: a chattering input is one alarm with its delay, and counted chattering without.
 */
import should from 'should';
import {
  checkDelays,
  checkLimits,
  delayStep,
  delayTick,
  DelayState,
  Delays,
  INITIAL_DELAY,
  Level,
  levelOf,
  limitActive,
  LimitSet,
} from '../../nodes/lib/pure/alarm-condition';
import { Alarm, createAlarm, step, Transition } from '../../nodes/lib/pure/alarm-model';
import { AlarmHealth } from '../../nodes/lib/pure/alarm-health';
import { Check } from '../../nodes/lib/pure/checks';
import { render } from '../../nodes/lib/pure/phrase';
import { catalogsReady, english, inLanguage } from '../helpers/i18n';

const said = (c: Check) => (c === true ? true : english(c));
const LIMITS4: LimitSet = { lolo: 10, lo: 20, hi: 80, hihi: 90, deadband: 2 };

/** Levels of a series of values, each from the one before. */
function levels(values: number[], limits = LIMITS4): Level[] {
  let level: Level = 'normal';
  return values.map((v) => (level = levelOf(v, limits, level)));
}

describe('alarm conditions', function () {
  before(() => catalogsReady);

  describe('limits and deadband', function () {
    it('entered at the limit, left a deadband past it', function () {
      levels([50, 79.9, 80, 78.5, 78, 77.9]).should.eql(['normal', 'normal', 'hi', 'hi', 'normal', 'normal']);
      levels([85, 90, 88.5, 88, 79, 78.5, 77]).should.eql(['hi', 'hihi', 'hihi', 'hi', 'hi', 'hi', 'normal']);
      levels([30, 20, 21.9, 22, 10, 11.9, 12, 50]).should.eql(['normal', 'lo', 'lo', 'normal', 'lolo', 'lolo', 'lo', 'normal']);
      levels([95, 5, 95]).should.eql(['hihi', 'lolo', 'hihi']);
    });

    it('a value hovering at its limit raises once with a deadband, and again and again without', function () {
      const hover = [79.5, 80.2, 79.1, 80.4, 79.3, 80.1];
      const raises = (ls: Level[]) => ls.filter((l, i) => l === 'hi' && ls[i - 1] !== 'hi').length;
      raises(levels(hover)).should.equal(1);
      raises(levels(hover, { ...LIMITS4, deadband: 0 })).should.equal(3);
    });

    it('each limit its own alarm: HiHi is also over Hi', function () {
      limitActive('hihi', 'hi').should.be.true();
      limitActive('hi', 'hihi').should.be.false();
      limitActive('lolo', 'lo').should.be.true();
      limitActive('normal', 'lo').should.be.false();
    });

    it('limits out of order, or out of bounds, refused with a clear message', function () {
      said(checkLimits(LIMITS4)).should.be.true();
      said(checkLimits({ hi: 5 })).should.be.true();
      said(checkLimits({ hi: 80, hihi: 70 })).should.equal('HiHi (70) must be above Hi (80)');
      said(checkLimits({ lolo: 20, lo: 10 })).should.equal('Lo (10) must be above LoLo (20)');
      said(checkLimits({ lo: 50, hi: 50 })).should.equal('Hi (50) must be above Lo (50)');
      said(checkLimits({ lo: 90, hihi: 80 })).should.equal('HiHi (80) must be above Lo (90)');
      render(checkLimits({ hi: 80, hihi: 70 }) as never, inLanguage('de')).should.equal('HiHi (70) muss über Hi (80) liegen');
      said(checkLimits({})).should.equal('a limit alarm needs at least one of HiHi, Hi, Lo, LoLo');
      said(checkLimits({ hi: NaN })).should.equal('Hi must be a number from -1000000000 to 1000000000, got NaN');
      said(checkLimits({ hi: '80' } as never)).should.startWith('Hi must be a number');
      said(checkLimits({ hi: 80, deadband: -1 })).should.equal('deadband must be a number from 0 to 1000000000, got -1');
    });

    it('delays within their bounds', function () {
      said(checkDelays({ onDelay: 0, offDelay: 600_000 })).should.be.true();
      said(checkDelays({ onDelay: 600_001 })).should.equal('onDelay must be an integer from 0 to 600000 ms, got 600001');
      said(checkDelays({ offDelay: 1.5 })).should.startWith('offDelay must be');
    });
  });

  describe('on-delay and off-delay', function () {
    it('a change is reported once it held for its delay; a deadline says when to look again', function () {
      const d: Delays = { onDelay: 1000, offDelay: 500 };
      let r = delayStep(INITIAL_DELAY, true, 0, d);
      r.should.containEql({ active: false, changed: false, deadline: 1000 });
      delayTick(r.state, 999, d).should.containEql({ active: false, changed: false, deadline: 1000 });
      r = delayTick(r.state, 1000, d);
      r.should.containEql({ active: true, changed: true });
      should.not.exist(r.deadline);
      r = delayStep(r.state, true, 1500, d);
      r.changed.should.be.false();
      r = delayStep(r.state, false, 2000, d);
      r.should.containEql({ active: true, deadline: 2500 });
      // Back before the off-delay: the clear is dropped.
      r = delayStep(r.state, true, 2200, d);
      r.should.containEql({ active: true, changed: false });
      should.not.exist(r.deadline);
      delayStep(INITIAL_DELAY, true, 0, {}).should.containEql({ active: true, changed: true });
    });

    /** Feeds an input (changes at the given times) and the deadlines' ticks through delays, the model and the health. */
    function simulate(changes: Array<[number, boolean]>, d: Delays, end: number) {
      const made = createAlarm('di-3.door', 0) as Alarm;
      let alarm: Alarm = made;
      let state: DelayState = INITIAL_DELAY;
      let deadline: number | undefined;
      const health = new AlarmHealth(0);
      const transitions: Transition[] = [];
      const apply = (r: ReturnType<typeof delayStep>, now: number) => {
        state = r.state;
        deadline = r.deadline;
        if (!r.changed) return;
        const s = step(alarm, { type: 'condition', active: r.active, value: r.active }, now);
        alarm = s.alarm;
        for (const t of s.transitions) {
          transitions.push(t);
          health.record(t);
        }
        // The operator acknowledges each raise at once, so every raise after a clear counts.
        const a = step(alarm, { type: 'acknowledge', user: 'op' }, now);
        if (!a.refusal) alarm = a.alarm;
      };
      for (const [time, raw] of changes) {
        // Ticks due before this change come first, as the caller's timer would fire them.
        while (deadline !== undefined && deadline <= time) apply(delayTick(state, deadline, d), deadline);
        apply(delayStep(state, raw, time, d), time);
      }
      while (deadline !== undefined && deadline <= end) apply(delayTick(state, deadline, d), deadline);
      const activations = transitions.filter((t) => t.to === 'active-unack').length;
      return { activations, report: health.report(end), alarm };
    }

    /** On and off every 200 ms for `ms`, then held at `last`. */
    const chatter = (ms: number, last: boolean): Array<[number, boolean]> => [
      ...Array.from({ length: ms / 200 }, (_, i): [number, boolean] => [i * 200, i % 2 === 0]),
      [ms, last],
    ];

    it('a contact that chatters for 2 s before it holds: one activation with an on-delay of 1 s, chattering without', function () {
      const withDelay = simulate(chatter(2000, true), { onDelay: 1000 }, 10_000);
      withDelay.activations.should.equal(1);
      withDelay.report.chattering.should.eql([]);
      const without = simulate(chatter(2000, true), {}, 10_000);
      // Raised at 0, 400, ..., 1600 and at 2000: 6 activations within a minute.
      without.activations.should.equal(6);
      without.report.chattering.should.eql(['di-3.door']);
      without.report.top.should.eql([{ alarm: 'di-3.door', count: 6 }]);
    });

    it('on/off every 200 ms for a minute: one activation with an off-delay, counted chattering without', function () {
      const withDelay = simulate(chatter(60_000, false), { offDelay: 500 }, 70_000);
      withDelay.activations.should.equal(1);
      withDelay.alarm.active.should.be.false();
      const without = simulate(chatter(60_000, false), {}, 70_000);
      without.activations.should.equal(150);
      without.report.chattering.should.eql(['di-3.door']);
      // 150 activations in a minute: more than 10 per 10 minutes is a flood.
      without.report.inFlood.should.be.true();
      // And with only an on-delay a square wave never holds: nothing raised at all.
      simulate(chatter(60_000, false), { onDelay: 1000 }, 70_000).activations.should.equal(0);
    });
  });
});
