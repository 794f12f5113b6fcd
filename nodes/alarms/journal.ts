/**
 * The alarms' journal (issue #40): every transition, the newest `maxEntries` of them (a
 * ring), and each alarm's current state, kept in one file in Node-RED's userDir across
 * restarts and redeploys (journal-file.ts says why that file and that shape). Generic over
 * its entries (any JSON object; a transition record is `{alarm, from, to, value, time,
 * user?, comment?}`) and states (any JSON value: store a shelve's END as a clock time, not
 * the time left, so a restart ends it when it should).
 *
 * Writes are batched: at most one per `intervalMs`, sooner only when `flushPending` entries
 * wait, never one per transition; one write at a time, atomic. The whole file is written
 * each time, so a large file is written less often: no more than `writeBytesPerSecond` on
 * average (an alarm flood must not wear out a Raspberry Pi's SD card). A file that cannot be read,
 * or a write that fails, is announced through `onProblem` (the node shows it and hands it
 * to Catch); the journal keeps working in memory and the next batch tries again, and
 * `onRecovered` says when a write succeeds after a failure.
 *
 * One Journal per file: two over the same file would overwrite each other's batches.
 */
import path from 'path';
import { Later, realLater } from '../lib/base/clock';
import { ALARM_JOURNAL } from '../lib/pure/limits';
import { boundJson } from './journal-entry';
import { errorCode, errorText, fileText, FileBounds, FileContent, JournalProblem, loadJournalFile, putAside, stateJson, writeAtomically } from './journal-file';

export type { JournalProblem, JournalProblemReason } from './journal-file';

/** The journal's bounds and pace: the table's (limits.ts ALARM_JOURNAL); a test passes its own. */
export const JOURNAL_DEFAULTS = ALARM_JOURNAL;

export type JournalBounds = FileBounds & { intervalMs: number; flushPending: number; writeBytesPerSecond: number };

export interface JournalOptions {
  /** The journal's file: `journalFile(RED.settings.userDir)`. */
  file: string;
  bounds?: Partial<JournalBounds>;
  /** Timers (a test's hand clock). */
  later?: Later;
  /** A problem to show: called during construction too, for a file that could not be read. */
  onProblem?: (problem: JournalProblem) => void;
  /** A write succeeded after a failed one: the problem shown can go. */
  onRecovered?: () => void;
}

export interface JournalStats {
  entries: number;
  /** Entries the ring has dropped, oldest first, since the journal's file began. */
  dropped: number;
  /** Entries appended since the last write began. */
  pending: number;
  writes: number;
  bytesWritten: number;
  failedWrites: number;
}

/** Where the journal lives in a userDir. */
export function journalFile(userDir: string): string {
  return path.join(userDir, 'modular-device-alarms.json');
}

export class Journal<E extends object = Record<string, unknown>, S = unknown> {
  readonly file: string;
  /** The write problem now standing, if any (for a node that starts after it was announced). */
  problem: JournalProblem | undefined;
  private readonly bounds: JournalBounds;
  private readonly later: Later;
  private readonly onProblem: (problem: JournalProblem) => void;
  private readonly onRecovered: () => void;
  /** The ring: `count` texts from `head`, oldest first. */
  private readonly ring: string[];
  private head = 0;
  private count = 0;
  private dropped: number;
  private readonly stateTexts: Map<string, string>;
  private dirty = false;
  private pending = 0;
  private cancelTimer: (() => void) | undefined;
  private timerSoon = false;
  private writing: Promise<void> | undefined;
  private mustPutAside: boolean;
  private closed = false;
  private lastBytes = 0;
  private readonly tally = { writes: 0, bytesWritten: 0, failedWrites: 0 };

  constructor(options: JournalOptions) {
    this.file = options.file;
    this.bounds = { ...JOURNAL_DEFAULTS, ...options.bounds };
    this.later = options.later ?? realLater;
    this.onProblem = options.onProblem ?? (() => undefined);
    this.onRecovered = options.onRecovered ?? (() => undefined);
    const loaded = loadJournalFile(this.file, this.bounds);
    this.ring = new Array<string>(this.bounds.maxEntries);
    for (const json of loaded.content.entries) this.push(json);
    this.dropped = loaded.content.dropped;
    this.stateTexts = loaded.content.states;
    this.mustPutAside = loaded.putAside;
    if (this.mustPutAside) this.tryPutAside(loaded.problem);
    else if (loaded.problem) this.onProblem({ ...loaded.problem, file: this.file });
  }

  /** Adds an entry (bounded: see journal-entry.ts). False when it is not JSON (announced). */
  append(entry: E): boolean {
    const bounded = boundJson(entry, this.bounds.maxEntryBytes);
    if (!bounded) {
      this.onProblem({ reason: 'entry-not-json', file: this.file });
      return false;
    }
    this.push(bounded.json);
    this.pending++;
    this.changed();
    return true;
  }

  /** Sets an alarm's state. False, and announced, when it is not JSON, too large, or one alarm too many. */
  setState(id: string, state: S): boolean {
    const json = stateJson(state);
    const fits = json !== undefined && Buffer.byteLength(json) <= this.bounds.maxStateBytes;
    if (!fits || (!this.stateTexts.has(id) && this.stateTexts.size >= this.bounds.maxStates)) {
      this.onProblem({ reason: 'state-refused', file: this.file, detail: id.slice(0, 100) });
      return false;
    }
    if (this.stateTexts.get(id) === json) return true;
    this.stateTexts.set(id, json);
    this.changed();
    return true;
  }

  /** Forgets an alarm's state (an alarm no longer deployed). */
  deleteState(id: string): void {
    if (this.stateTexts.delete(id)) this.changed();
  }

