/**
 * The io module: six pins, their modes, the simulated outside world per pin, notifications
 * and the power-management configuration. Plain terms only (no wire field names), so a
 * second API dialect can sit on the same model.
 *
 * Semantic choices where the spec is silent (also in simulator/README.md):
 *  - Analog thresholds: rising = a crossing from below to >= threshold, falling = from
 *    >= threshold to below. Active in analog, output and PWM mode (analog is implicitly on).
 *  - Digital interrupts fire on level edges; `pulse` = any edge. After a reported event,
 *    events within debounce ms are ignored. Thresholds and interrupts set custom_voltage_alert.
 *  - An output driving a load above its pin's configured current sets high_current_alert.
 *  - A protection event (every flag but custom_voltage_alert) disables the pin (raise).
 *  - A suspend discards the pending notification (suspend, reenumerate; real §5).
 *  - Input/mode resets the pin's functions (threshold, interrupt, counter, output).
 *  - Disabling a threshold/interrupt/counter is accepted in any mode (it is a no-op there).
 */
import { ALERT_FLAGS, AlertFlag, PIN_COUNT, pwmOutputHz } from '../facts';
import { ModelError } from '../errors';
import { DueEvent, ModuleModel, newSession } from './types';

export type PinMode = 'analog' | 'digital' | 'output' | 'pwm';
export type Rail = '5_volt' | '12_volt';
export type Alerts = Record<AlertFlag, boolean>;

/** The outside world at one pin: it survives module resets (it is not part of the module). */
export interface PinStimulus {
  voltageMv: number;
  level: 0 | 1;
  frequencyHz: number;
  /** Load an output drives, mA. */
  loadMa: number;
}

export interface PinState {
  mode: PinMode;
  threshold: { mv: number; trigger: 'rising' | 'falling' } | null;
  interrupt: { trigger: 'rising' | 'falling' | 'pulse'; debounceMs: number; lastEventAt: number | null } | null;
  counter: boolean;
  output: 'high' | 'low';
  pwm: { prescaler: number; period: number; timeOn: number } | null;
  alerts: Alerts;
}

export interface PowerEntry {
  pin: number;
  rail: Rail;
  currentMa: number;
}

export type Reading = { kind: 'voltage' | 'level' | 'frequency'; value: number };

const RAIL_MV: Readonly<Record<Rail, number>> = { '5_volt': 5000, '12_volt': 12000 };

export function defaultStimuli(): PinStimulus[] {
  return Array.from({ length: PIN_COUNT }, () => ({ voltageMv: 0, level: 0 as const, frequencyHz: 0, loadMa: 20 }));
}

function noAlerts(): Alerts {
  return { under_voltage_alert: false, high_voltage_alert: false, high_current_alert: false, custom_voltage_alert: false };
}

/** Duty cycle in percent of a PWM pin: time_on / period (spec rule 6). */
function duty(p: PinState): number {
  return p.pwm ? (p.pwm.timeOn / p.pwm.period) * 100 : 0;
}

function freshPin(): PinState {
  return { mode: 'analog', threshold: null, interrupt: null, counter: false, output: 'low', pwm: null, alerts: noAlerts() };
}

export class IoModel implements ModuleModel {
  readonly service = 'io' as const;
  session = newSession();
  pins: PinState[] = [];
  powerConfig: PowerEntry[] | null = null;
  /** API 1.0's per-pin notification cache (see readPinNotification). */
  private cache: Alerts[] = [];

  constructor(readonly world: PinStimulus[]) {
    this.reset();
  }

  /** GET reset / driver restart: every pin analog input, notifications (the 1.0 service's cache too) and power config cleared. */
  reset(): void {
    this.pins = Array.from({ length: PIN_COUNT }, freshPin);
    this.dropCache();
    this.powerConfig = null;
    this.session = newSession();
  }

  /** Unplugged and plugged in again: defaults, a new device_session; the service's cache stays (only a reset clears it, real §3.1). */
  replug(): void {
    const cache = this.cache;
    this.reset();
    this.cache = cache;
  }

