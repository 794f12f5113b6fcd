/**
 * The power supply module: source capacity, rail stats that follow the loads and limits,
 * protection counters, temperatures and the fan with its apply delay.
 *
 * Choices where the spec is silent (also in simulator/README.md):
 *  - Rail voltages sit in the spec's windows (RAIL_WINDOWS_MV) with a few mV of drift.
 *  - A rail's current is its simulated load, clamped to its limit; a load going above the
 *    limit counts one over-current event for that rail (counted on the transition, not per read).
 *  - Total power above source_total counts total_power_overload; pmc_temp going above
 *    125 °C counts pmc_temperature. opp_protection_cnt is the sum of all counters.
 *  - Counters survive device resets (the spec: only the factory reset clears them).
 *  - Auto fan mode from the hotter sensor: <30 °C 0 %, <40 20 %, <50 40 %, <60 60 %, <70 80 %, else 100 %.
 *  - Fan rpm measurement is off after a reset; when on, rpm = mode % × 5000 ± 1 %.
 */
import { FAN_MAX_RPM, PMC_TEMPERATURE_LIMIT_C, RAIL_WINDOWS_MV } from '../facts';
import { DeviceHooks, DueEvent, ModuleModel, newSession, round3, wave } from './types';

export const RAILS = ['3v3', '5v0', '12v'] as const;
export type PowerRail = (typeof RAILS)[number];
type PerRail = Record<PowerRail, number>;

export const PROTECTION_EVENTS = [
  'ovp_3v3',
  'ovp_5v0',
  'ovp_12v',
  'uvp_3v3',
  'uvp_5v0',
  'uvp_12v',
  'ocp_3v3',
  'ocp_5v0',
  'ocp_12v',
  'pmc_temperature',
  'total_power_overload',
] as const;
export type ProtectionEvent = (typeof PROTECTION_EVENTS)[number];
export type Counters = Record<ProtectionEvent, number>;

export interface PowerWorld {
  onBoardTemp: number;
  pmcTemp: number;
  loadMa: PerRail;
}

export interface PowerPersist {
  counters: Counters;
}

/** Maximum power per rail and in total, mW; efficiency in percent. */
export const SOURCE = {
  mw: { '3v3': 19635, '5v0': 24750, '12v': 28800 } as PerRail,
  totalMw: 60000,
  efficiency: { '3v3': 90, '5v0': 92, '12v': 94 } as PerRail,
};

const NOMINAL_MV: PerRail = {
  '3v3': (RAIL_WINDOWS_MV['3v3'][0] + RAIL_WINDOWS_MV['3v3'][1]) / 2,
  '5v0': (RAIL_WINDOWS_MV['5v0'][0] + RAIL_WINDOWS_MV['5v0'][1]) / 2,
  '12v': (RAIL_WINDOWS_MV['12v'][0] + RAIL_WINDOWS_MV['12v'][1]) / 2,
};

/** Current limits after a reset, mA: the highest the spec's sample sets (and 1.0 accepts, real §3.4). */
export const FACTORY_LIMIT_MA: Readonly<PerRail> = { '3v3': 5950, '5v0': 4950, '12v': 2400 };

export function defaultPowerWorld(): PowerWorld {
  return { onBoardTemp: 38.5, pmcTemp: 52.0, loadMa: { '3v3': 800, '5v0': 1200, '12v': 400 } };
}

export function defaultPowerPersist(): PowerPersist {
  const counters = {} as Counters;
  for (const e of PROTECTION_EVENTS) counters[e] = 0;
  return { counters };
}

export function autoFanMode(tempC: number): number {
  const steps = [30, 40, 50, 60, 70];
  const i = steps.findIndex((limit) => tempC < limit);
  return (i === -1 ? steps.length : i) * 20;
}

export class PowerModel implements ModuleModel {
  readonly service = 'power' as const;
  session = newSession();
  limitMa: PerRail = { ...FACTORY_LIMIT_MA };
  fanForced = false;
  fanSettingMode = 0;
  fanCurrentMode: number;
  fanTarget: number | null = null;
  fanApplyAt: number | null = null;
  rpmEnabled = false;
  private overCurrent: Record<PowerRail, boolean> = { '3v3': false, '5v0': false, '12v': false };
  private overTotal = false;
  private pmcHot = false;

  constructor(
    readonly world: PowerWorld,
    readonly persist: PowerPersist,
    private readonly hooks: DeviceHooks,
  ) {
    this.fanCurrentMode = autoFanMode(this.hottest());
    this.evaluate(false); // a condition present at power-on was counted before the reset
  }

  private hottest(): number {
    return Math.max(this.world.onBoardTemp, this.world.pmcTemp);
  }

