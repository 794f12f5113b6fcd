/**
 * Bad input, property-based (fast-check): for each of the fifteen action node types, 2,000
 * generated msgs through a real Node-RED flow against the simulator. Payloads mix valid
 * values (drawn from the limits table) with wrong types, NaN, ±Infinity, negatives, huge
 * numbers, non-integers, numeric strings, nested garbage, extra fields, decoys (`slot`,
 * `path`, `url`) and prototype-pollution keys (`__proto__`, `constructor`, `prototype`).
 *
 * A model of each node, written from limits.ts (`check`, `checkPwm`, `checkPowerConfig`,
 * `describe`) and the node's documented msg contract, says per msg: refused with which
 * message, or which requests. The five nodes with an operation select are set to "from
 * msg.operation", so msg.operation is fuzzed too. Then: every msg ends exactly once; a refused msg gets one
 * INVALID_INPUT error with exactly the limits.ts message (field and range) and sends
 * nothing; the simulator's log holds exactly the requests of the valid msgs, bodies
 * unchanged; Object.prototype is untouched. FC_SEED=<n> reproduces a run.
 */
import should from 'should';
import fc from 'fast-check';
import { check, checkBool, checkPowerConfig, checkPwm, checkValue, describe as describeValue, LIMITS, LimitName, Limit } from '../../nodes/lib/limits';
import type { Phrase } from '../../nodes/lib/phrase';
import { english } from '../helpers/i18n';
import type { NodeMessage } from '../../nodes/lib/red';
import { deviceNode, helper, waitConnected, waitFor } from '../helpers/node-red';
import { lastSeq } from '../helpers/io-nodes';
import { LogEntry, SimControl, Simulator, startSimulator } from '../helpers/sim-control';
import { CaughtMsg, guardProcess, loadCollect, reliabilityFlow } from '../helpers/reliability';

const RUNS = Number(process.env.FC_RUNS ?? 2000);
const SEED = Number(process.env.FC_SEED ?? 20261121);

interface Req {
  method: 'GET' | 'POST';
  /** Below the module root (`<endpoint>`), or absolute when it starts with '/'. */
  path: string;
  body?: unknown;
}
type Expect = { error: string } | { requests: Req[] };

class Refused {
  constructor(readonly message: string) {}
}
function ok(result: true | Phrase): void {
  if (result !== true) throw new Refused(english(result));
}
function refuse(message: string): never {
  throw new Refused(message);
}
function expectOf(build: () => Req[]): Expect {
  try {
    return { requests: build() };
  } catch (error) {
    if (error instanceof Refused) return { error: error.message };
    throw error;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && !Buffer.isBuffer(v);
const hasOwn = (v: unknown, k: string) => isObject(v) && Object.prototype.hasOwnProperty.call(v, k);
const own = (v: unknown, k: string): unknown => (hasOwn(v, k) ? (v as Record<string, unknown>)[k] : undefined);
const given = (v: unknown, setting: unknown) => (v === undefined ? setting : v);
/** The five nodes with an operation select are set to "from msg.operation": the msg must name one. */
const opCheck = (values: readonly string[], op: unknown) => checkValue('msg.operation', { kind: 'word', values, source: 'node' }, op);
/** The shared refusal of an operation that needs the node's confirm checkbox (label as the dialog shows it). */
const needsConfirm = (operation: string, checkbox: string) => `"${operation}" refused: tick "${checkbox}" in the node's dialog to allow it`;

// ---- arbitraries ----------------------------------------------------------------------------------

/** Values of the wrong kind or outside any sane range. */
const garbage: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    NaN, Infinity, -Infinity, -0, -1, 0, 1, 1.5, -1.5, 1e21, -1e21, Number.MAX_SAFE_INTEGER, Number.MAX_VALUE, 2 ** 53 + 2, 65536, 4294967296,
    '', ' ', '1', '0', '100', '1e3', 'NaN', '0x10', '2 ', 'high', 'true', 'analog', '1/../../hard_reset', '0?x', '../reset', '%2e%2e',
    null, true, false, [], {}, [1], [1, 2, 3, 4, 5, 6], { a: 1 }, '__proto__', 'constructor',
  ),
  fc.integer(),
  fc.double(),
  fc.string({ maxLength: 12 }),
  fc.boolean(),
  fc.array(fc.integer({ min: -3, max: 9 }), { maxLength: 7 }),
  fc.object({ maxDepth: 2, maxKeys: 3 }),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }),
);

