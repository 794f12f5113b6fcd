/**
 * What the simulated hardware is, in both API versions: the simulator's own facts, written
 * from the spec (the device's REST interface, API 0.9) and, where the spec leaves a gap,
 * from the released services' behaviour (API 1.0). Nothing here comes from the package's nodes/:
 * the simulator is an independent oracle for the package's tests.
 *
 * Bounds on request fields are not here: each dialect keeps its own table (api09/limits.ts
 * from the spec, api10/limits.ts from the reference).
 */

/** The services and their path segment (spec, Endpoints; real §1). */
export const SERVICES = ['io', 'bmc', 'power'] as const;
export type Service = (typeof SERVICES)[number];

/** io pins, numbered 1..6 (spec, Limits: "io pins 6"). */
export const PIN_COUNT = 6;

/** The notification flags, in the order the spec lists them (spec, io notification record). */
export const ALERT_FLAGS = ['under_voltage_alert', 'high_voltage_alert', 'high_current_alert', 'custom_voltage_alert'] as const;
export type AlertFlag = (typeof ALERT_FLAGS)[number];

/** PWM base clock, Hz (spec rule 6: 16-bit timer, 48 MHz). */
export const PWM_CLOCK_HZ = 48_000_000;

/**
 * PWM output frequency in Hz as the device computes it, integer maths: the clock divided
 * by prescaler + 1, then by period (real §3.2; the spec only says the prescaler divides).
 */
export function pwmOutputHz(prescaler: number, period: number): number {
  return Math.floor(Math.floor(PWM_CLOCK_HZ / (prescaler + 1)) / period);
}

/** Longest time the fan takes to reach a new mode, ms (spec, power fan: up to 10 s). */
export const FAN_APPLY_MAX_MS = 10_000;

/** Typical highest fan speed, rpm (spec, power fan rpm). */
export const FAN_MAX_RPM = 5000;

/** The bootloader returns to normal mode when no host activates it in this window, ms (spec). */
export const BOOTLOADER_WINDOW_MS = 90_000;

/** Rail voltage windows of the power module, mV (spec, Limits). */
export const RAIL_WINDOWS_MV = {
  '3v3': [3240, 3440],
  '5v0': [4608, 5202],
  '12v': [11300, 12770],
} as const;

/** PMC temperature counted as a protection event, °C (spec, power protection log). */
export const PMC_TEMPERATURE_LIMIT_C = 125;

/** The fan modes, percent (spec, power fan; real §3.4). */
export const FAN_MODES = [0, 20, 40, 60, 80, 100] as const;

/** Slot numbers are u16 path segments (real §1). */
export const SLOT_MAX = 0xffff;
