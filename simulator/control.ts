/**
 * The control API under /sim/...: stimuli for the models (pin signals, shorts, alerts,
 * temperatures, loads, protection events), faults, services down/up, restart, config, the
 * request log and the full state. Not part of the device API and never logged.
 * Every error is the usual envelope: 400 with a readable message, 404 for unknown paths.
 */
import { checkFanDelay, checkRebootMs, Device, REBOOT_MAX_MS } from './device';
import { envelope, SimError } from './errors';
import { ALERT_FLAGS, AlertFlag, FAN_APPLY_MAX_MS, PIN_COUNT, Service, SERVICES } from './facts';
import { Faults } from './faults';
import { RingLog } from './log';
import { PROTECTION_EVENTS, ProtectionEvent } from './models/power';
import { CheckedBody, ParsedBody } from './router';
import { checkShape, ObjectSchema } from './schema';

export interface ControlContext {
  readonly device: Device;
  readonly log: RingLog;
  readonly faults: Faults;
  readonly now: number;
}

export interface ControlAnswer {
  readonly status: number;
  readonly body: string;
}

type Handler = (ctx: ControlContext, args: { params: string[]; query: URLSearchParams; body: ParsedBody }) => unknown;

const OK = { status: 'success' };

/** The body as an object matching `schema` with at least one field set, or a 400. */
function bodyOf(body: ParsedBody, schema: ObjectSchema): Record<string, CheckedBody> {
  if (body.kind === 'too_large') throw new SimError(413);
  if (body.kind !== 'json') throw new SimError(400, 'body must be a JSON object');
  const shape = checkShape(schema, body.value);
  if (shape !== true) throw new SimError(400, shape);
  const value = body.value as Record<string, CheckedBody>;
  if (!Object.keys(value).some((k) => value[k] !== null && value[k] !== undefined)) {
    throw new SimError(400, `body must set at least one of ${Object.keys(schema).join(', ')}`);
  }
  return value;
}

function slotOf(text: string): number {
  return /^\d{1,5}$/.test(text) ? Number(text) : -1;
}

function pinOf(text: string): number {
  const pin = /^\d{1,2}$/.test(text) ? Number(text) : NaN;
  if (!(pin >= 1 && pin <= PIN_COUNT)) throw new SimError(400, `pin must be an integer from 1 to ${PIN_COUNT}, got ${pin}`);
  return pin;
}

function need<T>(model: T | undefined, service: Service, slot: string): T {
  if (model === undefined) throw new SimError(404, `no ${service} module in slot ${slot}`);
  return model;
}

/** Sim-only bound for temperatures a test may set (°C): any plausible reading, incl. faults. */
function checkTemperature(field: string, value: unknown): void {
  if (value !== undefined && (typeof value !== 'number' || value < -100 || value > 300)) {
    throw new SimError(400, `${field} must be a number from -100 to 300 °C`);
  }
}

const PIN_SCHEMA: ObjectSchema = {
  voltage_mV: { type: 'u16', optional: true },
  level: { type: 'u8', optional: true },
  frequency_hz: { type: 'u32', optional: true },
  load_mA: { type: 'u16', optional: true },
};

