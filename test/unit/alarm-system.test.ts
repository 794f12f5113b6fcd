/**
 * The alarm system (nodes/alarms/alarm-system.ts) and what feeds it (alarm-feed.ts), with a
 * hand clock and a journal in a temp folder: definitions (one id, one node; priority
 * bounds), records told to every listener, commands and their refusals that change nothing,
 * acknowledge-all by device and area, a shelf ending at its clock time (also after a
 * restart, a new system over the same file), a redeploy keeping the states and a removal
 * forgetting them; the feed's on-/off-delay and event hold, and a feed that starts on a kept
 * state or after suppression agreeing with the model again.
 */
import fs from 'fs';
import os from 'os';
import path from 'path';
import should from 'should';
import { AlarmSystem } from '../../nodes/alarms/alarm-system';
import { AlarmFeed } from '../../nodes/alarms/alarm-feed';
import type { AlarmDefinition, AlarmRecord } from '../../nodes/alarms/alarm-record';
import { journalFile } from '../../nodes/alarms/journal';
import { NodeAlarms } from '../../nodes/alarms/node-alarms';
import { readAlarmSettings, AlarmSettings } from '../../nodes/lib/pure/alarm-settings';
import { isPhrase, Phrase } from '../../nodes/lib/pure/phrase';
import { english, speak } from '../helpers/i18n';
import { handClock, HandClock } from '../helpers/hand-clock';

const def = (id: string, extra: Partial<AlarmDefinition> = {}): AlarmDefinition => ({
  id,
  priority: 2,
  message: id,
  where: { config: 'dev' },
  owner: 'n1',
  ...extra,
});

