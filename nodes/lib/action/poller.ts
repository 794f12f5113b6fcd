/**
 * Poller: runs a job every N ms without overlap (the next round is scheduled only after
 * the previous answer), backs off while the job fails, and reports a failure once per
 * outage rather than once per round.
 *
 * Used by every node that polls (notification-poll, io-read, readings): a flow is told
 * once that the device went away, and once it is back the rounds return to their pace.
 */
export const POLL_BACKOFF_MAX_MS = 5000;

export interface PollerHooks {
  /** One round; a rejection counts as a failed round. */
  round(): Promise<void>;
  /** The first failure of an outage. */
  failed(error: unknown): void;
  /** Every failed round, the first included (e.g. to keep a status true after a reconnection). */
  roundFailed?(error: unknown): void;
}

export class Poller {
  private timer?: NodeJS.Timeout;
  private running = false;
  private stopped = true;
  private failing = false;
  private delay = 0;

  constructor(
    private intervalMs: number,
    private readonly hooks: PollerHooks,
    /** Back off while failing (polls of readings); off where the pace matters (keep-alive). */
    private readonly backoff = true,
  ) {}

  get active(): boolean {
    return !this.stopped;
  }

  /** Starts (or restarts at once with a new interval); a round in flight is not doubled. */
  start(intervalMs = this.intervalMs): void {
    this.intervalMs = intervalMs;
    this.stopped = false;
    this.delay = intervalMs;
    this.schedule(0);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Polls now instead of waiting out a backoff (e.g. the connection is back). */
  nudge(): void {
    if (this.stopped) return;
    this.delay = this.intervalMs;
    this.schedule(0);
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.stopped || this.running) return;
    this.timer = setTimeout(this.fire, ms);
  }

  /**
   * The timer's callback and the round's two endings, made once, and one reaction per round
   * instead of an async function: every module polls every interval.
   */
  private readonly fire = (): void => {
    this.timer = undefined;
    if (this.stopped || this.running) return;
    this.running = true;
    let round: Promise<void>;
    try {
      round = this.hooks.round();
    } catch (error) {
      round = Promise.reject(error);
    }
    round.then(this.roundDone, this.roundFailed);
  };

  private readonly roundDone = (): void => {
    this.failing = false;
    this.delay = this.intervalMs;
    this.running = false;
    this.schedule(this.delay);
  };

  private readonly roundFailed = (error: unknown): void => {
    try {
      this.hooks.roundFailed?.(error);
      if (!this.failing) {
        this.failing = true;
        this.hooks.failed(error);
      }
      if (this.backoff) this.delay = Math.max(this.intervalMs, Math.min(POLL_BACKOFF_MAX_MS, this.delay * 2));
    } finally {
      this.running = false;
    }
    this.schedule(this.delay);
  };
}
