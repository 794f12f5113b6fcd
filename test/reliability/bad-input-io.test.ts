/**
 * Bad input to the io nodes, case by case: for every msg field of io-output, io-threshold,
 * io-input, io-read and io-power, the lowest and highest allowed value reach the device
 * exactly as given; one beyond, the value as text, null, NaN, a fraction and an array are
 * refused (INVALID_INPUT naming field, value and range) and nothing is sent.
 *
 * Bounds are written here from the spec (the device's REST interface (API 0.9, the spec), "Limits")
 * and the reference of the released services (the released services' behaviour (API 1.0), API
 * 1.0), not read from nodes/lib/pure/limits.ts. Where the package narrows a device bound (the
 * value both APIs accept), the case says so. The same cases run on 0.9 and on 1.0 (MD_API).
 */
import type { NodeMessage } from '../../nodes/lib/base/node-red';
import { FieldCase, fieldSuite, intCase, NodeUnderTest, Req, wordCase } from '../helpers/field-cases';

const OUTPUT: NodeUnderTest = {
  type: 'io-output',
  service: 'io',
  settings: { pin: '1', mode: 'state', state: 'high', pwmInput: 'raw', prescaler: '47', period: '1000', time_on: '500' },
  // Outputs need a power-management configuration first (spec, io rule 1).
  prepare: (ctl) => ctl.powerConfig(2),
};
const THRESHOLD: NodeUnderTest = {
  type: 'io-threshold',
  service: 'io',
  settings: { pin: '2', threshold_mV: '1000', trigger: 'rising', analogFirst: true, applyOnConnect: false },
};
const INPUT: NodeUnderTest = {
  type: 'io-input',
  service: 'io',
  settings: { pin: '3', mode: 'digital', trigger: '', debounce_time_ms: '20', counter: '', applyOnConnect: false },
};
const READ: NodeUnderTest = {
  type: 'io-read',
  service: 'io',
  settings: { source: 'values', pin: 'all', interval: '0', onlyOnChange: false, deadband: '0', output: 'record' },
};
const POWER: NodeUnderTest = {
  type: 'io-power',
  service: 'io',
  settings: { pins: [1, 2, 3, 4, 5, 6].map(() => ({ rail: '5_volt', current: '100' })), applyOnConnect: false },
};

const payload = (fields: Record<string, unknown>): NodeMessage => ({ payload: fields, topic: 'bad-input' });
const pwm = (p: Record<string, unknown>): Req[] => [['POST', 'output/pwm', { pin: 1, ...p }]];
const analogThen = (body: Record<string, unknown>): Req[] => [
  ['POST', 'input/mode', { pin: 2, mode: 'analog' }],
  ['POST', 'input/analog/threshold', body],
];
const digitalThen = (endpoint: string, body: Record<string, unknown>): Req[] => [
  ['POST', 'input/mode', { pin: 3, mode: 'digital' }],
  ['POST', endpoint, body],
];

/** A power configuration whose first entry is `first`, the other pins on 5 V at 0 mA. */
function config(first: Record<string, unknown>, pin = 1): Array<Record<string, unknown>> {
  const others = [1, 2, 3, 4, 5, 6].filter((p) => p !== pin).slice(0, 5);
  return [{ pin, rail: '5_volt', current: 0, ...first }, ...others.map((p) => ({ pin: p, rail: '5_volt', current: 0 }))];
}
const sorted = (entries: Array<Record<string, unknown>>) => [...entries].sort((a, b) => (a.pin as number) - (b.pin as number));
const powerWire = (entries: Array<Record<string, unknown>>): Req[] => [['POST', 'power-management', { config: sorted(entries) }]];

// spec Limits: "io pins 6 (numbered 1..6)"; real §3.2 validates pin 1..6 as well.
const pinCase = (node: NodeUnderTest, wire: (pin: unknown) => Req[]): FieldCase =>
  intCase({ node, field: 'pin', msg: (pin) => payload({ pin }), wire, lowest: 1, highest: 6 });

