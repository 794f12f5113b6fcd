/**
 * API 1.0 routes of the io service: the released field names, `POST reset`, notifications
 * per pin, power-management with a budget answer, and the released refusals (io library
 * value errors are 400; real §3.2).
 */
import { fits } from '../bounds';
import { firstFailure, SimError } from '../errors';
import { PIN_COUNT, pwmOutputHz } from '../facts';
import { IoModel, PowerEntry, Reading } from '../models/io';
import { CheckedBody, ok, Route, RouteContext, RouteTable } from '../router';
import { descriptor } from '../api09/common';
import { reset } from './common';
import { check10, CONFIG_ENTRIES, PVF, PWM_MAX_HZ, REAL_10, refusal } from './limits';

const PIN_TYPE: Readonly<Record<Reading['kind'], string>> = {
  voltage: 'voltage_millivolt',
  level: 'digital_input',
  frequency: 'frequency_hertz',
};

/**
 * The power budget daemon's limits per rail, mW. The real ones are not public (real §3.2);
 * these let the demo configurations through and refuse six pins at their 5 V cap. No answer
 * reports them (as on the device); the descriptor's max_power_5v0/12v are not these limits.
 */
export const POWER_BUDGET_MW = { '5v0': 6000, '12v': 24000 } as const;

const PINS = Array.from({ length: PIN_COUNT }, (_, i) => i + 1);
const io = (ctx: RouteContext): IoModel => ctx.device.io(ctx.slot)!;
const isPin = (pin: unknown): boolean => fits(REAL_10.pin, pin);
/** validate() of input/mode and output/state: pin and the word, else PVF (real §3.2). */
const pinAnd = (pin: unknown, word: true | SimError): true | SimError => (isPin(pin) && word === true ? true : refusal(PVF));
/** The device refuses a pin outside 1..6 (device status 4, real §3.2 table B). */
const devicePin = (pin: unknown): true | SimError => (isPin(pin) ? true : new SimError(400, 'Invalid pin'));

/**
 * output/pwm's validate() (real §3.2, PVF), in its order: pin 1..6, period ≥ 2,
 * 1 ≤ time_on ≤ period − 2, prescaler ≥ 1, then the output frequency at most 1 MHz, whose
 * computation overflows on prescaler 65535: a panic, 500.
 */
function checkPwm(b: { pin: number; prescaler: number; period: number; time_on: number }): true | SimError {
  const fields = isPin(b.pin) && fits(REAL_10.period, b.period) && b.time_on >= 1 && b.time_on <= b.period - 2 && b.prescaler >= REAL_10.prescaler.min;
  if (!fields) return refusal(PVF);
  if (b.prescaler > REAL_10.prescaler.max) return new SimError(500);
  return pwmOutputHz(b.prescaler, b.period) <= PWM_MAX_HZ ? true : refusal(PVF);
}

/** power-management's validate(), then the library's per-pin caps (real §3.2). */
const powerConfigValid = (config: Array<{ rail: string }>): true | SimError =>
  config.length === CONFIG_ENTRIES && config.every((e) => fits(REAL_10.rail, e.rail)) ? true : refusal(PVF);

function currentCaps(config: Array<{ rail: string; current_milliampere: number }>): true | SimError {
  const i = config.findIndex((e) => !fits(e.rail === '5_volt' ? REAL_10.current_5_volt : REAL_10.current_12_volt, e.current_milliampere));
  return i < 0 ? true : new SimError(400, `Invalid current limit for pin: ${i}`);
}

/** The rail budget as drv-io computes it (real §3.2 "How power-management is decided"). */
function overBudget(entries: PowerEntry[]) {
  let mw5 = 0;
  let mw12 = 0;
  for (const e of entries) {
    if (e.rail === '5_volt') mw5 += e.currentMa * 5 + 200;
    else {
      mw5 += 400;
      mw12 += e.currentMa * 12;
    }
  }
  return {
    rail_3v3_milliwatt: 0,
    rail_5v0_milliwatt: Math.max(0, mw5 - POWER_BUDGET_MW['5v0']),
    rail_12v_milliwatt: Math.max(0, mw12 - POWER_BUDGET_MW['12v']),
  };
}

