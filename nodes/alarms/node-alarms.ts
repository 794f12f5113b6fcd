/**
 * A device-alarm node's alarms at run time: defined in the alarm system from the node's
 * settings, fed by what the node hears (a msg's condition, notification-poll's alerts, the
 * module's health and connection), suppressed while the module cannot tell (never raised or
 * cleared by a guess), and their transitions sent, one msg each, whoever caused them (an
 * operator's acknowledge from the Dashboard too).
 */
import { Later } from '../lib/base/clock';
import { nodeText } from '../lib/base/i18n';
import { levelOf, Level, limitActive } from '../lib/pure/alarm-condition';
import { AlarmSettings, DefinedAlarm, definedAlarms, HealthAlarm } from '../lib/pure/alarm-settings';
import { isPhrase, Phrase, phrase } from '../lib/pure/phrase';
import type { AlertFlag } from '../lib/pure/facts';
import { CONNECTION_STATES, ConnectionState, ConnectionStateName } from '../lib/config-node/connection-state';
import type { HealthEvent, HealthKind } from '../lib/config-node/health';
import { AlarmFeed } from './alarm-feed';
import type { AlarmWhere } from './alarm-record';
import type { AlarmSystem } from './alarm-system';

/**
 * Connection states in which the module's word is unknown: its alarms are suppressed (the
 * unreachable alarm is raised instead). Every state but these two, from the states' own
 * list: a state added later cannot tell either until someone says otherwise here.
 */
const CAN_TELL: readonly ConnectionStateName[] = ['connecting', 'connected'];
const CANNOT_TELL: ReadonlySet<string> = new Set(CONNECTION_STATES.filter((s) => !CAN_TELL.includes(s)));

/** The health bus's kinds that raise a health alarm, by the alarm's kind. */
const EVENT_KINDS: Partial<Record<HealthKind, HealthAlarm>> = { reset: 'reset', 'keepalive-late': 'watchdog', 'notifications-lost': 'notifications-lost' };

/** Alarms raised by events and held for clearAfter (notifications, health events); the others follow an input. */
const eventFed = (a: DefinedAlarm): boolean => a.flag !== undefined || (a.kind !== undefined && a.kind !== 'unreachable');

export class NodeAlarms {
  readonly alarms: DefinedAlarm[];
  private readonly feed: AlarmFeed;
  private level: Level = 'normal';

  constructor(
    private readonly system: AlarmSystem,
    private readonly owner: string,
    private readonly s: AlarmSettings,
    private readonly where: AlarmWhere,
    later?: Later,
  ) {
    this.alarms = definedAlarms(s);
    this.feed = new AlarmFeed(system, { onDelay: s.onDelay, offDelay: s.offDelay }, s.clearAfter, later);
  }

  /** Defines the alarms (their journalled states taken up); the first refusal (an id another node holds) stops it. */
  define(): Phrase | undefined {
    for (const alarm of this.alarms) {
      const where: AlarmWhere = {
        ...this.where,
        ...(alarm.pin ? { pin: alarm.pin } : {}),
        ...(alarm.flag ? { flag: alarm.flag } : alarm.kind ? { flag: alarm.kind } : {}),
      };
      const defined = this.system.define({
        id: alarm.id,
        priority: this.s.priority,
        message: this.messageOf(alarm),
        ...(this.s.area ? { area: this.s.area } : {}),
        where,
        owner: this.owner,
      });
      if (isPhrase(defined)) {
        this.system.release(this.owner, false);
        return defined;
      }
    }
    // A kept active event alarm clears when no event comes for clearAfter from now (a redeploy, a restart).
    for (const a of this.alarms) this.feed.resync(a.id, eventFed(a));
    return undefined;
  }

  /** A msg's condition (condition source): a boolean, or a number against the limits. */
  condition(value: unknown): Phrase | undefined {
    const limits = this.alarms.filter((a) => a.limit);
    if (typeof value === 'boolean' && !limits.length) return void this.feed.input(this.s.id, value, value);
    if (typeof value === 'number' && Number.isFinite(value) && limits.length) {
      this.level = levelOf(value, this.s.limits, this.level);
      for (const a of limits) this.feed.input(a.id, limitActive(this.level, a.limit as Exclude<Level, 'normal'>), value);
      return undefined;
    }
    const said = { property: `msg.${this.s.property}`, got: typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : String(value) };
    return limits.length ? phrase('alarm.needNumber', said) : phrase('alarm.needBoolean', said);
  }