  nextDue(): DueEvent | null {
    if (this.fanApplyAt === null) return null;
    return {
      at: this.fanApplyAt,
      fire: () => {
        this.fanCurrentMode = this.fanTarget!;
        this.fanTarget = null;
        this.fanApplyAt = null;
      },
    };
  }

  count(event: ProtectionEvent): void {
    this.persist.counters[event]++;
  }

  counters(): Counters & { total: number } {
    const c = this.persist.counters;
    return { ...c, total: PROTECTION_EVENTS.reduce((sum, e) => sum + c[e], 0) };
  }

  private railCurrent(rail: PowerRail): number {
    return Math.min(this.world.loadMa[rail], this.limitMa[rail]);
  }

  stats(now: number): { voltageMv: PerRail; currentMa: PerRail; limitMa: PerRail } {
    const voltageMv = {} as PerRail;
    const currentMa = {} as PerRail;
    RAILS.forEach((rail, i) => {
      const [lo, hi] = RAIL_WINDOWS_MV[rail];
      const v = NOMINAL_MV[rail] + 0.01 * NOMINAL_MV[rail] * wave(now, 53_000 + i * 7000, i);
      voltageMv[rail] = Math.min(hi, Math.max(lo, Math.round(v)));
      const load = this.railCurrent(rail);
      currentMa[rail] = load === 0 ? 0 : Math.max(0, Math.round(load + 3 * wave(now, 5_000 + i * 1000, i)));
    });
    return { voltageMv, currentMa, limitMa: { ...this.limitMa } };
  }

  temperatures(now: number): { onBoard: number; pmc: number } {
    return { onBoard: round3(this.world.onBoardTemp + 0.3 * wave(now, 71_000)), pmc: round3(this.world.pmcTemp + 0.5 * wave(now, 43_000, 1)) };
  }

  setLimits(limitMa: PerRail): void {
    this.limitMa = { ...limitMa };
    this.evaluate(true);
  }

  setLoad(rail: PowerRail, ma: number): void {
    this.world.loadMa[rail] = ma;
    this.evaluate(true);
  }

  setTemperatures(change: { onBoardTemp?: number; pmcTemp?: number }, now: number): void {
    if (change.onBoardTemp !== undefined) this.world.onBoardTemp = change.onBoardTemp;
    if (change.pmcTemp !== undefined) this.world.pmcTemp = change.pmcTemp;
    this.evaluate(true);
    if (!this.fanForced) this.aimFan(autoFanMode(this.hottest()), now);
  }

  /** Counts protection events on the transition into a fault condition. */
  private evaluate(countEvents: boolean): void {
    let totalMw = 0;
    for (const rail of RAILS) {
      const over = this.world.loadMa[rail] > this.limitMa[rail];
      if (over && !this.overCurrent[rail] && countEvents) this.count(`ocp_${rail}`);
      this.overCurrent[rail] = over;
      totalMw += (NOMINAL_MV[rail] * this.railCurrent(rail)) / 1000;
    }
    const overTotal = totalMw > SOURCE.totalMw;
    if (overTotal && !this.overTotal && countEvents) this.count('total_power_overload');
    this.overTotal = overTotal;
    const hot = this.world.pmcTemp > PMC_TEMPERATURE_LIMIT_C;
    if (hot && !this.pmcHot && countEvents) this.count('pmc_temperature');
    this.pmcHot = hot;
  }

  /** POST fan: forced uses `mode`; automatic picks a mode from the temperature. */
  setFan(forced: boolean, mode: number | undefined, now: number): void {
    this.fanForced = forced;
    this.fanSettingMode = mode ?? 0; // unforced without a mode sends 0, as the released service does
    this.aimFan(forced ? this.fanSettingMode : autoFanMode(this.hottest()), now);
  }

  /** The fan reaches a new mode only after the apply delay (prevents vibration, spec). */
  private aimFan(target: number, now: number): void {
    if (target === this.fanCurrentMode) {
      this.fanTarget = null;
      this.fanApplyAt = null;
    } else if (target !== this.fanTarget) {
      this.fanTarget = target;
      this.fanApplyAt = now + this.hooks.fanApplyDelayMs;
    }
  }

  rpm(now: number): number {
    if (!this.rpmEnabled) return 0;
    return Math.round((this.fanCurrentMode / 100) * FAN_MAX_RPM * (1 + 0.01 * wave(now, 7_000)));
  }

  snapshot(now: number) {
    return {
      service: this.service,
      session: this.session,
      world: { ...this.world, loadMa: { ...this.world.loadMa } },
      counters: this.counters(),
      limitMa: { ...this.limitMa },
      stats: this.stats(now),
      fan: { forced: this.fanForced, settingMode: this.fanSettingMode, currentMode: this.fanCurrentMode, target: this.fanTarget, applyAt: this.fanApplyAt },
      rpm: { enabled: this.rpmEnabled, rpm: this.rpm(now) },
    };
  }
}
