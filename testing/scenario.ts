/**
 * The scenario schema: a timeline of device events and expectations, checked before anything
 * starts (the file is read in scenario-file.ts). Every mistake names its place
 * (steps[2].pin.pin) and says what would be right; all of them are reported at once. The
 * schema is documented in docs/testing-your-flows.md.
 */
import path from 'path';
// The pure layer's one table: the kit names pins, services and alerts as the nodes do.
import { LIMITS, SERVICES as SERVICE_LIST, Service } from '../nodes/lib/pure/limits';
import { ALERT_FLAGS } from '../nodes/lib/pure/facts';
import type { Same } from '../nodes/lib/pure/same-type';
import { REBOOT_MAX_MS } from '../simulator';
import { Checker } from './checker';
import { show } from './errors';
import { stateKeys } from './device-state';
import { ALARM_STEPS, AlarmAction, parseAlarmStep } from './alarm-steps';

export type { Service };
const SERVICES: readonly string[] = SERVICE_LIST;
const ALERTS: readonly string[] = ALERT_FLAGS;
const PIN = { min: LIMITS.pin.min, max: LIMITS.pin.max };

export interface Expectation {
  node?: string;
  catch?: true;
  msg?: Record<string, unknown>;
  /** ms after the step that caused it (the last device event or inject) */
  within: number;
  count: number;
}

export type Action =
  | { kind: 'pin'; slot?: number; pin: number; stimulus: Record<string, number> }
  | { kind: 'short'; slot?: number; pin: number }
  | { kind: 'alert'; slot?: number; pin: number; alert: string }
  | { kind: 'unplug' | 'plug'; service: Service }
  | { kind: 'slow'; service: Service; ms: number; count?: number }
  | { kind: 'hang'; service: Service; count?: number }
  | { kind: 'fault'; rule: Record<string, unknown> }
  | { kind: 'clearFaults' | 'reboot' }
  | { kind: 'watchdogReset'; slot?: number }
  | { kind: 'advance'; ms: number }
  | { kind: 'inject'; node: string; msg: Record<string, unknown> }
  | { kind: 'expect' | 'expectNone'; expect: Expectation }
  | { kind: 'expectDevice'; slot?: number; pin?: number; state: Record<string, unknown>; within: number }
  | AlarmAction;

export interface Step {
  /** ms after the start; undefined = right after the step before */
  at?: number;
  action: Action;
  /** where it is in the file: steps[3] */
  place: string;
}

export interface Scenario {
  name: string;
  api?: '0.9' | '1.0';
  modules?: Array<{ service: Service; slot: number }>;
  rebootMs?: number;
  steps: Step[];
  file: string;
}

/** Bounds of a scenario: a timeline a CI job can wait for, and no unbounded lists. */
export const SCENARIO_LIMITS = { maxSteps: 500, maxAtMs: 600_000, maxWithinMs: 120_000, defaultWithinMs: 5000, maxCount: 1000 };
/** A step's device and flow events, in the order the docs list them; the alarm steps are alarm-steps.ts's. */
const DEVICE_ACTIONS = [
  'pin',
  'short',
  'alert',
  'unplug',
  'plug',
  'slow',
  'hang',
  'fault',
  'clearFaults',
  'reboot',
  'watchdogReset',
  'advance',
  'inject',
  'expect',
  'expectNone',
  'expectDevice',
] as const;
/** Fails to compile when Action gains a kind DEVICE_ACTIONS lacks, or the list one Action lacks. */
const EVERY_ACTION_LISTED: Same<Exclude<Action['kind'], AlarmAction['kind']>, (typeof DEVICE_ACTIONS)[number]> = true;
void EVERY_ACTION_LISTED;
const ACTIONS: readonly string[] = [...DEVICE_ACTIONS, ...ALARM_STEPS];

/** What a scenario is checked with: the checker, and what the flows and modules tell. */
interface Context {
  c: Checker;
  /** Why a node reference names no node of the flows (undefined when it does); unset: not checked here. */
  nodeProblem?: (ref: string) => string | undefined;
  /** The scenario's own modules by slot (for which fields a module's state has). */
  slots: Map<number, Service>;
}

function nodeRef(x: Context, value: unknown, place: string): string {
  const ref = x.c.string(value, place);
  const problem = typeof ref === 'string' && ref && x.nodeProblem?.(ref);
  if (problem) x.c.note(place, problem);
  return ref;
}

