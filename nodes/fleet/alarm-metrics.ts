/**
 * The alarm system's health as ISA-18.2 / IEC 62682 measure it (pure/alarm-health.ts), and
 * its alarms by state and priority, as Prometheus metrics beside the modules' (metrics.ts).
 * Nothing is counted on the alarms' path: each scrape reads every alarm system of the process
 * (one per Node-RED: its userDir's journal) once. Cardinality is bounded: the states and
 * priorities are the model's lists, and only the 10 most frequent alarms carry their id.
 */
import type { Counter, Registry } from 'prom-client';
import { alarmSystems } from '../alarms/alarm-system';
import type { HealthReport } from '../lib/pure/alarm-health';
import { ALARM_STATES } from '../lib/pure/alarm-model';
import { ALARM_HEALTH, LIMITS } from '../lib/pure/limits';

const PRIORITIES = Array.from({ length: LIMITS.alarm_priority.max - LIMITS.alarm_priority.min + 1 }, (_, i) => String(LIMITS.alarm_priority.min + i));

/** What one scrape read of the systems. */
interface Snapshot {
  perWindow: number;
  floodSeconds: number;
  inFlood: boolean;
  chattering: number;
  stale: number;
  top: HealthReport['top'];
  byState: Map<string, number>;
  journalProblem: boolean;
  writes: number;
  failedWrites: number;
  dropped: number;
}

/** The systems' figures, summed (a process has one system per journal file: a real Node-RED one). */
function snapshot(): Snapshot {
  const s: Snapshot = {
    perWindow: 0,
    floodSeconds: 0,
    inFlood: false,
    chattering: 0,
    stale: 0,
    top: [],
    byState: new Map(),
    journalProblem: false,
    writes: 0,
    failedWrites: 0,
    dropped: 0,
  };
  const top: Array<{ alarm: string; count: number }> = [];
  for (const system of alarmSystems()) {
    const report = system.report();
    s.perWindow += report.perWindow;
    s.floodSeconds += report.floodMs / 1000;
    s.inFlood ||= report.inFlood;
    s.chattering += report.chattering.length;
    s.stale += report.stale.length;
    top.push(...report.top);
    for (const view of system.list()) {
      const key = `${view.shown}/${view.priority}`;
      s.byState.set(key, (s.byState.get(key) ?? 0) + 1);
    }
    const stats = system.journal.stats();
    s.journalProblem ||= system.journal.problem !== undefined;
    s.writes += stats.writes;
    s.failedWrites += stats.failedWrites;
    s.dropped += stats.dropped;
  }
  s.top = top.sort((a, b) => b.count - a.count || (a.alarm < b.alarm ? -1 : 1)).slice(0, ALARM_HEALTH.topCount);
  return s;
}

/** A counter that shows a total kept elsewhere (it only grows there): set at each scrape. */
function total(counter: Counter, value: number): void {
  counter.reset();
  counter.inc(value);
}

export class AlarmMetrics {
  /** This scrape's figures: read by the first metric's collect (prom-client calls them in the order registered, each with its metric as `this`). */
  private now?: Snapshot;

  /** `prom`: prom-client, loaded at the first scrape (metrics.ts says why). */
  constructor(prom: typeof import('prom-client'), registry: Registry) {
    const { Counter, Gauge } = prom;
    const registers = [registry];
    const read = () => (this.now ??= snapshot());
    const took = (s: Snapshot) => (this.now = s);
    new Gauge({
      name: 'modular_device_alarms_per_10_minutes',
      help: 'Alarm activations in the last 10 minutes (ISA-18.2: about 1 to 2 is manageable, more than 10 is a flood)',
      registers,
      collect() {
        this.set(took(snapshot()).perWindow);
      },
    });
    const gauge = (name: string, help: string, value: (s: Snapshot) => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(value(read()));
        },
      });
    const counter = (name: string, help: string, value: (s: Snapshot) => number) =>
      new Counter({
        name,
        help,
        registers,
        collect() {
          total(this, value(read()));
        },
      });
    counter(
      'modular_device_alarm_flood_seconds_total',
      'Time the alarm system spent in flood (more than 10 activations in 10 minutes), seconds',
      (s) => s.floodSeconds,
    );
    gauge('modular_device_alarm_flood', 'Whether the alarm system is in flood now (more than 10 activations in the last 10 minutes): 1 or 0', (s) =>
      s.inFlood ? 1 : 0,
    );
    gauge('modular_device_alarms_chattering', 'Chattering alarms: 3 or more activations within a minute, in the last 10 minutes', (s) => s.chattering);
    gauge('modular_device_alarms_stale', 'Stale alarms: active for more than a day', (s) => s.stale);
    new Gauge({
      name: 'modular_device_alarm_top_activations',
      help: 'Activations in the last 10 minutes of the 10 most frequent alarms (only these carry their id)',
      labelNames: ['alarm'],
      registers,
      collect() {
        this.reset();
        for (const { alarm, count } of read().top) this.set({ alarm }, count);
      },
    });
    new Gauge({
      name: 'modular_device_alarms',
      help: 'Deployed alarms by the state they show (ISA-18.2) and priority (1 most urgent)',
      labelNames: ['state', 'priority'],
      registers,
      collect() {
        const s = read();
        for (const state of ALARM_STATES) for (const priority of PRIORITIES) this.set({ state, priority }, s.byState.get(`${state}/${priority}`) ?? 0);
      },
    });
    gauge('modular_device_alarm_journal_problem', 'Whether the alarm journal cannot be read or written now (the alarms work on in memory): 1 or 0', (s) =>
      s.journalProblem ? 1 : 0,
    );
    counter('modular_device_alarm_journal_writes_total', 'Alarm journal files written (each a batch of transitions)', (s) => s.writes);
    counter('modular_device_alarm_journal_failed_writes_total', 'Alarm journal writes that failed', (s) => s.failedWrites);
    counter(
      'modular_device_alarm_journal_dropped_total',
      'Alarm journal entries dropped, oldest first, to keep the journal within its bound',
      (s) => s.dropped,
    );
  }
}
