/**
 * What feeds the alarm system (nodes/alarms/alarm-feed.ts) and a device-alarm node's alarms
 * (node-alarms.ts), with a hand clock and a journal in a temp folder: the feed's
 * on-/off-delay and event hold, a feed that starts on a kept state (a redeploy) or after
 * suppression agreeing with the model again, and the module's outage and return as the
 * node's alarms see them. The system itself: alarm-system.test.ts.
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
import { speak } from '../helpers/i18n';
import { handClock, HandClock } from '../helpers/hand-clock';

const def = (id: string, extra: Partial<AlarmDefinition> = {}): AlarmDefinition => ({
  id,
  priority: 2,
  message: id,
  where: { config: 'dev' },
  owner: 'n1',
  ...extra,
});

describe('alarm feed and node alarms over the alarm system', function () {
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
