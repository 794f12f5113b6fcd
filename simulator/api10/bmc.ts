/**
 * API 1.0 routes of the bmc service: the shared bmc routes with `usbhub/slot/<2..7>` and
 * `port_slot_0..7`, the released refusals checked after the slot (bmc library value errors
 * are 422; real §3.3), the module reset and the USB device list.
 */
import { descriptor } from '../api09/common';
import { bmcRoutes } from '../bmc-routes';
import { Route, RouteTable } from '../router';
import { reset } from './common';
import { check10 } from './limits';

/**
 * USB devices plugged into the simulated hub, by port; listed while hub and port are
 * enabled (real §3.3: disabled or unavailable slots are excluded).
 */
const PLUGGED: Readonly<Record<number, { manufacturer: string; product: string; serial_code: string }>> = {
  3: { manufacturer: 'Example Storage', product: 'USB Flash Drive', serial_code: 'SIM0003' },
  5: { manufacturer: 'Example Radio', product: 'LTE Modem', serial_code: 'SIM0005' },
};

const usbDevices: Route = {
  handle(ctx) {
    const model = ctx.device.bmc(ctx.slot)!;
    const devices = Object.entries(PLUGGED)
      .map(([port, d]) => ({ port: Number(port), d }))
      .filter(({ port }) => model.hub === 'enabled' && model.ports[port] === 'enabled')
      .map(({ port, d }) => ({ slot: port, usb_port: 1, ...d, system_path: `/dev/bus/usb/001/00${port}` }));
    return { devices };
  },
};

export const BMC_ROUTES: RouteTable = new Map([
  ['GET descriptor', descriptor],
  ['POST reset', reset],
  ['GET usbhub/devices', usbDevices],
  ...bmcRoutes({
    within: (bound, value) => check10(bound, value),
    afterSlot: true,
    // The API 1.0 record lists hub slots 0..7.
    hubPorts: [0, 1, 2, 3, 4, 5, 6, 7],
    portPath: 'usbhub/slot',
  }),
]);
