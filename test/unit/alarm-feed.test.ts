/**
 * What feeds an alarm (nodes/alarms/alarm-feed.ts), with a real alarm system over a journal in
 * a temp folder and time moved by a hand clock: on-delay and off-delay, an event held active
 * until `clearAfter` passed without another, a chattering input (on/off every 200 ms) with
 * and without a delay, and a feed that starts after a redeploy or restart from the state kept.
 */
import 'should';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { AlarmFeed } from '../../nodes/alarms/alarm-feed';
import { AlarmSystem } from '../../nodes/alarms/alarm-system';
import type { AlarmRecord } from '../../nodes/alarms/alarm-record';
import { journalFile } from '../../nodes/alarms/journal';
import type { Delays } from '../../nodes/lib/pure/alarm-condition';
import { handClock, HandClock } from '../helpers/hand-clock';

const ID = 'tank';

describe('alarm feed', function () {
  let dir: string;
  let clock: HandClock;
  let system: AlarmSystem;
  let records: AlarmRecord[];
  const feeds: AlarmFeed[] = [];
  const feed = (delays: Delays, clearAfter = 5000) => {
    const f = new AlarmFeed(system, delays, clearAfter, clock.later);
    feeds.push(f);
    return f;
  };
  const shown = () => system.get(ID)!.shown;
  /** The states the alarm went to, in order. */
  const went = () => records.map((r) => r.to);

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'md-alarm-feed-'));
    clock = handClock();
    system = new AlarmSystem({ file: journalFile(dir), later: clock.later, now: clock.now });
    system.define({ id: ID, priority: 2, message: 'tank level', where: {}, owner: 'node-1' });
    records = [];
    system.subscribe((r) => records.push(r));
  });
  afterEach(async () => {
    for (const f of feeds.splice(0)) f.close();
    await system.journal.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('without delays an input is a condition at once', function () {
    const f = feed({});
    f.input(ID, true, 7);
    shown().should.equal('active-unack');
    system.get(ID)!.value!.should.equal(7);
    f.input(ID, false, 3);
    went().should.eql(['active-unack', 'rtn-unack']);
  });

  it('on-delay: raised once the input held for the delay; an input gone before is never raised', function () {
    const f = feed({ onDelay: 2000 });
    f.input(ID, true, true);
    clock.advance(1999);
    shown().should.equal('normal');
    clock.advance(1);
    shown().should.equal('active-unack');
    records[0].time.should.equal(3000);

    f.input(ID, false, false);
    shown().should.equal('rtn-unack');
    f.input(ID, true, true);
    clock.advance(1500);
    f.input(ID, false, false);
    clock.advance(10_000);
    went().should.eql(['active-unack', 'rtn-unack']);
  });

  it('off-delay: cleared once the input stayed gone for the delay; back before, it stays active', function () {
    const f = feed({ offDelay: 3000 });
    f.input(ID, true, true);
    f.input(ID, false, false);
    clock.advance(2999);
    shown().should.equal('active-unack');
    f.input(ID, true, true);
    clock.advance(10_000);
    shown().should.equal('active-unack');
    f.input(ID, false, false);
    clock.advance(3000);
    shown().should.equal('rtn-unack');
    went().should.eql(['active-unack', 'rtn-unack']);
  });

  it('an event is held active until clearAfter passed without another event', function () {
    const f = feed({}, 5000);
    f.event(ID, true);
    shown().should.equal('active-unack');
    clock.advance(4999);
    f.event(ID, true); // the hold starts again
    clock.advance(4999);
    shown().should.equal('active-unack');
    clock.advance(1);
    shown().should.equal('rtn-unack');
    went().should.eql(['active-unack', 'rtn-unack']);
    records[1].time.should.equal(1000 + 4999 + 5000);
  });

  it('an event held with an off-delay clears once the hold and then the off-delay passed', function () {
    const f = feed({ offDelay: 2000 }, 5000);
    f.event(ID, true);
    clock.advance(6999);
    shown().should.equal('active-unack');
    clock.advance(1);
    shown().should.equal('rtn-unack');
  });

  /** The input on and off every 200 ms for 10 s, then off. */
  function chatter(f: AlarmFeed): void {
    for (let i = 0; i < 50; i++) {
      f.input(ID, i % 2 === 0, i % 2 === 0);
      clock.advance(200);
    }
  }

  it('a chattering input without a delay raises the alarm again and again, and the health counts it chattering', function () {
    chatter(feed({}));
    went()
      .filter((to) => to === 'active-unack')
      .should.have.length(25);
    system.report().chattering.should.eql([ID]);
  });

  it('a chattering input with an on-delay raises nothing; with an off-delay it raises one alarm, cleared once it stops', function () {
    chatter(feed({ onDelay: 1000 }));
    records.should.eql([]);
    shown().should.equal('normal');

    feeds.splice(0).forEach((f) => f.close());
    const withOffDelay = feed({ offDelay: 1000 });
    chatter(withOffDelay);
    went().should.eql(['active-unack']);
    clock.advance(1000);
    went().should.eql(['active-unack', 'rtn-unack']);
    system.report().chattering.should.eql([]);
  });

  it('a feed that starts after a redeploy clears an alarm the last one raised, when its input goes', function () {
    const before = feed({});
    before.input(ID, true, true);
    before.close();
    const after = feed({});
    after.input(ID, false, false);
    shown().should.equal('rtn-unack');
  });

  it('a closed feed leaves no timer to fire: a waiting on-delay raises nothing', function () {
    const f = feed({ onDelay: 1000 });
    f.input(ID, true, true);
    f.close();
    clock.advance(5000);
    records.should.eql([]);
  });
});
