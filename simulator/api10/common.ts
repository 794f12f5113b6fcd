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

export const API_VERSION = v(1, 0, 0);

export function versionRecord(device: Device, service: Service): unknown {
  return {
    // Random per start of the REST service; a change tells clients its caches were lost.
    driver_session: device.session,
    version: { api: API_VERSION, service: SOFTWARE.service, module_driver: SOFTWARE.moduleDriver, kernel_driver: SOFTWARE.kernelDriver },
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
