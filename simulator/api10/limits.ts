/**
 * The bounds of API 1.0, written from the released services' behaviour (API 1.0) (the released
 * services), each with its section, and with the refusal the released service answers
 * when a value is outside it: status and message exactly as they send them. A bound the
 * service checks in `validate()` is refused with 400 "Parameter validation failed" (PVF);
 * the library's checks answer 400 in io and 422 in bmc and power (real §2).
 */
import { Bound, fits, int, set, words } from '../bounds';
import { SimError } from '../errors';
import { FAN_MODES, PIN_COUNT } from '../facts';

/** A status and message the released service answers. */
export type Refusal = readonly [status: number, message: string];

/** 400 "Parameter validation failed": a service's own validate() refused (real §2). */
export const PVF: Refusal = [400, 'Parameter validation failed'];

const rule = <B extends Bound>(bound: B, refusal: Refusal): B & { readonly refusal: Refusal } => ({ ...bound, refusal });

export const REAL_10 = {
  // ---- all services -------------------------------------------------------------------------
  reset: rule(words(['yes'], 'real §3.1 POST reset: "yes", else PVF'), PVF),

  // ---- io (library value errors are 400) ------------------------------------------------------
  /** Checked by validate() of input/mode, output/state, output/pwm; the other routes leave the pin to the device. */
  pin: rule(int(1, PIN_COUNT, 'real §3.2 validate(): pin 1..6'), PVF),
  mode: rule(words(['analog', 'digital'], 'real §3.2 input/mode validate()'), PVF),
  threshold_trigger: rule(words(['disabled', 'rising', 'falling'], 'real §3.2 threshold, library, checked first'), [400, 'Invalid trigger']),
  threshold_millivolt: rule(int(50, 25000, 'real §3.2 threshold, library, also when disabled', { unit: 'mV' }), [400, 'Invalid threshold_mv value (50-25000)']),
  interrupt_trigger: rule(words(['disabled', 'rising', 'falling', 'pulse'], 'real §3.2 interrupt, library'), [400, 'Invalid trigger']),
  /** "debunce" is how the released library spells it. */
  debounce_time_milliseconds: rule(int(0, 1000, 'real §3.2 interrupt, library', { unit: 'ms' }), [400, 'Invalid debunce_time_ms value (0-1000)']),
  counter_state: rule(words(['enabled', 'disabled'], 'real §3.2 counter, library'), [400, 'Invalid state']),
  output_state: rule(words(['low', 'high'], 'real §3.2 output/state validate()'), PVF),
  /** prescaler ≥ 1; 65535 overflows the service and answers 500 (real §3.2, §6). */
  prescaler: rule(int(1, 0xfffe, 'real §3.2 output/pwm validate(); §6: 1..65534'), PVF),
  /** period ≥ 2, no upper bound; time_on 1..period − 2 is in checkPwm (real §3.2). */
  period: rule(int(2, 0xffffffff, 'real §3.2 output/pwm validate(): period ≥ 2'), PVF),
  rail: rule(words(['5_volt', '12_volt'], 'real §3.2 power-management validate()'), PVF),
  /** Per-pin caps, 0 allowed; refused with `Invalid current limit for pin: <0-based index>`. */
  current_5_volt: int(0, 300, 'real §3.2 power-management, library', { unit: 'mA' }),
  current_12_volt: int(0, 500, 'real §3.2 power-management, library', { unit: 'mA' }),

  // ---- bmc (library value errors are 422) ------------------------------------------------------
  watchdog_timeout: rule(int(1000, 600000, 'real §3.3 POST watchdog', { unit: 'ms', also: [0] }), [422, 'timeout out of range']),
  sw_shutdown_timeout: rule(int(10000, 600000, 'real §3.3 watchdog/sw_shutdown_timeout', { unit: 'ms' }), [422, 'timeout out of range']),
  shutdown: rule(words(['start'], 'real §3.3 watchdog/shutdown, checked after the slot'), [400, "value must be 'start'"]),
  confirm: rule(words(['yes'], 'real §3.3 usbhub/reset and hard_reset'), [422, "value must be 'yes'"]),
  usb_slot: rule(int(2, 7, 'real §3.3 usbhub/slot/<number>, checked after the slot'), [400, 'Slot is out of range']),
  bootloader_timeout: rule(int(0, 3600000, 'real §3.3 usb_bootloader: ≤ 3600000, no lower bound', { unit: 'ms' }), [422, 'timeout out of range']),
  buzzer_mode: rule(int(0, 5, 'real §3.3 buzzer, checked first'), [422, 'mode out of range']),
  buzzer_duration: rule(int(1, 1000, 'real §3.3 buzzer, for every mode', { unit: 'ms' }), [422, 'duration out of range']),

  // ---- power (library value errors are 422; bounds inclusive) ---------------------------------
  limit_3v3: rule(int(1000, 5950, 'real §0, §3.4: inclusive', { unit: 'mA' }), [422, 'Valid limit_3v3 range 1000 - 5950']),
  limit_5v0: rule(int(1000, 4950, 'real §0, §3.4: inclusive', { unit: 'mA' }), [422, 'Valid limit_5v0 range 1000 - 4950']),
  /** The released message ends with a space. */
  limit_12v: rule(int(100, 2400, 'real §0, §3.4: inclusive', { unit: 'mA' }), [422, 'Valid limit_12v range 100 - 2400 ']),
  fan_mode: rule(set(FAN_MODES, 'real §3.4 POST fan, even when not forced', '%'), [422, 'Fan mode must be 0, 20, 40, 60, 80, 100']),
} as const;

/** Highest PWM output frequency the released service accepts, Hz (real §3.2, PVF above). */
export const PWM_MAX_HZ = 1_000_000;

/** Power-management takes exactly six entries, the position being the pin (real §0, §3.2). */
export const CONFIG_ENTRIES = PIN_COUNT;

type Ruled = { [K in keyof typeof REAL_10]: (typeof REAL_10)[K] extends { refusal: Refusal } ? K : never }[keyof typeof REAL_10];

export const refusal = ([status, message]: Refusal): SimError => new SimError(status, message);

/** true, or the released service's refusal for a value outside bound `name`. */
export function check10(name: Ruled, value: unknown): true | SimError {
  const entry = REAL_10[name];
  return fits(entry, value) ? true : refusal(entry.refusal);
}
