/**
 * API 1.0 routes of the bmc service: `usbhub/slot/<2..7>` with `port_slot_0..7`, the USB
 * device list, and the released refusals (bmc library value errors are 422; real §3.3).
 */
import { firstFailure } from '../errors';
import { BmcModel } from '../models/bmc';
import { ok, Route, RouteContext, RouteTable } from '../router';
import { BMC_ROUTES as API09_BMC } from '../api09/bmc';
import { reset } from './common';
import { check10 } from './limits';

const bmc = (ctx: RouteContext): BmcModel => ctx.device.bmc(ctx.slot)!;
/** The API 1.0 record lists hub slots 0..7. */
const PORT_NUMBERS = [0, 1, 2, 3, 4, 5, 6, 7];

/**
 * USB devices plugged into the simulated hub, by port; listed while hub and port are
 * enabled (real §3.3: disabled or unavailable slots are excluded).
 */
const PLUGGED: Readonly<Record<number, { manufacturer: string; product: string; serial_code: string }>> = {
  3: { manufacturer: 'Example Storage', product: 'USB Flash Drive', serial_code: 'SIM0003' },
  5: { manufacturer: 'Example Radio', product: 'LTE Modem', serial_code: 'SIM0005' },
};

/** Routes API 1.0 answers exactly as 0.9 does (real §3.3). */
const SAME_AS_09 = ['GET descriptor', 'GET voltage', 'GET temperature', 'GET watchdog', 'GET watchdog/alive', 'GET watchdog/save'];

const routes: Array<[string, Route]> = [
  // Reads (and alive/save) are the same in both versions.
  ...SAME_AS_09.map((key): [string, Route] => [key, API09_BMC.get(key)!]),
  ['POST reset', reset],
  [
    'POST watchdog',
    {
      body: { timeout: 'u32' },
      checkAfterSlot: (b) => check10('watchdog_timeout', b.timeout),
      handle: ok((ctx) => bmc(ctx).setWatchdog(ctx.body.timeout, ctx.now)),
    },
  ],
  [
    'POST watchdog/sw_shutdown_timeout',
    {
      body: { timeout: 'u32' },
      checkAfterSlot: (b) => check10('sw_shutdown_timeout', b.timeout),
      handle: ok((ctx) => bmc(ctx).setShutdownTimeout(ctx.body.timeout)),
    },
  ],
  [
    'POST watchdog/shutdown',
    {
      body: { shutdown: 'string' },
      checkAfterSlot: (b) => check10('shutdown', b.shutdown),
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
        for (const n of PORT_NUMBERS) record[`port_slot_${n}`] = model.ports[n];
        return record;
      },
    },
  ],
  [
    'GET usbhub/devices',
    {
      handle(ctx) {
        const model = bmc(ctx);
        const devices = Object.entries(PLUGGED)
          .map(([port, d]) => ({ port: Number(port), d }))
          .filter(({ port }) => model.hub === 'enabled' && model.ports[port] === 'enabled')
          .map(({ port, d }) => ({ slot: port, usb_port: 1, ...d, system_path: `/dev/bus/usb/001/00${port}` }));
        return { devices };
      },
    },
  ],
  ['POST usbhub', { body: { state: 'bool' }, handle: ok((ctx) => bmc(ctx).setHubPending(ctx.body.state)) }],
  [
    'POST usbhub/slot/:n',
    {
      body: { state: 'bool' },
      checkAfterSlot: (_b, n) => check10('usb_slot', n),
      handle: ok((ctx) => bmc(ctx).setPortPending(ctx.param, ctx.body.state)),
    },
  ],
  [
    'POST usbhub/reset',
    {
      body: { reset: 'string' },
      checkAfterSlot: (b) => check10('confirm', b.reset),
      handle: ok((ctx) => bmc(ctx).applyHub()),
    },
  ],
  [
    'POST usb_bootloader',
    {
      body: { enabled: 'bool', timeout: 'u32' },
      checkAfterSlot: (b) => check10('bootloader_timeout', b.timeout),
      handle: ok((ctx) => bmc(ctx).setBootloader(ctx.body.enabled, ctx.body.timeout)),
    },
  ],
  [
    'POST hard_reset',
    {
      body: { reset: 'string' },
      checkAfterSlot: (b) => check10('confirm', b.reset),
      handle: ok((ctx) => ctx.device.hardReset(ctx.now, 'hard_reset')),
    },
  ],
  [
    'POST buzzer',
    {
      body: { mode: 'u8', duration: 'u32' },
      checkAfterSlot: (b) => firstFailure(check10('buzzer_mode', b.mode), check10('buzzer_duration', b.duration)),
      handle: ok((ctx) => bmc(ctx).buzzer(ctx.body.mode, ctx.body.duration, ctx.now)),
    },
  ],
];

export const BMC_ROUTES: RouteTable = new Map(routes);