  /** A notification-poll msg: one record per pin (topic pin/N) or a list (combined). */
  notification(payload: unknown): boolean {
    const records = Array.isArray(payload) ? payload : [payload];
    let matched = false;
    for (const record of records.slice(0, 6)) {
      if (typeof record !== 'object' || record === null) continue;
      const r = record as Record<string, unknown>;
      for (const a of this.alarms) {
        if (a.pin !== r.pin || r[a.flag as AlertFlag] !== true) continue;
        this.feed.event(a.id, true);
        matched = true;
      }
    }
    return matched;
  }

  /**
   * The module's connection: suppress while it cannot tell, raise or clear the unreachable
   * alarm. Idempotent per state (a kept state may be suppressed whatever this node saw);
   * once the module can tell again, the feed and the model agree again before a restart's
   * event is raised (so that event is not dropped as stale).
   */
  connection(state: ConnectionState): void {
    if (state.state === 'connecting') return;
    const down = CANNOT_TELL.has(state.state);
    for (const a of this.alarms) if (a.kind === 'unreachable') this.feed.input(a.id, down, null);
    for (const a of this.alarms) {
      if (a.kind === 'unreachable') continue;
      this.system.apply(a.id, { type: down ? 'suppress' : 'unsuppress' });
      if (!down) this.feed.resync(a.id, eventFed(a));
    }
    if (state.state === 'connected' && state.restarted) this.healthEvent('restarted');
  }

  /** A health event of the module (reset, keep-alive late, notifications lost). */
  health(event: HealthEvent): void {
    const kind = EVENT_KINDS[event.kind];
    if (kind) this.healthEvent(kind);
  }

  private healthEvent(kind: HealthAlarm): void {
    for (const a of this.alarms) if (a.kind === kind) this.feed.event(a.id, true);
  }

  /** The status: the most urgent state of the node's alarms, and how many are in it. */
  status(): { fill: 'red' | 'yellow' | 'green' | 'grey'; shape: 'dot' | 'ring'; text: string } {
    const views = this.alarms.map((a) => this.system.get(a.id)).filter((v) => v !== undefined);
    const count = (state: string) => views.filter((v) => v.shown === state).length;
    const word = (state: string, n: number) => nodeText('device-alarm', `runtime.state.${state}`, { count: n });
    for (const [state, fill, shape] of [
      ['active-unack', 'red', 'dot'],
      ['rtn-unack', 'yellow', 'ring'],
      ['active-ack', 'yellow', 'dot'],
      ['suppressed', 'grey', 'ring'],
      ['shelved', 'grey', 'dot'],
      ['out-of-service', 'grey', 'ring'],
    ] as const) {
      const n = count(state);
      if (n) return { fill, shape, text: word(state, n) };
    }
    return { fill: 'green', shape: 'dot', text: word('normal', views.length) };
  }

  close(removed: boolean): void {
    this.feed.close();
    this.system.release(this.owner, removed);
  }

  /** The user's message, or the runtime's words for what the alarm watches; with several alarms, what each one watches after it. */
  private messageOf(alarm: DefinedAlarm): string {
    const detail = alarm.flag
      ? nodeText('device-alarm', 'message.flag', { pin: alarm.pin, flag: nodeText('device-alarm', `flag.${alarm.flag}`) })
      : alarm.kind
        ? nodeText('device-alarm', `kind.${alarm.kind}`)
        : alarm.limit
          ? nodeText('device-alarm', 'message.limit', {
              limit: alarm.limit === 'hihi' ? 'HiHi' : alarm.limit === 'lolo' ? 'LoLo' : alarm.limit === 'hi' ? 'Hi' : 'Lo',
              value: this.s.limits[alarm.limit],
            })
          : '';
    if (!this.s.message) return detail || nodeText('device-alarm', 'message.condition', { property: `msg.${this.s.property}` });
    return detail ? `${this.s.message}: ${detail}` : this.s.message;
  }
}
