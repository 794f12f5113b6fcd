/**
 * The bounds of API 0.9, written from the spec of record
 * (the device's REST interface, API 0.9), each with the passage it comes from. Where
 * the spec leaves a bound open the entry says so and names the choice.
 *
 * The spec shows no error format or status codes ("Errors: not shown"). The simulator
 * answers a value outside these bounds with 400 in the released services' envelope and a
 * message of its own: `Invalid <field>: <value> (allowed: <range>)`.
 */
import { allowedText, Bound, fits, int, set, shown, words } from '../bounds';
import { firstFailure, SimError } from '../errors';
import { FAN_MODES, PIN_COUNT } from '../facts';

const LIMITS = 'spec, Limits';
const IO = 'spec, io service endpoints';
const BMC = 'spec, bmc service endpoints';

export const SPEC_09 = {
  // ---- io ---------------------------------------------------------------------------------
  pin: int(1, PIN_COUNT, `${LIMITS}: io pins 6, numbered 1..6`),
  mode: words(['analog', 'digital'], `${IO}: input/mode`),
  threshold_mV: int(50, 25000, `${LIMITS}: "any value between 50 and 25000 mV"`, { unit: 'mV' }),
  threshold_trigger: words(['disabled', 'rising', 'falling'], `${IO}: input/analog/threshold`),
  debounce_time_ms: int(0, 1000, `${LIMITS}: 0..1000 ms`, { unit: 'ms' }),
  interrupt_trigger: words(['disabled', 'rising', 'falling', 'pulse'], `${IO}: input/digital/interrupt`),
  counter_state: words(['enabled', 'disabled'], `${IO}: input/digital/counter`),
  output_state: words(['high', 'low'], `${IO}: output/state`),
  /** The 16-bit timer is all the spec says; prescaler 0 divides by 1 (real §3.2's formula). */
  prescaler: int(0, 0xffff, 'spec rule 6: 16-bit timer; other bounds "not shown"'),
  /** time_on < period needs period ≥ 1; time_on's own bound (0..period − 1) is in checkPwm. */
  period: int(1, 0xffff, 'spec rule 6: 16-bit timer, time_on < period', { unit: 'ticks' }),
  rail: words(['5_volt', '12_volt'], 'spec, io power-management configuration'),
  /**
   * Per-pin current, mA. The spec leaves the bound to "the module's datasheet" (rule 7). The
   * simulated module's datasheet gives the figures the released library enforces for the
   * same hardware (real §3.2), so both dialects simulate one module.
   */
  current_5_volt: int(0, 300, 'spec rule 7 (datasheet); the simulated module: real §3.2', { unit: 'mA' }),
  current_12_volt: int(0, 500, 'spec rule 7 (datasheet); the simulated module: real §3.2', { unit: 'mA' }),

  // ---- bmc --------------------------------------------------------------------------------
  watchdog_timeout: int(1000, 600000, `${LIMITS}: 0 (disabled) or 1000..600000 ms`, { unit: 'ms', also: [0] }),
  sw_shutdown_timeout: int(10000, 600000, `${LIMITS}: 10000..600000 ms`, { unit: 'ms' }),
  shutdown: words(['start'], `${BMC}: watchdog/shutdown "only value start"`),
  reset: words(['yes'], `${BMC}: usbhub/reset and hard_reset "value yes"`),
  /** The path's range is "not shown"; the hub record has fields port_slot_2..port_slot_8. */
  port: int(2, 8, 'spec, bmc USB hub state: port_slot_2..port_slot_8'),
  /** "At most 3600000 ms"; a lower bound is "not shown", so 0 is accepted. */
  bootloader_timeout: int(0, 3600000, `${LIMITS}: at most 3600000 ms`, { unit: 'ms' }),
  buzzer_mode: int(0, 5, `${LIMITS}: 0..5`),
  /** The body lists mode and duration; whether modes 0 and 1 need a duration is "not shown": they do here. */
  buzzer_duration: int(1, 1000, `${LIMITS}: 1..1000 ms`, { unit: 'ms' }),

  // ---- power ------------------------------------------------------------------------------
  /**
   * Current limits, mA. The spec states them as exclusive ("greater than 1000 and less than
   * 5950"), yet its sample sets the bound values and it leaves the behaviour at the bounds
   * "not shown": the simulator accepts the bound values.
   */
  limit_3v3: int(1000, 5950, `${LIMITS}: 1000 < limit_3v3 < 5950, bounds as in the sample`, { unit: 'mA' }),
  limit_5v0: int(1000, 4950, `${LIMITS}: 1000 < limit_5v0 < 4950, bounds as in the sample`, { unit: 'mA' }),
  limit_12v: int(100, 2400, `${LIMITS}: 100 < limit_12v < 2400, bounds as in the sample`, { unit: 'mA' }),
  fan_mode: set(FAN_MODES, 'spec, power fan: 0, 20, 40, 60, 80, 100 percent', '%'),
} as const satisfies Record<string, Bound>;

export type Name09 = keyof typeof SPEC_09;

/** The refusal of a value outside a bound. */
export function invalid(field: string, allowed: string, value: unknown): SimError {
  return new SimError(400, `Invalid ${field}: ${shown(value)} (allowed: ${allowed})`);
}

/** true, or the 400 refusal; `field` is the wire name (default: the table's name). */
export function within(name: Name09, value: unknown, field: string = name): true | SimError {
  const bound = SPEC_09[name];
  return fits(bound, value) ? true : invalid(field, allowedText(bound), value);
}

/** PWM (spec rule 6): prescaler and period on the 16-bit timer, time_on below period. */
export function checkPwm(b: { prescaler: number; period: number; time_on: number }): true | SimError {
  const fields = firstFailure(within('prescaler', b.prescaler), within('period', b.period));
  if (fields !== true) return fields;
  return b.time_on < b.period ? true : invalid('time_on', `0..${b.period - 1} ticks, below period`, b.time_on);
}

/** power-management (spec, io power-management configuration): six entries, each pin once. */
export function checkPowerConfig(config: ReadonlyArray<{ pin: number; rail: string; current: number }>): true | SimError {
  if (config.length !== PIN_COUNT) return invalid('config length', `${PIN_COUNT}, one entry per pin`, config.length);
  const seen = new Set<number>();
  for (const [i, e] of config.entries()) {
    const failed = firstFailure(within('pin', e.pin, `config[${i}].pin`), within('rail', e.rail, `config[${i}].rail`));
    if (failed !== true) return failed;
    if (seen.has(e.pin)) return invalid(`config[${i}].pin`, 'each pin once', e.pin);
    seen.add(e.pin);
    const current = within(e.rail === '5_volt' ? 'current_5_volt' : 'current_12_volt', e.current, `config[${i}].current`);
    if (current !== true) return current;
  }
  return true;
}
