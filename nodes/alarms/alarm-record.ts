/**
 * What an alarm is beside its state, and what leaves the alarm system: the definition a node
 * gives (priority, message, area, where it is), a transition told with that definition (the
 * journal's entry and the msg a node sends), and an alarm as a list shows it.
 */
import type { Alarm, AlarmState, Transition } from '../lib/pure/alarm-model';
import { isAnnunciated, stateOf } from '../lib/pure/alarm-model';

/** Where an alarm is: the device, the module (service, slot), the pin and flag or health kind it watches. */
export interface AlarmWhere {
  /** The config node's id (acknowledge-all for one device names it, or `device`). */
  readonly config?: string;
  /** host[:port] of the device, or a name the flow gives: never credentials. */
  readonly device?: string;
  readonly service?: string;
  readonly slot?: number;
  readonly pin?: number;
  /** The alert flag (notification alarms) or the health kind (health alarms). */
  readonly flag?: string;
}

/** An alarm as its node defines it. */
export interface AlarmDefinition {
  readonly id: string;
  /** 1 (most urgent) to 4: alarm_priority. */
  readonly priority: number;
  /** What the operator reads, in the runtime's language or the user's own words. */
  readonly message: string;
  /** A plant area for acknowledge-all (free text; empty: none). */
  readonly area?: string;
  readonly where: AlarmWhere;
  /** The node that defines it: one alarm id, one node. */
  readonly owner: string;
}

/** A transition with its alarm's definition: one journal entry, one msg. */
export interface AlarmRecord extends Transition {
  readonly priority: number;
  readonly message: string;
  readonly area?: string;
  readonly where: AlarmWhere;
}

/** An alarm as a list shows it: its state, what it shows, and its definition. */
export interface AlarmView extends Alarm {
  readonly shown: AlarmState;
  readonly annunciated: boolean;
  readonly priority: number;
  readonly message: string;
  readonly area?: string;
  readonly where: AlarmWhere;
}

export function recordOf(t: Transition, def: AlarmDefinition): AlarmRecord {
  return { ...t, priority: def.priority, message: def.message, ...(def.area ? { area: def.area } : {}), where: def.where };
}

export function viewOf(alarm: Alarm, def: AlarmDefinition): AlarmView {
  // Field by field, not spread: a list of 1,000 alarms is made after every burst of
  // transitions, and spreading the alarm and a conditional object made it 20 times slower
  // (bench/alarms.js: 20 ms a list, the event loop's p99 far past 20 ms at 100 transitions/s).
  const view: { -readonly [K in keyof AlarmView]: AlarmView[K] } = {
    id: alarm.id,
    state: alarm.state,
    active: alarm.active,
    value: alarm.value,
    suppressed: alarm.suppressed,
    outOfService: alarm.outOfService,
    since: alarm.since,
    shown: stateOf(alarm),
    annunciated: isAnnunciated(alarm),
    priority: def.priority,
    message: def.message,
    where: def.where,
  };
  if (alarm.shelvedUntil !== undefined) view.shelvedUntil = alarm.shelvedUntil;
  if (def.area) view.area = def.area;
  return view;
}

/** An operator's list: priority first (1 is the most urgent), then the newest change first, then by id (a stable order). */
export function byPriority(a: AlarmView, b: AlarmView): number {
  return a.priority - b.priority || b.since - a.since || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
