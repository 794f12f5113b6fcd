/**
 * A scenario's alarm steps: what an operator does (acknowledge, shelve, unshelve,
 * acknowledgeAll, removeFromService, returnToService, each with user and comment) and
 * `expectAlarm` (an alarm's state, waited for like a msg). A step's fields are a command as
 * device-alarm-list takes it, checked by the same readCommand before anything starts, so a
 * bad step reads as a refused msg does, at its place (steps[2].shelve.duration).
 */
import { check } from '../nodes/lib/pure/limits';
import { ALARM_STATES, AlarmState } from '../nodes/lib/pure/alarm-model';
import { readCommand } from '../nodes/lib/pure/alarm-command';
import { isPhrase, Phrase } from '../nodes/lib/pure/phrase';
import { DEFAULT_SHELVE_MS, whyNotState } from './alarms';
import { Checker } from './checker';
import { show } from './errors';
import type { FlowTest } from './kit';
import { english } from './words';

export type AlarmAction =
  { kind: 'alarm'; step: OperatorStep; command: Record<string, unknown> } | { kind: 'expectAlarm'; alarm: string; state: AlarmState; within: number };

/** Each operator step, with the command action it is and the fields it takes. */
const OPERATOR = {
  acknowledge: { action: 'acknowledge', fields: ['alarm', 'user', 'comment'] },
  shelve: { action: 'shelve', fields: ['alarm', 'duration', 'user', 'comment'] },
  unshelve: { action: 'unshelve', fields: ['alarm', 'user', 'comment'] },
  acknowledgeAll: { action: 'acknowledge-all', fields: ['device', 'area', 'user', 'comment'] },
  removeFromService: { action: 'remove-from-service', fields: ['alarm', 'user', 'comment'] },
  returnToService: { action: 'return-to-service', fields: ['alarm', 'user', 'comment'] },
} as const;
export type OperatorStep = keyof typeof OPERATOR;
export const ALARM_STEPS: readonly string[] = [...Object.keys(OPERATOR), 'expectAlarm'];

/** The field a refusal names when it is one of the step's (its place), else none. */
function fieldOf(refusal: Phrase, fields: readonly string[]): string {
  const field = refusal.values?.field;
  return typeof field === 'string' && fields.includes(field) ? `.${field}` : '';
}

/** Reads an alarm step (key one of ALARM_STEPS); mistakes go to the checker with their place. */
export function parseAlarmStep(c: Checker, key: string, value: any, at: string, within: { byDefault: number; max: number }): AlarmAction {
  if (key === 'expectAlarm') {
    const b = c.object(value, at, ['alarm', 'state', 'within']);
    const id = check('alarm_id', b.alarm, 'alarm');
    if (id !== true) c.note(`${at}.alarm`, english(id));
    return {
      kind: 'expectAlarm',
      alarm: b.alarm,
      state: c.oneOf(b.state, `${at}.state`, ALARM_STATES) as AlarmState,
      within: b.within === undefined ? within.byDefault : c.time(b.within, `${at}.within`, within.max),
    };
  }
  const step = key as OperatorStep;
  const { action, fields } = OPERATOR[step];
  // acknowledgeAll: true acknowledges every alarm (no device, no area).
  const b = step === 'acknowledgeAll' && value === true ? {} : c.object(value, at, fields);
  const command: Record<string, unknown> = { action };
  for (const field of fields) if (b[field] !== undefined) command[field] = b[field];
  if (b.duration !== undefined) {
    // A time as the other steps write it ("10 s"); its bounds are the command's own.
    command.duration = Checker.ms(b.duration);
    if (command.duration === undefined) c.note(`${at}.duration`, `must be a time (a number of ms, or "10 s", "500 ms"), got ${show(b.duration, 60)}`);
  }
  const read = readCommand(command, DEFAULT_SHELVE_MS);
  const unreadTime = b.duration !== undefined && command.duration === undefined; // said above
  if (isPhrase(read) && !unreadTime) c.note(`${at}${fieldOf(read, fields)}`, english(read));
  return { kind: 'alarm', step, command };
}

/** The step as the report says it. */
export function describeAlarmStep(a: AlarmAction): string {
  if (a.kind === 'expectAlarm') return `alarm ${a.alarm} is ${a.state} within ${a.within} ms`;
  const c = a.command;
  const what =
    a.step === 'acknowledgeAll'
      ? `acknowledge all alarms${c.device ? ` of device ${show(c.device)}` : ''}${c.area ? ` in area ${show(c.area)}` : ''}`
      : `${OPERATOR[a.step].action.replace(/-/g, ' ')} alarm ${c.alarm}${c.duration !== undefined ? ` for ${c.duration} ms` : ''}`;
  const who = [c.user !== undefined ? `by ${show(c.user)}` : '', c.comment !== undefined ? `comment ${show(c.comment, 80)}` : ''].filter(Boolean);
  return who.length ? `${what} (${who.join(', ')})` : what;
}

/** Waits until the alarm shows the state; a failure sentence, or undefined when it held. */
export async function checkAlarm(a: AlarmAction & { kind: 'expectAlarm' }, t: FlowTest, timeoutMs: number): Promise<string | undefined> {
  let last: Awaited<ReturnType<FlowTest['alarms']['get']>>;
  try {
    await t.until(async () => (last = await t.alarms.get(a.alarm))?.shown === a.state, { timeoutMs });
    return undefined;
  } catch {
    return `not in ${a.within} ms: ${whyNotState(a.alarm, last)}`;
  }
}
