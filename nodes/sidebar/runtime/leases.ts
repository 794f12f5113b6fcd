/**
 * Who watches: each editor whose device sidebar is open holds a lease it renews (watch
 * route). The live view runs while at least one lease is alive and stops the moment the last
 * one ends or runs out: a closed sidebar, a closed browser tab, a lost network all end in
 * zero device requests. The number of watchers is bounded; the only timer is the one for the
 * next expiry, and only while a lease is alive.
 */
import type { Later } from '../../lib/base/clock';

export interface LeaseBounds {
  maxWatchers: number;
  leaseMs: number;
}

export class Leases {
  private readonly expiry = new Map<string, number>();
  private cancel?: () => void;

  constructor(
    private readonly bounds: LeaseBounds,
    /** true when the first lease starts, false when the last one ends. */
    private readonly onActive: (active: boolean) => void,
    private readonly later: Later,
    private readonly now: () => number = () => Date.now(),
  ) {}

  get size(): number {
    return this.expiry.size;
  }

  /** Starts or renews `id`'s lease; false when it is new and the watchers are full. */
  renew(id: string): boolean {
    this.expire();
    if (!this.expiry.has(id) && this.expiry.size >= this.bounds.maxWatchers) return false;
    const first = this.expiry.size === 0;
    this.expiry.set(id, this.now() + this.bounds.leaseMs);
    this.schedule();
    if (first) this.onActive(true);
    return true;
  }

  /** Ends `id`'s lease (its sidebar closed). */
  end(id: string): void {
    if (!this.expiry.delete(id)) return;
    this.settle();
  }

  /** Ends every lease without telling (the service closes). */
  close(): void {
    this.expiry.clear();
    this.cancel?.();
    this.cancel = undefined;
  }

  /** Drops the leases that ran out; tells when that was the last. */
  private expire(): void {
    const now = this.now();
    let dropped = false;
    for (const [id, at] of this.expiry) {
      if (at <= now) dropped = this.expiry.delete(id);
    }
    if (dropped) this.settle();
  }

  private settle(): void {
    this.schedule();
    if (this.expiry.size === 0) this.onActive(false);
  }

  /** One timer, for the next expiry, while any lease is alive. */
  private schedule(): void {
    this.cancel?.();
    this.cancel = undefined;
    if (!this.expiry.size) return;
    const next = Math.min(...this.expiry.values());
    this.cancel = this.later(
      () => {
        this.cancel = undefined;
        this.expire();
        if (this.expiry.size && !this.cancel) this.schedule();
      },
      Math.max(0, next - this.now()),
    );
  }
}
