/**
 * The journal's file: read back at start as untrusted input, and written whole and atomically.
 *
 * Why one JSON file in the userDir (`<userDir>/modular-device-alarms.json`), holding both the
 * transitions and every alarm's state: a restart must restore the two consistently (an
 * alarm's state and the transition that led to it), and one file replaced by a rename is
 * consistent by construction, where a JSON-lines log plus a state file can be torn between
 * them by a crash. Not Node-RED's persistent context: it is off unless the user configures
 * it, and it writes on its own timer, so neither where nor when the journal lands would be
 * ours to say. The file is bounded (a ring of entries, each bounded, and bounded states), so
 * writing it whole once per batch is bounded work; one entry per line keeps it readable.
 *
 * Reading: a missing file is a fresh start; a file too large, not JSON, of another format or
 * version, or of the wrong shape is put aside (renamed, never deleted) and the journal starts
 * empty, with the reason handed back for the caller to announce.
 */
import fs from 'fs';
import path from 'path';
import { boundJson } from './journal-entry';

export const FORMAT = 'modular-device-alarm-journal';
export const VERSION = 1;

/** The bounds a file is read and written within. */
export interface FileBounds {
  maxEntries: number;
  maxEntryBytes: number;
  maxStates: number;
  maxStateBytes: number;
}

/** What the file holds, each entry and state as its JSON text. */
export interface FileContent {
  dropped: number;
  entries: string[];
  states: Map<string, string>;
}

/** Why a file could not be (wholly) read. */
export type LoadReason = 'unreadable' | 'too-large' | 'not-json' | 'other-format' | 'other-version' | 'bad-shape' | 'skipped';

/** Why the journal announces a problem (the node maps each to its words, en + de). */
export type JournalProblemReason = LoadReason | 'put-aside-failed' | 'write-failed' | 'entry-not-json' | 'state-refused';

export interface JournalProblem {
  reason: JournalProblemReason;
  /** The journal's file. */
  file: string;
  /** Where an unreadable file was put (renamed), kept for a person to look at. */
  keptAs?: string;
  /** The system's error code (EACCES, ENOSPC, EROFS...), when there is one. */
  code?: string;
  /** A short, bounded detail (a parser's message, a size, a state's id). */
  detail?: string;
  /** How many entries or states of the file could not be read (reason `skipped`). */
  skipped?: number;
}

export interface Loaded {
  content: FileContent;
  /** Set when the file could not be read, or some of its entries or states were skipped. */
  problem?: { reason: LoadReason; code?: string; detail?: string; skipped?: number };
  /** True when the unreadable file is still in the way and must be put aside before a write. */
  putAside: boolean;
}

/** The largest file the bounds allow, with room for the frame and the states' ids. */
export function maxFileBytes(bounds: FileBounds): number {
  return 4096 + bounds.maxEntries * (bounds.maxEntryBytes + 2) + bounds.maxStates * (bounds.maxStateBytes + 512);
}

const empty = (): FileContent => ({ dropped: 0, entries: [], states: new Map() });

/** Reads the journal's file. Never throws: every way a file can be bad is a `problem`. */
export function loadJournalFile(file: string, bounds: FileBounds): Loaded {
  let text: string;
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile()) return bad('unreadable', 'not a file');
    if (stat.size > maxFileBytes(bounds)) return bad('too-large', `${stat.size} bytes`);
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    // No file, or no folder to hold one: nothing to read or keep aside (a write will say if the folder is unusable).
    if (errorCode(err) === 'ENOENT' || errorCode(err) === 'ENOTDIR') return { content: empty(), putAside: false };
    return bad('unreadable', errorText(err), errorCode(err));
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    return bad('not-json', errorText(err));
  }
  if (!isRecord(data) || data.format !== FORMAT) return bad('other-format');
  if (data.version !== VERSION) return bad('other-version', String(data.version).slice(0, 20));
  const { dropped, entries, states } = data;
  if (!Array.isArray(entries) || !isRecord(states) || typeof dropped !== 'number' || !Number.isSafeInteger(dropped) || dropped < 0) return bad('bad-shape');
  return readContent(dropped, entries, states, bounds);
}