const routes: Array<[string, Route]> = [
  ['GET descriptor', descriptor],
  ['POST reset', reset],
  [
    'GET notification/:n',
    {
      checkAfterSlot: (_b, pin) => (isPin(pin) ? true : new SimError(404, 'Pin out of range')),
      handle: (ctx) => io(ctx).readPinNotification(ctx.param),
    },
  ],
  [
    'POST power-management',
    {
      body: { config: { array: { rail: 'string', current_milliampere: 'u16' } } },
      check: (b) => powerConfigValid(b.config),
      checkAfterSlot: (b) => currentCaps(b.config),
      handle(ctx) {
        const entries: PowerEntry[] = ctx.body.config.map((e: CheckedBody, i: number) => ({ pin: i + 1, rail: e.rail, currentMa: e.current_milliampere }));
        // The driver suspends the module first (step 1), whatever the budget says: the pending notification is gone (§5).
        io(ctx).suspend();
        const over = overBudget(entries);
        if (over.rail_5v0_milliwatt > 0 || over.rail_12v_milliwatt > 0) return { status: 'denied', too_much_power: over };
        // The module re-enumerates after a new configuration: pins anew, a new device_session.
        io(ctx).reenumerate(entries);
        return { status: 'success', too_much_power: over };
      },
    },
  ],
  [
    'GET input/values',
    { handle: (ctx) => ({ pins: PINS.map((pin) => ({ pin, pin_type: PIN_TYPE[io(ctx).reading(pin).kind], value: io(ctx).reading(pin).value })) }) },
  ],
  ['GET input/values/current', { handle: (ctx) => ({ pins: PINS.map((pin) => ({ pin, pin_type: 'current_milliampere', value: io(ctx).currentMa(pin) })) }) }],
  [
    'POST input/mode',
    {
      body: { pin: 'u8', mode: 'string' },
      check: (b) => pinAnd(b.pin, check10('mode', b.mode)),
      handle: ok((ctx) => io(ctx).setMode(ctx.body.pin, ctx.body.mode)),
    },
  ],
  [
    'POST input/analog/threshold',
    {
      body: { pin: 'u8', threshold_millivolt: 'u16', trigger: 'string' },
      checkAfterSlot: (b) => firstFailure(check10('threshold_trigger', b.trigger), check10('threshold_millivolt', b.threshold_millivolt), devicePin(b.pin)),
      handle: ok((ctx) => io(ctx).setThreshold(ctx.body.pin, ctx.body.threshold_millivolt, ctx.body.trigger)),
    },
  ],
  [
    'POST input/digital/interrupt',
    {
      body: { pin: 'u8', debounce_time_milliseconds: 'u16', trigger: 'string' },
      checkAfterSlot: (b) =>
        firstFailure(check10('interrupt_trigger', b.trigger), check10('debounce_time_milliseconds', b.debounce_time_milliseconds), devicePin(b.pin)),
      handle: ok((ctx) => io(ctx).setInterrupt(ctx.body.pin, ctx.body.debounce_time_milliseconds, ctx.body.trigger)),
    },
  ],
  [
    'POST input/digital/counter',
    {
      body: { pin: 'u8', state: 'string' },
      checkAfterSlot: (b) => firstFailure(check10('counter_state', b.state), devicePin(b.pin)),
      handle: ok((ctx) => io(ctx).setCounter(ctx.body.pin, ctx.body.state === 'enabled')),
    },
  ],
  [
    'POST output/state',
    {
      body: { pin: 'u8', state: 'string' },
      check: (b) => pinAnd(b.pin, check10('output_state', b.state)),
      handle: ok((ctx) => io(ctx).setOutput(ctx.body.pin, ctx.body.state)),
    },
  ],
  [
    'POST output/pwm',
    {
      body: { pin: 'u8', prescaler: 'u16', time_on: 'u32', period: 'u32' },
      check: checkPwm,
      handle: ok((ctx) => {
        const { pin, prescaler, period, time_on } = ctx.body;
        io(ctx).setPwm(pin, { prescaler, period, timeOn: time_on });
      }),
    },
  ],
];

export const IO_ROUTES: RouteTable = new Map(routes);