  /** An alarm's state, a copy. */
  state(id: string): S | undefined {
    const json = this.stateTexts.get(id);
    return json === undefined ? undefined : (JSON.parse(json) as S);
  }

  /** Every alarm's state, copies. */
  states(): Map<string, S> {
    return new Map([...this.stateTexts].map(([id, json]) => [id, JSON.parse(json) as S]));
  }

  /** The entries kept, oldest first, copies (truncated ones carry `truncated: true`). */
  entries(): E[] {
    const out: E[] = [];
    for (let i = 0; i < this.count; i++) out.push(JSON.parse(this.ring[(this.head + i) % this.bounds.maxEntries]) as E);
    return out;
  }

  /** The newest `count` entries, newest first, copies: a list's few without parsing the whole ring. */
  newest(count: number): E[] {
    const out: E[] = [];
    for (let i = this.count - 1; i >= Math.max(0, this.count - count); i--) out.push(JSON.parse(this.ring[(this.head + i) % this.bounds.maxEntries]) as E);
    return out;
  }

  stats(): JournalStats {
    return { entries: this.count, dropped: this.dropped, pending: this.pending, ...this.tally };
  }

  /** Writes now what waits (and waits for a write under way). Never rejects: failures are announced. */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
    this.stopTimer();
    if (this.dirty) await this.write();
  }

  /** Resolves when no write is under way (a test's step after moving the clock). */
  async idle(): Promise<void> {
    while (this.writing) await this.writing;
  }

  /** The last flush: Node-RED's node close, the runtime's stop. After it, nothing is written. */
  async close(): Promise<void> {
    this.closed = true; // no timer after this: the flush below is the last write
    await this.flush();
  }

  private push(json: string): void {
    const size = this.bounds.maxEntries;
    if (this.count < size) {
      this.ring[(this.head + this.count) % size] = json;
      this.count++;
    } else {
      this.ring[this.head] = json;
      this.head = (this.head + 1) % size;
      this.dropped++;
    }
  }

  /** Something changed: a write is due within the interval, or soon when many entries wait. */
  private changed(): void {
    this.dirty = true;
    if (this.closed || this.writing) return; // the write under way schedules the next
    const soon = this.pending >= this.bounds.flushPending;
    if (this.cancelTimer && (this.timerSoon || !soon)) return;
    this.stopTimer();
    this.schedule(soon ? 0 : this.spacing());
  }

  private schedule(ms: number): void {
    this.timerSoon = ms === 0;
    this.cancelTimer = this.later(() => {
      this.cancelTimer = undefined;
      void this.write();
    }, ms);
  }

  /** The wait before a write: the interval, longer when the last write was large. */
  private spacing(): number {
    return Math.max(this.bounds.intervalMs, Math.ceil((this.lastBytes / this.bounds.writeBytesPerSecond) * 1000));
  }

  private stopTimer(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
  }

  private write(): Promise<void> {
    if (!this.dirty || this.writing) return this.writing ?? Promise.resolve();
    const writing = this.writeBatch().finally(() => {
      this.writing = undefined;
      // What came during the write, or a failed batch, waits for the next interval.
      if (this.dirty && !this.closed && !this.cancelTimer) this.schedule(this.spacing());
    });
    this.writing = writing;
    return writing;
  }

  private async writeBatch(): Promise<void> {
    if (this.mustPutAside && !this.tryPutAside()) return; // never write over a file kept for a person
    const batch = this.pending;
    this.pending = 0;
    this.dirty = false;
    try {
      this.lastBytes = await writeAtomically(this.file, fileText(this.content(), new Date()));
      this.tally.bytesWritten += this.lastBytes;
      this.tally.writes++;
      if (this.problem) {
        this.problem = undefined;
        this.onRecovered();
      }
    } catch (err) {
      this.tally.failedWrites++;
      this.dirty = true;
      this.pending += batch;
      const code = errorCode(err);
      // Announced once per cause, not once a second while the disk stays full.
      if (this.problem?.reason !== 'write-failed' || this.problem.code !== code)
        this.announce({ reason: 'write-failed', file: this.file, code, detail: errorText(err) });
    }
  }

  private content(): FileContent {
    const entries: string[] = [];
    for (let i = 0; i < this.count; i++) entries.push(this.ring[(this.head + i) % this.bounds.maxEntries]);
    return { dropped: this.dropped, entries, states: this.stateTexts };
  }

  /** Puts an unreadable file aside; announces the load's problem with where the file went, or why it stayed. */
  private tryPutAside(loadProblem?: Omit<JournalProblem, 'file'>): boolean {
    try {
      const keptAs = putAside(this.file);
      this.mustPutAside = false;
      if (loadProblem) this.onProblem({ ...loadProblem, file: this.file, keptAs });
      if (this.problem?.reason === 'put-aside-failed') {
        this.problem = undefined;
        this.onRecovered();
      }
      return true;
    } catch (err) {
      if (errorCode(err) === 'ENOENT') {
        // Gone meanwhile (a person moved it): nothing left to keep.
        this.mustPutAside = false;
        if (loadProblem) this.onProblem({ ...loadProblem, file: this.file });
        return true;
      }
      if (loadProblem) this.onProblem({ ...loadProblem, file: this.file });
      if (this.problem?.reason !== 'put-aside-failed')
        this.announce({ reason: 'put-aside-failed', file: this.file, code: errorCode(err), detail: errorText(err) });
      this.dirty = true; // so the next batch tries again
      return false;
    }
  }

  private announce(problem: JournalProblem): void {
    this.problem = problem;
    this.onProblem(problem);
  }
}
