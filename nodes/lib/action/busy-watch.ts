/**
 * When an action node's blue "requesting" dot is due: one watch for every node of the
 * process, not a timer per node.
 *
 * A timer that fires costs an event-loop wakeup, and that wakeup, not the check it runs, is
 * the cost (about 190 µs of CPU on the benchmark's machine, more than the exchange's own
 * work). With a timer per node, ten io-output nodes driven at 10 Hz woke the loop 100
 * times a second for a dot that almost never shows (an installation's outputs cost 1.33×
 * the minimal node's CPU; bench/installation.js --kinds output). Cancelling does not help:
 * Node's timers keep the underlying libuv timer armed, so a cancelled timer still wakes the
 * loop once.
 *
 * The watch ticks every BUSY_STATUS_DELAY_MS while some node it watches has a msg in
 * flight, and stops as soon as none has: at most 1000 / BUSY_STATUS_DELAY_MS wakeups a
 * second for the whole process, however many nodes. The dot shows between one and two
 * delays after its msg began; a msg that ends before then shows none.
 */
import { backgroundLater, Clock, realClock } from '../base/clock';

/**
 * A request still running after this long shows the blue "requesting" dot. 100 ms, not
 * 50: a dot shown for less than a tenth of a second tells an operator nothing, and the
 * watch wakes a busy Node-RED at most ten times a second instead of twenty.
 */
export const BUSY_STATUS_DELAY_MS = 100;

export interface Watched {
  /**
   * The watch's look at a node, at `now`: shows the blue dot if it is due, and answers
   * whether the node still needs watching (a msg in flight whose dot is not due yet).
   */
  busyCheck(now: number): boolean;
}

export class BusyWatch {
  private watched: Watched[] = [];
  private armed = false;

  constructor(
    /** Real time with an unref'd timer (a msg in flight holds the process by its socket), or a test's hand clock. */
    private readonly clock: Clock = { now: realClock.now, later: backgroundLater },
  ) {}

  now(): number {
    return this.clock.now();
  }

  /** Watches `node` until its busyCheck says it is done; the caller adds a node once until then. */
  add(node: Watched): void {
    this.watched.push(node);
    if (!this.armed) this.arm();
  }

  private arm(): void {
    this.armed = true;
    this.clock.later(() => this.tick(), BUSY_STATUS_DELAY_MS);
  }

  private tick(): void {
    this.armed = false;
    const now = this.clock.now();
    const looked = this.watched;
    this.watched = [];
    for (const node of looked) if (node.busyCheck(now)) this.watched.push(node);
    if (this.watched.length && !this.armed) this.arm();
  }
}

/** The process's one watch over the action nodes' busy dots (status-dot.ts). */
export const busyWatch = new BusyWatch();
