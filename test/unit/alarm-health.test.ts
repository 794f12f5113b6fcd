/**
 * Alarm-system health (pure/alarm-health.ts) against figures computed by hand: alarms per
 * 10 minutes, time in flood, chattering, stale and the most frequent alarms, and the bound
 * on what it keeps.
 */
import should from 'should';
import { AlarmHealth } from '../../nodes/lib/pure/alarm-health';
import { Alarm, AlarmEvent, createAlarm, step, Transition } from '../../nodes/lib/pure/alarm-model';
import { ALARM_HEALTH } from '../../nodes/lib/pure/limits';

const S = 1000;
const MIN = 60 * S;

/** An activation as the model records a raise from normal. */
const raised = (alarm: string, time: number): Transition => ({ alarm, from: 'normal', to: 'active-unack', value: 1, active: true, time, cause: 'condition' });

/** Drives one alarm of the model through events at the given times, into `health`. */
function drive(health: AlarmHealth, id: string, events: Array<[number, AlarmEvent]>): Alarm {
  let alarm = createAlarm(id, 0) as Alarm;
  for (const [time, event] of events) {
    const s = step(alarm, event, time);
    should.not.exist(s.refusal);
    alarm = s.alarm;
    s.transitions.forEach((t) => health.record(t));
  }
  return alarm;
}
const on: AlarmEvent = { type: 'condition', active: true, value: 1 };
const off: AlarmEvent = { type: 'condition', active: false, value: 0 };
const ack: AlarmEvent = { type: 'acknowledge' };

describe('alarm health (ISA-18.2 measures)', function () {
  it('the bounds are ISA-18.2’s', function () {
    ALARM_HEALTH.should.containEql({ windowMs: 10 * MIN, floodAbove: 10, chatterCount: 3, chatterMs: MIN, staleMs: 24 * 60 * MIN, topCount: 10 });
  });

  it('12 alarms one second apart: a flood from the 11th (10 s) until the second leaves the window (601 s)', function () {
    const health = new AlarmHealth(0);
    for (let i = 0; i < 12; i++) health.record(raised(`a${i}`, i * S));
    const early = health.report(300 * S);
    early.should.containEql({ perWindow: 12, peakPerWindow: 12, inFlood: true, floodMs: 290 * S });
    health.report(600 * S).should.containEql({ perWindow: 11, inFlood: true, floodMs: 590 * S });
    health.report(601 * S).should.containEql({ perWindow: 10, inFlood: false, floodMs: 591 * S });
    const hour = health.report(3600 * S);
    hour.should.containEql({ perWindow: 0, peakPerWindow: 12, inFlood: false, floodMs: 591 * S });
    hour.floodPercent.should.be.approximately((591 / 3600) * 100, 1e-9);
    hour.top.should.eql([]);
  });

  it('ten in ten minutes is no flood; the eleventh is', function () {
    const health = new AlarmHealth(0);
    for (let i = 0; i < 10; i++) health.record(raised('x', i * MIN));
    health.report(9 * MIN + 30 * S).should.containEql({ perWindow: 10, inFlood: false, floodMs: 0 });
    // At 10 min the first (0 min) has left: still 10. At 10.5 min an eleventh within the window of the second.
    health.record(raised('x', 10 * MIN + 30 * S));
    health.report(10 * MIN + 40 * S).should.containEql({ perWindow: 10, inFlood: false });
    // y at 10 min 50 s: 1..9 min, 10.5 and y make 11, a flood until the 1 min one leaves at 11 min.
    health.record(raised('y', 10 * MIN + 50 * S));
    health.report(10 * MIN + 55 * S).should.containEql({ perWindow: 11, inFlood: true, floodMs: 5 * S });
    health.report(11 * MIN).should.containEql({ perWindow: 10, inFlood: false, floodMs: 10 * S });
    health.record(raised('z', 11 * MIN));
    health.record(raised('z', 11 * MIN + 5 * S));
    // Window (1 min, 11 min + 5 s]: x at 2..9 min (8), x at 10.5, y, z twice = 12; in flood again since 11 min.
    health.report(11 * MIN + 5 * S).should.containEql({ perWindow: 12, inFlood: true, floodMs: 15 * S, peakPerWindow: 12 });
  });

  it('chattering: 3 activations within a minute, from the model’s own transitions', function () {
    const health = new AlarmHealth(0);
    drive(health, 'x', [
      [0, on],
      [1 * S, off],
      [2 * S, ack],
      [30 * S, on],
      [31 * S, off],
      [32 * S, ack],
      [60 * S, on],
    ]);
    // y (after x: the health takes transitions in time order): 61 s, 92 s and 123 s span more
    // than a minute; a re-raise before acknowledge (rtn-unack → active-unack) also counts.
    drive(health, 'y', [
      [61 * S, on],
      [62 * S, off],
      [92 * S, on],
      [93 * S, off],
      [123 * S, on],
    ]);
    const report = health.report(130 * S);
    report.chattering.should.eql(['x']);
    report.top.should.eql([
      { alarm: 'x', count: 3 },
      { alarm: 'y', count: 3 },
    ]);
    health.report(11 * MIN).chattering.should.eql([]);
  });

  it('stale: active for more than a day, acknowledged or not; cleared is not', function () {
    const health = new AlarmHealth(0);
    drive(health, 'held', [
      [0, on],
      [MIN, ack],
    ]);
    drive(health, 'shelved', [
      [10 * S, on],
      [20 * S, { type: 'shelve', duration: 3_600_000 }],
    ]);
    drive(health, 'gone', [
      [0, on],
      [5 * MIN, off],
    ]);
    // An acknowledge or a shelve is no activation: one each.
    health.report(6 * MIN).top.should.eql(['gone', 'held', 'shelved'].map((alarm) => ({ alarm, count: 1 })));
    const day = 24 * 60 * MIN;
    health.report(day).stale.should.eql([]);
    health.report(day + 10 * S + 1).stale.should.eql(['held', 'shelved']);
    health.forget('shelved');
    health.report(day + 20 * S).stale.should.eql(['held']);
  });

  it('the most frequent: at most 10, most first, ties by id', function () {
    const health = new AlarmHealth(0);
    let t = 0;
    for (let i = 0; i < 12; i++) for (let n = 0; n <= i % 4; n++) health.record(raised(`m${String(i).padStart(2, '0')}`, (t += S)));
    const top = health.report(t).top;
    top.should.have.length(10);
    top.slice(0, 4).should.eql([
      { alarm: 'm03', count: 4 },
      { alarm: 'm07', count: 4 },
      { alarm: 'm11', count: 4 },
      { alarm: 'm02', count: 3 },
    ]);
    top.map((e) => e.count).should.eql([4, 4, 4, 3, 3, 3, 2, 2, 2, 1]);
  });

  it('bounded: no more than maxEvents activations kept, and the report says the counts are low', function () {
    const health = new AlarmHealth(0);
    const n = ALARM_HEALTH.maxEvents + 5;
    for (let i = 0; i < n; i++) health.record(raised(`b${i % 1000}`, Math.floor(i / 200)));
    const report = health.report(n / 200);
    report.perWindow.should.equal(ALARM_HEALTH.maxEvents);
    report.truncated.should.be.true();
    report.top.should.have.length(10);
    // A fresh health truncates nothing.
    new AlarmHealth(0).report(1).truncated.should.be.false();
  });
});
