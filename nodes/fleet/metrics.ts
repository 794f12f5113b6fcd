/**
 * Prometheus metrics of every module in this Node-RED, in the text format, written with
 * prom-client (the field's library) into a registry of the package's own (never the global
 * one a user's other code may fill). Everything is heard, nothing asked: health events
 * (config-node/health.ts) for states, resets, re-applies, late keep-alives and lost notifications;
 * tallies for every exchange (config-node/module-health.ts onExchange) and every alert delivered.
 *
 * Everything is counted in plain numbers of the module's own (a request pays no label
 * lookup, no allocation, no I/O) and reaches prom-client when Prometheus asks: prom-client
 * is loaded at the first scrape, not when Node-RED starts. Loaded with the package it cost
 * every Node-RED 70 ms of start-up and 12 MB of memory (it brings @opentelemetry/api),
 * whether or not anyone ever scraped (bench/footprint.js).
 */
import type { Counter, Registry } from 'prom-client';
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

/** What a module counted since Node-RED started: totals, as Prometheus counters show them. */
interface Counted {
  labels: Labels;
  latency: HistogramSeries;
  requests: number;
  /** Failed requests by error code. */
  errors: Map<string, number>;
  /** The queue depth when its last exchange ended; undefined: no exchange yet. */
  queued?: number;
  alerts: number;
  resets: number;
  reapplies: number;
  lost: number;
  late: number;
  /** How late the last late keep-alive was, seconds; undefined: none was. */
  lateness?: number;
  /** The last connection state heard; undefined: none yet. */
  state?: string;
}

type CommandKind = 'module' | 'alarm' | 'sparkplug';

/** A counter that shows a total kept here (it only grows): set at each scrape. */
function total(counter: Counter, labels: Record<string, string>, value: number): void {
  if (value) counter.inc(labels, value);
}

export class ModuleMetrics {
  /** Per module (by its labels); found from a HealthModule without building a key each time. */
  private readonly counted = new Map<string, Counted>();
  private readonly countedOf = new WeakMap<HealthModule, Counted>();
  private readonly refused: Record<CommandKind, number> = { module: 0, alarm: 0, sparkplug: 0 };
  private readonly latency = new CountedHistogram(
    'modular_device_request_duration_seconds',
    'Time from sending a device request to its verdict',
    LATENCY_BUCKETS,
    () => [...this.counted.values()].map((c) => c.latency),
  );
  /** prom-client's registry, made at the first scrape. */
  private registry?: Registry;
  private readonly stops: Array<() => void>;

  /** `report`: where a failure to count is said (once), e.g. Node-RED's log; by default Node's warnings. */
  constructor(report?: Report) {
    this.stops = [subscribe((event) => this.onHealth(event), report), onTally((module, fact) => this.onTally(module, fact), report)];
  }

  stop(): void {
    for (const stop of this.stops) stop();
  }

  /** A fleet command refused (fleet-publish): its kind is bounded, its topic is not. `sparkplug`: an NCMD or DCMD, whatever its metric. */
  refusedCommand(kind: CommandKind): void {
    this.refused[kind]++;
  }

  /** The text format (version 0.0.4), as Prometheus scrapes it. */
  text(): Promise<string> {
    return this.registryNow().metrics();
  }

  get contentType(): string {
    return this.registryNow().contentType;
  }

