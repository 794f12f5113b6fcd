/**
 * The bmc routes both API dialects share: the same paths, bodies and model actions (real
 * §3.3 keeps the spec's bmc service), told apart only by their bounds, where they check them
 * and how they name the hub's ports. Each dialect builds its table from these and adds the
 * routes of its own (1.0: module reset, the USB device list).
 */
import { firstFailure, SimError } from './errors';
import { BmcModel } from './models/bmc';
import { CheckedBody, ok, reading, Route, RouteContext } from './router';

/** The bmc bounds, by their API 1.0 names (0.9 calls `confirm` `reset` and `usb_slot` `port`). */
export type BmcBound =
  'watchdog_timeout' | 'sw_shutdown_timeout' | 'shutdown' | 'confirm' | 'usb_slot' | 'bootloader_timeout' | 'buzzer_mode' | 'buzzer_duration';

export interface BmcDialect {
  /** true, or the dialect's refusal of `value` outside `bound`; `field` is its wire name. */
  within(bound: BmcBound, value: unknown, field: string): true | SimError;
  /** The spec checks values before the slot; the released services after it (their library's checks, real §1 step 7). */
  readonly afterSlot: boolean;
  /** The ports the hub record lists as `port_slot_<n>`, in order. */
  readonly hubPorts: readonly number[];
  /** The path of one port's state, `usbhub/port` (0.9) or `usbhub/slot` (1.0); the port number follows. */
  readonly portPath: string;
}

const bmc = (ctx: RouteContext): BmcModel => ctx.device.bmc(ctx.slot)!;

/** The shared bmc routes, keyed as in a RouteTable; the descriptor is the dialect's to add. */
export function bmcRoutes(d: BmcDialect): Array<[string, Route]> {
  /** A route's value checks, placed where the dialect runs them. */
  const checks = (check: (b: CheckedBody, port: number) => true | SimError): Pick<Route, 'check' | 'checkAfterSlot'> =>
    d.afterSlot ? { checkAfterSlot: check } : { check };
  return [
    [
      'GET voltage',
      reading(
        (ctx) => bmc(ctx).voltages(ctx.now),
        (r) => ({ voltage_1v8: r.v1v8, voltage_rtc: r.vRtc }),
      ),
    ],
    [
      'GET temperature',
      reading(
        (ctx) => bmc(ctx).temperatures(ctx.now),
        (r) => ({ ntc_0: r.ntc0, ntc_1: r.ntc1 }),
      ),
    ],
    [
      'GET watchdog',
      reading(
        (ctx) => bmc(ctx).watchdog(ctx.now),
        (w) => ({ timeout: w.timeoutMs, timeout_left: w.leftMs, shutdown_timeout: w.shutdownMs, emergency_mode: w.emergency }),
      ),
    ],
    [
      'POST watchdog',
      {
        body: { timeout: 'u32' },
        ...checks((b) => d.within('watchdog_timeout', b.timeout, 'timeout')),
        handle: ok((ctx) => bmc(ctx).setWatchdog(ctx.body.timeout, ctx.now)),
      },
    ],
    [
      'POST watchdog/sw_shutdown_timeout',
      {
        body: { timeout: 'u32' },
        ...checks((b) => d.within('sw_shutdown_timeout', b.timeout, 'timeout')),
        handle: ok((ctx) => bmc(ctx).setShutdownTimeout(ctx.body.timeout)),
      },
    ],
    [
      'POST watchdog/shutdown',
      {
        body: { shutdown: 'string' },
        ...checks((b) => d.within('shutdown', b.shutdown, 'shutdown')),
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
          for (const n of d.hubPorts) record[`port_slot_${n}`] = model.ports[n];
          return record;
        },
      },
    ],
    ['POST usbhub', { body: { state: 'bool' }, handle: ok((ctx) => bmc(ctx).setHubPending(ctx.body.state)) }],
    [
      `POST ${d.portPath}/:n`,
      {
        body: { state: 'bool' },
        ...checks((_b, port) => d.within('usb_slot', port, 'port')),
        handle: ok((ctx) => bmc(ctx).setPortPending(ctx.param, ctx.body.state)),
      },
    ],
    [
      'POST usbhub/reset',
      {
        body: { reset: 'string' },
        ...checks((b) => d.within('confirm', b.reset, 'reset')),
        handle: ok((ctx) => bmc(ctx).applyHub()),
      },
    ],
    [
      'POST usb_bootloader',
      {
        body: { enabled: 'bool', timeout: 'u32' },
        ...checks((b) => d.within('bootloader_timeout', b.timeout, 'timeout')),
        handle: ok((ctx) => bmc(ctx).setBootloader(ctx.body.enabled, ctx.body.timeout)),
      },
    ],
    [
      'POST hard_reset',
      {
        body: { reset: 'string' },
        ...checks((b) => d.within('confirm', b.reset, 'reset')),
        // The answer is built before the reset takes effect, as a device acknowledges first.
        handle: ok((ctx) => ctx.device.hardReset(ctx.now, 'hard_reset')),
      },
    ],
    [
      'POST buzzer',
      {
        body: { mode: 'u8', duration: 'u32' },
        ...checks((b) => firstFailure(d.within('buzzer_mode', b.mode, 'mode'), d.within('buzzer_duration', b.duration, 'duration'))),
        handle: ok((ctx) => bmc(ctx).buzzer(ctx.body.mode, ctx.body.duration, ctx.now)),
      },
    ],
  ];
}
