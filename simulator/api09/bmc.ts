/** API 0.9 routes of the bmc service. */
import { firstFailure } from '../errors';
import { BmcModel } from '../models/bmc';
import { ok, Route, RouteContext, RouteTable } from '../router';
import { descriptor } from './common';
import { SPEC_09, within } from './limits';

const bmc = (ctx: RouteContext): BmcModel => ctx.device.bmc(ctx.slot)!;

/** The hub record's fields `port_slot_2..port_slot_8` (spec, bmc USB hub state) and their port numbers. */
const PORT_FIELDS = Array.from(
  { length: SPEC_09.port.max - SPEC_09.port.min + 1 },
  (_, i) => [`port_slot_${i + SPEC_09.port.min}`, i + SPEC_09.port.min] as const,
);

const routes: Array<[string, Route]> = [
  ['GET descriptor', descriptor],
  [
    'GET voltage',
    {
      handle(ctx) {
        const r = bmc(ctx).voltages(ctx.now);
        return { voltage_1v8: r.v1v8, voltage_rtc: r.vRtc };
      },
    },
  ],
  [
    'GET temperature',
    {
      handle(ctx) {
        const r = bmc(ctx).temperatures(ctx.now);
        return { ntc_0: r.ntc0, ntc_1: r.ntc1 };
      },
    },
  ],
  [
    'GET watchdog',
    {
      handle(ctx) {
        const w = bmc(ctx).watchdog(ctx.now);
        return { timeout: w.timeoutMs, timeout_left: w.leftMs, shutdown_timeout: w.shutdownMs, emergency_mode: w.emergency };
      },
    },
  ],
  [
    'POST watchdog',
    {
      body: { timeout: 'u32' },
      check: (b) => within('watchdog_timeout', b.timeout, 'timeout'),
      handle: ok((ctx) => bmc(ctx).setWatchdog(ctx.body.timeout, ctx.now)),
    },
  ],
  [
    'POST watchdog/sw_shutdown_timeout',
    {
      body: { timeout: 'u32' },
      check: (b) => within('sw_shutdown_timeout', b.timeout, 'timeout'),
      handle: ok((ctx) => bmc(ctx).setShutdownTimeout(ctx.body.timeout)),
    },
  ],
  [
    'POST watchdog/shutdown',
    {
      body: { shutdown: 'string' },
      check: (b) => within('shutdown', b.shutdown),
      handle: ok((ctx) => bmc(ctx).startShutdown(ctx.now)),
    },
  ],
  ['GET watchdog/alive', { handle: ok((ctx) => bmc(ctx).alive(ctx.now)) }],
  ['GET watchdog/save', { handle: ok((ctx) => bmc(ctx).saveWatchdog()) }],
  [
    'GET usbhub',
    {
      handle(ctx) {
        const model = bmc(ctx);
        const record: Record<string, string> = { hub_state: model.hub };
        for (const [field, n] of PORT_FIELDS) record[field] = model.ports[n];
        return record;
      },
    },
  ],
  [
    'POST usbhub',
    {
      body: { state: 'bool' },
      handle: ok((ctx) => bmc(ctx).setHubPending(ctx.body.state)),
    },
  ],
  [
    'POST usbhub/port/:n',
    {
      body: { state: 'bool' },
      check: (_b, port) => within('port', port),
      handle: ok((ctx) => bmc(ctx).setPortPending(ctx.param, ctx.body.state)),
    },
  ],
  [
    'POST usbhub/reset',
    {
      body: { reset: 'string' },
      check: (b) => within('reset', b.reset),
      handle: ok((ctx) => bmc(ctx).applyHub()),
    },
  ],
  [
    'POST usb_bootloader',
    {
      body: { enabled: 'bool', timeout: 'u32' },
      check: (b) => within('bootloader_timeout', b.timeout, 'timeout'),
      handle: ok((ctx) => bmc(ctx).setBootloader(ctx.body.enabled, ctx.body.timeout)),
    },
  ],
  [
    'POST hard_reset',
    {
      body: { reset: 'string' },
      check: (b) => within('reset', b.reset),
      // The answer is built before the reset takes effect, as a device acknowledges first.
      handle: ok((ctx) => ctx.device.hardReset(ctx.now, 'hard_reset')),
    },
  ],
  [
    'POST buzzer',
    {
      body: { mode: 'u8', duration: 'u32' },
      check: (b) => firstFailure(within('buzzer_mode', b.mode, 'mode'), within('buzzer_duration', b.duration, 'duration')),
      handle: ok((ctx) => bmc(ctx).buzzer(ctx.body.mode, ctx.body.duration, ctx.now)),
    },
  ],
];

export const BMC_ROUTES: RouteTable = new Map(routes);
