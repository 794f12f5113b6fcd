/**
 * Facts of the spec and of the released services that code computes with or lists, but that
 * bound no field (the bounds are in limits.ts): pin count, clocks and windows, the alert
 * flags, the kinds of health event.
 */

/** Facts of the spec that are not bounds on a field but that code computes with. */
export const FACTS = {
  pinCount: 6,
  /** PWM base clock in Hz (spec rule 6). */
  pwmClockHz: 48_000_000,
  /** Highest PWM output frequency the released service accepts, in Hz (real §3.2). */
  pwmMaxFrequencyHz: 1_000_000,
  /** Longest time the fan takes to reach a new mode (spec, power fan). */
  fanApplyDelayMs: 10_000,
  /** Debounce the spec recommends at least (spec rule 5). */
  recommendedMinDebounceMs: 20,
  /** Debounce the spec suggests for buttons (spec rule 5). */
  buttonDebounceMs: 250,
  /** The bootloader gives up when no host activates it in this window (spec). */
  bootloaderWindowMs: 90_000,
  /** Typical highest fan speed, rpm, and its tolerance in percent (spec). */
  fanMaxRpm: 5000,
  fanRpmTolerancePercent: 15,
  /** Rail voltage windows in mV (spec Limits table). */
  railWindowsMv: {
    '3v3': [3240, 3440],
    '5v0': [4608, 5202],
    '12v': [11300, 12770],
  },
  /** The PMC temperature counted as a protection event, °C (spec). */
  pmcTemperatureLimitC: 125,
} as const;

/**
 * Each service's colour, and that of the nodes for any service (device-info, device-status,
 * fleet-publish): every node's registerType reads it through `ModularDevice.colour`, and the
 * sidebar paints each module's card with it, so a node and its module's card always match.
 */
export const COLOURS = { io: '#4FB3A9', bmc: '#A98BDC', power: '#E8A03A', any: '#7E93A8' } as const;

/** Where a setting's value may come from besides being typed in (a typedInput's other types): known only when a msg arrives. */
export const SETTING_SOURCES: readonly string[] = ['msg', 'flow', 'global', 'env'];

/** The io module's pins, 1..6 (spec: six configurable pins). */
export const PINS: readonly number[] = Array.from({ length: FACTS.pinCount }, (_, i) => i + 1);

/** Health event kinds (config-node/health.ts), in the order the device-status dialog lists them. */
export const HEALTH_KINDS = ['connection', 'reset', 'reapplied', 'keepalive-late', 'notifications-lost', 'queue'] as const;

/** The notification alert flags, in the order the spec lists them. */
export const ALERT_FLAGS = ['under_voltage_alert', 'high_voltage_alert', 'high_current_alert', 'custom_voltage_alert'] as const;
export type AlertFlag = (typeof ALERT_FLAGS)[number];

/** The node types a fleet command may reach (fleet-publish's allow-list picks from these); each still checks, confirms and queues as for any msg. */
export const FLEET_COMMAND_OPS = [
  'io-output',
  'io-read',
  'io-input',
  'io-threshold',
  'io-power',
  'power-fan',
  'power-limits',
  'power-readings',
  'bmc-readings',
  'bmc-usbhub',
  'bmc-watchdog',
  'device-info',
  'io-reset',
  'bmc-system',
] as const;

/**
 * The alarm commands a fleet command may give (fleet-publish's allow-list picks from these
 * too), one per operator action of pure/alarm-command.ts: a plant may allow acknowledge from
 * the control room and keep shelve or out-of-service (which silence an alarm) to the HMI.
 */
export const FLEET_ALARM_OPS = [
  'alarm-acknowledge',
  'alarm-shelve',
  'alarm-unshelve',
  'alarm-remove-from-service',
  'alarm-return-to-service',
  'alarm-acknowledge-all',
] as const;
