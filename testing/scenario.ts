/**
 * Scenario files: a timeline of device events and expectations, JSON or YAML, checked
 * before anything starts. Every error names the file and the place (steps[2].pin.pin) and
 * says what would be right. The schema is documented in README "Test your own flows".
 */
import fs from 'fs';
import path from 'path';
// The pure layer's one table: the kit names pins, services and alerts as the nodes do.
import { LIMITS, SERVICES as SERVICE_LIST } from '../nodes/lib/pure/limits';
import { ALERT_FLAGS } from '../nodes/lib/pure/facts';
import { KitError, show } from './errors';

export type Service = (typeof SERVICE_LIST)[number];
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
  | { kind: 'expectDevice'; slot?: number; pin?: number; state: Record<string, unknown>; within: number };

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
const ACTIONS = [
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
];

class Checker {
  constructor(readonly file: string) {}
  fail(place: string, message: string): never {
    throw new KitError(`${this.file}: ${place}: ${message}`);
  }
  object(value: unknown, place: string, keys: readonly string[]): Record<string, any> {
    if (!value || typeof value !== 'object' || Array.isArray(value)) this.fail(place, `expected an object with ${keys.join(', ')}, got ${show(value, 60)}`);
    for (const key of Object.keys(value)) if (!keys.includes(key)) this.fail(place, `unknown field "${key}"; known: ${keys.join(', ')}`);
    return value as Record<string, any>;
  }
  int(value: unknown, place: string, min: number, max: number): number {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
      this.fail(place, `must be a whole number from ${min} to ${max}, got ${show(value, 60)}`);
    return value;
  }
  optInt(value: unknown, place: string, min: number, max: number): number | undefined {
    return value === undefined ? undefined : this.int(value, place, min, max);
  }
  oneOf(value: unknown, place: string, options: readonly string[]): string {
    if (typeof value !== 'string' || !options.includes(value)) this.fail(place, `must be one of ${options.join(', ')}, got ${show(value, 60)}`);
    return value;
  }
  string(value: unknown, place: string): string {
    if (typeof value !== 'string' || value === '') this.fail(place, `must be a non-empty string, got ${show(value, 60)}`);
    return value;
  }
  /** A time: ms as a number, or text like "2 s", "500 ms", "1.5s". */
  time(value: unknown, place: string, max: number): number {
    let ms: number | undefined;
    if (typeof value === 'number') ms = value;
    else if (typeof value === 'string') {
      const m = /^(\d{1,7}(?:\.\d{1,3})?)\s*(ms|s)$/.exec(value.trim());
      if (m) ms = Math.round(Number(m[1]) * (m[2] === 's' ? 1000 : 1));
    }
    if (ms === undefined || !Number.isFinite(ms) || ms < 0 || ms > max)
      this.fail(place, `must be a time from 0 to ${max} ms (a number of ms, or "2 s", "500 ms"), got ${show(value, 60)}`);
    return ms;
  }
}

function parseAction(c: Checker, key: string, value: any, place: string): Action {
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
      if (!Object.keys(stimulus).length) c.fail(at, 'give at least one of voltage_mV, level, frequency_hz, load_mA');
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
      if (value !== true) c.fail(at, `write ${key}: true`);
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
      if (b.msg !== undefined) c.object(b.msg, `${at}.msg`, Object.keys(b.msg ?? {}));
      return { kind: 'inject', node: c.string(b.node, `${at}.node`), msg: b.msg ?? {} };
    }
    case 'expect':
    case 'expectNone': {
      const b = c.object(value, at, ['node', 'catch', 'msg', 'within', 'count']);
      if ((b.node === undefined) === (b.catch === undefined)) c.fail(at, 'give either node (an id or name) or catch: true');
      if (b.catch !== undefined && b.catch !== true) c.fail(`${at}.catch`, 'write catch: true');
      if (b.msg !== undefined) c.object(b.msg, `${at}.msg`, Object.keys(b.msg ?? {}));
      if (key === 'expectNone' && b.within === undefined) c.fail(at, 'expectNone needs within: how long nothing may arrive');
      if (key === 'expectNone' && b.count !== undefined) c.fail(`${at}.count`, 'expectNone takes no count');
      const expect: Expectation = {
        node: b.node === undefined ? undefined : c.string(b.node, `${at}.node`),
        catch: b.catch,
        msg: b.msg,
        within: b.within === undefined ? SCENARIO_LIMITS.defaultWithinMs : c.time(b.within, `${at}.within`, SCENARIO_LIMITS.maxWithinMs),
        count: c.optInt(b.count, `${at}.count`, 1, SCENARIO_LIMITS.maxCount) ?? 1,
      };
      return { kind: key, expect };
    }
    case 'expectDevice': {
      const b = c.object(value, at, ['slot', 'pin', 'state', 'within']);
      const slot = c.optInt(b.slot, `${at}.slot`, 0, 255);
      const pin = c.optInt(b.pin, `${at}.pin`, PIN.min, PIN.max);
      if (slot === undefined && pin === undefined) c.fail(at, 'give slot (a module), pin (an io pin), or both');
      const state = c.object(b.state, `${at}.state`, Object.keys(b.state ?? {}));
      const within = b.within === undefined ? SCENARIO_LIMITS.defaultWithinMs : c.time(b.within, `${at}.within`, SCENARIO_LIMITS.maxWithinMs);
      return { kind: 'expectDevice', slot, pin, state, within };
    }
  }
  return c.fail(place, `unknown event "${key}"; a step has one of ${ACTIONS.join(', ')} (and optionally at)`);
}