/** A msg given or expected: any object. */
function msgOf(c: Checker, value: unknown, place: string): Record<string, unknown> | undefined {
  return value === undefined ? undefined : c.part(() => c.anyObject(value, place));
}

function parseAction(x: Context, key: string, value: any, place: string): Action {
  const c = x.c;
  const at = `${place}.${key}`;
  switch (key) {
    case 'pin': {
      const b = c.object(value, at, ['slot', 'pin', 'voltage_mV', 'level', 'frequency_hz', 'load_mA']);
      const stimulus: Record<string, number> = {};
      for (const [field, max] of [
        ['voltage_mV', 65535],
        ['level', 1],
        ['frequency_hz', 1_000_000],
        ['load_mA', 65535],
      ] as const) {
        if (b[field] !== undefined) stimulus[field] = c.int(b[field], `${at}.${field}`, 0, max);
      }
      if (!Object.keys(stimulus).length) c.note(at, 'give at least one of voltage_mV, level, frequency_hz, load_mA');
      return { kind: 'pin', slot: c.optInt(b.slot, `${at}.slot`, 0, 255), pin: c.int(b.pin, `${at}.pin`, PIN.min, PIN.max), stimulus };
    }
    case 'short': {
      const b = c.object(value, at, ['slot', 'pin']);
      return { kind: 'short', slot: c.optInt(b.slot, `${at}.slot`, 0, 255), pin: c.int(b.pin, `${at}.pin`, PIN.min, PIN.max) };
    }
    case 'alert': {
      const b = c.object(value, at, ['slot', 'pin', 'alert']);
      return {
        kind: 'alert',
        slot: c.optInt(b.slot, `${at}.slot`, 0, 255),
        pin: c.int(b.pin, `${at}.pin`, PIN.min, PIN.max),
        alert: c.oneOf(b.alert, `${at}.alert`, ALERTS),
      };
    }
    case 'unplug':
    case 'plug':
      return { kind: key, service: c.oneOf(value, at, SERVICES) as Service };
    case 'slow': {
      const b = c.object(value, at, ['service', 'ms', 'count']);
      return {
        kind: 'slow',
        service: c.oneOf(b.service, `${at}.service`, SERVICES) as Service,
        ms: c.time(b.ms, `${at}.ms`, 120_000),
        count: c.optInt(b.count, `${at}.count`, 1, 100_000),
      };
    }
    case 'hang': {
      const b = typeof value === 'string' ? { service: value } : c.object(value, at, ['service', 'count']);
      return { kind: 'hang', service: c.oneOf(b.service, `${at}.service`, SERVICES) as Service, count: c.optInt(b.count, `${at}.count`, 1, 100_000) };
    }
    case 'fault':
      return {
        kind: 'fault',
        rule: c.object(value, at, ['path', 'method', 'count', 'latency_ms', 'status', 'message', 'reset', 'body', 'answer_delay_ms', 'drop_answer']),
      };
    case 'clearFaults':
    case 'reboot':
      if (value !== true) c.note(at, `write ${key}: true`);
      return { kind: key };
    case 'watchdogReset': {
      if (value === true) return { kind: 'watchdogReset' };
      const b = c.object(value, at, ['slot']);
      return { kind: 'watchdogReset', slot: c.optInt(b.slot, `${at}.slot`, 0, 255) };
    }
    case 'advance':
      return { kind: 'advance', ms: c.time(value, at, 86_400_000) };
    case 'inject': {
      const b = c.object(value, at, ['node', 'msg']);
      return { kind: 'inject', node: nodeRef(x, b.node, `${at}.node`), msg: msgOf(c, b.msg, `${at}.msg`) ?? {} };
    }
    case 'expect':
    case 'expectNone': {
      const b = c.object(value, at, ['node', 'catch', 'msg', 'within', 'count']);
      if ((b.node === undefined) === (b.catch === undefined)) c.note(at, 'give either node (an id or name) or catch: true');
      if (b.catch !== undefined && b.catch !== true) c.note(`${at}.catch`, 'write catch: true');
      if (key === 'expectNone' && b.within === undefined) c.note(at, 'expectNone needs within: how long nothing may arrive');
      if (key === 'expectNone' && b.count !== undefined) c.note(`${at}.count`, 'expectNone takes no count');
      const expect: Expectation = {
        node: b.node === undefined ? undefined : nodeRef(x, b.node, `${at}.node`),
        catch: b.catch,
        msg: msgOf(c, b.msg, `${at}.msg`),
        within: b.within === undefined ? SCENARIO_LIMITS.defaultWithinMs : c.time(b.within, `${at}.within`, SCENARIO_LIMITS.maxWithinMs),
        count: c.optInt(b.count, `${at}.count`, 1, SCENARIO_LIMITS.maxCount) ?? 1,
      };
      return { kind: key, expect };
    }
    case 'expectDevice': {
      const b = c.object(value, at, ['slot', 'pin', 'state', 'within']);
      const slot = c.optInt(b.slot, `${at}.slot`, 0, 255);
      const pin = c.optInt(b.pin, `${at}.pin`, PIN.min, PIN.max);
      if (slot === undefined && pin === undefined) c.note(at, 'give slot (a module), pin (an io pin), or both');
      // A field /sim/state does not have would never show: refused here, not waited for.
      const keys = stateKeys(pin !== undefined ? 'pin' : (x.slots.get(slot!) ?? 'module'));
      const state = c.part(() => c.object(b.state, `${at}.state`, keys)) ?? {};
      const within = b.within === undefined ? SCENARIO_LIMITS.defaultWithinMs : c.time(b.within, `${at}.within`, SCENARIO_LIMITS.maxWithinMs);
      return { kind: 'expectDevice', slot, pin, state, within };
    }
  }
  if (ALARM_STEPS.includes(key)) return parseAlarmStep(c, key, value, at, { byDefault: SCENARIO_LIMITS.defaultWithinMs, max: SCENARIO_LIMITS.maxWithinMs });
  return c.fail(place, `unknown event "${key}"; a step has one of ${ACTIONS.join(', ')} (and optionally at)`);
}

