/**
 * One alarm as ISA-18.2 / IEC 62682 define its life, as a pure transition function:
 * `step(alarm, event, now)` gives the alarm after the event and the transitions it made, or
 * a refusal that changed nothing. No clock, no timer, no I/O: the runtime node, the journal
 * and the editor all read the same states, and a test drives time by hand.
 *
 * The process states (ISA-18.2's state diagram, A to D):
 *   normal ──condition──▶ active-unack ──acknowledge──▶ active-ack
 *     ▲                      │ condition clears            │ condition clears
 *     │                      ▼                             ▼
 *     └──acknowledge── rtn-unack ──condition again──▶ active-unack     (active-ack ─▶ normal)
 * and the states that take an alarm out of annunciation (E to G), kept as overlays so the
 * process state underneath is not lost:
 *  - shelved: by an operator, for a bounded time; unshelved by time (a tick) or by hand. The
 *    condition is still followed; when the shelf ends the alarm goes to normal or to
 *    active-unack as the condition is then (ISA-18.2: shelved returns to A or B).
 *  - suppressed by design: the module is unreachable or resetting, so nothing it says is
 *    known. The alarm is never raised or cleared by a guess: its state is frozen (stale)
 *    and conditions are ignored; unsuppressed, it shows its frozen state and follows the
 *    next condition the device reports.
 *  - out of service: removed for maintenance; returned to service like a shelf's end.
 * The state shown (`stateOf`) is the strongest overlay (out of service, suppressed, shelved)
 * or else the process state. A transition is recorded when the shown state changes, and
 * for every act of a person (who and why belong in the journal even when the state stays).
 */
import { check, LimitName } from './limits';
import { Check, describe } from './checks';
import { phrase, Phrase } from './phrase';

/** ISA-18.2's process states: normal (A), unacknowledged (B), acknowledged (C), returned to normal unacknowledged (D). */
export const PROCESS_STATES = ['normal', 'active-unack', 'active-ack', 'rtn-unack'] as const;
export type ProcessState = (typeof PROCESS_STATES)[number];
/** Every state an alarm shows: the process states and shelved (E), suppressed by design (F), out of service (G). */
export const ALARM_STATES = [...PROCESS_STATES, 'shelved', 'suppressed', 'out-of-service'] as const;
export type AlarmState = (typeof ALARM_STATES)[number];

/** What a condition carries besides active: the reading that raised or cleared it (null: none). Never text: a journal keeps it. */
export type AlarmValue = number | boolean | null;

/** One alarm's state: plain data, JSON as it is, so a journal can keep it across a restart. */
export interface Alarm {
  readonly id: string;
  readonly state: ProcessState;
  /** The condition as last reported (frozen while suppressed). */
  readonly active: boolean;
  readonly value: AlarmValue;
  /** When a shelve ends (ms since the epoch); absent when not shelved. */
  readonly shelvedUntil?: number;
  readonly suppressed: boolean;
  readonly outOfService: boolean;
  /** When the shown state last changed. */
  readonly since: number;
}

/** A person's act: who and why, both optional and bounded (alarm_user, alarm_comment). */
export interface Act {
  readonly user?: string;
  readonly comment?: string;
}

export type AlarmEvent =
  | { readonly type: 'condition'; readonly active: boolean; readonly value?: AlarmValue }
  | ({ readonly type: 'acknowledge' } & Act)
  | ({ readonly type: 'shelve'; readonly duration: number } & Act)
  | ({ readonly type: 'unshelve' } & Act)
  | ({ readonly type: 'remove-from-service' } & Act)
  | ({ readonly type: 'return-to-service' } & Act)
  | { readonly type: 'suppress' }
  | { readonly type: 'unsuppress' }
  | { readonly type: 'tick' };

export const EVENT_TYPES = [
  'condition',
  'acknowledge',
  'shelve',
  'unshelve',
  'remove-from-service',
  'return-to-service',
  'suppress',
  'unsuppress',
  'tick',
] as const;
export type EventType = AlarmEvent['type'];

/** Why a transition happened: the event, or a shelve's end by time. */
export type Cause = EventType | 'shelve-ended';

/** One transition: what the journal keeps and the node sends, one msg each. */
export interface Transition {
  readonly alarm: string;
  readonly from: AlarmState;
  readonly to: AlarmState;
  /** The condition's value, and whether it is active (the health's stale alarms read it). */
  readonly value: AlarmValue;
  readonly active: boolean;
  readonly time: number;
  readonly cause: Cause;
  readonly user?: string;
  readonly comment?: string;
}

/** After an event: the alarm (the same object when nothing changed), its transitions, or why it was refused. */
export interface Step {
  readonly alarm: Alarm;
  readonly transitions: readonly Transition[];
  readonly refusal?: Phrase;
  /** A condition not applied because the alarm is suppressed: the device's word is stale (a status may say so). */
  readonly stale?: true;
}

