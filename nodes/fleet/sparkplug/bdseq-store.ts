/**
 * bdSeq of each edge node, kept in a file in the runtime's userDir
 * (`modular-device-sparkplug.json`): a host application ties an NDEATH to its NBIRTH by bdSeq,
 * so after a redeploy or a restart the next connection must carry a number the host has not
 * just seen with a live NBIRTH. A runtime without a userDir (an embedded one) keeps the file in
 * the OS's temporary folder and says so (then the count starts again with the process).
 *
 * The file is read back as untrusted input (bounded, checked, a bad one put aside as the alarm
 * journal does: nodes/alarms/journal-file.ts) and written whole and atomically before the number
 * is used: a crash between the CONNECT and the write cannot hand out the same bdSeq twice.
 * Synchronous: one small write per MQTT CONNECT, and `next()` is called right before one.
 */
import fs from 'fs';
import os from 'os';
import path from 'path';
import { SPARKPLUG_BOUNDS } from '../../lib/pure/limits';
import { errorCode, errorText, putAside } from '../../alarms/journal-file';
import type { NodeAPI } from '../../lib/base/node-red';
import type { BdSeqStore } from './types';

export const STORE_FILE = 'modular-device-sparkplug.json';
export const FORMAT = 'modular-device-sparkplug';
export const VERSION = 1;

/** Why the store speaks up (the node says each in its words, en + de). */
export interface StoreProblem {
  reason: 'unreadable' | 'too-large' | 'not-json' | 'bad-shape' | 'put-aside-failed' | 'write-failed';
  file: string;
  keptAs?: string;
  code?: string;
  detail?: string;
}

/** One file's counters, shared by every fleet-publish of the process (two nodes never write over each other's). */
export class BdSeqFile {
  private counters?: Map<string, number>;
  /** A write failed and was said: said again only after a write succeeded. */
  private writeFailing = false;

  constructor(readonly file: string) {}

  /** The next bdSeq of `edge` (0 for an edge node never seen, else one more, 255 wrapping to 0), written before it is returned. */
  next(edge: string, problem: (p: StoreProblem) => void): number {
    const counters = this.counters ?? (this.counters = this.load(problem));
    const last = counters.get(edge);
    const n = last === undefined ? 0 : (last + 1) % 256;
    counters.set(edge, n);
    try {
      writeAtomicallySync(this.file, JSON.stringify({ format: FORMAT, version: VERSION, bdSeq: Object.fromEntries(counters) }));
      this.writeFailing = false;
    } catch (err) {
      // The number is still used (the connection must go on); a restart may then repeat one, which the host survives as a late NDEATH.
      if (!this.writeFailing) problem({ reason: 'write-failed', file: this.file, code: errorCode(err), detail: errorText(err) });
      this.writeFailing = true;
    }
    return n;
  }

  /** Reads the file; every way it can be bad is a problem said and a fresh start (the bad file renamed aside, never deleted). */
  private load(problem: (p: StoreProblem) => void): Map<string, number> {
    const counters = new Map<string, number>();
    let text: string;
    try {
      const stat = fs.statSync(this.file);
      if (!stat.isFile()) return this.bad(problem, 'unreadable', 'not a file');
      if (stat.size > SPARKPLUG_BOUNDS.storeBytes) return this.bad(problem, 'too-large', `${stat.size} bytes`);
      text = fs.readFileSync(this.file, 'utf8');
    } catch (err) {
      if (errorCode(err) === 'ENOENT' || errorCode(err) === 'ENOTDIR') return counters;
      return this.bad(problem, 'unreadable', errorText(err), errorCode(err));
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (err) {
      return this.bad(problem, 'not-json', errorText(err));
    }
    const bdSeq = isRecord(data) && data.format === FORMAT && data.version === VERSION ? data.bdSeq : undefined;
    if (!isRecord(bdSeq)) return this.bad(problem, 'bad-shape');
    for (const [edge, value] of Object.entries(bdSeq)) {
      // An entry out of shape is left out: that edge node starts at 0 again, the others keep theirs.
      if (edge.length <= SPARKPLUG_BOUNDS.idChars && Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 255) {
        counters.set(edge, value as number);
      }
    }
    return counters;
  }

  private bad(problem: (p: StoreProblem) => void, reason: StoreProblem['reason'], detail?: string, code?: string): Map<string, number> {
    try {
      const keptAs = putAside(this.file);
      problem({ reason, file: this.file, keptAs, ...(detail ? { detail: detail.slice(0, 200) } : {}), ...(code ? { code } : {}) });
    } catch (err) {
      problem({ reason: 'put-aside-failed', file: this.file, code: errorCode(err), detail: `${reason}: ${errorText(err)}` });
    }
    return new Map();
  }
}

/** A temp file beside it, fsync, rename, then the folder synced: either the old file or the new one, whole. The owner's only (0600). */
function writeAtomicallySync(file: string, text: string): void {
  const temp = `${file}.tmp`;
  try {
    const fd = fs.openSync(temp, 'w', 0o600);
    try {
      fs.writeFileSync(fd, text, 'utf8');
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, file);
  } catch (err) {
    try {
      fs.unlinkSync(temp);
    } catch {
      // nothing was left behind
    }
    throw err;
  }
  try {
    const dir = fs.openSync(path.dirname(file), 'r');
    try {
      fs.fsyncSync(dir);
    } finally {
      fs.closeSync(dir);
    }
  } catch {
    // Windows cannot open a directory; the rename itself has happened.
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const files = new Map<string, BdSeqFile>();

/** The store of a userDir (one per file for the process, so redeploys continue the count), and whether it is temporary (no userDir). */
export function bdSeqFileIn(userDir: string | undefined): { store: BdSeqFile; temporary: boolean } {
  const file = userDir ? path.join(userDir, STORE_FILE) : path.join(os.tmpdir(), `modular-device-sparkplug-${process.pid}.json`);
  let store = files.get(file);
  if (!store) files.set(file, (store = new BdSeqFile(file)));
  return { store, temporary: userDir === undefined };
}

/** The store of a running Node-RED. */
export function bdSeqFileOf(RED: NodeAPI): { store: BdSeqFile; temporary: boolean } {
  return bdSeqFileIn(RED.settings?.userDir);
}

/** The BdSeqStore a session uses: the file's, with its problems said to `problem`. */
export function bdSeqStore(file: BdSeqFile, problem: (p: StoreProblem) => void): BdSeqStore {
  return { next: (edge) => file.next(edge, problem) };
}
