/**
 * Prometheus metrics of every module in this Node-RED, in the text format, written with
 * prom-client (the field's library) into a registry of the package's own (never the global
 * one a user's other code may fill). Everything is heard, nothing asked: health events
 * (config-node/health.ts) for states, resets, re-applies, late keep-alives and lost notifications;
 * tallies for every exchange (config-node/module-health.ts onExchange) and every alert delivered.
 * On the request path that is a few numbers of the module's own: the request count, the
 * queue depth and the latency histogram (histogram.ts) reach prom-client's registry when
 * Prometheus asks, so a request pays no label lookup, no allocation, no I/O.
 */
import { Counter, Gauge, Registry } from 'prom-client';
import { CountedHistogram, HistogramSeries } from './histogram';
import { AlarmMetrics } from './alarm-metrics';
import { HealthEvent, HealthModule, onTally, Report, subscribe, Tally } from '../lib/config-node/health';
// One gauge series per state, 1 for the current: the type's own list, so none is missed.
import { CONNECTION_STATES } from '../lib/config-node/connection-state';

/** Seconds: a loopback answer takes 1 ms, a device's 5-50 ms, a timeout 5 s and more. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const LABELS = ['device', 'service', 'slot'] as const;
type Labels = Record<(typeof LABELS)[number], string>;

const labelsOf = (module: HealthModule): Labels => ({ device: module.device, service: module.service, slot: String(module.slot) });

/** A module's labels (one object for all its requests) and what it counted since the last scrape. */
interface Counted {
  labels: Labels;
  latency: HistogramSeries;
  requests: number;
  /** The queue depth when its last exchange ended; undefined: no exchange yet. */
  queued?: number;
}

export class ModuleMetrics {
  readonly registry = new Registry();
  /** A metric's options: its name and help, the module labels (and any extra), this registry. */
  private metric(name: string, help: string, extra: string[] = []) {
    return { name, help, labelNames: [...LABELS, ...extra], registers: [this.registry] };
  }
  /** Per module (by its labels); found from a HealthModule without building a key each time. */
  private readonly counted = new Map<string, Counted>();
  private readonly countedOf = new WeakMap<HealthModule, Counted>();
  private readonly requests: Counter = new Counter({
    ...this.metric('modular_device_requests_total', 'Device requests (exchanges) per module, answered or failed'),
    collect: () => {
      for (const c of this.counted.values()) {
        if (c.requests) this.requests.inc(c.labels, c.requests);
        c.requests = 0;
      }
    },
  });
  private readonly errors = new Counter(
    this.metric('modular_device_request_errors_total', 'Failed device requests per module by error code (TIMEOUT, DEVICE_ERROR, UNREACHABLE...)', ['code']),
  );
  private readonly latency = new CountedHistogram(
    'modular_device_request_duration_seconds',
    'Time from sending a device request to its verdict',
    LATENCY_BUCKETS,
    () => [...this.counted.values()].map((c) => c.latency),
    this.registry,
  );
  private readonly queue: Gauge = new Gauge({
    ...this.metric('modular_device_queue_depth', 'Requests waiting in the module queue when the last exchange ended'),
    collect: () => {
      for (const c of this.counted.values()) if (c.queued !== undefined) this.queue.set(c.labels, c.queued);
    },
  });
  private readonly state = new Gauge(
    this.metric('modular_device_connection_state', 'The module connection state: 1 for the current state, 0 for the others', ['state']),
  );
  private readonly resets = new Counter(this.metric('modular_device_resets_total', 'Device or module resets noticed'));
  private readonly reapplies = new Counter(
    this.metric('modular_device_reapplies_total', 'Times the settings the package made were applied again after a reset'),
  );
  private readonly alerts = new Counter(
    this.metric('modular_device_alerts_delivered_total', 'Notification alerts delivered to the flow (pins with a raised alert)'),
  );
  private readonly lost = new Counter(
    this.metric('modular_device_notifications_lost_total', 'notifications-lost announcements (alerts that may have been cleared unread)'),
  );
  private readonly late = new Counter(this.metric('modular_device_keepalive_late_total', 'Keep-alives found late by the watchdog node'));
  private readonly lateness = new Gauge(
    this.metric('modular_device_keepalive_lateness_seconds', 'How late the last late keep-alive was (time since the last alive)'),
  );
  private readonly refused = new Counter({
    name: 'modular_device_fleet_commands_refused_total',
    help: 'Commands from the fleet MQTT refused by fleet-publish (not allowed, malformed, retained, for no module or alarm here...), for modules, alarms or Sparkplug (NCMD, DCMD)',
    labelNames: ['kind'],
    registers: [this.registry],
  });
  private readonly stops: Array<() => void>;

  /** `report`: where a failure to count is said (once), e.g. Node-RED's log; by default Node's warnings. */
  constructor(report?: Report) {
    new AlarmMetrics(this.registry);
    this.stops = [subscribe((event) => this.onHealth(event), report), onTally((module, fact) => this.onTally(module, fact), report)];
  }

  stop(): void {
    for (const stop of this.stops) stop();
  }

  /** A fleet command refused (fleet-publish): its kind is bounded, its topic is not. `sparkplug`: an NCMD or DCMD, whatever its metric. */
  refusedCommand(kind: 'module' | 'alarm' | 'sparkplug'): void {
    this.refused.inc({ kind });
  }

  /** The text format (version 0.0.4), as Prometheus scrapes it. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  private onTally(module: HealthModule, fact: Tally): void {
    const c = this.countedFor(module);
    if (fact.kind === 'alerts') {
      this.alerts.inc(c.labels, fact.count);
      return;
    }
    c.requests++;
    c.queued = fact.queued;
    if (!fact.ok) this.errors.inc({ ...c.labels, code: fact.code ?? 'UNKNOWN' });
    this.latency.observe(c.latency, fact.ms / 1000);
  }

  /** A module's counts; a redeploy's new connection with the same labels counts on in the same series. */
  private countedFor(module: HealthModule): Counted {
    let c = this.countedOf.get(module);
    if (!c) {
      const labels = labelsOf(module);
      const key = JSON.stringify(labels);
      c = this.counted.get(key) ?? { labels, latency: this.latency.seriesFor(labels), requests: 0 };
      this.counted.set(key, c);
      this.countedOf.set(module, c);
    }
    return c;
  }

  private onHealth(event: HealthEvent): void {
    const labels = labelsOf(event.module);
    switch (event.kind) {
      case 'connection': {
        const current = event.detail.state;
        for (const state of CONNECTION_STATES) this.state.set({ ...labels, state }, state === current ? 1 : 0);
        break;
      }
      case 'reset':
        this.resets.inc(labels);
        break;
      case 'reapplied':
        this.reapplies.inc(labels);
        break;
      case 'notifications-lost':
        this.lost.inc(labels);
        break;
      case 'keepalive-late': {
        this.late.inc(labels);
        this.lateness.set(labels, event.detail.since_ms / 1000);
        break;
      }
      case 'queue':
        break;
      default: {
        // Fails to compile when a health kind has no case here: each is counted or passed over on purpose.
        const unheard: never = event;
        void unheard;
      }
    }
  }
}
