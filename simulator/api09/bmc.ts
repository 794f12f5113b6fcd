/** API 0.9 routes of the bmc service: the shared bmc routes with the spec's bounds, checked before the slot. */
import { BmcBound, bmcRoutes } from '../bmc-routes';
import { RouteTable } from '../router';
import { descriptor } from './common';
import { Name09, SPEC_09, within } from './limits';

/** The spec's name of a bmc bound: two are named otherwise in API 1.0. */
const name09 = (bound: BmcBound): Name09 => (bound === 'confirm' ? 'reset' : bound === 'usb_slot' ? 'port' : bound);

export const BMC_ROUTES: RouteTable = new Map([
  ['GET descriptor', descriptor],
  ...bmcRoutes({
    within: (bound, value, field) => within(name09(bound), value, field),
    afterSlot: false,
    // The hub record's fields port_slot_2..port_slot_8 (spec, bmc USB hub state).
    hubPorts: Array.from({ length: SPEC_09.port.max - SPEC_09.port.min + 1 }, (_, i) => i + SPEC_09.port.min),
    portPath: 'usbhub/port',
  }),
]);
