/**
 * API 1.0 routes of the io service: the released field names, `POST reset`, notifications
 * per pin, power-management with a budget answer, and the released refusals (io library
 * value errors are 400; real §3.2).
 */
import { FACTS, LIMITS, checkPwm } from '../../nodes/lib/limits';
import { SimError, SUCCESS } from '../errors';
import { IoModel, PowerEntry, Reading } from '../models/io';
import { newSession } from '../models/types';
import { Route, RouteContext, RouteTable } from '../router';
import { descriptor } from '../api09/common';
import { PVF, isPin, reset, within } from './common';

const PIN_TYPE: Readonly<Record<Reading['kind'], string>> = {
  voltage: 'voltage_millivolt',
  level: 'digital_input',
  frequency: 'frequency_hertz',
};

/**
 * The power budget daemon's limits per rail, mW. The real ones are not public (real §3.2);
 * these let the demo configurations through and refuse six pins at their 5 V cap.
 */
export const POWER_BUDGET_MW = { '5v0': 6000, '12v': 24000 } as const;

const PINS = Array.from({ length: FACTS.pinCount }, (_, i) => i + 1);
const io = (ctx: RouteContext): IoModel => ctx.device.io(ctx.slot)!;
const bad = (message: string) => new SimError(400, message);
/** The device refuses a pin outside 1..6 (device status 4, real §3.2 table B). */
const devicePin = (pin: unknown) => (isPin(pin) ? true : bad('Invalid pin'));

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
      check: (b) => (b.config.length === FACTS.pinCount && b.config.every((e: any) => within('rail', e.rail)) ? true : PVF()),
      checkAfterSlot(b) {
        const i = b.config.findIndex((e: any) => !within(e.rail === '5_volt' ? 'current_5_volt' : 'current_12_volt', e.current_milliampere));
        return i < 0 ? true : bad(`Invalid current limit for pin: ${i}`);
      },
      handle(ctx) {
        const entries: PowerEntry[] = ctx.body.config.map((e: any, i: number) => ({ pin: i + 1, rail: e.rail, currentMa: e.current_milliampere }));
        const over = overBudget(entries);
        if (over.rail_5v0_milliwatt > 0 || over.rail_12v_milliwatt > 0) return { status: 'denied', too_much_power: over };
        io(ctx).setPowerConfig(entries);
        // The module re-enumerates after a new configuration: a new device_session.
        (io(ctx) as { session: string }).session = newSession();
        return { status: 'success', too_much_power: over };
      },
    },
  ],
  [
    'GET input/values',
    { handle: (ctx) => ({ pins: PINS.map((pin) => ({ pin, pin_type: PIN_TYPE[io(ctx).reading(pin).kind], value: io(ctx).reading(pin).value })) }) },
  ],
  [
    'GET input/values/current',
    { handle: (ctx) => ({ pins: PINS.map((pin) => ({ pin, pin_type: 'current_milliampere', value: io(ctx).currentMa(pin) })) }) },
  ],
  [
    'POST input/mode',
    {
      body: { pin: 'u8', mode: 'string' },
      check: (b) => (isPin(b.pin) && within('input_mode', b.mode) ? true : PVF()),
      handle(ctx) {
        io(ctx).setMode(ctx.body.pin, ctx.body.mode);
        return SUCCESS;
      },
    },
  ],
  [
    'POST input/analog/threshold',
    {
      body: { pin: 'u8', threshold_millivolt: 'u16', trigger: 'string' },
      checkAfterSlot(b) {
        if (!within('threshold_trigger', b.trigger)) return bad('Invalid trigger');
        const t = LIMITS.threshold_mV;
        if (!within('threshold_mV', b.threshold_millivolt)) return bad(`Invalid threshold_mv value (${t.min}-${t.max})`);
        return devicePin(b.pin);
      },
      handle(ctx) {
        io(ctx).setThreshold(ctx.body.pin, ctx.body.threshold_millivolt, ctx.body.trigger);
        return SUCCESS;
      },
    },
  ],
  [
    'POST input/digital/interrupt',
    {
      body: { pin: 'u8', debounce_time_milliseconds: 'u16', trigger: 'string' },
      checkAfterSlot(b) {
        if (!within('interrupt_trigger', b.trigger)) return bad('Invalid trigger');
        const d = LIMITS.debounce_time_ms;
        // "debunce" is how the released library spells it.
        if (!within('debounce_time_ms', b.debounce_time_milliseconds)) return bad(`Invalid debunce_time_ms value (${d.min}-${d.max})`);
        return devicePin(b.pin);
      },
      handle(ctx) {
        io(ctx).setInterrupt(ctx.body.pin, ctx.body.debounce_time_milliseconds, ctx.body.trigger);
        return SUCCESS;
      },
    },
  ],
  [
    'POST input/digital/counter',
    {
      body: { pin: 'u8', state: 'string' },
      checkAfterSlot: (b) => (within('counter_state', b.state) ? devicePin(b.pin) : bad('Invalid state')),
      handle(ctx) {
        io(ctx).setCounter(ctx.body.pin, ctx.body.state === 'enabled');
        return SUCCESS;
      },
    },
  ],
  [
    'POST output/state',
    {
      body: { pin: 'u8', state: 'string' },
      check: (b) => (isPin(b.pin) && within('output_state', b.state) ? true : PVF()),
      handle(ctx) {
        io(ctx).setOutput(ctx.body.pin, ctx.body.state);
        return SUCCESS;
      },
    },
  ],
  [
    'POST output/pwm',
    {
      body: { pin: 'u8', prescaler: 'u16', time_on: 'u32', period: 'u32' },
      check(b) {
        // The released service overflows on prescaler 65535 and answers 500 (real §3.2).
        if (b.prescaler === LIMITS.prescaler.max + 1) return new SimError(500);
        return isPin(b.pin) && checkPwm(b) === true ? true : PVF();
      },
      handle(ctx) {
        const { pin, prescaler, period, time_on } = ctx.body;
        io(ctx).setPwm(pin, { prescaler, period, timeOn: time_on });
        return SUCCESS;
      },
    },
  ],
];

export const IO_ROUTES: RouteTable = new Map(routes);
