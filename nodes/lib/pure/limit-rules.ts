/**
 * The checks that read several limits of the table at once (PWM, the watchdog keep-alive,
 * the io power configuration), kept apart from limits.ts so the table has room for its
 * bounds. Every bound still comes from limits.ts; this file only reads the table (and is
 * imported directly, so the two never import each other).
 */
import { Check, checkValue, describe, entryField, fieldOf, isInteger, Limit, mustBe } from './checks';
import { check, LIMITS } from './limits';
import { phrase } from './phrase';
import { FACTS } from './facts';

export interface Pwm {
  prescaler: number;
  period: number;
  time_on: number;
}

/** Output frequency of a PWM setting in Hz, as the device computes it (integer maths). */
export function pwmFrequencyHz(pwm: Pick<Pwm, 'prescaler' | 'period'>): number {
  return Math.floor(Math.floor(FACTS.pwmClockHz / (pwm.prescaler + 1)) / pwm.period);
}

/** Duty cycle in percent (spec rule 6: time_on / period). */
export function pwmDutyPercent(pwm: Pick<Pwm, 'period' | 'time_on'>): number {
  return (pwm.time_on / pwm.period) * 100;
}

/**
 * PWM rule (spec rule 6; real §3.2): each field in its 16-bit range, time_on below
 * period − 1, and the output frequency at most 1 MHz. Fields are named as `type`'s dialog
 * labels them when given (editor and runtime give the same type, so say the same sentence).
 */
export function checkPwm(pwm: Record<string, unknown>, type?: string): Check {
  for (const name of ['prescaler', 'period'] as const) {
    const result = check(name, pwm[name], fieldOf(type, name));
    if (result !== true) return result;
  }
  const period = pwm.period as number;
  const timeOn = pwm.time_on;
  if (!isInteger(timeOn) || timeOn < 1 || timeOn > period - 2) {
    const max = period - 2;
    return mustBe(fieldOf(type, 'time_on'), max >= 1 ? phrase('limits.timeOnRange', { max }) : phrase('limits.timeOnNone'), timeOn);
  }
  const hz = pwmFrequencyHz({ prescaler: pwm.prescaler as number, period });
  if (hz > FACTS.pwmMaxFrequencyHz) {
    return phrase('limits.pwmTooFast', { max: FACTS.pwmMaxFrequencyHz, hz, prescaler: describe(pwm.prescaler), period });
  }
  return true;
}

/**
 * The watchdog keep-alive: the timeout on (not 0), alives at least twice per timeout so one late round
 * does not reset the device. Fields named as `type`'s dialog; the two parts apart mark the field at fault.
 */
export function checkKeepAlive(interval: unknown, timeout: unknown, type?: string): Check {
  const t = checkKeepAliveTimeout(timeout, type);
  return t === true ? checkKeepAliveInterval(interval, timeout, type) : t;
}

/** The timeout a keep-alive needs: valid, and on (not 0). */
export function checkKeepAliveTimeout(timeout: unknown, type?: string): Check {
  const t = check('watchdog_timeout', timeout, fieldOf(type, 'timeout'));
  return t === true && timeout === 0 ? phrase('limits.keepAliveOff', { field: fieldOf(type, 'timeout') }) : t;
}

/** The interval: at most half a timeout the keep-alive can use; else (the timeout is at fault) within its own bounds. */
export function checkKeepAliveInterval(interval: unknown, timeout: unknown, type?: string): Check {
  const k = LIMITS.keepalive_interval;
  const limit = checkKeepAliveTimeout(timeout) === true ? { ...k, max: Math.min(k.max, Math.floor((timeout as number) / 2)), source: 'timeout / 2' } : k;
  return checkValue(fieldOf(type, 'interval'), limit, interval);
}

/** The current limit that applies to a pin on the given rail. */
export function currentLimitFor(rail: string): Limit | undefined {
  if (rail === '5_volt') return LIMITS.current_5_volt;
  if (rail === '12_volt') return LIMITS.current_12_volt;
  return undefined;
}

/** One entry of the io power-management configuration (spec field names). */
export interface PowerEntry {
  pin: number;
  rail: string;
  current: number;
}

/**
 * The io power-management configuration: exactly six entries, one per pin 1..6, each with
 * a rail and a current within that rail's per-pin bound. Entries' fields are named as
 * `type`'s table says them when given (see entryField).
 */
export function checkPowerConfig(config: unknown, type?: string): Check {
  if (!Array.isArray(config) || config.length !== FACTS.pinCount) {
    const got = Array.isArray(config) ? phrase('limits.entries', { count: config.length }) : describe(config);
    return phrase('limits.configCount', { count: FACTS.pinCount, got });
  }
  const seen = new Set<number>();
  for (let i = 0; i < config.length; i++) {
    const entry = config[i] as Record<string, unknown> | null;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      return phrase('limits.configEntry', { index: i, got: describe(entry) });
    }
    // Until the pin itself is known good, the entry is named by its row (pin i + 1 in the dialog).
    const pin = check('pin', entry.pin, entryField(type, i, i + 1, 'pin'));
    if (pin !== true) return pin;
    if (seen.has(entry.pin as number)) return phrase('limits.configPinTwice', { index: i, pin: entry.pin as number });
    seen.add(entry.pin as number);
    const rail = check('rail', entry.rail, entryField(type, i, entry.pin as number, 'rail'));
    if (rail !== true) return rail;
    const current = checkValue(entryField(type, i, entry.pin as number, 'current'), currentLimitFor(entry.rail as string)!, entry.current);
    if (current !== true) return current;
  }
  return true;
}
