/**
 * The alarms' journal (nodes/alarms/journal.ts) on the real filesystem, in a temp folder:
 * what it holds survives a close and a new Journal over the same file (a restart); the ring's
 * bound holds and counts what it dropped; writes are batched (counted, with a hand clock
 * driving the interval); a file that cannot be read is announced, kept aside and the journal
 * starts empty; a failed write is announced once, the journal keeps working in memory and
 * recovers; a 1 MB comment is truncated to the entry's bound.
 */
import should from 'should';
import { fork } from 'child_process';
import fs from 'fs';
import os from 'os';
import path from 'path';
import { Journal, JournalOptions, JournalProblem, journalFile, JOURNAL_DEFAULTS } from '../../nodes/alarms/journal';
import { maxFileBytes, putAside } from '../../nodes/alarms/journal-file';
import { handClock, HandClock } from '../helpers/hand-clock';

interface Transition {
  alarm: string;
  from: string;
  to: string;
  value: unknown;
  time: number;
  user?: string;
  comment?: string;
  truncated?: boolean;
}
type State = { state: string; until?: number };

const transition = (i: number, extra: Partial<Transition> = {}): Transition => ({
  alarm: `a${i % 7}`,
  from: 'normal',
  to: 'unack',
  value: i,
  time: 1_700_000_000_000 + i,
  ...extra,
});

