/**
 * Whether an alarm's condition holds: a number against Hi/HiHi/Lo/LoLo limits with a
 * deadband (hysteresis), or a boolean; and on-delay / off-delay against chattering. What
 * comes out is the `condition` event of alarm-model.ts.
 *
 * Pure: nothing here keeps time. A delay takes `now` and answers the deadline at which the
 * caller must call again (a tick), so the runtime schedules one timer and a test drives the
 * clock by hand. ISA-TR18.2.3 (basic alarm design) names both tools: a deadband keeps a
 * value hovering at its limit from raising and clearing the alarm over and over, and an
 * on-delay (off-delay) asks the condition to hold (stay gone) for a time before the alarm
 * is raised (cleared).
 */
import { check } from './limits';
import { Check } from './checks';
import { phrase } from './phrase';

/** The limits of a value alarm, in the value's unit; any of the four may be absent. */
export interface LimitSet {
  readonly hihi?: number;
  readonly hi?: number;
  readonly lo?: number;
  readonly lolo?: number;
  /** How far back past a limit the value must go for its alarm to clear (0: at the limit). */
  readonly deadband?: number;
}

/** Where a value is: HiHi, Hi, normal, Lo, LoLo (each a separate alarm in ISA-18.2's terms). */
export const LEVELS = ['hihi', 'hi', 'normal', 'lo', 'lolo'] as const;
export type Level = (typeof LEVELS)[number];

const ORDER: ReadonlyArray<keyof LimitSet> = ['lolo', 'lo', 'hi', 'hihi'];
const NAMES: Record<string, string> = { hihi: 'HiHi', hi: 'Hi', lo: 'Lo', lolo: 'LoLo' };

/**
 * The limits: each a number in bounds (alarm_limit), the deadband too (alarm_deadband), and
 * in order LoLo < Lo < Hi < HiHi for those given. Out of order, the refusal names both.
 */
export function checkLimits(limits: LimitSet): Check {
  if (typeof limits !== 'object' || limits === null) return phrase('alarm.noLimits');
  for (const name of ORDER) {
    if (limits[name] !== undefined) {
      const ok = check('alarm_limit', limits[name], NAMES[name]);
      if (ok !== true) return ok;
    }
  }
  if (limits.deadband !== undefined) {
    const ok = check('alarm_deadband', limits.deadband, 'deadband');
    if (ok !== true) return ok;
  }
  const given = ORDER.filter((name) => limits[name] !== undefined);
  if (given.length === 0) return phrase('alarm.noLimits');
  for (let i = 1; i < given.length; i++) {
    const [low, high] = [given[i - 1], given[i]];
    if ((limits[high] as number) <= (limits[low] as number)) {
      return phrase('alarm.limitOrder', { high: NAMES[high], highValue: limits[high] as number, low: NAMES[low], lowValue: limits[low] as number });
    }
  }
  return true;
}

/**
 * The level of `value` given the level it was at (`previous`): a level is entered at its
 * limit (value ≥ Hi, value ≤ Lo) and left only a deadband past it (below Hi − deadband,
 * above Lo + deadband). Limits are assumed checked (checkLimits).
 */
export function levelOf(value: number, limits: LimitSet, previous: Level = 'normal'): Level {
  const db = limits.deadband ?? 0;
  const rank = (level: Level) => LEVELS.indexOf(level);
  // High side, most severe first: entered at the limit, or kept while within the deadband of a level held.
  for (const level of ['hihi', 'hi'] as const) {
    const limit = limits[level];
    if (limit === undefined) continue;
    if (value >= limit || (rank(previous) <= rank(level) && value > limit - db)) return level;
  }
  for (const level of ['lolo', 'lo'] as const) {
    const limit = limits[level];
    if (limit === undefined) continue;
    if (value <= limit || (rank(previous) >= rank(level) && value < limit + db)) return level;
  }
  return 'normal';
}

/** Whether the alarm of one limit is active at `level`: a HiHi value is also over Hi (each its own alarm). */
export function limitActive(level: Level, limit: Exclude<Level, 'normal'>): boolean {
  if (limit === 'hi') return level === 'hi' || level === 'hihi';
  if (limit === 'lo') return level === 'lo' || level === 'lolo';
  return level === limit;
}

/** On-delay and off-delay in ms (alarm_delay): how long a condition must hold (be gone) to be reported. */
export interface Delays {
  readonly onDelay?: number;
  readonly offDelay?: number;
}

/** Both delays within alarm_delay. */
export function checkDelays(delays: Delays): Check {
  for (const name of ['onDelay', 'offDelay'] as const) {
    if (delays[name] !== undefined) {
      const ok = check('alarm_delay', delays[name], name);
      if (ok !== true) return ok;
    }
  }
  return true;
}

/** A delayed condition: what was reported, what the input says, and since when it says so. */
export interface DelayState {
  readonly reported: boolean;
  readonly raw: boolean;
  readonly since: number;
}

export const INITIAL_DELAY: DelayState = { reported: false, raw: false, since: 0 };

export interface Delayed {
  readonly state: DelayState;
  /** The condition to report (`reported` of the state). */
  readonly active: boolean;
  /** True when `active` just changed: the caller sends a condition event. */
  readonly changed: boolean;
  /** When to call `delayTick` for a change waiting out its delay; absent when none waits. */
  readonly deadline?: number;
}

/**
 * The input `raw` at `now`: a change waits out its delay (on-delay to raise, off-delay to
 * clear) and is dropped if the input goes back first, so a chattering input that never
 * holds for the delay reports nothing. A delay of 0 reports at once.
 */
export function delayStep(state: DelayState, raw: boolean, now: number, delays: Delays): Delayed {
  const since = raw === state.raw ? state.since : now;
  const next: DelayState = { reported: state.reported, raw, since };
  if (raw === state.reported) return { state: next, active: raw, changed: false };
  const wait = (raw ? delays.onDelay : delays.offDelay) ?? 0;
  if (now - since >= wait) return { state: { ...next, reported: raw }, active: raw, changed: true };
  return { state: next, active: state.reported, changed: false, deadline: since + wait };
}

/** Time passes with the input unchanged: a waiting change is reported once its delay is over. */
export function delayTick(state: DelayState, now: number, delays: Delays): Delayed {
  return delayStep(state, state.raw, now, delays);
}
