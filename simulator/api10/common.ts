/**
 * API 1.0 (the released services, real-service.md): the version record with sessions, the
 * module reset, and the refusals with the exact status codes and messages the released
 * services answer.
 */
import { Device } from '../device';
import { SUCCESS } from '../errors';
import { Service } from '../facts';
import { SOFTWARE, v } from '../identity';
import { Route } from '../router';
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

/** POST reset {"reset":"yes"} on every service (real §3.1); the io module returns to its initial state. */
export const reset: Route = {
  body: { reset: 'string' },
  check: (b) => check10('reset', b.reset),
  handle(ctx) {
    // bmc and power are suspended and set running again: nothing of theirs is reset.
    if (ctx.service === 'io') ctx.device.io(ctx.slot)!.reset();
    return SUCCESS;
  },
};