  /**
   * Accepted power-management (real §3.2): the driver suspends the module (as the reset of
   * §3.1 does: initial state, so pins anew, and the pending notification dropped, §5), sets
   * the configuration and re-reads it (a new device_session, §4). The service's cache stays.
   */
  reenumerate(entries: PowerEntry[]): void {
    this.pins = Array.from({ length: PIN_COUNT }, freshPin);
    this.setPowerConfig(entries);
    this.session = newSession();
  }

  /** The driver suspends the module: the notification it holds unread and the kernel's are discarded (real §5). */
  suspend(): void {
    for (const p of this.pins) p.alerts = noAlerts();
  }

  nextDue(): DueEvent | null {
    return null; // everything here happens on a request or a stimulus
  }

  private pin(pin: number): PinState {
    return this.pins[pin - 1];
  }

  private railMv(pin: number): number {
    const entry = this.powerConfig?.find((e) => e.pin === pin);
    return entry ? RAIL_MV[entry.rail] : 0;
  }

  /** The pin's analog voltage, or null in digital mode (analog is off there). */
  analogMv(pin: number): number | null {
    const p = this.pin(pin);
    switch (p.mode) {
      case 'analog':
        return this.world[pin - 1].voltageMv;
      case 'output':
        return p.output === 'high' ? this.railMv(pin) : 0;
      case 'pwm':
        return Math.round((duty(p) / 100) * this.railMv(pin));
      case 'digital':
        return null;
    }
  }

  reading(pin: number): Reading {
    const p = this.pin(pin);
    if (p.mode !== 'digital') return { kind: 'voltage', value: this.analogMv(pin)! };
    if (p.counter) return { kind: 'frequency', value: this.world[pin - 1].frequencyHz };
    return { kind: 'level', value: this.world[pin - 1].level };
  }

  /** Current drawn through the pin, mA: the load of a driving output, 0 for inputs. */
  currentMa(pin: number): number {
    const p = this.pin(pin);
    const load = this.world[pin - 1].loadMa;
    if (p.mode === 'output') return p.output === 'high' ? load : 0;
    if (p.mode === 'pwm') return Math.round((load * duty(p)) / 100);
    return 0;
  }

  /** All six pins' alerts; reading clears them (what the released services do for a read pin). */
  takeNotifications(): Array<{ pin: number; alerts: Alerts }> {
    return this.pins.map((p, i) => {
      const alerts = p.alerts;
      p.alerts = noAlerts();
      return { pin: i + 1, alerts };
    });
  }

  /**
   * API 1.0: `GET notification/<pin>`. The driver hands over the one pending notification
   * (everything raised since the last pull, for all pins), the service OR-merges it into its
   * per-pin cache, answers the asked pin and clears only that pin (real §5).
   */
  readPinNotification(pin: number): Alerts {
    for (const { pin: p, alerts } of this.takeNotifications()) {
      const cached = this.cache[p - 1];
      for (const flag of ALERT_FLAGS) cached[flag] = cached[flag] || alerts[flag];
    }
    const answer = this.cache[pin - 1];
    this.cache[pin - 1] = noAlerts();
    return answer;
  }

  /** The API 1.0 service's cache is lost when the module resets or the service restarts (real §5, §4). */
  dropCache(): void {
    this.cache = Array.from({ length: PIN_COUNT }, noAlerts);
  }

  /** An alert; a protection event (not custom_voltage_alert) first switches the pin off: analog input, functions gone. */
  raise(pin: number, flag: AlertFlag): void {
    if (flag !== 'custom_voltage_alert') this.pins[pin - 1] = { ...freshPin(), alerts: this.pin(pin).alerts };
    this.pin(pin).alerts[flag] = true;
  }

  setPowerConfig(entries: PowerEntry[]): void {
    this.powerConfig = entries.map((e) => ({ ...e })).sort((a, b) => a.pin - b.pin);
    for (let pin = 1; pin <= PIN_COUNT; pin++) this.checkOvercurrent(pin);
  }

  setMode(pin: number, mode: 'analog' | 'digital'): void {
    this.pins[pin - 1] = { ...freshPin(), mode, alerts: this.pin(pin).alerts };
  }

