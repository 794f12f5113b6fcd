/**
 * The one timer over exchange deadlines (nodes/lib/device/deadlines.ts): each watched
 * exchange whose deadline comes is expired once, in deadline order; one that ended first
 * (unwatched) never is; a deadline earlier than the timer's aim re-aims it. On a hand clock
 * (../helpers/hand-clock.ts): time moves when the test moves it.
 */
import 'should';
import { Deadlines, Expiring } from '../../nodes/lib/device/deadlines';
import { handClock, HandClock } from '../helpers/hand-clock';

/** Logs its name when expired, with `early` when that came before its deadline. */
function expiring(clock: HandClock, inMs: number, log: string[], name: string): Expiring {
  const deadline = clock.now() + inMs;
  return { deadline, expire: () => log.push(clock.now() >= deadline ? name : `${name} early`) };
}

describe('Deadlines: one timer over the exchanges on the wire', () => {
  it('expires each watched one once, earliest first; an unwatched one never', () => {
    const clock = handClock();
    const d = new Deadlines(clock);
    const log: string[] = [];
    const late = expiring(clock, 60, log, 'late');
    const ended = expiring(clock, 20, log, 'ended');
    const first = expiring(clock, 10, log, 'first');
    d.watch(late);
    d.watch(ended);
    d.watch(first); // earlier than the aim: the timer is aimed again
    clock
      .pending()
      .map((j) => j.ms)
      .should.eql([10], 'one timer, aimed at the earliest');
    d.unwatch(ended);
    clock.advance(10);
    log.should.eql(['first']);
    clock.advance(50);
    log.should.eql(['first', 'late']);
    clock.advance(100);
    log.should.eql(['first', 'late'], 'nothing expires twice');
    clock.pending().should.eql([], 'no timer left once nothing is watched');
  });

  it('a watch that comes after the timer is aimed earlier waits for its own deadline', () => {
    const clock = handClock();
    const d = new Deadlines(clock);
    const log: string[] = [];
    d.watch(expiring(clock, 5, log, 'a'));
    const b = expiring(clock, 40, log, 'b');
    d.watch(b);
    clock.advance(5);
    log.should.eql(['a']);
    clock.advance(34);
    log.should.eql(['a'], 'b not with a, nor before its time');
    clock.advance(1);
    log.should.eql(['a', 'b'], 'b at its own deadline');
  });

  it('a timer that comes late (a busy event loop) expires every one whose time is up, each at or after its deadline', () => {
    const clock = handClock();
    const d = new Deadlines(clock);
    const log: string[] = [];
    for (const [ms, name] of [
      [10, 'a'],
      [30, 'b'],
      [80, 'c'],
    ] as const)
      d.watch(expiring(clock, ms, log, name));
    clock.lag(50);
    clock.fire();
    log.should.eql(['a', 'b']);
    clock
      .pending()
      .map((j) => j.ms)
      .should.eql([30], 'aimed at what is left of c');
    clock.advance(29);
    log.should.eql(['a', 'b']);
    clock.advance(1);
    log.should.eql(['a', 'b', 'c']);
  });

  it('takes out the first, a middle and the last alike, twice without harm, and expires the rest', () => {
    const clock = handClock();
    const d = new Deadlines(clock);
    const log: string[] = [];
    const all = ['a', 'b', 'c', 'd', 'e'].map((name, k) => expiring(clock, 10 + k, log, name));
    for (const e of all) d.watch(e);
    for (const k of [0, 2, 4, 2]) d.unwatch(all[k]); // first, middle, last, and the middle again
    clock.advance(20);
    log.should.eql(['b', 'd']);
    d.unwatch(all[1]); // it expired: already out
    const again = expiring(clock, 5, log, 'again');
    d.watch(again); // the watch is empty and works on
    clock.advance(5);
    log.should.eql(['b', 'd', 'again']);
  });
});
