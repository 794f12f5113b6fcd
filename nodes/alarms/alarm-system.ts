/**
 * The alarm system of one Node-RED: every alarm the flows define, their states (the pure
 * model, pure/alarm-model.ts), the journal that keeps them across restarts (journal.ts), the
 * shelves' ends, the health figures (pure/alarm-health.ts), and who listens (the alarm nodes'
 * outputs, alarm-list, fleet MQTT, metrics).
 *
 * One system per journal file, for the life of the process (`alarmSystem(file)`): nodes come
 * and go with each redeploy, the states and the file stay. A node defines its alarms when it
 * starts (a state found in the journal is taken up as it was: an unacknowledged alarm stays
 * unacknowledged, a shelf ends at its clock time) and releases them when it closes; only a
 * node removed from the flows forgets their states.
 */
import { Later, realLater } from '../lib/base/clock';
import { Alarm, AlarmEvent, createAlarm, deadlineOf, readAlarm, step, Step } from '../lib/pure/alarm-model';
import { AlarmCommand } from '../lib/pure/alarm-command';
import { AlarmHealth, HealthReport } from '../lib/pure/alarm-health';
import { check } from '../lib/pure/limits';
import { isPhrase, phrase, Phrase } from '../lib/pure/phrase';
import { Journal, JournalProblem } from './journal';
import { AlarmDefinition, AlarmRecord, AlarmView, byPriority, recordOf, viewOf } from './alarm-record';

export type RecordListener = (record: AlarmRecord) => void;

export interface SystemOptions {
  file: string;
  later?: Later;
  now?: () => number;
  /** The journal's bounds (a test's small ones). */
  journal?: ConstructorParameters<typeof Journal>[0]['bounds'];
}

/** The outcome of a command: the records it made, or why nothing changed. */
export interface CommandOutcome {
  readonly records: readonly AlarmRecord[];
  readonly refusal?: Phrase;
}

export class AlarmSystem {
  readonly journal: Journal<AlarmRecord, Alarm>;
  readonly health: AlarmHealth;
  private readonly defs = new Map<string, AlarmDefinition>();
  private readonly alarms = new Map<string, Alarm>();
  private readonly timers = new Map<string, () => void>();
  private readonly listeners = new Set<RecordListener>();
  /** Listeners of some alarms only (a device-alarm node hears its own): a transition is told to its alarm's, not to a thousand nodes that would each ask whether it is theirs. */
  private readonly byAlarm = new Map<string, Set<RecordListener>>();
  private readonly problemListeners = new Set<(problem: JournalProblem | undefined) => void>();
  private readonly later: Later;
  readonly now: () => number;

  constructor(options: SystemOptions) {
    this.later = options.later ?? realLater;
    this.now = options.now ?? Date.now;
    this.health = new AlarmHealth(this.now());
    this.journal = new Journal<AlarmRecord, Alarm>({
      file: options.file,
      later: this.later,
      ...(options.journal ? { bounds: options.journal } : {}),
      onProblem: (problem) => this.tellProblem(problem),
      onRecovered: () => this.tellProblem(undefined),
    });
  }

  /**
   * Defines an alarm (a node starting). Its state is the journal's when it has one, else
   * normal. Refused when the id or priority is out of bounds or another node defines the id.
   */
  define(def: AlarmDefinition): Alarm | Phrase {
    const held = this.defs.get(def.id);
    if (held && held.owner !== def.owner) return phrase('alarm.idTaken', { id: def.id });
    const priority = check('alarm_priority', def.priority, 'priority');
    if (priority !== true) return priority;
    const kept = this.alarms.get(def.id) ?? readAlarm(this.journal.state(def.id));
    const alarm = kept ?? createAlarm(def.id, this.now());
    if (isPhrase(alarm)) return alarm;
    this.defs.set(def.id, def);
    this.alarms.set(def.id, alarm);
    if (!kept) this.journal.setState(def.id, alarm);
    this.schedule(alarm);
    return alarm;
  }

  /** A node closed: its alarms leave the lists; `removed` (the node deleted) forgets their states too. */
  release(owner: string, removed: boolean): void {
    for (const [id, def] of this.defs) {
      if (def.owner !== owner) continue;
      this.defs.delete(id);
      this.timers.get(id)?.();
      this.timers.delete(id);
      if (removed) {
        this.alarms.delete(id);
        this.journal.deleteState(id);
        this.health.forget(id);
      }
    }
  }

  /** An event for one alarm: its transitions journalled and told; a refusal changes nothing. */
  apply(id: string, event: AlarmEvent): Step & { records: AlarmRecord[] } {
    const def = this.defs.get(id);
    const alarm = this.alarms.get(id);
    if (!def || !alarm) return { alarm: alarm as Alarm, transitions: [], records: [], refusal: phrase('alarm.unknown', { id: String(id).slice(0, 64) }) };
    const result = step(alarm, event, this.now());
    const records: AlarmRecord[] = [];
    if (result.alarm !== alarm) {
      this.alarms.set(id, result.alarm);
      this.journal.setState(id, result.alarm);
      this.schedule(result.alarm);
    }
    for (const t of result.transitions) {
      const record = recordOf(t, def);
      records.push(record);
      this.journal.append(record);
      this.health.record(t);
    }
    for (const record of records) this.tell(record);
    return { ...result, records };
  }