  /**
   * The registry, made at the first scrape: each metric reads the plain numbers when
   * prom-client collects it (counters are reset and set to the totals, as alarm-metrics.ts does).
   */
  private registryNow(): Registry {
    if (this.registry) return this.registry;
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded at the first scrape (see the top of this file)
    const prom = require('prom-client') as typeof import('prom-client');
    const registry = new prom.Registry();
    const registers = [registry];
    const modules = () => this.counted.values();
    const counter = (name: string, help: string, value: (c: Counted) => number) =>
      new prom.Counter({
        name,
        help,
        labelNames: [...LABELS],
        registers,
        collect() {
          this.reset();
          for (const c of modules()) total(this, c.labels, value(c));
        },
      });
    /** A gauge per module of what it last knew; a module that knows nothing yet has no series. */
    const gauge = (name: string, help: string, value: (c: Counted) => number | undefined) =>
      new prom.Gauge({
        name,
        help,
        labelNames: [...LABELS],
        registers,
        collect() {
          for (const c of modules()) {
            const v = value(c);
            if (v !== undefined) this.set(c.labels, v);
          }
        },
      });
    counter('modular_device_requests_total', 'Device requests (exchanges) per module, answered or failed', (c) => c.requests);
    new prom.Counter({
      name: 'modular_device_request_errors_total',
      help: 'Failed device requests per module by error code (TIMEOUT, DEVICE_ERROR, UNREACHABLE...)',
      labelNames: [...LABELS, 'code'],
      registers,
      collect() {
        this.reset();
        for (const c of modules()) for (const [code, n] of c.errors) total(this, { ...c.labels, code }, n);
      },
    });
    this.latency.register(registry);
    gauge('modular_device_queue_depth', 'Requests waiting in the module queue when the last exchange ended', (c) => c.queued);
    new prom.Gauge({
      name: 'modular_device_connection_state',
      help: 'The module connection state: 1 for the current state, 0 for the others',
      labelNames: [...LABELS, 'state'],
      registers,
      collect() {
        for (const c of modules())
          if (c.state !== undefined) for (const state of CONNECTION_STATES) this.set({ ...c.labels, state }, state === c.state ? 1 : 0);
      },
    });
    counter('modular_device_resets_total', 'Device or module resets noticed', (c) => c.resets);
    counter('modular_device_reapplies_total', 'Times the settings the package made were applied again after a reset', (c) => c.reapplies);
    counter('modular_device_alerts_delivered_total', 'Notification alerts delivered to the flow (pins with a raised alert)', (c) => c.alerts);
    counter('modular_device_notifications_lost_total', 'notifications-lost announcements (alerts that may have been cleared unread)', (c) => c.lost);
    counter('modular_device_keepalive_late_total', 'Keep-alives found late by the watchdog node', (c) => c.late);
    gauge('modular_device_keepalive_lateness_seconds', 'How late the last late keep-alive was (time since the last alive)', (c) => c.lateness);
    const refused = this.refused;
    new prom.Counter({
      name: 'modular_device_fleet_commands_refused_total',
      help: 'Commands from the fleet MQTT refused by fleet-publish (not allowed, malformed, retained, for no module or alarm here...), for modules, alarms or Sparkplug (NCMD, DCMD)',
      labelNames: ['kind'],
      registers,
      collect() {
        this.reset();
        for (const kind of Object.keys(refused) as CommandKind[]) total(this, { kind }, refused[kind]);
      },
    });
    new AlarmMetrics(prom, registry);
    this.registry = registry;
    return registry;
  }

  private onTally(module: HealthModule, fact: Tally): void {
    const c = this.countedFor(module);
    if (fact.kind === 'alerts') {
      c.alerts += fact.count;
      return;
    }
    c.requests++;
    c.queued = fact.queued;
    if (!fact.ok) {
      const code = fact.code ?? 'UNKNOWN';
      c.errors.set(code, (c.errors.get(code) ?? 0) + 1);
    }
    this.latency.observe(c.latency, fact.ms / 1000);
  }

  /** A module's counts; a redeploy's new connection with the same labels counts on in the same series. */
  private countedFor(module: HealthModule): Counted {
    let c = this.countedOf.get(module);
    if (!c) {
      const labels = labelsOf(module);
      const key = JSON.stringify(labels);
      c = this.counted.get(key) ?? {
        labels,
        latency: this.latency.seriesFor(labels),
        requests: 0,
        errors: new Map(),
        alerts: 0,
        resets: 0,
        reapplies: 0,
        lost: 0,
        late: 0,
      };
      this.counted.set(key, c);
      this.countedOf.set(module, c);
    }
    return c;
  }

  private onHealth(event: HealthEvent): void {
    const c = this.countedFor(event.module);
    switch (event.kind) {
      case 'connection':
        c.state = event.detail.state;
        break;
      case 'reset':
        c.resets++;
        break;
      case 'reapplied':
        c.reapplies++;
        break;
      case 'notifications-lost':
        c.lost++;
        break;
      case 'keepalive-late': {
        c.late++;
        c.lateness = event.detail.since_ms / 1000;
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