/**
 * Checks a parsed scenario; `file` names it in mistakes. With `nodeProblem` (the flows at
 * hand), node references are checked too, so every mistake comes in one report.
 */
export function checkScenario(value: unknown, file: string, nodeProblem?: (ref: string) => string | undefined): Scenario {
  const c = new Checker(file);
  const top = c.part(() => c.object(value, 'top level', ['name', 'api', 'modules', 'rebootMs', 'steps'])) ?? {};
  const modules = c.part(() => {
    if (top.modules === undefined) return undefined;
    if (!Array.isArray(top.modules)) c.fail('modules', 'must be a list like [{service: io, slot: 2}]');
    return (top.modules as unknown[]).map((m, i) => {
      const b = c.part(() => c.object(m, `modules[${i}]`, ['service', 'slot'])) ?? {};
      return { service: c.oneOf(b.service, `modules[${i}].service`, SERVICES) as Service, slot: c.int(b.slot, `modules[${i}].slot`, 0, 255) };
    });
  });
  const x: Context = { c, nodeProblem, slots: new Map((modules ?? []).map((m) => [m.slot, m.service])) };
  const steps: Step[] = [];
  if (!Array.isArray(top.steps) || top.steps.length === 0) c.note('steps', 'must be a non-empty list of steps');
  else if (top.steps.length > SCENARIO_LIMITS.maxSteps) c.note('steps', `at most ${SCENARIO_LIMITS.maxSteps} steps, got ${top.steps.length}`);
  else
    (top.steps as unknown[]).forEach((raw, i) => {
      const place = `steps[${i}]`;
      const step = c.part((): Step => {
        if (!raw || typeof raw !== 'object' || Array.isArray(raw))
          c.fail(place, `expected an object like {at: "2 s", pin: {pin: 3, voltage_mV: 4000}}, got ${show(raw, 60)}`);
        const r = raw as Record<string, unknown>;
        const at = r.at === undefined ? undefined : c.time(r.at, `${place}.at`, SCENARIO_LIMITS.maxAtMs);
        const keys = Object.keys(r).filter((k) => k !== 'at');
        if (keys.length !== 1)
          c.fail(place, keys.length ? `one event per step, found ${keys.join(', ')}` : `no event; a step has one of ${ACTIONS.join(', ')}`);
        return { at, action: parseAction(x, keys[0], r[keys[0]], place), place };
      });
      if (step) steps.push(step);
    });
  const scenario: Scenario = {
    name: top.name === undefined ? path.basename(file) : c.string(top.name, 'name'),
    api: top.api === undefined ? undefined : (c.oneOf(String(top.api), 'api', ['0.9', '1.0']) as '0.9' | '1.0'),
    modules,
    rebootMs: c.optInt(top.rebootMs, 'rebootMs', 0, REBOOT_MAX_MS),
    steps,
    file,
  };
  c.done();
  return scenario;
}