  setThreshold(pin: number, mv: number, trigger: 'disabled' | 'rising' | 'falling'): void {
    const p = this.pin(pin);
    if (trigger !== 'disabled' && p.mode === 'digital') throw new ModelError('invalid_mode');
    p.threshold = trigger === 'disabled' ? null : { mv, trigger };
  }

  setInterrupt(pin: number, debounceMs: number, trigger: 'disabled' | 'rising' | 'falling' | 'pulse'): void {
    const p = this.pin(pin);
    if (trigger !== 'disabled' && p.mode !== 'digital') throw new ModelError('invalid_mode');
    p.interrupt = trigger === 'disabled' ? null : { trigger, debounceMs, lastEventAt: null };
  }

  setCounter(pin: number, enabled: boolean): void {
    const p = this.pin(pin);
    if (enabled && p.mode !== 'digital') throw new ModelError('invalid_mode');
    p.counter = enabled;
  }

  /** Output state; from another mode the pin is reset and configured as output first. */
  setOutput(pin: number, state: 'high' | 'low'): void {
    if (!this.powerConfig) throw new ModelError('power_config_missing');
    this.watchVoltage(pin, () => {
      if (this.pin(pin).mode !== 'output') this.pins[pin - 1] = { ...freshPin(), mode: 'output', alerts: this.pin(pin).alerts };
      this.pin(pin).output = state;
    });
    this.checkOvercurrent(pin);
  }

  setPwm(pin: number, pwm: { prescaler: number; period: number; timeOn: number }): void {
    if (!this.powerConfig) throw new ModelError('power_config_missing');
    this.watchVoltage(pin, () => {
      if (this.pin(pin).mode !== 'pwm') this.pins[pin - 1] = { ...freshPin(), mode: 'pwm', alerts: this.pin(pin).alerts };
      this.pin(pin).pwm = { ...pwm };
    });
    this.checkOvercurrent(pin);
  }

  /** Changes the outside world at a pin; voltage and level changes run detection at once. */
  stimulate(pin: number, change: Partial<PinStimulus>, now: number): void {
    const world = this.world[pin - 1];
    if (change.voltageMv !== undefined) this.watchVoltage(pin, () => (world.voltageMv = change.voltageMv!));
    if (change.level !== undefined && change.level !== world.level) {
      const rising = change.level === 1;
      world.level = change.level;
      this.edge(pin, rising, now);
    }
    if (change.frequencyHz !== undefined) world.frequencyHz = change.frequencyHz;
    if (change.loadMa !== undefined) {
      world.loadMa = change.loadMa;
      this.checkOvercurrent(pin);
    }
  }

  private watchVoltage(pin: number, change: () => void): void {
    const before = this.analogMv(pin);
    change();
    const after = this.analogMv(pin);
    const t = this.pin(pin).threshold;
    if (!t || before === null || after === null) return;
    const crossed = t.trigger === 'rising' ? before < t.mv && after >= t.mv : before >= t.mv && after < t.mv;
    if (crossed) this.raise(pin, 'custom_voltage_alert');
  }

  private edge(pin: number, rising: boolean, now: number): void {
    const p = this.pin(pin);
    const irq = p.interrupt;
    if (p.mode !== 'digital' || !irq) return;
    if (irq.trigger === 'rising' && !rising) return;
    if (irq.trigger === 'falling' && rising) return;
    if (irq.lastEventAt !== null && now - irq.lastEventAt < irq.debounceMs) return;
    irq.lastEventAt = now;
    this.raise(pin, 'custom_voltage_alert');
  }

  private checkOvercurrent(pin: number): void {
    const entry = this.powerConfig?.find((e) => e.pin === pin);
    if (entry && this.currentMa(pin) > entry.currentMa) this.raise(pin, 'high_current_alert');
  }

  snapshot() {
    return {
      service: this.service,
      session: this.session,
      powerConfig: this.powerConfig,
      pins: this.pins.map((p, i) => ({
        pin: i + 1,
        ...p,
        pwmFrequencyHz: p.pwm ? pwmOutputHz(p.pwm.prescaler, p.pwm.period) : undefined,
        stimulus: { ...this.world[i] },
        reading: this.reading(i + 1),
        currentMa: this.currentMa(i + 1),
      })),
      alertFlags: ALERT_FLAGS,
    };
  }
}
