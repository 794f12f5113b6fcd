/** API 0.9 routes of the bmc service. */
import { check, checkBool, USB_PORT_FIELDS } from '../../nodes/lib/limits';
import { BmcModel } from '../models/bmc';
import { ok, Route, RouteContext, RouteTable } from '../router';
import { descriptor, firstFailure } from './common';

const bmc = (ctx: RouteContext): BmcModel => ctx.device.bmc(ctx.slot)!;

/** `port_slot_<n>` → n, computed once from the field list in limits.ts. */
const PORT_FIELDS = USB_PORT_FIELDS.map((field) => [field, Number(field.slice('port_slot_'.length))] as const);

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
      check: (b) => check('watchdog_timeout', b.timeout, 'timeout'),
      handle: ok((ctx) => bmc(ctx).setWatchdog(ctx.body.timeout, ctx.now)),
    },
  ],
  [
    'POST watchdog/sw_shutdown_timeout',
    {
      body: { timeout: 'u32' },
      check: (b) => check('sw_shutdown_timeout', b.timeout, 'timeout'),
      handle: ok((ctx) => bmc(ctx).setShutdownTimeout(ctx.body.timeout)),
    },
  ],
  [
    'POST watchdog/shutdown',
    {
      body: { shutdown: 'string' },
      check: (b) => check('watchdog_shutdown', b.shutdown, 'shutdown'),
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
      check: (b) => checkBool('state', b.state),
      handle: ok((ctx) => bmc(ctx).setHubPending(ctx.body.state)),
    },
  ],
  [
    'POST usbhub/port/:n',
    {
      body: { state: 'bool' },
      check: (_b, port) => check('usb_port', port, 'port'),
      handle: ok((ctx) => bmc(ctx).setPortPending(ctx.param, ctx.body.state)),
    },
  ],
  [
    'POST usbhub/reset',
    {
      body: { reset: 'string' },
      check: (b) => check('reset_confirmation', b.reset, 'reset'),
      handle: ok((ctx) => bmc(ctx).applyHub()),
    },
  ],
  [
    'POST usb_bootloader',
    {
      body: { enabled: 'bool', timeout: 'u32' },
      check: (b) => check('bootloader_timeout', b.timeout, 'timeout'),
      handle: ok((ctx) => bmc(ctx).setBootloader(ctx.body.enabled, ctx.body.timeout)),
    },
  ],
  [
    'POST hard_reset',
    {
      body: { reset: 'string' },
      check: (b) => check('reset_confirmation', b.reset, 'reset'),
      // The answer is built before the reset takes effect, as a device acknowledges first.
      handle: ok((ctx) => ctx.device.hardReset(ctx.now, 'hard_reset')),
    },
  ],
  [
    'POST buzzer',
    {
      body: { mode: 'u8', duration: 'u32' },
      check: (b) => firstFailure(check('buzzer_mode', b.mode, 'mode'), check('buzzer_duration', b.duration, 'duration')),
      handle: ok((ctx) => bmc(ctx).buzzer(ctx.body.mode, ctx.body.duration, ctx.now)),
    },
  ],
];

export const BMC_ROUTES: RouteTable = new Map(routes);