  /** An operator's command (already read: pure/alarm-command.ts). */
  command(cmd: AlarmCommand): CommandOutcome {
    if (cmd.action === 'list') return { records: [] };
    const act = { ...(cmd.user !== undefined ? { user: cmd.user } : {}), ...(cmd.comment !== undefined ? { comment: cmd.comment } : {}) };
    if (cmd.action === 'acknowledge-all') {
      const records: AlarmRecord[] = [];
      for (const view of this.list()) {
        if (view.shown !== 'active-unack' && view.shown !== 'rtn-unack') continue;
        if (cmd.device !== undefined && view.where.config !== cmd.device && view.where.device !== cmd.device) continue;
        if (cmd.area !== undefined && view.area !== cmd.area) continue;
        records.push(...this.apply(view.id, { type: 'acknowledge', ...act }).records);
      }
      return { records };
    }
    const event: AlarmEvent = cmd.action === 'shelve' ? { type: 'shelve', duration: cmd.duration, ...act } : { type: cmd.action, ...act };
    const result = this.apply(cmd.alarm, event);
    return result.refusal ? { records: [], refusal: result.refusal } : { records: result.records };
  }

  /** The alarm of an id, if defined. */
  get(id: string): AlarmView | undefined {
    const def = this.defs.get(id);
    const alarm = this.alarms.get(id);
    return def && alarm ? viewOf(alarm, def) : undefined;
  }

  /** Every defined alarm, in the operator's order (priority, newest first). */
  list(): AlarmView[] {
    const out: AlarmView[] = [];
    for (const [id, def] of this.defs) out.push(viewOf(this.alarms.get(id) as Alarm, def));
    return out.sort(byPriority);
  }

  /** The journal's newest entries, newest first (only those parsed: a list is sent after every burst). */
  recent(count: number): AlarmRecord[] {
    return this.journal.newest(count);
  }

  report(): HealthReport {
    return this.health.report(this.now());
  }

  /** Hears every record; returns the stop. A listener that throws does not stop the others. */
  subscribe(listener: RecordListener, alarms?: Iterable<string>): () => void {
    if (!alarms) {
      this.listeners.add(listener);
      return () => this.listeners.delete(listener);
    }
    const ids = [...alarms];
    for (const id of ids) {
      let set = this.byAlarm.get(id);
      if (!set) this.byAlarm.set(id, (set = new Set()));
      set.add(listener);
    }
    return () => {
      for (const id of ids) {
        const set = this.byAlarm.get(id);
        set?.delete(listener);
        if (set?.size === 0) this.byAlarm.delete(id);
      }
    };
  }

  /** Hears the journal's problem (undefined: it went); called at once with the one standing. */
  watchJournal(listener: (problem: JournalProblem | undefined) => void): () => void {
    this.problemListeners.add(listener);
    if (this.journal.problem) listener(this.journal.problem);
    return () => this.problemListeners.delete(listener);
  }

  private tell(record: AlarmRecord): void {
    const own = this.byAlarm.get(record.alarm);
    for (const to of own ? [own, this.listeners] : [this.listeners]) {
      for (const listener of to) {
        try {
          listener(record);
        } catch {
          // A listener's failure is its own (a node sends; it reports its own errors).
        }
      }
    }
  }

  private tellProblem(problem: JournalProblem | undefined): void {
    for (const listener of this.problemListeners) listener(problem);
  }

  /** One timer per shelved alarm, at its end (a clock time: after a restart it ends when it should, at once if past). */
  private schedule(alarm: Alarm): void {
    this.timers.get(alarm.id)?.();
    this.timers.delete(alarm.id);
    const deadline = deadlineOf(alarm);
    if (deadline === undefined || !this.defs.has(alarm.id)) return;
    const cancel = this.later(
      () => {
        this.timers.delete(alarm.id);
        this.apply(alarm.id, { type: 'tick' });
      },
      Math.max(0, deadline - this.now()),
    );
    this.timers.set(alarm.id, cancel);
  }
}

/** The systems of this process, by journal file: one Journal per file. */
const systems = new Map<string, AlarmSystem>();

/** The alarm system whose journal is `file`, made on first use and kept for the process. */
export function alarmSystem(file: string, options: Omit<SystemOptions, 'file'> = {}): AlarmSystem {
  let system = systems.get(file);
  if (!system) systems.set(file, (system = new AlarmSystem({ file, ...options })));
  return system;
}

/** Every system of this process (metrics, fleet). */
export function alarmSystems(): AlarmSystem[] {
  return [...systems.values()];
}
