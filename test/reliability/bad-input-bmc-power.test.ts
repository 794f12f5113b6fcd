/**
 * Bad input to the bmc and power nodes, case by case: for every msg field of bmc-watchdog,
 * bmc-usbhub, bmc-system, power-fan and power-limits (and msg.operation where the dialog
 * lets a msg choose), the allowed values at the bounds reach the device exactly as given;
 * one beyond, the value as text, null, NaN, a fraction and an array are refused
 * (INVALID_INPUT naming field, value and range) and nothing is sent.
 *
 * Bounds are written here from the spec (the device's REST interface (API 0.9, the spec), "Limits")
 * and the reference of the released services (the released services' behaviour (API 1.0), API
 * 1.0), not read from nodes/lib/pure/limits.ts. Where the package narrows a device bound, or the
 * two APIs differ, the case says so. Runs on 0.9 and on 1.0 (MD_API).
 */
import type { NodeMessage } from '../../nodes/lib/base/node-red';
import { IS_API10 } from '../helpers/api';
import { boolCase, FieldCase, fieldSuite, intCase, NodeUnderTest, Refusal, wordCase } from '../helpers/field-cases';

// "from msg.operation", confirmed: every operation a case needs can be chosen by its msg.
const WATCHDOG: NodeUnderTest = {
  type: 'bmc-watchdog',
  service: 'bmc',
  settings: { operation: 'msg', timeout: '0', keepAlive: false, interval: '1000', confirm: true, swShutdownTimeout: '60000' },
};
const USBHUB: NodeUnderTest = { type: 'bmc-usbhub', service: 'bmc', settings: { operation: 'msg', port: '2', state: true, confirm: false } };
const SYSTEM: NodeUnderTest = {
  type: 'bmc-system',
  service: 'bmc',
  settings: { operation: 'msg', mode: '2', duration: '50', enabled: false, timeout: '0', confirm: true },
};
const FAN: NodeUnderTest = {
  type: 'power-fan',
  service: 'power',
  settings: { operation: 'msg', fan_forced: true, fan_mode: '60', measurement_enabled: true, waitApplied: false },
};
const LIMITS: NodeUnderTest = {
  type: 'power-limits',
  service: 'power',
  settings: { operation: 'msg', limit_3v3: '3000', limit_5v0: '3000', limit_12v: '1000' },
};

const op = (operation: unknown, payload: Record<string, unknown> = {}): NodeMessage => ({ operation, payload, topic: 'bad-input' });

/** Rail limits other than the one under test: the node's settings. */
const LIMIT_SETTINGS = { limit_3v3: 3000, limit_5v0: 3000, limit_12v: 1000 };
const limitCase = (rail: keyof typeof LIMIT_SETTINGS, lowest: number, highest: number): FieldCase =>
  intCase({
    node: LIMITS,
    field: rail,
    msg: (v) => op('set', { [rail]: v }),
    wire: (v) => [['POST', 'limits', { ...LIMIT_SETTINGS, [rail]: v }]],
    lowest,
    highest,
  });

/**
 * USB port: the 0.9 hub has ports 2..8 (spec: fields port_slot_2..port_slot_8); the 1.0
 * service takes 2..7 (real §0, §6: usbhub/slot/<n>, else 400). On 1.0 the package refuses 8
 * before sending, naming the 1.0 range.
 */
const PORT_HIGHEST = IS_API10 ? 7 : 8;
const PORT_ON_10: Refusal[] = IS_API10 ? [{ value: 8, says: ['port', '8', '2', '7'] }] : [];

