/**
 * The deadlines of the exchanges on the wire, watched by one timer for the whole process,
 * aimed at the earliest. Arming and cancelling a timer for every request cost about as much
 * as the rest of the exchange's bookkeeping; requests one after another have later and later
 * deadlines, so the one timer stays where it is. An exchange that ends just leaves the set;
 * the timer, when it comes, ends those whose time is up and aims at the next. It never keeps
 * the process alive (unref'd): an exchange on the wire has its socket, or its name lookup,
 * for that, and toggling the timer's hold on the event loop per request cost two calls into
 * libuv per msg.
 */
export interface Expiring {
  /** When it must have ended, on performance.now()'s clock. */
  readonly deadline: number;
  /** Its time is up (it leaves the watch first). */
  expire(): void;
}

export class Deadlines {
  private readonly watched = new Set<Expiring>();
  private timer?: NodeJS.Timeout;
  /** When the timer fires; Infinity when there is none. */
  private at = Infinity;

  watch(e: Expiring): void {
    this.watched.add(e);
    if (e.deadline < this.at) this.aim(e.deadline);
  }

  unwatch(e: Expiring): void {
    this.watched.delete(e);
  }

  private aim(at: number): void {
    clearTimeout(this.timer);
    this.at = at;
    this.timer = setTimeout(() => this.due(), Math.max(0, at - performance.now())).unref();
  }

  private due(): void {
    this.timer = undefined;
    this.at = Infinity;
    const now = performance.now();
    let next = Infinity;
    for (const e of this.watched) {
      if (e.deadline <= now) {
        this.watched.delete(e);
        e.expire();
      } else if (e.deadline < next) next = e.deadline;
    }
    if (next < Infinity) this.aim(next);
  }
}

/** The process's one watch over exchange deadlines (transport.ts). */
export const exchangeDeadlines = new Deadlines();
