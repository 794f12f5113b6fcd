/**
 * The PWM read-out of the io-output dialog: what the device really produces with the values
 * in the form. From frequency and duty it shows the plan (prescaler, period, time_on, the
 * numbers the runtime will send) and what that plan gives; from raw timer values, what
 * they give. "Gives" is the device's own integer maths (`pwmFrequencyHz`), not the
 * requested frequency. Pure, so it is unit-tested without a browser.
 */
import { check, isEnvReference, labelled, parseInteger } from '../lib/pure/limits';
import { checkPwm } from '../lib/pure/limit-rules';
import type { Phrase } from '../lib/pure/phrase';
import { describePwm, planPwm } from '../lib/pure/pwm';

export interface PwmForm {
  pwmInput?: unknown;
  frequency?: unknown;
  duty?: unknown;
  prescaler?: unknown;
  period?: unknown;
  time_on?: unknown;
}

export type PwmReadout =
  | {
      ok: true;
      input: 'frequency' | 'raw';
      prescaler: number;
      period: number;
      time_on: number;
      /** What the device produces, Hz (floored as the device does). */
      frequencyHz: number;
      /** What the device produces, percent (time_on / period). */
      dutyPercent: number;
      /** What was asked for (frequency input only). */
      requestedHz?: number;
      requestedDuty?: number;
    }
  | {
      ok: false;
      input: 'frequency' | 'raw';
      /**
       * `env`: a `${VAR}` is resolved only at runtime; `invalid`: a value fails its limit,
       * `message` says which (ModularDevice.text says it); `unreachable`: no timer setting
       * gives `frequency` (the dialog says so with io-output's `runtime.unreachableFrequency`).
       */
      reason: 'env' | 'invalid' | 'unreachable';
      message?: Phrase;
      frequency?: number;
    };

export function pwmReadout(form: PwmForm): PwmReadout {
  const input = form.pwmInput === 'raw' ? 'raw' : 'frequency';
  const names = input === 'raw' ? (['prescaler', 'period', 'time_on'] as const) : (['frequency', 'duty'] as const);
  if (names.some((name) => isEnvReference(form[name]))) return { ok: false, input, reason: 'env' };

  if (input === 'raw') {
    const setting = { prescaler: parseInteger(form.prescaler), period: parseInteger(form.period), time_on: parseInteger(form.time_on) };
    const result = checkPwm(setting, 'io-output');
    if (result !== true) return { ok: false, input, reason: 'invalid', message: result };
    const pwm = setting as { prescaler: number; period: number; time_on: number };
    return { ok: true, input, ...pwm, ...describePwm(pwm) };
  }

  const frequency = parseInteger(form.frequency);
  const duty = parseInteger(form.duty);
  for (const result of [check('pwm_frequency_hz', frequency, labelled('io-output', 'frequency')), check('duty_percent', duty, labelled('io-output', 'duty'))]) {
    if (result !== true) return { ok: false, input, reason: 'invalid', message: result };
  }
  const plan = planPwm(frequency as number, duty as number);
  if (!plan) return { ok: false, input, reason: 'unreachable', frequency: frequency as number };
  return {
    ok: true,
    input,
    prescaler: plan.prescaler,
    period: plan.period,
    time_on: plan.time_on,
    frequencyHz: plan.frequencyHz,
    dutyPercent: plan.dutyPercent,
    requestedHz: frequency as number,
    requestedDuty: duty as number,
  };
}