const CASES: FieldCase[] = [
  // ---- io-output ----
  pinCase(OUTPUT, (pin) => [['POST', 'output/state', { pin, state: 'high' }]]),
  wordCase({
    node: OUTPUT,
    field: 'state',
    msg: (state) => payload({ pin: 1, state }),
    wire: (state) => [['POST', 'output/state', { pin: 1, state }]],
    words: ['high', 'low'],
  }),
  // prescaler: spec rule 6 allows the whole 16-bit range 0..65535; real §3.2/§6 refuses 0
  // and crashes (500) on 65535. Narrowed to what both take: 1..65534.
  intCase({
    node: OUTPUT,
    field: 'prescaler',
    msg: (prescaler) => payload({ pin: 1, prescaler, period: 1000, time_on: 500 }),
    wire: (prescaler) => pwm({ prescaler, period: 1000, time_on: 500 }),
    lowest: 1,
    highest: 65534,
  }),
  // period: 16-bit (spec rule 6), at least 2 (real §3.2). With time_on ≥ 1 and time_on ≤ period − 2
  // (real §3.2), 3 is the lowest usable period: 2 is refused for its time_on.
  intCase({
    node: OUTPUT,
    field: 'period',
    msg: (period) => payload({ pin: 1, prescaler: 47, period, time_on: 1 }),
    wire: (period) => pwm({ prescaler: 47, period, time_on: 1 }),
    lowest: 3,
    highest: 65535,
    below: 1,
    range: [2, 65535],
    refusedSaying: [{ value: 2, says: ['time_on', '1'] }],
  }),
  // time_on: spec rule 6 says time_on < period (0..999 for period 1000); real §3.2 takes
  // 1..period − 2. Narrowed to what both take: 1..998.
  intCase({
    node: OUTPUT,
    field: 'time_on',
    msg: (time_on) => payload({ pin: 1, prescaler: 47, period: 1000, time_on }),
    wire: (time_on) => pwm({ prescaler: 47, period: 1000, time_on }),
    lowest: 1,
    highest: 998,
  }),
  // Output frequency ⌊⌊48 000 000/(prescaler+1)⌋/period⌋ ≤ 1 MHz (real §3.2): prescaler 1, period 24 is
  // exactly 1 MHz; period 23 is 1 043 478 Hz, period 3 is 8 MHz.
  {
    node: OUTPUT,
    field: 'PWM frequency',
    msg: (period) => payload({ pin: 1, prescaler: 1, period, time_on: 1 }),
    wire: (period) => pwm({ prescaler: 1, period, time_on: 1 }),
    accepted: [24],
    refused: [],
    range: [],
    refusedSaying: [
      { value: 23, says: ['1000000', '1043478', 'period 23'] },
      { value: 3, says: ['1000000', '8000000'] },
    ],
  },

  // ---- io-threshold ----
  pinCase(THRESHOLD, (pin) => [
    ['POST', 'input/mode', { pin, mode: 'analog' }],
    ['POST', 'input/analog/threshold', { pin, threshold_mV: 1000, trigger: 'rising' }],
  ]),
  // spec Limits: "any value between 50 and 25000 mV"; real §3.2: 50..25000.
  intCase({
    node: THRESHOLD,
    field: 'threshold_mV',
    msg: (threshold_mV) => payload({ threshold_mV }),
    wire: (threshold_mV) => analogThen({ pin: 2, threshold_mV, trigger: 'rising' }),
    lowest: 50,
    highest: 25000,
  }),
  wordCase({
    node: THRESHOLD,
    field: 'trigger',
    msg: (trigger) => payload({ trigger }),
    wire: (trigger) => analogThen({ pin: 2, threshold_mV: 1000, trigger }),
    words: ['disabled', 'rising', 'falling'],
  }),

  // ---- io-input ----
  pinCase(INPUT, (pin) => [['POST', 'input/mode', { pin, mode: 'digital' }]]),
  wordCase({
    node: INPUT,
    field: 'mode',
    msg: (mode) => payload({ mode }),
    wire: (mode) => [['POST', 'input/mode', { pin: 3, mode }]],
    words: ['analog', 'digital'],
  }),
  // '' means "leave the interrupt as it is" (the dialog's blank choice): not a refusal.
  wordCase({
    node: INPUT,
    field: 'trigger',
    msg: (trigger) => payload({ trigger }),
    wire: (trigger) => digitalThen('input/digital/interrupt', { pin: 3, debounce_time_ms: 20, trigger }),
    words: ['disabled', 'rising', 'falling', 'pulse'],
    refused: ['RISING', ' rising', null, 1, ['rising']],
  }),
  // spec Limits: debounce 0..1000 ms; real §3.2: 0..1000.
  intCase({
    node: INPUT,
    field: 'debounce_time_ms',
    msg: (debounce_time_ms) => payload({ trigger: 'rising', debounce_time_ms }),
    wire: (debounce_time_ms) => digitalThen('input/digital/interrupt', { pin: 3, debounce_time_ms, trigger: 'rising' }),
    lowest: 0,
    highest: 1000,
  }),
  // The counter's field is `state` (spec: input/digital/counter {pin, state}); '' leaves it as it is.
  wordCase({
    node: INPUT,
    field: 'state',
    msg: (state) => payload({ state }),
    wire: (state) => digitalThen('input/digital/counter', { pin: 3, state }),
    words: ['enabled', 'disabled'],
    refused: ['ENABLED', ' enabled', null, 1, ['enabled']],
  }),

  // ---- io-read: pin 0 is the package's "all pins"; the device call is the same either way ----
  intCase({
    node: READ,
    field: 'pin',
    msg: (pin) => payload({ pin }),
    wire: () => [['GET', 'input/values', null]],
    lowest: 1,
    highest: 6,
    also: [0],
    below: -1,
    range: [1, 6],
  }),

  // ---- io-power ----
  // Per-pin current: the spec leaves it to the datasheet (rule 7); real §3.2: 5_volt ≤ 300 mA,
  // 12_volt ≤ 500 mA, 0 allowed.
  intCase({
    node: POWER,
    field: 'config[0].current',
    msg: (current) => payload({ config: config({ current }) }),
    wire: (current) => powerWire(config({ current })),
    lowest: 0,
    highest: 300,
    label: 'on 5_volt 0 and 300 mA reach the device; -1, 301, "0", null, NaN, 0.5, [0] refused',
  }),
  intCase({
    node: POWER,
    field: 'config[0].current',
    msg: (current) => payload({ config: config({ rail: '12_volt', current }) }),
    wire: (current) => powerWire(config({ rail: '12_volt', current })),
    lowest: 0,
    highest: 500,
    label: 'on 12_volt 0 and 500 mA reach the device; -1, 501, "0", null, NaN, 0.5, [0] refused',
  }),
  // spec: pin 1..6, one entry per pin.
  intCase({
    node: POWER,
    field: 'config[0].pin',
    msg: (pin) => payload({ config: config({}, pin as number) }),
    wire: (pin) => powerWire(config({}, pin as number)),
    lowest: 1,
    highest: 6,
  }),
  // spec: rail `5_volt` or `12_volt`.
  wordCase({
    node: POWER,
    field: 'config[0].rail',
    msg: (rail) => payload({ config: config({ rail }) }),
    wire: (rail) => powerWire(config({ rail })),
    words: ['5_volt', '12_volt'],
  }),
  // spec: six entries, one per pin (real §3.2: exactly 6).
  {
    node: POWER,
    field: 'config',
    msg: (entries) => payload({ config: entries }),
    wire: (entries) => powerWire(entries as Array<Record<string, unknown>>),
    accepted: [config({})],
    refused: [],
    range: [],
    label: 'six entries reach the device; five, seven, a pin twice, a null entry, a string, null refused',
    refusedSaying: [
      { value: config({}).slice(0, 5), says: ['config', '6', '5'] },
      { value: [...config({}), { pin: 6, rail: '5_volt', current: 0 }], says: ['config', '6', '7'] },
      { value: [config({})[0], ...config({}).slice(0, 5)], says: ['config[1].pin', '1'] },
      { value: [null, ...config({}).slice(1)], says: ['config[0]', 'null'] },
      { value: 'all', says: ['config', '6', '"all"'] },
      { value: null, says: ['config', '6', 'null'] },
    ],
  },
];

fieldSuite('reliability: bad input to the io nodes, case by case (runtime, simulator)', CASES);
