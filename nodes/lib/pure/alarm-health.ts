/**
 * The alarm system's health as ISA-18.2 / IEC 62682 measure it (monitoring and assessment),
 * over a sliding window of 10 minutes (ALARM_HEALTH):
 *  - activations in the window (ISA-18.2: about 1-2 per 10 minutes is manageable);
 *  - time in flood: more than 10 activations in 10 minutes, summed exactly (the count
 *    changes only when an activation arrives or leaves the window);
 *  - chattering alarms: 3 or more activations of one alarm within a minute;
 *  - stale alarms: active for more than a day;
 *  - the most frequent alarms of the window.
 * An activation is a transition into active-unack from any other state (ISA-18.2 counts
 * annunciations: a raise, a re-raise, a shelf ending on an active condition).
 *
 * Memory is bounded: activations are kept only while in the window and never more than
 * ALARM_HEALTH.maxEvents (the oldest go first; `report` says so); one entry per alarm that is
 * active or counted. Pure and without a clock: time comes from the transitions and `now`.
 * A mutable accumulator (not a value) because a thousand alarms at 100 transitions a second
 * must not copy a window of 60,000 activations each time.
 */
import { ALARM_HEALTH } from './limits';
import type { Transition } from './alarm-model';

export interface HealthReport {
  /** Activations in the 10 minutes up to `now`. */
  readonly perWindow: number;
  /** The most activations any 10 minutes held since the start. */
  readonly peakPerWindow: number;
  /** Time in flood (more than 10 per 10 minutes) since the start, ms. */
  readonly floodMs: number;
  /** floodMs as a percentage of the time observed (0 when nothing was observed yet). */
  readonly floodPercent: number;
  readonly inFlood: boolean;
  /** Alarms with 3 or more activations within one minute, in the window; sorted. */
  readonly chattering: readonly string[];
  /** Alarms active for more than a day at `now`; sorted. */
  readonly stale: readonly string[];
  /** The most frequent alarms of the window, most first (ties by id), at most 10. */
  readonly top: ReadonlyArray<{ readonly alarm: string; readonly count: number }>;
  /** True when more activations arrived in a window than maxEvents keeps: the counts are low. */
  readonly truncated: boolean;
}

export class AlarmHealth {
  /** Activations in the window, oldest first: a ring of times and alarm ids. */
  private readonly times: number[] = [];
  private readonly ids: string[] = [];
  private head = 0;
  /** Activations per alarm in the window. */
  private readonly counts = new Map<string, number>();
  /** Since when each active alarm is active. */
  private readonly activeSince = new Map<string, number>();
  private readonly start: number;
  private last: number;
  private flood = 0;
  private peak = 0;
  private truncated = false;

  constructor(start: number) {
    this.start = start;
    this.last = start;
  }

  private get size(): number {
    return this.times.length - this.head;
  }

  private get inFlood(): boolean {
    return this.size > ALARM_HEALTH.floodAbove;
  }

  /** Moves time to `now` (never back): activations leave the window at their time + 10 min, flood time is summed in between. */
  advance(now: number): void {
    const to = Math.max(now, this.last);
    while (this.size > 0 && this.times[this.head] + ALARM_HEALTH.windowMs <= to) {
      const leaves = this.times[this.head] + ALARM_HEALTH.windowMs;
      if (this.inFlood) this.flood += leaves - this.last;
      this.last = Math.max(this.last, leaves);
      this.evict();
    }
    if (this.inFlood) this.flood += to - this.last;
    this.last = to;
  }

  private evict(): void {
    const id = this.ids[this.head];
    const n = (this.counts.get(id) ?? 1) - 1;
    if (n > 0) this.counts.set(id, n);
    else this.counts.delete(id);
    this.head++;
    // Compact now and then so the arrays do not grow with everything ever evicted.
    if (this.head > 1024 && this.head * 2 > this.times.length) {
      this.times.splice(0, this.head);
      this.ids.splice(0, this.head);
      this.head = 0;
    }
  }

  /** One transition of the model, in time order (one out of order counts at the latest time seen). */
  record(t: Transition): void {
    this.advance(t.time);
    if (t.active && !this.activeSince.has(t.alarm)) this.activeSince.set(t.alarm, t.time);
    if (!t.active) this.activeSince.delete(t.alarm);
    if (t.to !== 'active-unack' || t.from === 'active-unack') return;
    if (this.size >= ALARM_HEALTH.maxEvents) {
      this.truncated = true;
      this.evict();
    }
    this.times.push(this.last);
    this.ids.push(t.alarm);
    this.counts.set(t.alarm, (this.counts.get(t.alarm) ?? 0) + 1);
    this.peak = Math.max(this.peak, this.size);
  }

  /** Forget an alarm that no longer exists (its node was removed): it is no longer stale. */
  forget(alarm: string): void {
    this.activeSince.delete(alarm);
  }

  /** The figures at `now`. */
  report(now: number): HealthReport {
    this.advance(now);
    const observed = this.last - this.start;
    const top = [...this.counts]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, ALARM_HEALTH.topCount)
      .map(([alarm, count]) => ({ alarm, count }));
    const stale = [...this.activeSince].filter(([, since]) => this.last - since > ALARM_HEALTH.staleMs).map(([id]) => id);
    return {
      perWindow: this.size,
      peakPerWindow: this.peak,
      floodMs: this.flood,
      floodPercent: observed > 0 ? (this.flood / observed) * 100 : 0,
      inFlood: this.inFlood,
      chattering: this.chattering(),
      stale: stale.sort(),
      top,
      truncated: this.truncated,
    };
  }

  /** Alarms with chatterCount activations within chatterMs: per alarm, the times of the window in order. */
  private chattering(): string[] {
    const recent = new Map<string, number[]>();
    const found = new Set<string>();
    const n = ALARM_HEALTH.chatterCount;
    for (let i = this.head; i < this.times.length; i++) {
      const id = this.ids[i];
      if (found.has(id)) continue;
      // Only the last n times of each alarm matter: bounded per alarm.
      const times = recent.get(id) ?? [];
      times.push(this.times[i]);
      if (times.length > n) times.shift();
      recent.set(id, times);
      if (times.length === n && times[n - 1] - times[0] <= ALARM_HEALTH.chatterMs) found.add(id);
    }
    return [...found].sort();
  }
}
