/**
 * Store and forward (Sparkplug 3.0, primary host awareness): the DDATA a device would have
 * sent while the primary host was offline (or the broker away), kept in order with their own
 * timestamps, at most SPARKPLUG_BOUNDS.storedValues metric values; beyond that a value is
 * dropped and counted (the edge node's `Store and Forward/Dropped`), never silently.
 */
import { SPARKPLUG_BOUNDS } from '../../lib/pure/limits';
import type { SpMetric } from './types';

export interface StoredData {
  device: string;
  metrics: SpMetric[];
}

export class StoreAndForward {
  private entries: StoredData[] = [];
  private count = 0;
  /** Values dropped over the session's life (a counter: a host sees it grow). */
  dropped = 0;

  get stored(): number {
    return this.count;
  }

  /** Keeps what fits; the rest is dropped, counted. */
  keep(device: string, metrics: SpMetric[]): void {
    const room = Math.max(0, SPARKPLUG_BOUNDS.storedValues - this.count);
    const kept = metrics.slice(0, room);
    this.dropped += metrics.length - kept.length;
    if (!kept.length) return;
    this.count += kept.length;
    this.entries.push({ device, metrics: kept.map((m) => ({ ...m, isHistorical: true })) });
  }

  /**
   * Everything kept, oldest first, emptied. Consecutive values of one device go in one DDATA
   * of at most SPARKPLUG_BOUNDS.commandMetrics metrics (the most a payload of ours carries in).
   */
  take(): StoredData[] {
    const out: StoredData[] = [];
    for (const entry of this.entries) {
      const last = out[out.length - 1];
      if (last && last.device === entry.device && last.metrics.length + entry.metrics.length <= SPARKPLUG_BOUNDS.commandMetrics)
        last.metrics.push(...entry.metrics);
      else out.push({ device: entry.device, metrics: [...entry.metrics] });
    }
    this.entries = [];
    this.count = 0;
    return out;
  }
}
