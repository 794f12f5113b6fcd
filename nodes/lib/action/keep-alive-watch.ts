/**
 * Says so when the keep-alive is late, before the watchdog resets the device.
 *
 * The keep-alive sends an alive every `interval` ms, at most half the watchdog `timeout`, so
 * one late round does not reset the device. When no alive has gone through for longer than
 * halfway between "the next one was due" and "the device resets" (interval + (timeout −
 * interval) / 2), something is wrong (a slow device, a dead link): the node shows it and
 * sends a msg, while there is still time to act. Once per lateness: the next alive that goes
 * through ends it.
 */
export interface LateAlive {
  /** ms since the last alive went through (or since the watch started). */
  sinceMs: number;
  /** The watchdog timeout, ms. */
  timeoutMs: number;
  /** ms left before the device resets, at the latest. */
  resetInMs: number;
}

export class KeepAliveWatch {
  private timer?: NodeJS.Timeout;
  private last = Date.now();
  private stopped = false;

  constructor(
    private readonly intervalMs: number,
    private readonly timeoutMs: number,
    private readonly late: (late: LateAlive) => void,
  ) {}

  /** How long without an alive counts as late. */
  get lateAfterMs(): number {
    return Math.round(this.intervalMs + (this.timeoutMs - this.intervalMs) / 2);
  }

  /** Starts (or restarts) the watch from now, e.g. once the timeout is set on connect. */
  start(): void {
    this.alive();
  }

  /** An alive went through: the device's countdown started again. */
  alive(): void {
    if (this.stopped) return;
    this.last = Date.now();
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const sinceMs = Date.now() - this.last;
      this.late({ sinceMs, timeoutMs: this.timeoutMs, resetInMs: Math.max(0, this.timeoutMs - sinceMs) });
    }, this.lateAfterMs);
    // A watch alone must not keep Node-RED's process alive.
    this.timer.unref?.();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