const ROUTES: Array<[string, Handler]> = [
  [
    'GET log',
    (ctx, { query }) => {
      const text = query.get('since') ?? '0';
      if (!/^\d{1,15}$/.test(text)) throw new SimError(400, 'since must be a non-negative integer (a seq)');
      return { total: ctx.log.total, entries: ctx.log.entries(Number(text)) };
    },
  ],
  ['DELETE log', (ctx) => (ctx.log.clear(), OK)],
  [
    'GET state',
    (ctx) => ({
      ...(ctx.device.snapshot(ctx.now) as object),
      log: { total: ctx.log.total, capacity: ctx.log.capacity },
      faults: ctx.faults.list(),
    }),
  ],
  [
    'POST io/:slot/pins/:pin',
    (ctx, { params: [slot, pinText], body }) => {
      const io = need(ctx.device.io(slotOf(slot)), 'io', slot);
      const pin = pinOf(pinText);
      const b = bodyOf(body, PIN_SCHEMA);
      if (b.level !== undefined && b.level !== 0 && b.level !== 1) throw new SimError(400, 'level must be 0 or 1');
      io.stimulate(pin, { voltageMv: b.voltage_mV, level: b.level, frequencyHz: b.frequency_hz, loadMa: b.load_mA }, ctx.now);
      return OK;
    },
  ],
  [
    'POST io/:slot/pins/:pin/short',
    (ctx, { params: [slot, pinText] }) => {
      need(ctx.device.io(slotOf(slot)), 'io', slot).raise(pinOf(pinText), 'high_current_alert');
      return OK;
    },
  ],
  [
    'POST io/:slot/pins/:pin/alert',
    (ctx, { params: [slot, pinText], body }) => {
      const io = need(ctx.device.io(slotOf(slot)), 'io', slot);
      const pin = pinOf(pinText);
      const { alert } = bodyOf(body, { alert: 'string' });
      if (!ALERT_FLAGS.includes(alert)) throw new SimError(400, `alert must be one of ${ALERT_FLAGS.join(', ')}`);
      io.raise(pin, alert as AlertFlag);
      return OK;
    },
  ],
  [
    'POST bmc/:slot',
    (ctx, { params: [slot], body }) => {
      const bmc = need(ctx.device.bmc(slotOf(slot)), 'bmc', slot);
      const b = bodyOf(body, {
        ntc_0: { type: 'number', optional: true },
        ntc_1: { type: 'number', optional: true },
        voltage_1v8: { type: 'u16', optional: true },
        voltage_rtc: { type: 'u16', optional: true },
      });
      checkTemperature('ntc_0', b.ntc_0);
      checkTemperature('ntc_1', b.ntc_1);
      if (b.ntc_0 !== undefined) bmc.world.ntc0 = b.ntc_0;
      if (b.ntc_1 !== undefined) bmc.world.ntc1 = b.ntc_1;
      if (b.voltage_1v8 !== undefined) bmc.world.voltage1v8 = b.voltage_1v8;
      if (b.voltage_rtc !== undefined) bmc.world.voltageRtc = b.voltage_rtc;
      return OK;
    },
  ],
  [
    'POST power/:slot',
    (ctx, { params: [slot], body }) => {
      const power = need(ctx.device.power(slotOf(slot)), 'power', slot);
      const b = bodyOf(body, {
        on_board_temp: { type: 'number', optional: true },
        pmc_temp: { type: 'number', optional: true },
        load_3v3: { type: 'u16', optional: true },
        load_5v0: { type: 'u16', optional: true },
        load_12v: { type: 'u16', optional: true },
      });
      checkTemperature('on_board_temp', b.on_board_temp);
      checkTemperature('pmc_temp', b.pmc_temp);
      for (const rail of ['3v3', '5v0', '12v'] as const) if (b[`load_${rail}`] !== undefined) power.setLoad(rail, b[`load_${rail}`]);
      if (b.on_board_temp !== undefined || b.pmc_temp !== undefined) {
        power.setTemperatures({ onBoardTemp: b.on_board_temp, pmcTemp: b.pmc_temp }, ctx.now);
      }
      return OK;
    },
  ],
  [
    'POST power/:slot/protection',
    (ctx, { params: [slot], body }) => {
      const power = need(ctx.device.power(slotOf(slot)), 'power', slot);
      const { event } = bodyOf(body, { event: 'string' });
      if (!PROTECTION_EVENTS.includes(event)) throw new SimError(400, `event must be one of ${PROTECTION_EVENTS.join(', ')}`);
      power.count(event as ProtectionEvent);
      return OK;
    },
  ],
  [
    'POST faults',
    (ctx, { body }) => {
      if (body.kind !== 'json') throw new SimError(400, 'body must be a JSON object');
      const rule = ctx.faults.add(body.value);
      if (typeof rule === 'string') throw new SimError(400, rule);
      return { id: rule.id };
    },
  ],
  ['GET faults', (ctx) => ({ faults: ctx.faults.list() })],
  ['DELETE faults', (ctx) => (ctx.faults.clear(), OK)],
  [
    'DELETE faults/:id',
    (ctx, { params: [id] }) => {
      if (!ctx.faults.remove(id)) throw new SimError(404, `no fault with id ${id}`);
      return OK;
    },
  ],
  ['POST services/:svc/down', (ctx, { params: [svc] }) => (ctx.device.serviceDown(serviceOf(svc)), OK)],
  ['POST services/:svc/up', (ctx, { params: [svc] }) => (ctx.device.serviceUp(serviceOf(svc)), OK)],
  [
    'POST advance',
    (ctx, { body }) => {
      const { ms } = bodyOf(body, { ms: 'u32' });
      ctx.device.clockOffsetMs += ms;
      const now = ctx.device.now();
      ctx.device.tick(now);
      return { clock_offset_ms: ctx.device.clockOffsetMs, now };
    },
  ],
  ['POST restart', (ctx) => (ctx.device.restart(ctx.now), OK)],
  [
    'POST modules/:slot/replug',
    (ctx, { params: [slot] }) => {
      if (!ctx.device.replug(slotOf(slot), ctx.now)) throw new SimError(404, `no module in slot ${slot}`);
      return OK;
    },
  ],
  ['GET config', (ctx) => config(ctx.device)],
  [
    'POST config',
    (ctx, { body }) => {
      const b = bodyOf(body, { fan_apply_delay_ms: { type: 'u32', optional: true }, reboot_ms: { type: 'u32', optional: true } });
      // Both checked before either is set: a refused body changes nothing.
      const fanOk = b.fan_apply_delay_ms === undefined || checkFanDelay(b.fan_apply_delay_ms);
      if (fanOk !== true) throw new SimError(400, fanOk);
      const rebootOk = b.reboot_ms === undefined || checkRebootMs(b.reboot_ms);
      if (rebootOk !== true) throw new SimError(400, rebootOk);
      if (b.fan_apply_delay_ms !== undefined) ctx.device.fanApplyDelayMs = b.fan_apply_delay_ms;
      if (b.reboot_ms !== undefined) ctx.device.rebootMs = b.reboot_ms;
      return config(ctx.device);
    },
  ],
];