/** Entries and states, each re-bounded: the bounds may have changed since the file was written. */
function readContent(dropped: number, entries: unknown[], states: Record<string, unknown>, bounds: FileBounds): Loaded {
  let skipped = 0;
  const content = empty();
  // Only the newest fit; the older ones count as dropped, as they would have in the ring.
  const newest = entries.slice(Math.max(0, entries.length - bounds.maxEntries));
  content.dropped = dropped + (entries.length - newest.length);
  for (const entry of newest) {
    const bounded = isRecord(entry) ? boundJson(entry, bounds.maxEntryBytes) : undefined;
    if (bounded) content.entries.push(bounded.json);
    else skipped++;
  }
  for (const [id, state] of Object.entries(states)) {
    const json = stateJson(state);
    if (content.states.size < bounds.maxStates && json !== undefined && Buffer.byteLength(json) <= bounds.maxStateBytes) content.states.set(id, json);
    else skipped++;
  }
  return { content, putAside: false, ...(skipped > 0 ? { problem: { reason: 'skipped' as const, skipped } } : {}) };
}

/** A state's JSON text, or undefined when it has none (a structure too deep to stringify). */
export function stateJson(state: unknown): string | undefined {
  try {
    const json = JSON.stringify(state);
    return typeof json === 'string' ? json : undefined;
  } catch {
    return undefined;
  }
}

function bad(reason: LoadReason, detail?: string, code?: string): Loaded {
  return { content: empty(), problem: { reason, ...(code ? { code } : {}), ...(detail ? { detail: detail.slice(0, 200) } : {}) }, putAside: true };
}

/**
 * Renames an unreadable file aside, next to it, with the time in its name; returns the new
 * path. Throws when it cannot (the caller then must not write over it).
 */
export function putAside(file: string, now: Date = new Date()): string {
  const stamp = `${file}.unreadable-${now.toISOString().replace(/[:.]/g, '-')}`;
  // A rename replaces what is there: never one kept file by the next.
  let aside = stamp;
  for (let n = 1; fs.existsSync(aside); n++) aside = `${stamp}-${n}`;
  fs.renameSync(file, aside);
  return aside;
}

/** The file's text from its content: a frame around the kept JSON texts. */
export function fileText(content: FileContent, written: Date): string {
  const states = [...content.states].map(([id, json]) => `${JSON.stringify(id)}:${json}`).join(',\n');
  const head = `{"format":${JSON.stringify(FORMAT)},"version":${VERSION},"written":${JSON.stringify(written.toISOString())},"dropped":${content.dropped},`;
  return `${head}\n"states":{\n${states}\n},\n"entries":[\n${content.entries.join(',\n')}\n]}\n`;
}

/**
 * Writes `text` to `file` atomically: a temp file beside it, fsync, rename. A crash at any
 * point leaves either the previous file or the new one, whole. Resolves the bytes written.
 * The file is the owner's only (0600): it holds operators' names and comments.
 */
export async function writeAtomically(file: string, text: string): Promise<number> {
  const temp = `${file}.tmp`;
  try {
    const handle = await fs.promises.open(temp, 'w', 0o600);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.promises.rename(temp, file);
  } catch (err) {
    await fs.promises.unlink(temp).catch(() => undefined);
    throw err;
  }
  await syncDirectory(path.dirname(file));
  return Buffer.byteLength(text);
}

/** The rename is durable only once the directory is synced; where a platform cannot, it is skipped. */
async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await fs.promises.open(dir, 'r');
    await handle.sync().finally(() => handle.close());
  } catch {
    // Windows cannot open a directory; the rename itself has happened.
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function errorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code.slice(0, 40) : undefined;
}

export function errorText(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).slice(0, 200);
}
