/**
 * An operator's command to the alarms, from wherever it comes (a msg, the Dashboard's
 * buttons, the fleet's MQTT command topic, the kit): what it may say and how a bad one is
 * refused. The same words everywhere, so a refused dashboard click and a refused MQTT
 * command read alike.
 *
 *   {action: 'acknowledge' | 'shelve' | 'unshelve' | 'remove-from-service' | 'return-to-service',
 *    alarm: '<id>', duration?: ms (shelve), user?, comment?}
 *   {action: 'acknowledge-all', device?: '<config id or device name>', area?: '<area>', user?, comment?}
 *   {action: 'list'}
 */
import { check } from './limits';
import { Check, describe } from './checks';
import { phrase, Phrase } from './phrase';
import type { Act } from './alarm-model';
import type { Same } from './same-type';

export const ALARM_ACTIONS = ['acknowledge', 'shelve', 'unshelve', 'remove-from-service', 'return-to-service', 'acknowledge-all', 'list'] as const;
export type AlarmAction = (typeof ALARM_ACTIONS)[number];
/** The actions on one alarm. */
export type OneAlarmAction = Exclude<AlarmAction, 'acknowledge-all' | 'list'>;

export type AlarmCommand =
  | ({ readonly action: Exclude<OneAlarmAction, 'shelve'>; readonly alarm: string } & Act)
  | ({ readonly action: 'shelve'; readonly alarm: string; readonly duration: number } & Act)
  | ({ readonly action: 'acknowledge-all'; readonly device?: string; readonly area?: string } & Act)
  | { readonly action: 'list' };

/** The fields a command may carry: anything else is refused, so a typo is not silently ignored. */
const FIELD_LIST = ['action', 'alarm', 'duration', 'user', 'comment', 'device', 'area'] as const;
const FIELDS: ReadonlySet<string> = new Set(FIELD_LIST);
/** Fails to compile when AlarmCommand gains a field FIELD_LIST lacks (it would be refused), or the list one no command has. */
type FieldOf<T> = T extends unknown ? keyof T : never;
const EVERY_FIELD_LISTED: Same<FieldOf<AlarmCommand>, (typeof FIELD_LIST)[number]> = true;
void EVERY_FIELD_LISTED;

/** A filter's text (device, area): short text, as an id is. */
function filterCheck(value: unknown, field: string): Check {
  return typeof value === 'string' && value.length > 0 && value.length <= 200 ? true : phrase('alarm.badFilter', { field, got: describe(value) });
}

/**
 * Reads a command (untrusted: any JSON). Either the command, or a refusal naming the field,
 * the value and what is allowed. `defaultDuration` is the shelve's when none is given.
 */
export function readCommand(input: unknown, defaultDuration: number): AlarmCommand | Phrase {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return phrase('alarm.badCommand', { got: describe(input) });
  const c = input as Record<string, unknown>;
  for (const key of Object.keys(c)) if (!FIELDS.has(key)) return phrase('alarm.unknownField', { field: key.slice(0, 40), fields: [...FIELDS].join(', ') });
  if (!(ALARM_ACTIONS as readonly unknown[]).includes(c.action))
    return phrase('alarm.badAction', { actions: ALARM_ACTIONS.join(', '), got: describe(c.action) });
  const action = c.action as AlarmAction;
  if (action === 'list') return { action };
  const act: { user?: string; comment?: string } = {};
  for (const field of ['user', 'comment'] as const) {
    if (c[field] === undefined || c[field] === '') continue;
    const ok = check(field === 'user' ? 'alarm_user' : 'alarm_comment', c[field], field);
    if (ok !== true) return ok;
    act[field] = c[field] as string;
  }
  if (action === 'acknowledge-all') {
    const scope: { device?: string; area?: string } = {};
    for (const field of ['device', 'area'] as const) {
      if (c[field] === undefined) continue;
      const ok = filterCheck(c[field], field);
      if (ok !== true) return ok;
      scope[field] = c[field] as string;
    }
    return { action, ...scope, ...act };
  }
  const id = check('alarm_id', c.alarm, 'alarm');
  if (id !== true) return id;
  if (action !== 'shelve') return { action, alarm: c.alarm as string, ...act };
  const duration = c.duration ?? defaultDuration;
  const ok = check('shelve_duration', duration, 'duration');
  if (ok !== true) return ok;
  return { action, alarm: c.alarm as string, duration: duration as number, ...act };
}
