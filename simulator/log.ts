/**
 * The log of device requests received: a bounded ring so a long benchmark cannot grow
 * memory without end. Adding is O(1) and allocates one small object: it sits on the hot path.
 */

export interface LogEntry {
  /** Increases by one per request, never reused, also across clear(): a `since` stays valid. */
  readonly seq: number;
  /** Receipt time, ms since the epoch. */
  readonly time: number;
  readonly method: string;
  readonly path: string;
  /** The request body parsed as JSON, or null (none, or not JSON). */
  readonly body: unknown;
  /** HTTP status answered; 0 when the connection was reset without an answer. */
  readonly status: number;
}

export interface RequestLog {
  /** Entries held, oldest first; with `since`, only those with a larger seq. */
  entries(since?: number): LogEntry[];
  clear(): void;
  /** Requests logged since start or the last clear (including ones the ring dropped). */
  readonly total: number;
  readonly capacity: number;
}

export const DEFAULT_LOG_CAPACITY = 50_000;

export class RingLog implements RequestLog {
  private readonly ring: (LogEntry | undefined)[];
  private start = 0;
  private size = 0;
  private nextSeq = 1;
  private count = 0;

  constructor(readonly capacity: number = DEFAULT_LOG_CAPACITY) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('logCapacity must be a positive integer');
    this.ring = new Array(capacity);
  }

  add(time: number, method: string, path: string, body: unknown, status: number): LogEntry {
    const entry: LogEntry = { seq: this.nextSeq++, time, method, path, body, status };
    const index = (this.start + this.size) % this.capacity;
    this.ring[index] = entry;
    if (this.size < this.capacity) this.size++;
    else this.start = (this.start + 1) % this.capacity;
    this.count++;
    return entry;
  }

  get total(): number {
    return this.count;
  }

  entries(since = 0): LogEntry[] {
    const out: LogEntry[] = [];
    for (let i = 0; i < this.size; i++) {
      const entry = this.ring[(this.start + i) % this.capacity]!;
      if (entry.seq > since) out.push(entry);
    }
    return out;
  }

  clear(): void {
    this.ring.fill(undefined);
    this.start = 0;
    this.size = 0;
    this.count = 0;
  }
}