/** Valid values of a limit. */
function valid(limit: Limit): fc.Arbitrary<unknown> {
  switch (limit.kind) {
    case 'int':
      return fc.oneof(fc.integer({ min: limit.min, max: limit.max }), fc.constantFrom(limit.min, limit.max, ...(limit.also ?? [])));
    case 'intSet':
    case 'word':
      return fc.constantFrom(...(limit.values as readonly unknown[]));
    case 'bool':
      return fc.boolean();
  }
}

/** Invalid values close to a limit: just outside, non-integers inside, the right value as text. */
function near(limit: Limit): fc.Arbitrary<unknown> {
  switch (limit.kind) {
    case 'int':
      return fc.constantFrom(limit.min - 1, limit.max + 1, limit.min + 0.5, limit.max * 10 + 7, -limit.max - 1, String(limit.min), `${limit.max}`, [limit.min]);
    case 'intSet':
      return fc.constantFrom(limit.values[0] + 1, limit.values[1] - 1, String(limit.values[1]), -limit.values[1], limit.values[2] + 0.5);
    case 'word':
      return fc.constantFrom(...limit.values.map((w) => w.toUpperCase()), ...limit.values.map((w) => ` ${w}`), `${limit.values[0]}x`);
    case 'bool':
      return fc.constantFrom('true', 'false', 1, 0, null, 'yes');
  }
}

/** A field value: mostly valid, sometimes near the bounds, sometimes garbage. */
function field(limit: Limit): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 6, arbitrary: valid(limit) }, { weight: 2, arbitrary: near(limit) }, { weight: 1, arbitrary: garbage });
}
const lim = (name: LimitName): Limit => LIMITS[name];
const bool: Limit = { kind: 'bool', source: 'test' };

/** Extra keys: decoys a careless node might read, and prototype-pollution keys. */
const DECOYS = ['slot', 'path', 'url', 'endpoint', 'method', 'service', 'headers', 'PIN', 'Pin', 'pin ', 'extra', 'prototype'];

function polluted(): Record<string, unknown> {
  // Own properties named __proto__ / constructor, as JSON.parse makes them.
  return JSON.parse('{"__proto__": {"polluted": "yes", "pin": 5}, "constructor": {"prototype": {"polluted": "yes"}}}');
}

/** A payload object of the given fields (each present or not), plus decoys and sometimes pollution keys. */
function payloadOf(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<unknown> {
  return fc
    .tuple(
      fc.record(fields, { requiredKeys: [] }),
      fc.dictionary(fc.constantFrom(...DECOYS), garbage, { maxKeys: 2 }),
      fc.nat(9),
    )
    .map(([base, extras, roll]) => {
      const payload: Record<string, unknown> = roll < 2 ? polluted() : {};
      for (const [k, v] of Object.entries(extras)) payload[k] = v;
      for (const [k, v] of Object.entries(base)) payload[k] = v;
      return payload;
    });
}

/** msg.payload: an object of the node's fields most of the time, anything at all otherwise. */
function payloads(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 7, arbitrary: payloadOf(fields) }, { weight: 2, arbitrary: garbage }, { weight: 1, arbitrary: fc.anything({ maxDepth: 2 }) });
}

/** msg.operation: absent, one of the node's, or garbage. */
function operations(values: readonly string[]): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 2, arbitrary: fc.constant(undefined) }, { weight: 6, arbitrary: fc.constantFrom(...values) }, { weight: 1, arbitrary: garbage });
}

function msgs(payload: fc.Arbitrary<unknown>, operation?: fc.Arbitrary<unknown>): fc.Arbitrary<NodeMessage> {
  return fc.tuple(payload, operation ?? fc.constant(undefined)).map(([p, op]) => {
    const msg: NodeMessage = { payload: p, topic: 'fuzz' };
    if (op !== undefined) msg.operation = op;
    return msg;
  });
}

// ---- the node models ------------------------------------------------------------------------------

interface Spec {
  type: string;
  service: 'io' | 'bmc' | 'power';
  slot: number;
  settings: Record<string, unknown>;
  arb: fc.Arbitrary<NodeMessage>;
  model(msg: NodeMessage): Expect;
  /** Requests of one msg may interleave with another's (several turns of the queue). */
  unordered?: boolean;
  /** Prepare the device (e.g. the power configuration outputs need). */
  prepare?(ctl: SimControl): Promise<void>;
  /** Device answers a valid msg may get (device state, not our validation): code + message. */
  deviceMay?: RegExp;
  /** The node reads nothing from msg.payload that could be invalid: every msg is valid. */
  acceptsAll?: boolean;
}

