/**
 * The alarm system (nodes/alarms/alarm-system.ts) over a real journal file in a temp folder,
 * time moved by a hand clock: a journalled state taken up by define, one id one owner,
 * release that forgets only when the node was removed, transitions journalled and told,
 * shelves that end at their clock time (also across a restart: a new system on the same
 * file), acknowledge-all scoped to a device or an area, and the operator's order.
 */
import should from 'should';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { AlarmSystem } from '../../nodes/alarms/alarm-system';
import type { AlarmDefinition, AlarmRecord } from '../../nodes/alarms/alarm-record';
import { journalFile } from '../../nodes/alarms/journal';
import { isPhrase } from '../../nodes/lib/pure/phrase';
import { handClock, HandClock } from '../helpers/hand-clock';
import { catalogsReady, english } from '../helpers/i18n';

const def = (id: string, extra: Partial<AlarmDefinition> = {}): AlarmDefinition => ({
  id,
  priority: 2,
  message: `${id} high`,
  where: { config: 'dev-1', device: '10.0.0.5', service: 'io', slot: 2 },
  owner: 'node-1',
  ...extra,
});

describe('alarm system', function () {
  let dir: string;
  let file: string;
  let clock: HandClock;
  const systems: AlarmSystem[] = [];
  /** A system on the test's file (a new one on the same file is a restart). */
  const open = (c: HandClock = clock) => {
    const system = new AlarmSystem({ file, later: c.later, now: c.now });
    systems.push(system);
    return system;
  };
  const raise = (s: AlarmSystem, id: string) => s.apply(id, { type: 'condition', active: true, value: 1 });
  const shown = (s: AlarmSystem, id: string) => s.get(id)?.shown;

  before(() => catalogsReady);
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'md-alarm-system-'));
    file = journalFile(dir);
    clock = handClock();
  });
  afterEach(async () => {
    for (const s of systems.splice(0)) await s.journal.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('define takes up the state a journal kept: an unacknowledged alarm is still unacknowledged after a restart', async () => {
    const first = open();
    should(isPhrase(first.define(def('tank')))).be.false();
    raise(first, 'tank');
    await first.journal.close();

    const again = open();
    const alarm = again.define(def('tank'));
    should(isPhrase(alarm)).be.false();
    shown(again, 'tank')!.should.equal('active-unack');
    again.get('tank')!.value!.should.equal(1);
    // A new id finds nothing kept: normal.
    again.define(def('pump'));
    shown(again, 'pump')!.should.equal('normal');
  });

  it('an id another node defines is refused; the same node may define it again, another once it is released', function () {
    const s = open();
    s.define(def('tank', { owner: 'node-1' }));
    const refused = s.define(def('tank', { owner: 'node-2', priority: 1 }));
    should(isPhrase(refused)).be.true();
    english(refused as never).should.equal('alarm tank is already defined by another node: each alarm id belongs to one node');
    s.get('tank')!.priority.should.equal(2);
    should(isPhrase(s.define(def('tank', { owner: 'node-1' })))).be.false();
    s.release('node-1', false);
    should(isPhrase(s.define(def('tank', { owner: 'node-2' })))).be.false();
  });

  it('a priority out of its bounds is refused and defines nothing', function () {
    const s = open();
    const refused = s.define(def('tank', { priority: 5 }));
    should(isPhrase(refused)).be.true();
    english(refused as never).should.match(/priority/);
    should(s.get('tank')).be.undefined();
  });

  it('release keeps the state for the next node (a redeploy); release of a removed node forgets it', function () {
    const s = open();
    s.define(def('tank'));
    raise(s, 'tank');
    s.release('node-1', false);
    should(s.get('tank')).be.undefined();
    s.list().should.eql([]);
    s.define(def('tank'));
    shown(s, 'tank')!.should.equal('active-unack');

    s.release('node-1', true);
    should(s.journal.state('tank')).be.undefined();
    s.define(def('tank'));
    shown(s, 'tank')!.should.equal('normal');
  });

  it('apply journals each transition, keeps the state, and tells every listener (one that throws stops no other)', async () => {
    const s = open();
    s.define(def('tank', { area: 'north' }));
    const heard: AlarmRecord[] = [];
    s.subscribe(() => {
      throw new Error('a broken listener');
    });
    const stop = s.subscribe((r) => heard.push(r));
    clock.advance(500);
    const result = s.apply('tank', { type: 'condition', active: true, value: 93.5 });
    should(result.refusal).be.undefined();
    heard.should.have.length(1);
    heard[0].should.containDeep({
      alarm: 'tank',
      from: 'normal',
      to: 'active-unack',
      value: 93.5,
      time: 1500,
      priority: 2,
      message: 'tank high',
      area: 'north',
    });
    heard[0].where.should.eql({ config: 'dev-1', device: '10.0.0.5', service: 'io', slot: 2 });
    s.journal.entries().should.eql(heard);
    s.journal.state('tank')!.should.containDeep({ state: 'active-unack', active: true });
    s.recent(1).should.eql(heard);
    // Kept in the file: a restart reads it back.
    await s.journal.flush();
    const again = open();
    again.journal.entries().should.eql(heard);

    stop();
    s.apply('tank', { type: 'acknowledge', user: 'anna' });
    heard.should.have.length(1);
    s.recent(5)
      .map((r) => r.to)
      .should.eql(['active-ack', 'active-unack']);
  });

  it('apply to an alarm no node defines is refused, journals and tells nothing', function () {
    const s = open();
    const heard: AlarmRecord[] = [];
    s.subscribe((r) => heard.push(r));
    const result = s.apply('ghost', { type: 'acknowledge' });
    english(result.refusal!).should.equal('no alarm ghost is deployed');
    heard.should.eql([]);
    s.journal.entries().should.eql([]);
    s.command({ action: 'acknowledge', alarm: 'ghost' }).refusal!.should.be.ok();
  });

  it("a shelve's timer ends it at its clock time, as the condition is then", function () {
    const s = open();
    s.define(def('tank'));
    raise(s, 'tank');
    s.command({ action: 'shelve', alarm: 'tank', duration: 60_000, user: 'anna' }).records.should.have.length(1);
    shown(s, 'tank')!.should.equal('shelved');
    s.get('tank')!.shelvedUntil!.should.equal(61_000);
    clock.advance(59_999);
    shown(s, 'tank')!.should.equal('shelved');
    clock.advance(1);
    shown(s, 'tank')!.should.equal('active-unack');
    s.recent(1)[0].should.containDeep({ from: 'shelved', to: 'active-unack', cause: 'shelve-ended', time: 61_000 });
  });

  it('a shelve still running at a restart ends at its clock time; one that ended during the restart ends at once', async () => {
    const first = open();
    first.define(def('tank'));
    first.define(def('pump'));
    raise(first, 'tank');
    first.command({ action: 'shelve', alarm: 'tank', duration: 60_000 });
    first.command({ action: 'shelve', alarm: 'pump', duration: 10_000 });
    await first.journal.close();

    // The process was down for 30 s: the pump's shelve (10 s) ended meanwhile, the tank's has 31 s left.
    const later = handClock();
    later.lag(30_000);
    const again = open(later);
    again.define(def('tank'));
    again.define(def('pump'));
    later.advance(0);
    shown(again, 'pump')!.should.equal('normal');
    again.recent(1)[0].should.containDeep({ alarm: 'pump', cause: 'shelve-ended', time: 31_000 });
    shown(again, 'tank')!.should.equal('shelved');
    later.advance(29_999);
    shown(again, 'tank')!.should.equal('shelved');
    later.advance(1);
    shown(again, 'tank')!.should.equal('active-unack');
  });

  it('acknowledge-all for a device or an area acknowledges those alarms only', function () {
    const s = open();
    s.define(def('a', { where: { config: 'dev-1' }, area: 'north' }));
    s.define(def('b', { where: { config: 'dev-2', device: 'press-7' }, area: 'north' }));
    s.define(def('c', { where: { config: 'dev-2' }, area: 'south' }));
    s.define(def('d', { where: { config: 'dev-3' } }));
    for (const id of ['a', 'b', 'c', 'd']) raise(s, id);

    s.command({ action: 'acknowledge-all', device: 'dev-1', user: 'anna' })
      .records.map((r) => r.alarm)
      .should.eql(['a']);
    s.command({ action: 'acknowledge-all', device: 'press-7' })
      .records.map((r) => r.alarm)
      .should.eql(['b']);
    ['a', 'b', 'c', 'd'].map((id) => shown(s, id)).should.eql(['active-ack', 'active-ack', 'active-unack', 'active-unack']);

    raise(s, 'a'); // acknowledged already: stays
    s.apply('a', { type: 'condition', active: false });
    s.apply('a', { type: 'condition', active: true });
    s.command({ action: 'acknowledge-all', area: 'south' })
      .records.map((r) => r.alarm)
      .should.eql(['c']);
    shown(s, 'a')!.should.equal('active-unack');
    shown(s, 'd')!.should.equal('active-unack');
    s.command({ action: 'acknowledge-all', area: 'north', device: 'dev-2' }).records.should.eql([]);
    s.command({ action: 'acknowledge-all' })
      .records.map((r) => r.alarm)
      .sort()
      .should.eql(['a', 'd']);
  });

  it("lists the alarms in the operator's order: priority first, then the newest change", function () {
    const s = open();
    for (const [id, priority] of [
      ['p2-old', 2],
      ['p1-old', 1],
      ['p2-new', 2],
      ['p1-new', 1],
      ['p4', 4],
    ] as const) {
      s.define(def(id, { priority }));
      clock.advance(1000);
      raise(s, id);
    }
    s.list()
      .map((v) => v.id)
      .should.eql(['p1-new', 'p1-old', 'p2-new', 'p2-old', 'p4']);
  });
});