/** Checks a parsed scenario; `file` names it in errors. */
export function checkScenario(value: unknown, file: string): Scenario {
  const c = new Checker(file);
  const top = c.object(value, 'top level', ['name', 'api', 'modules', 'rebootMs', 'steps']);
  if (!Array.isArray(top.steps) || top.steps.length === 0) c.fail('steps', 'must be a non-empty list of steps');
  if (top.steps.length > SCENARIO_LIMITS.maxSteps) c.fail('steps', `at most ${SCENARIO_LIMITS.maxSteps} steps, got ${top.steps.length}`);
  const modules =
    top.modules === undefined ? undefined : Array.isArray(top.modules) ? top.modules : c.fail('modules', 'must be a list like [{service: io, slot: 2}]');
  const steps = (top.steps as unknown[]).map((raw, i): Step => {
    const place = `steps[${i}]`;
    if (!raw || typeof raw !== 'object' || Array.isArray(raw))
      c.fail(place, `expected an object like {at: "2 s", pin: {pin: 3, voltage_mV: 4000}}, got ${show(raw, 60)}`);
    const keys = Object.keys(raw as object).filter((k) => k !== 'at');
    if (keys.length !== 1) c.fail(place, keys.length ? `one event per step, found ${keys.join(', ')}` : `no event; a step has one of ${ACTIONS.join(', ')}`);
    const r = raw as Record<string, unknown>;
    return {
      at: r.at === undefined ? undefined : c.time(r.at, `${place}.at`, SCENARIO_LIMITS.maxAtMs),
      action: parseAction(c, keys[0], r[keys[0]], place),
      place,
    };
  });
  return {
    name: top.name === undefined ? path.basename(file) : c.string(top.name, 'name'),
    api: top.api === undefined ? undefined : (c.oneOf(String(top.api), 'api', ['0.9', '1.0']) as '0.9' | '1.0'),
    modules: modules?.map((m: unknown, i: number) => {
      const b = c.object(m, `modules[${i}]`, ['service', 'slot']);
      return { service: c.oneOf(b.service, `modules[${i}].service`, SERVICES) as Service, slot: c.int(b.slot, `modules[${i}].slot`, 0, 255) };
    }),
    rebootMs: c.optInt(top.rebootMs, 'rebootMs', 0, 600_000),
    steps,
    file,
  };
}

/** Reads a scenario file: .yaml/.yml with the yaml package, anything else as JSON. */
export function readScenario(file: string): Scenario {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new KitError(`scenario ${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  let value: unknown;
  if (/\.ya?ml$/i.test(file)) {
    const YAML = require('yaml');
    try {
      // The yaml package bounds alias expansion (maxAliasCount) against "billion laughs".
      value = YAML.parse(text, { maxAliasCount: 100 });
    } catch (error) {
      throw new KitError(`${file}: not valid YAML: ${(error as Error).message.split('\n')[0]}`);
    }
  } else {
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new KitError(`${file}: not valid JSON: ${(error as Error).message}`);
    }
  }
  return checkScenario(value, file);
}
