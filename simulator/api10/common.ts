/**
 * API 1.0 (the released services): the version record with sessions, the
 * module reset, and answers written as the released services write them.
 */
import { Device } from '../device';
import { defaultCatcher, reason, SUCCESS } from '../errors';
import { Service } from '../facts';
import { SOFTWARE, v } from '../identity';
import { BmcModel } from '../models/bmc';
import { PowerModel } from '../models/power';
import { DeviceAnswer, ok, Route, RouteContext } from '../router';
import { check10 } from './limits';

/** `api` and `service` are both 1.0.0 in all three services (real §4). */
export const API_VERSION = v(1, 0, 0);
export const SERVICE_VERSION = v(1, 0, 0);

export function versionRecord(device: Device, service: Service): unknown {
  return {
    // Random per start of this REST service; a change tells clients its caches were lost (real §4).
    driver_session: device.driverSession(service),
    version: { api: API_VERSION, service: SERVICE_VERSION, module_driver: SOFTWARE.moduleDriver, kernel_driver: SOFTWARE.kernelDriver },
    devices: device.slots(service).map((slot) => ({
      slot_number: slot,
      sdbp_version: SOFTWARE.sdbp,
      device_session: device.module(service, slot)!.session,
    })),
  };
}

/**
 * GET records pretty-printed with a 2-space indent (real §4); `{"status":"success"}` as the
 * literal `{ "status": "success" }` in io and power, pretty-printed in bmc (real §3).
 */
export function render(value: unknown, service: Service): string {
  if (value === SUCCESS && service !== 'bmc') return '{ "status": "success" }';
  return JSON.stringify(value, null, 2);
}

/**
 * The error envelope pretty-printed with a 1-space indent (real §2). The message is escaped,
 * which the released services do not do (see envelope() in errors.ts). A 413 comes from
 * Rocket's default catcher instead, HTML or JSON by the Accept header.
 */
export function error(status: number, message?: string, accept?: string): DeviceAnswer {
  if (status === 413) return { status, ...defaultCatcher(status, accept) };
  return { status, body: `{\n "status": "error",\n "code": ${status},\n "message": ${JSON.stringify(message ?? reason(status))}\n}` };
}

/**
 * The module suspended and set running again (real §3.1), which the spec calls "equal to a
 * driver restart" for io: every module's volatile settings back to their defaults and a new
 * device_session, as after a device reset; its persistent store and the outside world stay.
 * bmc and power models are rebuilt in place because the device holds them.
 */
function restartModule(ctx: RouteContext): void {
  const { device, slot } = ctx;
  if (ctx.service === 'io') return device.io(slot)!.reset();
  if (ctx.service === 'power') {
    const m = device.power(slot)!;
    Object.assign(m, new PowerModel(m.world, m.persist, device));
    return;
  }
  const m = device.bmc(slot)!;
  // An armed USB bootloader waits for the next device reset; a module restart is not one.
  const armed = m.persist.bootloaderArmed;
  m.persist.bootloaderArmed = false;
  Object.assign(m, new BmcModel(m.world, m.persist, device, ctx.now), { bootloaderUntil: m.bootloaderUntil });
  m.persist.bootloaderArmed = armed;
}

/** POST reset {"reset":"yes"} on every service (real §3.1): the module back to its initial state. */
export const reset: Route = {
  body: { reset: 'string' },
  check: (b) => check10('reset', b.reset),
  handle: ok(restartModule),
};
