/**
 * At most one call per `minMs`, on the trailing edge: a poke schedules the call once, and
 * pokes meanwhile only ride along, so the call made carries the newest state. The live view
 * publishes snapshots through it (a few small updates per second at most).
 */
import type { Later } from '../../lib/base/clock';

export class Throttle {
  private cancel?: () => void;
  private last = -Infinity;

  constructor(
    private readonly minMs: number,
    private readonly call: () => void,
    private readonly later: Later,
    private readonly now: () => number = () => Date.now(),
  ) {}

  poke(): void {
    if (!this.cancel) this.schedule();
  }

  private schedule(): void {
    this.cancel = this.later(
      () => {
        this.cancel = undefined;
        // A timer may fire a little early by the wall clock (its start is the event loop's cached time).
        if (this.now() < this.last + this.minMs) return this.schedule();
        this.call();
        // Counted from the end of the call: the next one starts a full interval after this one ended.
        this.last = this.now();
      },
      Math.max(0, this.last + this.minMs - this.now()),
    );
  }

  /** Drops a pending call (nobody watches any more). */
  stop(): void {
    this.cancel?.();
    this.cancel = undefined;
  }
}