/** A new alarm in normal, or the refusal of its id (alarm_id). */
export function createAlarm(id: unknown, now: number): Alarm | Phrase {
  const ok = check('alarm_id', id, 'id');
  if (ok !== true) return ok;
  return { id: id as string, state: 'normal', active: false, value: null, suppressed: false, outOfService: false, since: now };
}

/** The state the alarm shows: its strongest overlay, or its process state. */
export function stateOf(alarm: Alarm): AlarmState {
  if (alarm.outOfService) return 'out-of-service';
  if (alarm.suppressed) return 'suppressed';
  if (alarm.shelvedUntil !== undefined) return 'shelved';
  return alarm.state;
}

/** Whether the operator is shown the alarm and must act (ISA-18.2: annunciated): active-unack, active-ack, rtn-unack. */
export function isAnnunciated(alarm: Alarm): boolean {
  const shown = stateOf(alarm);
  return shown === 'active-unack' || shown === 'active-ack' || shown === 'rtn-unack';
}

/** When the caller must send a tick: a shelve's end, or nothing to wait for. */
export function deadlineOf(alarm: Alarm): number | undefined {
  return alarm.shelvedUntil;
}

/** Where a condition takes a process state (ISA-18.2 A-D): raised to unack, cleared to normal or rtn-unack. */
function follow(state: ProcessState, active: boolean): ProcessState {
  if (active) return state === 'normal' || state === 'rtn-unack' ? 'active-unack' : state;
  if (state === 'active-unack') return 'rtn-unack';
  return state === 'active-ack' ? 'normal' : state;
}

/** Where a shelf's or out-of-service's end takes the alarm: as the condition is now (ISA-18.2: to A or B). */
const afresh = (alarm: Alarm): ProcessState => (alarm.active ? 'active-unack' : 'normal');

/** Checks one field of a person's act against its bound. */
function actCheck(event: Act): Check {
  for (const [name, field] of [
    ['alarm_user', 'user'],
    ['alarm_comment', 'comment'],
  ] as Array<[LimitName, keyof Act]>) {
    if (event[field] !== undefined) {
      const ok = check(name, event[field], field);
      if (ok !== true) return ok;
    }
  }
  return true;
}

/** The acts of a person: each is journalled with who and why, even where the state shown stays (a shelve renewed). */
const PERSONAL: readonly Cause[] = ['acknowledge', 'shelve', 'unshelve', 'remove-from-service', 'return-to-service'];

/** A condition's value as the model keeps it: a finite number, a boolean, or null. */
function isValue(v: unknown): v is AlarmValue {
  return v === null || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
}

const refuse = (alarm: Alarm, refusal: Phrase): Step => ({ alarm, transitions: [], refusal });
/** "<what> refused: the alarm <id> is <state>": an act that does not apply to the state shown. */
const notNow = (alarm: Alarm, what: string): Step =>
  refuse(alarm, phrase('alarm.notNow', { what: phrase(`alarm.event.${what}`), id: alarm.id, state: phrase(`alarm.state.${stateOf(alarm)}`) }));

/** The event's fields: known type, a boolean `active`, a value of the allowed kinds, a person's act in bounds. */
function checkEvent(event: AlarmEvent, now: unknown): Check {
  if (typeof now !== 'number' || !Number.isFinite(now)) return phrase('alarm.badTime', { got: describe(now) });
  if (typeof event !== 'object' || event === null || !(EVENT_TYPES as readonly unknown[]).includes(event.type)) {
    const got = typeof event === 'object' && event !== null ? describe(event.type) : describe(event);
    return phrase('alarm.badEvent', { types: EVENT_TYPES.join(', '), got });
  }
  if (event.type === 'condition') {
    if (typeof event.active !== 'boolean') return phrase('alarm.badActive', { got: describe(event.active) });
    const v = event.value;
    return v === undefined || isValue(v) ? true : phrase('alarm.badValue', { got: describe(v) });
  }
  if (event.type === 'shelve') {
    const ok = check('shelve_duration', event.duration, 'duration');
    if (ok !== true) return ok;
  }
  return PERSONAL.includes(event.type) ? actCheck(event as Act) : true;
}

/**
 * The alarm after `event` at `now` (ms since the epoch). A refusal (a field out of its
 * bounds, an act that does not apply to the state shown) returns the alarm unchanged and
 * no transition.
 */
