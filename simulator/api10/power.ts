/**
 * API 1.0 routes of the power service: the 0.9 routes with `POST reset`, and the released
 * refusals (power library value errors are 422; real §3.4).
 */
import { firstFailure } from '../errors';
import { POWER_ROUTES as API09_POWER } from '../api09/power';
import { Route, RouteTable } from '../router';
import { reset } from './common';
import { check10, PVF, refusal } from './limits';

const api09 = (key: string): Route => API09_POWER.get(key)!;

const routes: Array<[string, Route]> = [
  // Reads are the same in both versions.
  ...[...API09_POWER.entries()].filter(([key]) => key.startsWith('GET ')),
  ['POST reset', reset],
  [
    'POST limits',
    {
      ...api09('POST limits'),
      check: undefined,
      // Inclusive, checked in this order (real §3.4).
      checkAfterSlot: (b) => firstFailure(check10('limit_3v3', b.limit_3v3), check10('limit_5v0', b.limit_5v0), check10('limit_12v', b.limit_12v)),
    },
  ],
  [
    'POST fan',
    {
      ...api09('POST fan'),
      // validate(): forced needs a mode (PVF); the library then checks any mode given, forced or not.
      check: (b) => (b.fan_forced && (b.fan_mode ?? null) === null ? refusal(PVF) : true),
      checkAfterSlot: (b) => ((b.fan_mode ?? null) === null ? true : check10('fan_mode', b.fan_mode)),
    },
  ],
  ['POST fan/rpm', api09('POST fan/rpm')],
];

export const POWER_ROUTES: RouteTable = new Map(routes);
