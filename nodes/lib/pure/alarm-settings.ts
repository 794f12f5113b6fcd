/**
 * A device-alarm node's settings: what its dialog stores (text), read and checked the same
 * way in the editor and the runtime (each refusal names the field as the dialog labels it),
 * and the alarms they define: one per limit of a value, per pin and flag of notifications,
 * per health kind, each with an id derived from the node's own (`<id>.hi`,
 * `<id>.p3.high_current_alert`, `<id>.unreachable`).
 */
import { check, labelled, parseInteger, parseNumber } from './limits';
import { describe } from './checks';
import { phrase, Phrase } from './phrase';
import { checkDelays, checkLimits, LimitSet } from './alarm-condition';
import { ALERT_FLAGS, AlertFlag, PINS } from './facts';

export const TYPE = 'device-alarm';
export const ALARM_SOURCES = ['condition', 'notification', 'health'] as const;
export type AlarmSource = (typeof ALARM_SOURCES)[number];
/**
 * The device's health as alarms: unreachable (a condition: while the module cannot be
 * reached), and events that raise an alarm cleared after `clearAfter`: a reset noticed, the
 * service restarted, the watchdog's keep-alive late, notifications that may be lost.
 */
export const HEALTH_ALARMS = ['unreachable', 'reset', 'restarted', 'watchdog', 'notifications-lost'] as const;
export type HealthAlarm = (typeof HEALTH_ALARMS)[number];
export const LIMIT_NAMES = ['hihi', 'hi', 'lo', 'lolo'] as const;
export type LimitName = (typeof LIMIT_NAMES)[number];

export interface AlarmSettings {
  readonly id: string;
  readonly priority: number;
  readonly message: string;
  readonly area: string;
  readonly source: AlarmSource;
  /** The msg property a condition is read from (condition source). */
  readonly property: string;
  readonly limits: LimitSet;
  readonly pins: readonly number[];
  readonly flags: readonly AlertFlag[];
  readonly kinds: readonly HealthAlarm[];
  readonly onDelay: number;
  readonly offDelay: number;
  /** Event sources (notifications, health events): the condition clears when no new event came for this long. */
  readonly clearAfter: number;
}

/** One alarm the settings define, and what it watches. */
export interface DefinedAlarm {
  readonly id: string;
  readonly limit?: LimitName;
  readonly pin?: number;
  readonly flag?: AlertFlag;
  readonly kind?: HealthAlarm;
}

const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : typeof v === 'string' && v.trim() ? v.split(',').map((s) => s.trim()) : []);

/** Reads and checks the settings as stored (`def`); `fallbackId` is the node's own id, made safe. */
export function readAlarmSettings(def: Record<string, unknown>, fallbackId: string): AlarmSettings | Phrase {
  const id = text(def.alarmId) || fallbackId.replace(/[^A-Za-z0-9_.:-]/g, '_').slice(0, 40);
  const idOk = check('alarm_id', id, labelled(TYPE, 'alarmId'));
  if (idOk !== true) return idOk;
  // Room for the longest suffix (".p6.custom_voltage_alert", 24 characters) within alarm_id's 64.
  if (id.length > 40) return phrase('alarm.tooLong', { field: labelled(TYPE, 'alarmId'), max: 40, got: describe(id) });
  const priority = text(def.priority) === '' ? 3 : parseInteger(text(def.priority));
  const pOk = check('alarm_priority', priority, labelled(TYPE, 'priority'));
  if (pOk !== true) return pOk;
  const message = text(def.message);
  const mOk = check('alarm_comment', message, labelled(TYPE, 'message'));
  if (mOk !== true) return mOk;
  const area = text(def.area);
  if (area.length > 64) return phrase('alarm.tooLong', { field: labelled(TYPE, 'area'), max: 64, got: describe(area) });
  const source = (text(def.source) || 'condition') as AlarmSource;
  if (!ALARM_SOURCES.includes(source)) return phrase('alarm.badSource', { field: labelled(TYPE, 'source'), sources: ALARM_SOURCES.join(', '), got: describe(def.source) });
  const delays: Record<string, number> = {};
  for (const name of ['onDelay', 'offDelay', 'clearAfter'] as const) {
    const value = text(def[name]) === '' ? (name === 'clearAfter' ? 5000 : 0) : parseInteger(text(def[name]));
    const ok = check('alarm_delay', value, labelled(TYPE, name));
    if (ok !== true) return ok;
    delays[name] = value as number;
  }
  const limits: Record<string, number> = {};
  for (const name of [...LIMIT_NAMES, 'deadband'] as const) {
    if (text(def[name]) === '') continue;
    const value = parseNumber(text(def[name]));
    const ok = check(name === 'deadband' ? 'alarm_deadband' : 'alarm_limit', value, labelled(TYPE, name));
    if (ok !== true) return ok;
    limits[name] = value as number;
  }
  if (LIMIT_NAMES.some((n) => limits[n] !== undefined)) {
    const ok = checkLimits(limits);
    if (ok !== true) return ok;
  }
  const dOk = checkDelays(delays);
  if (dOk !== true) return dOk;
  const pins = list(def.pins).map((p) => parseInteger(text(p)));
  for (const pin of pins) {
    const ok = check('pin', pin, labelled(TYPE, 'pins'));
    if (ok !== true) return ok;
  }
  const flags = list(def.flags);
  for (const flag of flags) if (!(ALERT_FLAGS as readonly unknown[]).includes(flag)) return phrase('alarm.badList', { field: labelled(TYPE, 'flags'), allowed: ALERT_FLAGS.join(', '), got: describe(flag) });
  const kinds = list(def.kinds);
  for (const kind of kinds) if (!(HEALTH_ALARMS as readonly unknown[]).includes(kind)) return phrase('alarm.badList', { field: labelled(TYPE, 'kinds'), allowed: HEALTH_ALARMS.join(', '), got: describe(kind) });
  return {
    id,
    priority: priority as number,
    message,
    area,
    source,
    property: text(def.property) || 'payload',
    limits,
    pins: pins.length ? [...new Set(pins as number[])].sort() : PINS,
    // Each listed once: a flag listed twice would define its alarm twice (counted twice in the status).
    flags: flags.length ? [...new Set(flags as AlertFlag[])] : ALERT_FLAGS,
    kinds: kinds.length ? [...new Set(kinds as HealthAlarm[])] : HEALTH_ALARMS,
    onDelay: delays.onDelay,
    offDelay: delays.offDelay,
    clearAfter: delays.clearAfter,
  };
}

/** The alarms the settings define: one for a boolean condition, one per limit given, per pin and flag, per health kind. */
export function definedAlarms(s: AlarmSettings): DefinedAlarm[] {
  if (s.source === 'notification') return s.pins.flatMap((pin) => s.flags.map((flag) => ({ id: `${s.id}.p${pin}.${flag}`, pin, flag })));
  if (s.source === 'health') return s.kinds.map((kind) => ({ id: `${s.id}.${kind}`, kind }));
  const given = LIMIT_NAMES.filter((name) => s.limits[name] !== undefined);
  return given.length ? given.map((limit) => ({ id: `${s.id}.${limit}`, limit })) : [{ id: s.id }];
}