export function step(alarm: Alarm, event: AlarmEvent, now: number): Step {
  const bad = checkEvent(event, now);
  if (bad !== true) return refuse(alarm, bad);
  const shown = stateOf(alarm);
  const act: Act = PERSONAL.includes(event.type) ? (event as Act) : {};
  let next: Alarm = alarm;
  let cause: Cause = event.type;
  switch (event.type) {
    case 'condition': {
      // Suppressed by design: what arrives now is no news of the device (never raised or cleared by a guess).
      if (alarm.suppressed) return { alarm, transitions: [], stale: true };
      const value = event.value === undefined ? null : event.value;
      // Shelved or out of service, the condition is followed underneath and decides the state at their end.
      const state = alarm.shelvedUntil !== undefined || alarm.outOfService ? alarm.state : follow(alarm.state, event.active);
      next = { ...alarm, active: event.active, value, state };
      break;
    }
    case 'acknowledge':
      // Only an annunciated alarm that waits for it: active-unack (B → C) or rtn-unack (D → A).
      if (shown !== 'active-unack' && shown !== 'rtn-unack') return notNow(alarm, 'acknowledge');
      next = { ...alarm, state: shown === 'active-unack' ? 'active-ack' : 'normal' };
      break;
    case 'shelve':
      // Suppressed or out of service, the alarm is already out of annunciation: a shelf would hide its end.
      if (alarm.suppressed || alarm.outOfService) return notNow(alarm, 'shelve');
      next = { ...alarm, shelvedUntil: now + event.duration };
      break;
    case 'unshelve':
      if (alarm.shelvedUntil === undefined) return notNow(alarm, 'unshelve');
      next = unshelved(alarm);
      break;
    case 'remove-from-service':
      if (alarm.outOfService) return notNow(alarm, 'remove-from-service');
      // Out of service supersedes a shelf: maintenance ends it by hand, not by a forgotten timer.
      next = { ...alarm, outOfService: true, shelvedUntil: undefined };
      break;
    case 'return-to-service':
      if (!alarm.outOfService) return notNow(alarm, 'return-to-service');
      next = { ...alarm, outOfService: false, state: afresh(alarm) };
      break;
    case 'suppress':
      if (alarm.suppressed) return { alarm, transitions: [] };
      next = { ...alarm, suppressed: true };
      break;
    case 'unsuppress':
      // The frozen state shows again; the device's next condition moves it (no guess now).
      if (!alarm.suppressed) return { alarm, transitions: [] };
      next = { ...alarm, suppressed: false };
      break;
    case 'tick':
      if (alarm.shelvedUntil === undefined || now < alarm.shelvedUntil) return { alarm, transitions: [] };
      next = unshelved(alarm);
      cause = 'shelve-ended';
      break;
  }
  if (next.shelvedUntil === undefined) next = withoutShelf(next);
  const to = stateOf(next);
  if (to === shown && !PERSONAL.includes(cause)) return { alarm: next, transitions: [] };
  if (to !== shown) next = { ...next, since: now };
  const who = { ...(act.user !== undefined ? { user: act.user } : {}), ...(act.comment !== undefined ? { comment: act.comment } : {}) };
  const transition: Transition = { alarm: alarm.id, from: shown, to, value: next.value, active: next.active, time: now, cause, ...who };
  return { alarm: next, transitions: [transition] };
}

/** A shelf ended (by time or by hand): the process state afresh from the condition, unless suppression froze it. */
function unshelved(alarm: Alarm): Alarm {
  return { ...alarm, shelvedUntil: undefined, state: alarm.suppressed ? alarm.state : afresh(alarm) };
}

/** The same alarm without an `undefined` shelvedUntil key, so a journal's JSON and a deep compare see one shape. */
function withoutShelf(alarm: Alarm): Alarm {
  if (alarm.shelvedUntil !== undefined || !('shelvedUntil' in alarm)) return alarm;
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { shelvedUntil, ...rest } = alarm;
  return rest;
}

/** An alarm read back from a journal: the shape checked field by field (a file is untrusted), else undefined. */
export function readAlarm(data: unknown): Alarm | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const a = data as Record<string, unknown>;
  if (check('alarm_id', a.id) !== true || !(PROCESS_STATES as readonly unknown[]).includes(a.state)) return undefined;
  if (typeof a.active !== 'boolean' || typeof a.suppressed !== 'boolean' || typeof a.outOfService !== 'boolean') return undefined;
  if (typeof a.since !== 'number' || !Number.isFinite(a.since)) return undefined;
  if (a.shelvedUntil !== undefined && (typeof a.shelvedUntil !== 'number' || !Number.isFinite(a.shelvedUntil))) return undefined;
  if (!isValue(a.value)) return undefined;
  // Only the fields of an alarm, so nothing else a file held travels on.
  const { id, state, active, value, suppressed, outOfService, since, shelvedUntil } = a as unknown as Alarm;
  return withoutShelf({ id, state, active, value, suppressed, outOfService, since, shelvedUntil });
}