describe('alarm journal', function () {
  let dir: string;
  let file: string;
  let clock: HandClock;
  let problems: JournalProblem[];
  let recovered: number;
  const open = (options: Partial<JournalOptions> = {}) =>
    new Journal<Transition, State>({ file, later: clock.later, onProblem: (p) => problems.push(p), onRecovered: () => recovered++, ...options });

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'md-journal-'));
    file = journalFile(dir);
    clock = handClock();
    problems = [];
    recovered = 0;
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('a fresh start: no file, nothing announced, nothing written until something changes', async () => {
    const journal = open();
    journal.entries().should.eql([]);
    journal.states().size.should.equal(0);
    clock.pending().should.eql([]);
    await journal.close();
    journal.stats().writes.should.equal(0);
    fs.existsSync(file).should.be.false();
    problems.should.eql([]);
  });

  it('entries and states survive a close and a new Journal over the same file (a restart)', async () => {
    const journal = open();
    for (let i = 0; i < 3; i++) journal.append(transition(i, { user: 'anna', comment: 'checked ✓' })).should.be.true();
    journal.setState('a1', { state: 'unack' }).should.be.true();
    journal.setState('a2', { state: 'shelved', until: 1_700_000_360_000 }).should.be.true();
    journal.setState('__proto__', { state: 'normal' }).should.be.true();
    await journal.close();
    journal.stats().writes.should.equal(1);
    (fs.statSync(file).mode & 0o777).should.equal(0o600);

    const again = open();
    again.entries().should.eql([0, 1, 2].map((i) => transition(i, { user: 'anna', comment: 'checked ✓' })));
    [...again.states()].should.eql([
      ['a1', { state: 'unack' }],
      ['a2', { state: 'shelved', until: 1_700_000_360_000 }],
      ['__proto__', { state: 'normal' }],
    ]);
    should(({} as Record<string, unknown>).state).be.undefined();
    again.deleteState('a1');
    await again.close();
    should(open().state('a1')).be.undefined();
    problems.should.eql([]);
  });

  it('the journal keeps its own copies: a caller mutating its objects changes nothing', () => {
    const journal = open();
    const entry = transition(1);
    const state = { state: 'unack' };
    journal.append(entry);
    journal.setState('a1', state);
    entry.to = 'changed';
    state.state = 'changed';
    journal.entries()[0].to.should.equal('unack');
    journal.state('a1')!.state.should.equal('unack');
  });

  it('the ring keeps the newest entries, counts the dropped ones, and the count survives a restart', async () => {
    const journal = open({ bounds: { maxEntries: 5 } });
    for (let i = 0; i < 12; i++) journal.append(transition(i));
    journal
      .entries()
      .map((e) => e.value)
      .should.eql([7, 8, 9, 10, 11]);
    journal.stats().should.containEql({ entries: 5, dropped: 7 });
    await journal.close();
    const again = open({ bounds: { maxEntries: 5 } });
    again.stats().should.containEql({ entries: 5, dropped: 7 });
    // A smaller bound since the file was written: the oldest go, counted as dropped.
    open({ bounds: { maxEntries: 3 } })
      .stats()
      .should.containEql({ entries: 3, dropped: 9 });
  });

  it('batches writes: 10,000 appends make one write; a few wait for the interval; an idle journal writes nothing', async () => {
    const journal = open({ bounds: { writeBytesPerSecond: 1e9 } }); // the interval alone (the next test: the byte budget)
    for (let i = 0; i < 10_000; i++) journal.append(transition(i));
    journal.stats().writes.should.equal(0);
    // flushPending reached: one job, due at once (not one per entry).
    clock
      .pending()
      .map((j) => j.ms)
      .should.eql([0]);
    clock.fire();
    await journal.idle();
    journal.stats().should.containEql({ writes: 1, pending: 0, entries: JOURNAL_DEFAULTS.maxEntries, dropped: 10_000 - JOURNAL_DEFAULTS.maxEntries });

    for (let i = 0; i < 10; i++) journal.append(transition(i));
    journal.setState('a1', { state: 'ack' });
    clock
      .pending()
      .map((j) => j.ms)
      .should.eql([JOURNAL_DEFAULTS.intervalMs]);
    clock.advance(JOURNAL_DEFAULTS.intervalMs - 1);
    journal.stats().writes.should.equal(1);
    clock.advance(1);
    await journal.idle();
    journal.stats().writes.should.equal(2);

    clock.advance(10 * JOURNAL_DEFAULTS.intervalMs);
    await journal.idle();
    journal.stats().writes.should.equal(2);
    // Setting a state to what it already is changes nothing to write.
    journal.setState('a1', { state: 'ack' });
    clock.pending().should.eql([]);
    await journal.close();
    journal.stats().writes.should.equal(2);
    fs.readdirSync(dir).should.eql([path.basename(file)]); // no temp file left behind
  });

  it('what arrives during a write goes in the next batch, after the interval', async () => {
    const journal = open();
    journal.append(transition(1));
    clock.advance(JOURNAL_DEFAULTS.intervalMs);
    journal.append(transition(2)); // the write above is under way
    await journal.idle();
    journal.stats().writes.should.equal(1);
    clock
      .pending()
      .map((j) => j.ms)
      .should.eql([JOURNAL_DEFAULTS.intervalMs]);
    clock.advance(JOURNAL_DEFAULTS.intervalMs);
    await journal.idle();
    journal.stats().writes.should.equal(2);
    open().entries().length.should.equal(2);
  });

  it('a large file is written less often: no more than writeBytesPerSecond on average', async () => {
    const journal = open({ bounds: { writeBytesPerSecond: 1000 } });
    journal.append(transition(1, { comment: 'x'.repeat(1500) }));
    clock.advance(JOURNAL_DEFAULTS.intervalMs);
    await journal.idle();
    const { bytesWritten } = journal.stats();
    bytesWritten.should.be.above(1500);
    journal.append(transition(2));
    clock
      .pending()
      .map((j) => j.ms)
      .should.eql([Math.ceil(bytesWritten)]); // bytes / (1000 B/s) in ms
    await journal.close();
  });

  it('a temp file left by a crash mid-write is never read: the previous journal is', async () => {
    const journal = open();
    journal.append(transition(1));
    await journal.close();
    fs.writeFileSync(`${file}.tmp`, '{"format":"modular-device-alarm-journ');
    open()
      .entries()
      .should.eql([transition(1)]);
    problems.should.eql([]);
  });

  it('a process killed while writing leaves a whole journal: the previous one or the new one', async function () {
    // A real crash (SIGKILL) of a process that writes 10 MB journals back to back, killed as
    // a write begins (it says so); a journal written in place is then found torn.
    const script = path.join(dir, 'writer.js');
    fs.writeFileSync(
      script,
      `const { Journal } = require(${JSON.stringify(require.resolve('../../nodes/alarms/journal'))});
       const j = new Journal({ file: ${JSON.stringify(file)}, bounds: { writeBytesPerSecond: 1e12 } });
       (async () => { for (let n = 0; ; n++) {
         for (let i = 0; i < 5000; i++) j.append({ alarm: 'a' + i, n, comment: 'x'.repeat(1900) });
         const written = j.flush(); process.send(n); await written;
       } })();`,
    );
    const child = fork(script, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    try {
      // As its third write begins (or at its exit, should it fail: then the checks below say why).
      await Promise.race([exited, new Promise<void>((resolve) => child.on('message', (n) => Number(n) >= 2 && resolve()))]);
      child.kill('SIGKILL');
      await exited;
    } finally {
      child.kill('SIGKILL');
    }
    const journal = open();
    problems.should.eql([]);
    fs.readdirSync(dir)
      .filter((name) => name.includes('unreadable'))
      .should.eql([]);
    journal.stats().entries.should.equal(JOURNAL_DEFAULTS.maxEntries);
    new Set(journal.entries().map((e) => (e as unknown as { n: number }).n)).size.should.equal(1); // one batch, not a mix
  });

  const bounds = { maxEntries: 10, maxEntryBytes: 512, maxStates: 10, maxStateBytes: 256 };
  const badFiles: Array<{ name: string; reason: string; content: () => string }> = [
    {
      name: 'truncated',
      reason: 'not-json',
      content: () => `{"format":"modular-device-alarm-journal","version":1,"dropped":0,"states":{},"entries":[{"alarm":"a`,
    },
    { name: 'not JSON', reason: 'not-json', content: () => 'alarms: yes\n' },
    { name: 'too large', reason: 'too-large', content: () => `{"pad":"${'x'.repeat(maxFileBytes(bounds))}"}` },
    {
      name: 'of another version',
      reason: 'other-version',
      content: () => '{"format":"modular-device-alarm-journal","version":2,"dropped":0,"states":{},"entries":[]}',
    },
    { name: 'of another format', reason: 'other-format', content: () => '[1,2,3]' },
    {
      name: 'of the wrong shape',
      reason: 'bad-shape',
      content: () => '{"format":"modular-device-alarm-journal","version":1,"dropped":-1,"states":{},"entries":[]}',
    },
  ];
  for (const bad of badFiles) {
    it(`a file ${bad.name} is announced (${bad.reason}), kept aside, and the journal starts empty`, async () => {
      const text = bad.content();
      fs.writeFileSync(file, text);
      const journal = open({ bounds });
      problems.length.should.equal(1);
      problems[0].should.containEql({ reason: bad.reason, file });
      const keptAs = problems[0].keptAs!;
      path.dirname(keptAs).should.equal(dir);
      fs.readFileSync(keptAs, 'utf8').should.equal(text);
      fs.existsSync(file).should.be.false();
      journal.entries().should.eql([]);
      journal.states().size.should.equal(0);
      journal.append(transition(1));
      await journal.close();
      open({ bounds })
        .entries()
        .should.eql([transition(1)]);
      problems.length.should.equal(1);
      fs.readFileSync(keptAs, 'utf8').should.equal(text); // still there
    });
  }

  it('a second unreadable file put aside in the same millisecond keeps the first', () => {
    const now = new Date();
    fs.writeFileSync(file, 'first');
    const first = putAside(file, now);
    fs.writeFileSync(file, 'second');
    const second = putAside(file, now);
    second.should.not.equal(first);
    fs.readFileSync(first, 'utf8').should.equal('first');
    fs.readFileSync(second, 'utf8').should.equal('second');
  });

  it("entries and states the file's bounds no longer admit are skipped and announced; the rest is kept", () => {
    const good = transition(1);
    const states = { a1: { state: 'unack' }, a2: { state: 'x'.repeat(300) } };
    fs.writeFileSync(file, JSON.stringify({ format: 'modular-device-alarm-journal', version: 1, dropped: 4, states, entries: [7, good, null] }));
    const journal = open({ bounds });
    problems.should.eql([{ reason: 'skipped', skipped: 3, file }]);
    journal.entries().should.eql([good]);
    [...journal.states().keys()].should.eql(['a1']);
    journal.stats().dropped.should.equal(4);
    fs.existsSync(file).should.be.true();
  });

  it('a write that fails is announced once, the journal keeps working in memory, and it recovers', async () => {
    // A path under a file: fails for root too, where a read-only folder would not.
    const blocker = path.join(dir, 'userdir');
    fs.writeFileSync(blocker, 'not a folder');
    file = journalFile(blocker);
    const journal = open();
    journal.append(transition(1));
    journal.setState('a1', { state: 'unack' });
    clock.advance(JOURNAL_DEFAULTS.intervalMs);
    await journal.idle();
    problems.length.should.equal(1);
    problems[0].should.containEql({ reason: 'write-failed', file, code: 'ENOTDIR' });
    journal.problem!.reason.should.equal('write-failed');

    journal.append(transition(2));
    journal.entries().length.should.equal(2);
    journal.state('a1')!.should.eql({ state: 'unack' });
    clock.advance(JOURNAL_DEFAULTS.intervalMs); // the next batch tries again
    await journal.idle();
    journal.stats().should.containEql({ writes: 0, failedWrites: 2, pending: 2 });
    problems.length.should.equal(1); // the same cause is not announced every second
    recovered.should.equal(0);

    fs.unlinkSync(blocker);
    fs.mkdirSync(blocker);
    clock.advance(JOURNAL_DEFAULTS.intervalMs);
    await journal.idle();
    journal.stats().should.containEql({ writes: 1, failedWrites: 2, pending: 0 });
    recovered.should.equal(1);
    should(journal.problem).be.undefined();
    await journal.close();
    const again = open();
    again.entries().should.eql([transition(1), transition(2)]);
    again.state('a1')!.should.eql({ state: 'unack' });
  });

  it('close() flushes even after failures, and never rejects', async () => {
    file = path.join(dir, 'missing', 'journal.json');
    const journal = open();
    journal.append(transition(1));
    await journal.close();
    problems.map((p) => p.reason).should.eql(['write-failed']);
    clock.pending().should.eql([]); // a closed journal schedules nothing
  });

  it('a 1 MB comment is truncated to the entry bound, the transition kept; the line stays small', async () => {
    const journal = open();
    const huge = 'ü'.repeat(512 * 1024) + '😀'.repeat(256 * 1024);
    journal.append(transition(1, { user: 'anna', comment: huge })).should.be.true();
    const [kept] = journal.entries();
    kept.should.containEql({ alarm: 'a1', from: 'normal', to: 'unack', value: 1, user: 'anna', truncated: true });
    kept.comment!.should.startWith('üüü').and.endWith('…');
    Buffer.byteLength(JSON.stringify(kept)).should.be.belowOrEqual(JOURNAL_DEFAULTS.maxEntryBytes);
    // A comment of emoji only: cut between characters, never inside one.
    journal.append(transition(2, { comment: '😀'.repeat(300_000) }));
    journal.entries()[1].comment!.should.match(/^(😀)+…$/u);
    await journal.close();
    fs.statSync(file).size.should.be.below(3 * JOURNAL_DEFAULTS.maxEntryBytes);
  });

  it('an entry of many fields beyond the bound keeps its top-level values; an entry that is not JSON is refused and announced', () => {
    const journal = open({ bounds: { maxEntryBytes: 256 } });
    const wide: Record<string, unknown> = { ...transition(1), nested: Array.from({ length: 200 }, (_, i) => ({ i })) };
    journal.append(wide as unknown as Transition).should.be.true();
    journal.entries()[0].should.eql({ ...transition(1), truncated: true });
    const cyclic: Record<string, unknown> = { ...transition(2) };
    cyclic.self = cyclic;
    journal.append(cyclic as unknown as Transition).should.be.false();
    problems.map((p) => p.reason).should.eql(['entry-not-json']);
    journal.entries().length.should.equal(1);
  });

  it('a state too large, or for one alarm too many, is refused and announced; the others stay', () => {
    const journal = open({ bounds: { maxStates: 2, maxStateBytes: 64 } });
    journal.setState('a1', { state: 'unack' }).should.be.true();
    journal.setState('a2', { state: 'x'.repeat(100) }).should.be.false();
    journal.setState('a2', { state: 'ack' }).should.be.true();
    journal.setState('a3', { state: 'ack' }).should.be.false();
    journal.setState('a1', { state: 'ack' }).should.be.true(); // a known alarm may still change
    problems
      .map((p) => [p.reason, p.detail])
      .should.eql([
        ['state-refused', 'a2'],
        ['state-refused', 'a3'],
      ]);
    [...journal.states()].should.eql([
      ['a1', { state: 'ack' }],
      ['a2', { state: 'ack' }],
    ]);
  });
});