describe('alarm system', function () {
  let dir: string;
  let clock: HandClock;
  let system: AlarmSystem;
  let told: AlarmRecord[];
  const open = () => new AlarmSystem({ file: journalFile(dir), later: clock.later, now: clock.now });

  before(() => speak());
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'md-alarm-system-'));
    clock = handClock();
    system = open();
    told = [];
    system.subscribe((r) => told.push(r));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const states = () => system.list().map((v) => [v.id, v.shown]);

  it('defines an alarm in normal; an id of another node and a priority out of bounds are refused', () => {
    system.define(def('a')).should.containEql({ id: 'a', state: 'normal', active: false });
    english(system.define(def('a', { owner: 'n2' })) as Phrase).should.equal('alarm a is already defined by another node: each alarm id belongs to one node');
    english(system.define(def('b', { priority: 5 })) as Phrase).should.match(/^priority must be .*1.*4.*got 5$/);
    should(system.get('b')).be.undefined();
    // The same node again (a redeploy) is no conflict.
    isPhrase(system.define(def('a'))).should.be.false();
  });

  it('an event becomes one record with the definition, told to every listener even when one throws', () => {
    system.define(def('a', { area: 'hall', priority: 1 }));
    system.subscribe(() => {
      throw new Error('a listener of its own');
    });
    const seen: AlarmRecord[] = [];
    system.subscribe((r) => seen.push(r));
    system.apply('a', { type: 'condition', active: true, value: 7 });
    told.should.eql([
      {
        alarm: 'a',
        from: 'normal',
        to: 'active-unack',
        value: 7,
        active: true,
        time: 1000,
        cause: 'condition',
        priority: 1,
        message: 'a',
        area: 'hall',
        where: { config: 'dev' },
      },
    ]);
    seen.should.eql(told);
    system.recent(5).should.eql(told);
  });

  it('commands: acknowledge with who and why; an unknown alarm and an act that does not apply are refused and change nothing', () => {
    system.define(def('a'));
    system.apply('a', { type: 'condition', active: true });
    english(system.command({ action: 'acknowledge', alarm: 'zz' }).refusal!).should.equal('no alarm zz is deployed');
    system.command({ action: 'unshelve', alarm: 'a' }).refusal!.should.be.ok();
    told.should.have.length(1);
    const { records } = system.command({ action: 'acknowledge', alarm: 'a', user: 'ops', comment: 'seen' });
    records.map((r) => [r.to, r.user, r.comment]).should.eql([['active-ack', 'ops', 'seen']]);
    states().should.eql([['a', 'active-ack']]);
    system.command({ action: 'list' }).records.should.eql([]);
  });

  it('acknowledge-all: only the unacknowledged alarms of the device or area named', () => {
    system.define(def('a', { where: { config: 'd1', device: 'host1' }, area: 'hall' }));
    system.define(def('b', { where: { config: 'd2' }, area: 'hall' }));
    system.define(def('c', { where: { config: 'd2' }, area: 'yard' }));
    for (const id of ['a', 'b', 'c']) system.apply(id, { type: 'condition', active: true });
    system
      .command({ action: 'acknowledge-all', device: 'host1' })
      .records.map((r) => r.alarm)
      .should.eql(['a']);
    system
      .command({ action: 'acknowledge-all', area: 'hall', user: 'ops' })
      .records.map((r) => [r.alarm, r.user])
      .should.eql([['b', 'ops']]);
    system
      .command({ action: 'acknowledge-all' })
      .records.map((r) => r.alarm)
      .should.eql(['c']);
  });

  it('a shelf ends at its clock time, as the condition then is', () => {
    system.define(def('a'));
    system.apply('a', { type: 'condition', active: true });
    system.command({ action: 'shelve', alarm: 'a', duration: 1000 });
    clock.advance(999);
    states().should.eql([['a', 'shelved']]);
    clock.advance(1);
    told
      .map((r) => [r.from, r.to, r.cause])
      .slice(-1)
      .should.eql([['shelved', 'active-unack', 'shelve-ended']]);
  });

  it('the list: priority first, then the newest change', () => {
    system.define(def('low', { priority: 4 }));
    system.define(def('old', { priority: 1 }));
    system.define(def('new', { priority: 1 }));
    system.apply('old', { type: 'condition', active: true });
    clock.advance(10);
    system.apply('new', { type: 'condition', active: true });
    system
      .list()
      .map((v) => v.id)
      .should.eql(['new', 'old', 'low']);
  });

  it('a redeploy (release, define again) keeps the state; a removed node forgets it', () => {
    system.define(def('a'));
    system.apply('a', { type: 'condition', active: true });
    system.release('n1', false);
    should(system.get('a')).be.undefined();
    system.apply('a', { type: 'acknowledge' }).refusal!.should.be.ok();
    system.define(def('a'));
    system.get('a')!.shown.should.equal('active-unack');
    system.release('n1', true);
    system.define(def('a'));
    system.get('a')!.shown.should.equal('normal');
  });

  it('a restart (a new system over the same file): the states as they were, a shelf past its end ends at once', async () => {
    system.define(def('a'));
    system.define(def('b'));
    system.apply('a', { type: 'condition', active: true });
    system.apply('b', { type: 'condition', active: true });
    system.command({ action: 'shelve', alarm: 'b', duration: 5000 });
    await system.journal.close();
    clock.advance(6000);
    const again = open();
    const seen: AlarmRecord[] = [];
    again.subscribe((r) => seen.push(r));
    again.define(def('a'));
    again.define(def('b'));
    again.get('a')!.shown.should.equal('active-unack');
    clock.advance(0);
    seen.map((r) => [r.alarm, r.from, r.to, r.cause]).should.eql([['b', 'shelved', 'active-unack', 'shelve-ended']]);
    again
      .recent(10)
      .map((r) => r.alarm)
      .should.eql(['b', 'b', 'b', 'a']);
  });

  describe('feed', () => {
    const feedOf = (delays = {}, clearAfter = 1000) => new AlarmFeed(system, delays, clearAfter, clock.later);
    const path_ = (id: string) => told.filter((r) => r.alarm === id).map((r) => r.to);

    it('an event holds the condition until none came for clearAfter', () => {
      system.define(def('e'));
      const feed = feedOf();
      feed.event('e', true);
      clock.advance(900);
      feed.event('e', true);
      clock.advance(999);
      path_('e').should.eql(['active-unack']);
      clock.advance(1);
      path_('e').should.eql(['active-unack', 'rtn-unack']);
    });

    it('an on-delay drops a chattering input and raises one that holds; an off-delay keeps it raised through short gaps', () => {
      system.define(def('on'));
      system.define(def('off'));
      const on = feedOf({ onDelay: 500 });
      const off = feedOf({ offDelay: 500 });
      for (let i = 0; i < 5; i++) {
        on.input('on', true, true);
        off.input('off', true, true);
        clock.advance(200);
        on.input('on', false, false);
        off.input('off', false, false);
        clock.advance(200);
      }
      path_('on').should.eql([]);
      path_('off').should.eql(['active-unack']);
      on.input('on', true, true);
      clock.advance(500);
      path_('on').should.eql(['active-unack']);
      clock.advance(100);
      path_('off').should.eql(['active-unack', 'rtn-unack']);
      on.close();
      off.close();
      clock.pending().should.have.length(0);
    });

    it('a feed that starts on a kept active state (a redeploy) clears on a false input, or when no event comes for clearAfter', () => {
      system.define(def('c'));
      system.define(def('e'));
      system.apply('c', { type: 'condition', active: true });
      system.apply('e', { type: 'condition', active: true });
      const feed = feedOf();
      feed.input('c', false, false);
      path_('c').should.eql(['active-unack', 'rtn-unack']);
      feed.resync('e', true);
      clock.advance(999);
      path_('e').should.eql(['active-unack']);
      clock.advance(1);
      path_('e').should.eql(['active-unack', 'rtn-unack']);
    });

    it('after suppression: an event hold that ran out meanwhile starts again; an input heard meanwhile is applied', () => {
      system.define(def('e'));
      system.define(def('c'));
      const feed = feedOf();
      feed.event('e', true);
      feed.input('c', true, true);
      for (const id of ['e', 'c']) system.apply(id, { type: 'suppress' });
      clock.advance(2000); // the hold ends while the module cannot tell: ignored
      feed.input('c', false, false);
      for (const id of ['e', 'c']) system.apply(id, { type: 'unsuppress' });
      path_('e').should.eql(['active-unack', 'suppressed', 'active-unack']);
      feed.resync('e', true);
      feed.resync('c', false);
      path_('c').should.eql(['active-unack', 'suppressed', 'active-unack', 'rtn-unack']);
      clock.advance(999);
      path_('e').should.eql(['active-unack', 'suppressed', 'active-unack']);
      clock.advance(1);
      path_('e').should.eql(['active-unack', 'suppressed', 'active-unack', 'rtn-unack']);
    });
  });
  describe('node alarms (a device-alarm node)', () => {
    const settingsOf = (def: Record<string, unknown>) => readAlarmSettings(def, 'n') as AlarmSettings;
    const seen = (id: string) => told.filter((r) => r.alarm === id).map((r) => [r.to, r.cause]);

    it('the restarted alarm is raised when the module comes back from an outage (not dropped as stale while suppressed)', () => {
      const alarms = new NodeAlarms(
        system,
        'n1',
        settingsOf({ alarmId: 'h', source: 'health', kinds: 'unreachable, restarted' }),
        { config: 'dev' },
        clock.later,
      );
      should(alarms.define()).be.undefined();
      alarms.connection({ state: 'unreachable', reason: 'gone' });
      alarms.connection({ state: 'connected', apiVersion: '1.0', restarted: true });
      seen('h.restarted').should.eql([
        ['suppressed', 'suppress'],
        ['normal', 'unsuppress'],
        ['active-unack', 'condition'],
      ]);
      seen('h.unreachable').should.eql([
        ['active-unack', 'condition'],
        ['rtn-unack', 'condition'],
      ]);
      alarms.close(false);
    });

    it('a kept suppressed state (a redeploy during an outage) is lifted when the module connects', () => {
      system.define(def('p.p1.high_current_alert', { owner: 'n1' }));
      system.apply('p.p1.high_current_alert', { type: 'suppress' });
      system.release('n1', false);
      const alarms = new NodeAlarms(
        system,
        'n1',
        settingsOf({ alarmId: 'p', source: 'notification', pins: '1', flags: 'high_current_alert' }),
        {},
        clock.later,
      );
      should(alarms.define()).be.undefined();
      alarms.connection({ state: 'connected', apiVersion: '0.9' });
      system.get('p.p1.high_current_alert')!.shown.should.equal('normal');
      alarms.status().should.containEql({ fill: 'green' });
      alarms.close(false);
    });
  });
});