const pwmTriple = fc.integer({ min: 3, max: 65535 }).chain((period) =>
  fc.record({ period: fc.constant(period), time_on: fc.integer({ min: 1, max: period - 2 }), prescaler: fc.integer({ min: 1, max: 65534 }) }),
);

const powerEntry = (pin: number) =>
  fc.constantFrom('5_volt', '12_volt').chain((rail) =>
    fc.record({ pin: fc.constant(pin), rail: fc.constant(rail), current: fc.integer({ min: 0, max: rail === '5_volt' ? 300 : 500 }), note: fc.option(garbage, { nil: undefined }) }, { requiredKeys: ['pin', 'rail', 'current'] }),
  );
const validConfig = fc.shuffledSubarray([1, 2, 3, 4, 5, 6], { minLength: 6, maxLength: 6 }).chain((pins) => fc.tuple(...pins.map(powerEntry)));
const badConfig = fc.oneof(
  validConfig.map((c) => c.slice(0, 5)),
  validConfig.map((c) => [...c, c[0]]),
  validConfig.map((c) => [c[0], ...c.slice(0, 5)]),
  fc.tuple(validConfig, fc.nat(5), field(lim('current_12_volt')), fc.oneof(near(lim('rail')), garbage)).map(([c, i, current, rail]) => {
    const copy = c.map((e) => ({ ...e }));
    if (i % 2) (copy[i] as Record<string, unknown>).current = current;
    else (copy[i] as Record<string, unknown>).rail = rail;
    return copy;
  }),
  fc.tuple(validConfig, fc.nat(5), garbage).map(([c, i, g]) => c.map((e, j) => (j === i ? g : e))),
  garbage,
);

const SIX_SETTING = [1, 2, 3, 4, 5, 6].map(() => ({ rail: '5_volt', current: '100' }));
const SIX = [1, 2, 3, 4, 5, 6].map((pin) => ({ pin, rail: '5_volt', current: 100 }));

const WATCHDOG_OPS = ['read', 'timeout', 'alive', 'save', 'shutdown', 'sw_shutdown_timeout'];
const USBHUB_OPS = ['read', 'hub', 'port', 'reset', 'devices'];
const SYSTEM_OPS = ['buzzer', 'usb_bootloader', 'hard_reset'];
const FAN_OPS = ['read', 'set', 'rpm', 'measurement'];
const LIMIT_OPS = ['set', 'read'];
const RAILS = ['limit_3v3', 'limit_5v0', 'limit_12v'] as const;

