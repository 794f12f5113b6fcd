/** API 0.9: the version record, the descriptor and how answers are written. */
import { Device } from '../device';
import { envelope } from '../errors';
import { Service } from '../facts';
import { PRODUCTS, serialCode, SOFTWARE, v, VENDOR } from '../identity';
import { DeviceAnswer, Route } from '../router';

export const API_VERSION = v(0, 9, 0);
/** The spec shows no service version; a 0.9 patch release. */
export const SERVICE_VERSION = v(0, 9, 3);

export function versionRecord(device: Device, service: Service): unknown {
  return {
    version: {
      api: API_VERSION,
      service: SERVICE_VERSION,
      module_driver: SOFTWARE.moduleDriver,
      kernel_driver: SOFTWARE.kernelDriver,
    },
    // Only the modules of this service, as the released services list them.
    devices: device.slots(service).map((slot) => ({ slot_number: slot, sdbp_version: SOFTWARE.sdbp })),
  };
}

/** The spec shows no error format: the released services' envelope, compact. */
export function error(status: number, message?: string): DeviceAnswer {
  return { status, body: envelope(status, message) };
}

export const render = (value: unknown): string => JSON.stringify(value);

export const descriptor: Route = {
  missingSlot: 'Could not find device on this slot',
  handle({ device, service, slot }) {
    const p = PRODUCTS[service];
    const bootloader = service === 'bmc' && device.bmc(slot)?.bootloaderActive ? 'in bootloader mode' : 'supported';
    return {
      slot_number: slot,
      vendor_product_id: p.vendorProductId,
      product_name: p.productName,
      vendor_name: VENDOR,
      serial_code: serialCode(service, slot, device.identity.serialPrefix),
      fw_version: { stability: p.fw.stability, version: p.fw.version },
      hw_version: p.hw,
      protocol_version: SOFTWARE.sdbp,
      bootloader_state: bootloader,
      max_frame_size: p.maxFrameSize,
      max_power_12v: p.maxPowerMw['12v'],
      max_power_5v0: p.maxPowerMw['5v0'],
      max_power_3v3: p.maxPowerMw['3v3'],
      max_sclk_speed: p.maxSclkSpeed,
    };
  },
};