const CASES: FieldCase[] = [
  // ---- bmc-watchdog ----
  // spec Limits: "0 (disabled) or 1000..600000 ms"; real §3.3 the same. 0 comes last, so the
  // watchdog is off again at once (a 1000 ms watchdog would reset the device).
  intCase({
    node: WATCHDOG,
    field: 'timeout',
    msg: (timeout) => op('timeout', { timeout }),
    wire: (timeout) => [['POST', 'watchdog', { timeout }]],
    lowest: 1000,
    highest: 600000,
    also: [0],
  }),
  // spec Limits: sw_shutdown_timeout 10000..600000 ms; real §3.3 the same.
  intCase({
    node: WATCHDOG,
    field: 'timeout',
    msg: (timeout) => op('sw_shutdown_timeout', { timeout }),
    wire: (timeout) => [['POST', 'watchdog/sw_shutdown_timeout', { timeout }]],
    lowest: 10000,
    highest: 600000,
  }),
  wordCase({
    node: WATCHDOG,
    field: 'msg.operation',
    msg: (operation) => op(operation),
    wire: () => [['GET', 'watchdog', null]],
    words: ['read'],
    refused: ['READ', ' read', '', null, 1, ['read'], 'reboot'],
  }),

  // ---- bmc-usbhub ----
  intCase({
    node: USBHUB,
    field: 'port',
    msg: (port) => op('port', { port, state: true }),
    wire: (port) => [['POST', `usbhub/port/${port}`, { state: true }]],
    lowest: 2,
    highest: PORT_HIGHEST,
    above: 9,
    range: [2, 8],
    refusedSaying: PORT_ON_10,
  }),
  boolCase({ node: USBHUB, field: 'state', msg: (state) => op('hub', { state }), wire: (state) => [['POST', 'usbhub', { state }]] }),

  // ---- bmc-system ----
  // spec Limits: buzzer mode 0..5, duration 1..1000 ms; real §3.3: both required for every mode.
  intCase({
    node: SYSTEM,
    field: 'mode',
    msg: (mode) => op('buzzer', { mode, duration: 50 }),
    wire: (mode) => [['POST', 'buzzer', { mode, duration: 50 }]],
    lowest: 0,
    highest: 5,
  }),
  intCase({
    node: SYSTEM,
    field: 'duration',
    msg: (duration) => op('buzzer', { mode: 2, duration }),
    wire: (duration) => [['POST', 'buzzer', { mode: 2, duration }]],
    lowest: 1,
    highest: 1000,
  }),
  // spec Limits: bootloader timeout "at most 3600000 ms", lower bound not shown; real §6: 0 allowed.
  intCase({
    node: SYSTEM,
    field: 'timeout',
    msg: (timeout) => op('usb_bootloader', { enabled: false, timeout }),
    wire: (timeout) => [['POST', 'usb_bootloader', { enabled: false, timeout }]],
    lowest: 0,
    highest: 3600000,
  }),
  boolCase({
    node: SYSTEM,
    field: 'enabled',
    msg: (enabled) => op('usb_bootloader', { enabled, timeout: 0 }),
    wire: (enabled) => [['POST', 'usb_bootloader', { enabled, timeout: 0 }]],
  }),

  // ---- power-fan ----
  // spec: fan modes 0, 20, 40, 60, 80, 100 percent; real §3.4 the same.
  {
    node: FAN,
    field: 'fan_mode',
    msg: (fan_mode) => op('set', { fan_forced: true, fan_mode }),
    wire: (fan_mode) => [['POST', 'fan', { fan_forced: true, fan_mode }]],
    accepted: [0, 20, 40, 60, 80, 100],
    refused: [10, 101, -20, '60', null, NaN, 60.5, [60]],
    range: [0, 20, 40, 60, 80, 100],
  },
  boolCase({
    node: FAN,
    field: 'fan_forced',
    msg: (fan_forced) => op('set', { fan_forced, fan_mode: 60 }),
    wire: (fan_forced) => [['POST', 'fan', { fan_forced, fan_mode: 60 }]],
  }),
  boolCase({
    node: FAN,
    field: 'measurement_enabled',
    msg: (measurement_enabled) => op('measurement', { measurement_enabled }),
    wire: (measurement_enabled) => [['POST', 'fan/rpm', { measurement_enabled }]],
  }),
  wordCase({
    node: FAN,
    field: 'msg.operation',
    msg: (operation) => op(operation),
    words: ['read', 'set', 'rpm', 'measurement'],
    wire: (operation) =>
      operation === 'set'
        ? [['POST', 'fan', { fan_forced: true, fan_mode: 60 }]]
        : operation === 'measurement'
          ? [['POST', 'fan/rpm', { measurement_enabled: true }]]
          : [['GET', operation === 'rpm' ? 'fan/rpm' : 'fan', null]],
  }),

  // ---- power-limits ----
  // spec Limits: "greater than 1000 and less than 5950 mA" (exclusive), its sample sets 5950;
  // real §3.4: 1000..5950 inclusive. Narrowed to what both accept: 1001..5950 (1000 refused on 1.0 too).
  limitCase('limit_3v3', 1001, 5950),
  // spec: > 1000 and < 4950, sample sets 4950; real §3.4: 1000..4950. Both accept 1001..4950.
  limitCase('limit_5v0', 1001, 4950),
  // spec: > 100 and < 2400, sample sets 2400; real §3.4: 100..2400. Both accept 101..2400.
  limitCase('limit_12v', 101, 2400),
  wordCase({
    node: LIMITS,
    field: 'msg.operation',
    msg: (operation) => op(operation),
    words: ['set', 'read'],
    wire: (operation) => (operation === 'set' ? [['POST', 'limits', LIMIT_SETTINGS]] : [['GET', 'stats', null]]),
  }),
];

fieldSuite('reliability: bad input to the bmc and power nodes, case by case (runtime, simulator)', CASES);
