/**
 * A token bucket: one token per device request, refilled at `rate` per second up to
 * `capacity`. It is what keeps the live sidebar's reads at or below the settable rate, all
 * modules together: over any window of T seconds it grants at most rate × T + capacity.
 * The clock is a parameter so a test can drive it by hand.
 */
export class TokenBucket {
  private tokens: number;
  private at: number;

  constructor(
    readonly rate: number,
    readonly capacity: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.tokens = capacity;
    this.at = now();
  }

  /** Takes a token when there is one; false when there is none yet. */
  take(): boolean {
    this.refill();
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** Milliseconds until a token is there (0: now). */
  waitMs(): number {
    this.refill();
    return this.tokens >= 1 ? 0 : Math.ceil(((1 - this.tokens) * 1000) / this.rate);
  }

  private refill(): void {
    const now = this.now();
    this.tokens = Math.min(this.capacity, this.tokens + ((now - this.at) * this.rate) / 1000);
    this.at = now;
  }
}