const SPECS: Spec[] = [
  {
    type: 'io-output',
    service: 'io',
    slot: 2,
    settings: { pin: '1', mode: 'state', state: 'high', pwmInput: 'raw', prescaler: '47', period: '1000', time_on: '500' },
    prepare: (ctl) => ctl.powerConfig(2),
    arb: msgs(
      fc.oneof(
        { weight: 6, arbitrary: payloads({ pin: field(lim('pin')), state: field(lim('output_state')) }) },
        {
          weight: 4,
          arbitrary: fc.tuple(pwmTriple, payloads({ pin: field(lim('pin')), prescaler: garbage, period: garbage, time_on: garbage, state: field(lim('output_state')) }), fc.nat(7)).map(
            ([pwm, p, roll]) => {
              if (!isObject(p)) return p;
              if (roll > 1) Object.assign(p, pwm); // mostly a valid timer, sometimes garbage in it
              if (roll > 2) delete p.state;
              return p;
            },
          ),
        },
        { weight: 1, arbitrary: fc.constantFrom<unknown>(true, false, 1, 0, 'high', 'low', 'HIGH', 'on', '', [true]) },
      ),
    ),
    model(msg) {
      return expectOf(() => {
        const p = msg.payload;
        const f: Record<string, unknown> = {};
        for (const k of ['pin', 'state', 'prescaler', 'period', 'time_on']) if (hasOwn(p, k)) f[k] = own(p, k);
        const bare = p === true || p === 1 || p === 'high' ? 'high' : p === false || p === 0 || p === 'low' ? 'low' : undefined;
        if (bare) f.state = bare;
        else if (typeof p === 'string' && p !== '')
          refuse(`msg.payload must be "high", "low", true, false, 1, 0 or an object {pin, state} / {pin, prescaler, period, time_on}, got ${describeValue(p)}`);
        else if (Array.isArray(p)) refuse(`msg.payload must be a state or an object, got ${english(describeValue(p))}`);
        const pin = given(f.pin, 1);
        ok(check('pin', pin));
        const givesPwm = ['prescaler', 'period', 'time_on'].some((k) => k in f);
        if (givesPwm && 'state' in f) refuse('msg.payload must give either state or prescaler/period/time_on, not both');
        if (givesPwm) {
          const pwm = { prescaler: given(f.prescaler, 47), period: given(f.period, 1000), time_on: given(f.time_on, 500) };
          ok(checkPwm(pwm));
          return [{ method: 'POST', path: 'output/pwm', body: { pin, ...pwm } }];
        }
        const state = given(f.state, 'high');
        ok(check('output_state', state, 'state'));
        return [{ method: 'POST', path: 'output/state', body: { pin, state } }];
      });
    },
  },
  {
    type: 'io-threshold',
    service: 'io',
    slot: 2,
    settings: { pin: '2', threshold_mV: '1000', trigger: 'rising', analogFirst: true, applyOnConnect: false },
    arb: msgs(payloads({ pin: field(lim('pin')), threshold_mV: field(lim('threshold_mV')), trigger: field(lim('threshold_trigger')) })),
    model(msg) {
      return expectOf(() => {
        const p = msg.payload;
        const pin = given(own(p, 'pin'), 2);
        const threshold_mV = given(own(p, 'threshold_mV'), 1000);
        const trigger = given(own(p, 'trigger'), 'rising');
        ok(check('pin', pin));
        ok(check('threshold_mV', threshold_mV));
        ok(check('threshold_trigger', trigger, 'trigger'));
        return [
          { method: 'POST', path: 'input/mode', body: { pin, mode: 'analog' } },
          { method: 'POST', path: 'input/analog/threshold', body: { pin, threshold_mV, trigger } },
        ];
      });
    },
  },
  {
    type: 'io-input',
    service: 'io',
    slot: 2,
    settings: { pin: '3', mode: 'digital', trigger: 'rising', debounce_time_ms: '20', counter: '', applyOnConnect: false },
    arb: msgs(
      payloads({
        pin: field(lim('pin')),
        mode: field(lim('input_mode')),
        trigger: fc.oneof(field(lim('interrupt_trigger')), fc.constant('')),
        debounce_time_ms: field(lim('debounce_time_ms')),
        state: fc.oneof(field(lim('counter_state')), fc.constant('')),
      }),
    ),
    model(msg) {
      return expectOf(() => {
        const p = msg.payload;
        const pin = given(own(p, 'pin'), 3);
        const mode = given(own(p, 'mode'), 'digital');
        const trigger = given(own(p, 'trigger'), 'rising');
        const debounce = given(own(p, 'debounce_time_ms'), 20);
        const counter = given(own(p, 'state'), '');
        ok(check('pin', pin));
        ok(check('input_mode', mode, 'mode'));
        const requests: Req[] = [{ method: 'POST', path: 'input/mode', body: { pin, mode } }];
        if (mode === 'analog' && (own(p, 'trigger') !== undefined || own(p, 'debounce_time_ms') !== undefined || own(p, 'state') !== undefined)) {
          refuse('trigger, debounce_time_ms and state (counter) need mode digital: the device accepts them only for a digital input');
        }
        if (mode === 'digital') {
          if (trigger !== '' && trigger !== undefined) {
            ok(check('interrupt_trigger', trigger, 'trigger'));
            ok(check('debounce_time_ms', debounce));
            requests.push({ method: 'POST', path: 'input/digital/interrupt', body: { pin, debounce_time_ms: debounce, trigger } });
          }
          if (counter !== '' && counter !== undefined) {
            ok(check('counter_state', counter, 'state'));
            requests.push({ method: 'POST', path: 'input/digital/counter', body: { pin, state: counter } });
          }
        }
        return requests;
      });
    },
  },
  {
    type: 'io-read',
    service: 'io',
    slot: 2,
    settings: { source: 'values', pin: 'all', interval: '0', onlyOnChange: false, deadband: '0', output: 'record' },
    arb: msgs(payloads({ pin: fc.oneof(field(lim('pin')), fc.constant(0)) })),
    model(msg) {
      return expectOf(() => {
        const pin = given(own(msg.payload, 'pin'), 0);
        if (pin !== 0) ok(check('pin', pin));
        return [{ method: 'GET', path: 'input/values' }];
      });
    },
  },
  {
    type: 'io-power',
    service: 'io',
    slot: 2,
    settings: { pins: SIX_SETTING, applyOnConnect: false },
    arb: msgs(payloads({ config: fc.oneof({ weight: 3, arbitrary: validConfig }, { weight: 2, arbitrary: badConfig }) })),
    model(msg) {
      return expectOf(() => {
        const config = given(own(msg.payload, 'config'), SIX);
        ok(checkPowerConfig(config));
        const entries = config as Array<{ pin: number; rail: string; current: number }>;
        const body = { config: entries.map(({ pin, rail, current }) => ({ pin, rail, current })).sort((a, b) => a.pin - b.pin) };
        return [{ method: 'POST', path: 'power-management', body }];
      });
    },
  },
  {
    type: 'io-reset',
    service: 'io',
    slot: 3,
    settings: { confirm: false },
    arb: msgs(payloads({ confirm: fc.constantFrom<unknown>(true, 'yes', 1) }), operations(['reset', 'hard_reset'])),
    model: () => ({ error: needsConfirm('reset', 'Confirm: reset the module when a msg arrives') }),
  },
  {
    type: 'notification-poll',
    service: 'io',
    slot: 2,
    settings: { interval: '3600000', pins: '', alerts: '', combined: false },
    arb: msgs(fc.oneof(payloads({ pin: field(lim('pin')) }), fc.constant('stop')).filter((p) => p !== 'start')),
    acceptsAll: true,
    model: (msg) => ({ requests: msg.payload === 'stop' ? [] : [{ method: 'GET', path: 'notification' }] }),
  },
  {
    type: 'device-info',
    service: 'io',
    slot: 2,
    settings: {},
    arb: msgs(payloads({ slot: garbage, service: garbage })),
    acceptsAll: true,
    model: () => ({ requests: [{ method: 'GET', path: '/api/io/0.9' }, { method: 'GET', path: 'descriptor' }] }),
    unordered: true,
  },
  {
    type: 'bmc-watchdog',
    service: 'bmc',
    slot: 0,
    // Confirmed, so timeouts are fuzzed on the wire; shutdown (allowed then) is not generated: it would reset the device.
    settings: { operation: 'msg', timeout: '0', keepAlive: false, interval: '1000', confirm: true, swShutdownTimeout: '60000' },
    arb: msgs(payloads({ timeout: fc.oneof(field(lim('watchdog_timeout')), field(lim('sw_shutdown_timeout'))) }), operations(WATCHDOG_OPS.filter((op) => op !== 'shutdown'))),
    deviceMay: /^500 Internal driver communication failed: watchdog timeout not enabled$/,
    model(msg) {
      return expectOf(() => {
        const op = msg.operation;
        ok(opCheck(WATCHDOG_OPS, op));
        const timeout = own(msg.payload, 'timeout');
        switch (op) {
          case 'timeout': {
            const value = given(timeout, 0);
            ok(check('watchdog_timeout', value, 'timeout'));
            return [{ method: 'POST', path: 'watchdog', body: { timeout: value } }];
          }
          case 'alive':
            return [{ method: 'GET', path: 'watchdog/alive' }];
          case 'save':
            return [{ method: 'GET', path: 'watchdog/save' }];
          case 'shutdown':
            return [{ method: 'POST', path: 'watchdog/shutdown', body: { shutdown: 'start' } }];
          case 'sw_shutdown_timeout': {
            const value = given(timeout, 60000);
            ok(check('sw_shutdown_timeout', value, 'timeout'));
            return [{ method: 'POST', path: 'watchdog/sw_shutdown_timeout', body: { timeout: value } }];
          }
          default:
            return [{ method: 'GET', path: 'watchdog' }];
        }
      });
    },
  },
  {
    type: 'bmc-readings',
    service: 'bmc',
    slot: 0,
    settings: { voltage: true, temperature: true, interval: '0', deadband: '0', onlyOnChange: false, output: 'record' },
    arb: msgs(payloads({ voltage: garbage, temperature: garbage })),
    acceptsAll: true,
    model: () => ({ requests: [{ method: 'GET', path: 'voltage' }, { method: 'GET', path: 'temperature' }] }),
    unordered: true,
  },
  {
    type: 'bmc-usbhub',
    service: 'bmc',
    slot: 0,
    settings: { operation: 'msg', port: '2', state: true, confirm: false },
    // `devices` (API 1.0 only) is not generated: on this 0.9 device the node refuses it by design.
    arb: msgs(payloads({ port: field(lim('usb_port')), state: field(bool) }), operations(USBHUB_OPS.filter((op) => op !== 'devices'))),
    model(msg) {
      return expectOf(() => {
        const op = msg.operation;
        ok(opCheck(USBHUB_OPS, op));
        const state = given(own(msg.payload, 'state'), true);
        switch (op) {
          case 'hub':
            ok(checkBool('state', state));
            return [{ method: 'POST', path: 'usbhub', body: { state } }];
          case 'port': {
            const port = given(own(msg.payload, 'port'), 2);
            ok(check('usb_port', port, 'port'));
            ok(checkBool('state', state));
            return [{ method: 'POST', path: `usbhub/port/${port}`, body: { state } }];
          }
          case 'reset':
            return refuse(needsConfirm('reset', 'Allow this node to reset the USB hub'));
          default:
            return [{ method: 'GET', path: 'usbhub' }];
        }
      });
    },
  },
  {
    type: 'bmc-system',
    service: 'bmc',
    slot: 0,
    // Confirmed, so the bootloader is fuzzed on the wire; hard_reset (allowed then) is not generated.
    settings: { operation: 'msg', mode: '2', duration: '50', enabled: false, timeout: '0', confirm: true },
    arb: msgs(
      payloads({ mode: field(lim('buzzer_mode')), duration: field(lim('buzzer_duration')), enabled: field(bool), timeout: field(lim('bootloader_timeout')) }),
      operations(SYSTEM_OPS.filter((op) => op !== 'hard_reset')),
    ),
    model(msg) {
      return expectOf(() => {
        const op = msg.operation;
        ok(opCheck(SYSTEM_OPS, op));
        const p = msg.payload;
        if (op === 'hard_reset') return [{ method: 'POST', path: 'hard_reset', body: { reset: 'yes' } }];
        if (op === 'usb_bootloader') {
          const enabled = given(own(p, 'enabled'), false);
          const timeout = given(own(p, 'timeout'), 0);
          ok(checkBool('enabled', enabled));
          ok(check('bootloader_timeout', timeout, 'timeout'));
          return [{ method: 'POST', path: 'usb_bootloader', body: { enabled, timeout } }];
        }
        const mode = given(own(p, 'mode'), 2);
        const duration = given(own(p, 'duration'), 50);
        ok(check('buzzer_mode', mode, 'mode'));
        ok(check('buzzer_duration', duration, 'duration'));
        return [{ method: 'POST', path: 'buzzer', body: { mode, duration } }];
      });
    },
  },
  {
    type: 'power-fan',
    service: 'power',
    slot: 1,
    settings: { operation: 'msg', fan_forced: true, fan_mode: '60', measurement_enabled: true, waitApplied: false },
    arb: msgs(payloads({ fan_forced: field(bool), fan_mode: field(lim('fan_mode')), measurement_enabled: field(bool) }), operations(FAN_OPS)),
    model(msg) {
      return expectOf(() => {
        const op = msg.operation;
        ok(opCheck(FAN_OPS, op));
        const p = msg.payload;
        switch (op) {
          case 'set': {
            const fan_forced = given(own(p, 'fan_forced'), true);
            const fan_mode = given(own(p, 'fan_mode'), 60);
            ok(checkBool('fan_forced', fan_forced));
            ok(check('fan_mode', fan_mode));
            return [{ method: 'POST', path: 'fan', body: { fan_forced, fan_mode } }];
          }
          case 'rpm':
            return [{ method: 'GET', path: 'fan/rpm' }];
          case 'measurement': {
            const measurement_enabled = given(own(p, 'measurement_enabled'), true);
            ok(checkBool('measurement_enabled', measurement_enabled));
            return [{ method: 'POST', path: 'fan/rpm', body: { measurement_enabled } }];
          }
          default:
            return [{ method: 'GET', path: 'fan' }];
        }
      });
    },
  },
  {
    type: 'power-limits',
    service: 'power',
    slot: 1,
    settings: { operation: 'msg', limit_3v3: '3000', limit_5v0: '3000', limit_12v: '1000' },
    arb: msgs(payloads({ limit_3v3: field(lim('limit_3v3')), limit_5v0: field(lim('limit_5v0')), limit_12v: field(lim('limit_12v')) }), operations(LIMIT_OPS)),
    model(msg) {
      return expectOf(() => {
        const op = msg.operation;
        ok(opCheck(LIMIT_OPS, op));
        if (op === 'read') return [{ method: 'GET', path: 'stats' }];
        const defaults = { limit_3v3: 3000, limit_5v0: 3000, limit_12v: 1000 };
        const body: Record<string, unknown> = {};
        for (const rail of RAILS) {
          body[rail] = given(own(msg.payload, rail), defaults[rail]);
          ok(check(rail, body[rail]));
        }
        return [{ method: 'POST', path: 'limits', body }];
      });
    },
  },
  {
    type: 'power-readings',
    service: 'power',
    slot: 1,
    settings: { stats: true, interval: '0', deadband: '0', onlyOnChange: false, output: 'record' },
    arb: msgs(payloads({ stats: garbage, source: garbage })),
    acceptsAll: true,
    model: () => ({ requests: [{ method: 'GET', path: 'stats' }] }),
  },
];