function config(device: Device): unknown {
  return { fan_apply_delay_ms: device.fanApplyDelayMs, max_ms: FAN_APPLY_MAX_MS, reboot_ms: device.rebootMs, reboot_max_ms: REBOOT_MAX_MS };
}

function serviceOf(text: string): Service {
  if (!SERVICES.includes(text as Service)) throw new SimError(404, `no service ${text}; use one of ${SERVICES.join(', ')}`);
  return text as Service;
}

/** Patterns split once; `:x` segments match anything and are passed on in order. */
const PATTERNS = ROUTES.map(([key, handler]) => {
  const [method, pattern] = key.split(' ');
  return { method, parts: pattern.split('/'), handler };
});

export function handleControl(ctx: ControlContext, method: string, segments: readonly string[], query: string, body: ParsedBody): ControlAnswer {
  const rest = segments.slice(1); // after "sim"
  for (const route of PATTERNS) {
    if (route.method !== method || route.parts.length !== rest.length) continue;
    const params: string[] = [];
    if (!route.parts.every((part, i) => (part.startsWith(':') ? params.push(rest[i]) > 0 : part === rest[i]))) continue;
    try {
      const result = route.handler(ctx, { params, query: new URLSearchParams(query), body });
      return { status: 200, body: JSON.stringify(result) };
    } catch (error) {
      if (error instanceof SimError) return { status: error.status, body: envelope(error.status, error.message) };
      throw error;
    }
  }
  return { status: 404, body: envelope(404, `unknown control route ${method} /${segments.join('/')}`) };
}
