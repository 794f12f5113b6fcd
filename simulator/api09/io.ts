/** API 0.9 routes of the io service: spec field names over the plain io model. */
import { firstFailure } from '../errors';
import { PIN_COUNT } from '../facts';
import { IoModel, PowerEntry, Reading } from '../models/io';
import { CheckedBody, ok, Route, RouteContext, RouteTable } from '../router';
import { descriptor } from './common';
import { checkPowerConfig, checkPwm, within } from './limits';

const PIN_TYPE: Readonly<Record<Reading['kind'], string>> = {
  voltage: 'voltage_mV',
  level: 'digital_input',
  frequency: 'frequency_hz',
};

const PINS = Array.from({ length: PIN_COUNT }, (_, i) => i + 1);

/** The slot's io model; the router has checked that it exists. */
const io = (ctx: RouteContext): IoModel => ctx.device.io(ctx.slot)!;

const routes: Array<[string, Route]> = [
  ['GET descriptor', descriptor],
  [
    'GET notification',
    {
      handle: (ctx) => ({
        notification: io(ctx)
          .takeNotifications()
          .map(({ pin, alerts }) => ({ pin, ...alerts })),
      }),
    },
  ],
  [
    'GET reset',
    {
      handle: ok((ctx) => io(ctx).reset()),
    },
  ],
  [
    'POST power-management',
    {
      body: { config: { array: { pin: 'u8', rail: 'string', current: 'u16' } } },
      check: (b) => checkPowerConfig(b.config),
      handle: ok((ctx) => {
        const entries: PowerEntry[] = ctx.body.config.map((e: CheckedBody) => ({ pin: e.pin, rail: e.rail, currentMa: e.current }));
        // The driver suspends the module for it (real §3.2 step 1): the pending notification is gone.
        io(ctx).suspend();
        io(ctx).setPowerConfig(entries);
      }),
    },
  ],
  [
    'GET input/values',
    {
      handle(ctx) {
        const model = io(ctx);
        return {
          pins: PINS.map((pin) => {
            const r = model.reading(pin);
            return { pin, pin_type: PIN_TYPE[r.kind], value: r.value };
          }),
        };
      },
    },
  ],
  [
    'GET input/values/current',
    {
      handle(ctx) {
        const model = io(ctx);
        return { pins: PINS.map((pin) => ({ pin, pin_type: 'current_mA', value: model.currentMa(pin) })) };
      },
    },
  ],
  [
    'POST input/mode',
    {
      body: { pin: 'u8', mode: 'string' },
      check: (b) => firstFailure(within('pin', b.pin), within('mode', b.mode)),
      handle: ok((ctx) => io(ctx).setMode(ctx.body.pin, ctx.body.mode)),
    },
  ],
  [
    'POST input/analog/threshold',
    {
      body: { pin: 'u8', threshold_mV: 'u16', trigger: 'string' },
      check: (b) => firstFailure(within('pin', b.pin), within('threshold_trigger', b.trigger, 'trigger'), within('threshold_mV', b.threshold_mV)),
      handle: ok((ctx) => io(ctx).setThreshold(ctx.body.pin, ctx.body.threshold_mV, ctx.body.trigger)),
    },
  ],
  [
    'POST input/digital/interrupt',
    {
      body: { pin: 'u8', debounce_time_ms: 'u16', trigger: 'string' },
      check: (b) => firstFailure(within('pin', b.pin), within('interrupt_trigger', b.trigger, 'trigger'), within('debounce_time_ms', b.debounce_time_ms)),
      handle: ok((ctx) => io(ctx).setInterrupt(ctx.body.pin, ctx.body.debounce_time_ms, ctx.body.trigger)),
    },
  ],
  [
    'POST input/digital/counter',
    {
      body: { pin: 'u8', state: 'string' },
      check: (b) => firstFailure(within('pin', b.pin), within('counter_state', b.state, 'state')),
      handle: ok((ctx) => io(ctx).setCounter(ctx.body.pin, ctx.body.state === 'enabled')),
    },
  ],
  [
    'POST output/state',
    {
      body: { pin: 'u8', state: 'string' },
      check: (b) => firstFailure(within('pin', b.pin), within('output_state', b.state, 'state')),
      handle: ok((ctx) => io(ctx).setOutput(ctx.body.pin, ctx.body.state)),
    },
  ],
  [
    'POST output/pwm',
    {
      body: { pin: 'u8', prescaler: 'u16', time_on: 'u32', period: 'u32' },
      check: (b) => firstFailure(within('pin', b.pin), checkPwm(b)),
      handle: ok((ctx) => {
        const { pin, prescaler, period, time_on } = ctx.body;
        io(ctx).setPwm(pin, { prescaler, period, timeOn: time_on });
      }),
    },
  ],
];

export const IO_ROUTES: RouteTable = new Map(routes);