// ---- the run --------------------------------------------------------------------------------------

/** A request as the log shows it, for comparison: method, absolute path, body through JSON. */
function key(method: string, path: string, body: unknown): string {
  return `${method} ${path} ${body === undefined || body === null ? '' : JSON.stringify(body)}`;
}

const isRoot = (path: string) => /^\/api\/[a-z]+\/\d+\.\d+$/.test(path);

/** Every key of a JSON value, deeply. */
function keysOf(value: unknown, into: Set<string> = new Set()): Set<string> {
  if (Array.isArray(value)) for (const v of value) keysOf(v, into);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      into.add(k);
      keysOf(v, into);
    }
  }
  return into;
}

describe('reliability: bad input, property-based (fast-check, runtime, simulator)', function () {
  this.timeout(120000);
  guardProcess();
  let sim: Simulator;
  let ctl: SimControl;
  const protoKeys = Object.getOwnPropertyNames(Object.prototype).sort();
  const totals = { msgs: 0, refused: 0, valid: 0, requests: 0, deviceRefused: 0, polluting: 0 };

  before(async () => {
    sim = await startSimulator({ port: 0, logCapacity: 200000 });
    ctl = new SimControl(sim);
    await helper.startServer();
  });
  after(async () => {
    await helper.stopServer();
    await sim.close();
    console.log(
      `      [reliability] bad input: ${SPECS.length} node types × ${RUNS} msgs = ${totals.msgs} msgs (seed ${SEED}): ${totals.refused} refused with the limits.ts message and nothing sent, ` +
        `${totals.valid} valid → ${totals.requests} requests exactly as modelled (${totals.deviceRefused} refused by device state), ${totals.polluting} carried pollution keys, 0 invalid requests`,
    );
  });
  beforeEach(async () => {
    await ctl.reset();
  });
  afterEach(async () => {
    await helper.unload();
  });

  for (const spec of SPECS) {
    it(`${spec.type}: ${RUNS} generated msgs, each refused with its field and range or sent exactly as given`, async () => {
      const device = deviceNode({ id: 'dev', url: sim.url, service: spec.service, slot: spec.slot, queueLimit: 100000 });
      const outcomes = await loadCollect(reliabilityFlow([{ id: 'n', type: spec.type, device: 'dev', ...spec.settings }], [device]));
      await waitConnected('dev');
      await spec.prepare?.(ctl);
      if (spec.type === 'notification-poll') await waitFor(async () => (await ctl.log()).some((e) => e.path.endsWith('/notification')), 'the first poll round');
      const since = await lastSeq(ctl);

      const generated = fc.sample(spec.arb, { numRuns: RUNS, seed: SEED });
      const expected = generated.map((msg) => spec.model(msg));
      const ids = generated.map((msg, i) => {
        msg._msgid = `fuzz-${spec.type}-${i}`;
        return msg._msgid;
      });
      for (const msg of generated) helper.getNode('n').receive(msg);
      await waitFor(() => outcomes.caught.length + outcomes.completed.length >= RUNS, `${RUNS} msgs to end`, 90000, 50);
      await new Promise((resolve) => setTimeout(resolve, 100));

      // Object.prototype is what it was: no key added by any payload.
      Object.getOwnPropertyNames(Object.prototype).sort().should.eql(protoKeys);
      should(({} as Record<string, unknown>).polluted).be.undefined();

      const caught = new Map<string, CaughtMsg[]>();
      for (const m of outcomes.caught) caught.set(String(m._msgid), [...(caught.get(String(m._msgid)) ?? []), m]);
      const completed = new Map<string, number>();
      for (const m of outcomes.completed) completed.set(String(m._msgid), (completed.get(String(m._msgid)) ?? 0) + 1);
      const outputs = new Map<string, NodeMessage[]>();
      for (const m of outcomes.sent('n')) outputs.set(String(m._msgid), [...(outputs.get(String(m._msgid)) ?? []), m]);

      const base = `/api/${spec.service}/0.9/${spec.slot}/`;
      const wanted: string[] = [];
      const problems: string[] = [];
      let refused = 0;
      let deviceRefused = 0;
      generated.forEach((msg, i) => {
        const id = ids[i];
        const errors = caught.get(id) ?? [];
        const done = completed.get(id) ?? 0;
        const out = outputs.get(id) ?? [];
        const show = () => `msg ${i} ${describeMsg(msg)}`;
        if (errors.length + done !== 1) problems.push(`${show()} ended ${errors.length + done} times`);
        if (errors.length && out.length) problems.push(`${show()} got an error and an output`);
        const expect = expected[i];
        if ('error' in expect) {
          refused++;
          const error = errors[0]?.error;
          if (!error) problems.push(`${show()} was not refused (expected: ${expect.error})`);
          else if (error.code !== 'INVALID_INPUT' || error.message !== `DeviceError: ${expect.error}`) {
            problems.push(`${show()} refused as ${error.code} "${error.message}", expected "${expect.error}"`);
          }
          return;
        }
        for (const r of expect.requests) wanted.push(key(r.method, r.path.startsWith('/') ? r.path : base + r.path, r.body));
        if (errors.length) {
          const error = errors[0].error;
          const said = `${error.cause?.statusCode} ${error.cause?.deviceMessage}`;
          if (error.code === 'DEVICE_ERROR' && spec.deviceMay?.test(said)) deviceRefused++;
          else problems.push(`${show()} is valid but failed: ${error.code} ${error.message}`);
        }
      });

      const log: LogEntry[] = await ctl.log(since);
      // Health checks of the connection also read the version root: only device-info asks for it.
      const got = log.filter((e) => spec.type === 'device-info' || !isRoot(e.path)).map((e) => key(e.method, e.path, e.body));
      let gotList = spec.unordered ? [...got].sort() : got;
      let wantList = spec.unordered ? [...wanted].sort() : wanted;
      if (spec.type === 'device-info') {
        const root = (k: string) => k.startsWith('GET /api/io/0.9 ');
        gotList.filter(root).length.should.be.aboveOrEqual(wantList.filter(root).length);
        gotList = gotList.filter((k) => !root(k));
        wantList = wantList.filter((k) => !root(k));
      }
      if (JSON.stringify(gotList) !== JSON.stringify(wantList)) {
        const firstDiff = wantList.findIndex((w, j) => gotList[j] !== w);
        problems.push(`log differs from the model: ${gotList.length} requests, ${wantList.length} expected; first difference at ${firstDiff}: got ${gotList[firstDiff]}, expected ${wantList[firstDiff]}`);
      }
      // Nothing a payload carried beyond the node's fields reached the device.
      const bodyKeys = new Set<string>();
      for (const e of log) keysOf(e.body, bodyKeys);
      for (const k of ['__proto__', 'constructor', 'prototype', 'polluted', ...DECOYS]) if (bodyKeys.has(k)) problems.push(`a body reached the device with key ${k}`);
      for (const e of log) if (!e.path.startsWith(base) && !isRoot(e.path)) problems.push(`request outside the module: ${e.method} ${e.path}`);

      if (problems.length) throw new Error(`${problems.length} problem(s) (seed ${SEED}):\n  ${problems.slice(0, 10).join('\n  ')}`);
      totals.msgs += RUNS;
      totals.refused += refused;
      totals.valid += RUNS - refused;
      totals.requests += wanted.length;
      totals.deviceRefused += deviceRefused;
      totals.polluting += generated.filter((m) => hasOwn(m.payload, '__proto__')).length;
      // Both kinds were really tried.
      if (!spec.acceptsAll) refused.should.be.above(0);
      if (spec.type !== 'io-reset') (RUNS - refused).should.be.above(RUNS / 10);
    });
  }
});

function describeMsg(msg: NodeMessage): string {
  const text = (v: unknown): string => {
    try {
      return JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? `${x}n` : typeof x === 'number' && !Number.isFinite(x) ? String(x) : x === undefined ? '<undefined>' : x));
    } catch {
      return String(v);
    }
  };
  return `{operation: ${text(msg.operation)}, payload: ${text(msg.payload)}}`.slice(0, 300);
}
