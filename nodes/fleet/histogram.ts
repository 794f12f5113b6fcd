/**
 * A Prometheus histogram counted in plain numbers per series on the request path and handed
 * to prom-client's registry as a histogram when scraped: prom-client writes the text format
 * (as for its own metrics), while a request pays a bucket search and three additions instead
 * of prom-client's label hashing and the objects of its `observe`.
 */
import type { Metric, Registry } from 'prom-client';

/** A line of the histogram as prom-client's registry writes it. */
interface Line {
  metricName: string;
  labels: Record<string, string | number>;
  value: number;
}

/** One label set's counts: per bucket (not cumulative), their sum and count. */
export interface HistogramSeries {
  labels: Record<string, string>;
  buckets: Float64Array;
  sum: number;
  count: number;
}

export class CountedHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';

  constructor(
    readonly name: string,
    readonly help: string,
    /** Upper bounds, ascending; +Inf is added. */
    readonly bounds: readonly number[],
    /** Every series to write at a scrape. */
    private readonly series: () => Iterable<HistogramSeries>,
  ) {}

  /** Writes it with prom-client's registry (made at the first scrape: metrics.ts). */
  register(registry: Registry): void {
    registry.registerMetric(this as unknown as Metric);
  }

  /** A series' empty counts. */
  seriesFor(labels: Record<string, string>): HistogramSeries {
    return { labels, buckets: new Float64Array(this.bounds.length), sum: 0, count: 0 };
  }

  observe(s: HistogramSeries, value: number): void {
    let i = 0;
    while (i < this.bounds.length && value > this.bounds[i]) i++;
    if (i < this.bounds.length) s.buckets[i]++;
    s.sum += value;
    s.count++;
  }

  /** As prom-client's own histograms: cumulative `_bucket` lines (`le` first), `+Inf`, `_sum`, `_count`. */
  get(): { name: string; help: string; type: string; aggregator: string; values: Line[] } {
    const values: Line[] = [];
    for (const s of this.series()) {
      if (!s.count) continue;
      let total = 0;
      this.bounds.forEach((le, i) => {
        total += s.buckets[i];
        values.push({ metricName: `${this.name}_bucket`, labels: { le, ...s.labels }, value: total });
      });
      values.push({ metricName: `${this.name}_bucket`, labels: { le: '+Inf', ...s.labels }, value: s.count });
      values.push({ metricName: `${this.name}_sum`, labels: s.labels, value: s.sum });
      values.push({ metricName: `${this.name}_count`, labels: s.labels, value: s.count });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  /** Registry.resetMetrics: counts start again. */
  reset(): void {
    for (const s of this.series()) {
      s.buckets.fill(0);
      s.sum = 0;
      s.count = 0;
    }
  }
}
