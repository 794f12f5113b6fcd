/**
 * The deadlines of the exchanges on the wire, watched by one timer for the whole process,
 * aimed at the earliest. Arming and cancelling a timer for every request cost about as much
 * as the rest of the exchange's bookkeeping; requests one after another have later and later
 * deadlines, so the one timer stays where it is. An exchange that ends just leaves the watch;
 * the timer, when it comes, ends those whose time is up and aims at the next. It never keeps
 * the process alive (unref'd): an exchange on the wire has its socket, or its name lookup,
 * for that, and toggling the timer's hold on the event loop per request cost two calls into
 * libuv per msg.
 */
import { backgroundLater, Clock, realClock } from '../base/clock';

export interface Expiring {
  /** When it must have ended, on the watch's clock (Deadlines.now). */
  readonly deadline: number;
  /** Its time is up (it leaves the watch first). */
  expire(): void;
  /**
   * The watch's own links, set only by Deadlines: the watch is a list through the exchanges
   * themselves. A Set of them cost about 15 µs per request with 100 modules polling at
   * 10 Hz (its table rebuilt over and over by the churn, old-to-young pointers for the
   * scavenger), more than the rest of the transport; linking costs nothing measurable.
   */
  watchedBefore?: Expiring;
  watchedAfter?: Expiring;
}

export class Deadlines {
  /** The watched exchanges in the order they came (not of deadline: the timer looks at all). */
  private first?: Expiring;
  private last?: Expiring;
  /** What cancels the timer; undefined when there is none. */
  private cancel?: () => void;
  /** When the timer fires; Infinity when there is none. */
  private at = Infinity;

  constructor(
    /** Real time with an unref'd timer (see above), or a test's hand clock. */
    private readonly clock: Clock = { now: realClock.now, later: backgroundLater },
  ) {}

  /** The watch's time: deadlines are on it. */
  now(): number {
    return this.clock.now();
  }

  watch(e: Expiring): void {
    e.watchedBefore = this.last;
    e.watchedAfter = undefined;
    if (this.last) this.last.watchedAfter = e;
    else this.first = e;
    this.last = e;
    if (e.deadline < this.at) this.aim(e.deadline);
  }

  /** Takes `e` out of the watch; nothing when it is not in it (it expired, or ended twice). */
  unwatch(e: Expiring): void {
    if (e.watchedBefore === undefined && this.first !== e) return;
    const { watchedBefore: before, watchedAfter: after } = e;
    if (before) before.watchedAfter = after;
    else this.first = after;
    if (after) after.watchedBefore = before;
    else this.last = before;
    e.watchedBefore = e.watchedAfter = undefined;
  }

  private aim(at: number): void {
    this.cancel?.();
    this.at = at;
    this.cancel = this.clock.later(() => this.due(), Math.max(0, at - this.clock.now()));
  }

  private due(): void {
    this.cancel = undefined;
    this.at = Infinity;
    const now = this.clock.now();
    let next = Infinity;
    for (let e = this.first; e;) {
      const after: Expiring | undefined = e.watchedAfter;
      if (e.deadline <= now) {
        this.unwatch(e);
        e.expire();
      } else if (e.deadline < next) next = e.deadline;
      e = after;
    }
    if (next < Infinity) this.aim(next);
  }
}

/** The process's one watch over exchange deadlines (transport.ts). */
export const exchangeDeadlines = new Deadlines();
