/** API 0.9 routes of the power service. */
import { firstFailure, SimError } from '../errors';
import { PowerModel, SOURCE } from '../models/power';
import { ok, reading, Route, RouteContext, RouteTable } from '../router';
import { descriptor } from './common';
import { within } from './limits';

const power = (ctx: RouteContext): PowerModel => ctx.device.power(ctx.slot)!;

const routes: Array<[string, Route]> = [
  ['GET descriptor', descriptor],
  [
    'GET source',
    {
      handle: () => ({
        source_3v3: SOURCE.mw['3v3'],
        source_5v0: SOURCE.mw['5v0'],
        source_12v: SOURCE.mw['12v'],
        source_total: SOURCE.totalMw,
        efficiency_factor_3v3: SOURCE.efficiency['3v3'],
        efficiency_factor_5v0: SOURCE.efficiency['5v0'],
        efficiency_factor_12v: SOURCE.efficiency['12v'],
      }),
    },
  ],
  [
    'GET protectionlog',
    reading(
      (ctx) => power(ctx).counters(),
      (c) => ({
        opp_protection_cnt: c.total,
        ovp_cnt_3v3: c.ovp_3v3,
        uvp_cnt_3v3: c.uvp_3v3,
        ovp_cnt_5v0: c.ovp_5v0,
        uvp_cnt_5v0: c.uvp_5v0,
        ovp_cnt_12v: c.ovp_12v,
        uvp_cnt_12v: c.uvp_12v,
        ocp_cnt_3v3: c.ocp_3v3,
        ocp_cnt_5v0: c.ocp_5v0,
        ocp_cnt_12v: c.ocp_12v,
        pmc_temperature: c.pmc_temperature,
        total_power_overload: c.total_power_overload,
      }),
    ),
  ],
  [
    'GET stats',
    reading(
      (ctx) => power(ctx).stats(ctx.now),
      (s) => ({
        voltage_3v3: s.voltageMv['3v3'],
        voltage_5v0: s.voltageMv['5v0'],
        voltage_12v: s.voltageMv['12v'],
        current_3v3: s.currentMa['3v3'],
        current_5v0: s.currentMa['5v0'],
        current_12v: s.currentMa['12v'],
        limit_3v3: s.limitMa['3v3'],
        limit_5v0: s.limitMa['5v0'],
        limit_12v: s.limitMa['12v'],
      }),
    ),
  ],
  [
    'POST limits',
    {
      body: { limit_3v3: 'u32', limit_5v0: 'u32', limit_12v: 'u32' },
      check: (b) => firstFailure(within('limit_3v3', b.limit_3v3), within('limit_5v0', b.limit_5v0), within('limit_12v', b.limit_12v)),
      handle: ok((ctx) => power(ctx).setLimits({ '3v3': ctx.body.limit_3v3, '5v0': ctx.body.limit_5v0, '12v': ctx.body.limit_12v })),
    },
  ],
  [
    'GET temperature',
    reading(
      (ctx) => power(ctx).temperatures(ctx.now),
      (t) => ({ on_board_temp: t.onBoard, pmc_temp: t.pmc }),
    ),
  ],
  ['GET fan', reading(power, (m) => ({ fan_forced: m.fanForced, fan_current_mode: m.fanCurrentMode, fan_setting_mode: m.fanSettingMode }))],
  [
    'POST fan',
    {
      // Whether fan_mode may be left out is not shown: the simulator lets automatic mode go
      // without it (absent or null) and requires it when forced.
      body: { fan_forced: 'bool', fan_mode: { type: 'u8', optional: true } },
      check(b) {
        if ((b.fan_mode ?? null) !== null) return within('fan_mode', b.fan_mode);
        return b.fan_forced ? new SimError(400, 'fan_mode is required when fan_forced is true') : true;
      },
      handle: ok((ctx) => power(ctx).setFan(ctx.body.fan_forced, ctx.body.fan_mode ?? undefined, ctx.now)),
    },
  ],
  [
    'GET fan/rpm',
    {
      handle(ctx) {
        const m = power(ctx);
        return { enabled: m.rpmEnabled, rpm: m.rpm(ctx.now) };
      },
    },
  ],
  [
    'POST fan/rpm',
    {
      body: { measurement_enabled: 'bool' },
      handle: ok((ctx) => {
        power(ctx).rpmEnabled = ctx.body.measurement_enabled;
      }),
    },
  ],
];

export const POWER_ROUTES: RouteTable = new Map(routes);
