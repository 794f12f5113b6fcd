/**
 * API 1.0 routes of the power service: the 0.9 routes with `POST reset`, and the released
 * refusals (power library value errors are 422; real §3.4).
 */
import { LIMITS, LimitName } from '../../nodes/lib/limits';
import { SimError } from '../errors';
import { POWER_ROUTES as API09_POWER } from '../api09/power';
import { Route, RouteTable } from '../router';
import { PVF, reset, within } from './common';

const RAILS: ReadonlyArray<LimitName & ('limit_3v3' | 'limit_5v0' | 'limit_12v')> = ['limit_3v3', 'limit_5v0', 'limit_12v'];

/** The released messages, trailing space of the 12 V one included (real §3.4). */
function limitMessage(rail: 'limit_3v3' | 'limit_5v0' | 'limit_12v'): string {
  const l = LIMITS[rail];
  return `Valid ${rail} range ${l.min} - ${l.max}${rail === 'limit_12v' ? ' ' : ''}`;
}

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
      checkAfterSlot(b) {
        const rail = RAILS.find((r) => !within(r, b[r]));
        return rail ? new SimError(422, limitMessage(rail)) : true;
      },
    },
  ],
  [
    'POST fan',
    {
      ...api09('POST fan'),
      check: (b) => (b.fan_forced && (b.fan_mode === undefined || b.fan_mode === null) ? PVF() : true),
      checkAfterSlot: (b) =>
        b.fan_mode === undefined || b.fan_mode === null || within('fan_mode', b.fan_mode)
          ? true
          : new SimError(422, `Fan mode must be ${LIMITS.fan_mode.values.join(', ')}`),
    },
  ],
  ['POST fan/rpm', api09('POST fan/rpm')],
];

export const POWER_ROUTES: RouteTable = new Map(routes);
