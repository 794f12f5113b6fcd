/**
 * PWM helper: from a frequency and a duty cycle to the three timer values of the device
 * (prescaler, period, time_on), and back. Pure, so the editor and the runtime compute the
 * same numbers. Bounds and the device's own arithmetic come from limits.ts.
 */
import { LIMITS } from './limits';
import { Pwm, pwmDutyPercent, pwmFrequencyHz } from './limit-rules';
import { FACTS } from './facts';

export interface PwmPlan extends Pwm {
  /** The frequency the device will really produce, Hz (integer maths as on the device). */
  frequencyHz: number;
  /** The duty cycle it will really produce, percent. */
  dutyPercent: number;
}

/**
 * Picks the smallest prescaler that lets the period fit the 16-bit timer, which leaves the
 * longest period and so the finest duty-cycle steps; time_on is rounded and kept inside
 * 1..period − 2. Returns undefined when no setting reaches the frequency (above 1 MHz or
 * below what the largest prescaler and period give).
 */
export function planPwm(frequencyHz: number, dutyPercent: number): PwmPlan | undefined {
  if (!(frequencyHz > 0) || !Number.isFinite(frequencyHz) || !(dutyPercent >= 0 && dutyPercent <= 100)) return undefined;
  if (frequencyHz > FACTS.pwmMaxFrequencyHz) return undefined;
  const ticks = FACTS.pwmClockHz / frequencyHz; // (prescaler + 1) × period
  const prescaler = Math.max(LIMITS.prescaler.min, Math.ceil(ticks / LIMITS.period.max) - 1);
  if (prescaler > LIMITS.prescaler.max) return undefined;
  let period = Math.round(ticks / (prescaler + 1));
  period = Math.min(LIMITS.period.max, Math.max(LIMITS.period.min, period));
  // The device floors its frequency: never plan one above the bound it enforces.
  while (pwmFrequencyHz({ prescaler, period }) > FACTS.pwmMaxFrequencyHz) period++;
  if (period - 2 < 1) return undefined;
  const timeOn = Math.min(period - 2, Math.max(1, Math.round((dutyPercent / 100) * period)));
  const plan = { prescaler, period, time_on: timeOn };
  return { ...plan, frequencyHz: pwmFrequencyHz(plan), dutyPercent: pwmDutyPercent(plan) };
}

/** What a raw setting really gives, for the editor's read-out. */
export function describePwm(pwm: Pwm): { frequencyHz: number; dutyPercent: number } {
  return { frequencyHz: pwmFrequencyHz(pwm), dutyPercent: pwmDutyPercent(pwm) };
}
