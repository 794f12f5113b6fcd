/**
 * THE table of documented limits, and the checks that need its bounds.
 *
 * Every bound the package enforces lives here once: the runtime nodes, the editor forms
 * (this file is bundled into editor code, so it imports nothing from Node-RED or Node.js)
 * and the help text all read it. The simulator does not: it keeps its own tables, written
 * from the same sources (simulator/api09/limits.ts, api10/limits.ts), so a wrong bound here
 * shows as a device refusal in the tests instead of passing everywhere at once.
 *
 * Sources, cited per entry:
 *  - spec: the device's REST interface (API 0.9, the spec) (API 0.9, the spec of record)
 *  - real: the released services' behaviour (API 1.0) (the released services, API 1.0)
 * Where the two differ we take the bound that both accept, so a value that passes here is
 * never refused by a device of either version, and say so beside the entry.
 *
 * How a value is checked and how a refusal is put (a phrase, said in the reader's
 * language) is checks.ts; it is re-exported here so callers have one place to import from.
 */
import { Check, checkValue, describe, entryField, fieldOf, isInteger, Limit, mustBe } from './checks';
import { phrase, PhraseValue } from './phrase';
import { FACTS } from './facts';

export * from './checks';

const SPEC = 'spec, Limits table';
const u16Max = 0xffff;

/** Services of the device and their path segment; a fixed list so no msg can change a path. */
export const SERVICES = ['io', 'bmc', 'power'] as const;
export type Service = (typeof SERVICES)[number];

/** API versions this package speaks (the path segment is MAJOR.MINOR). */
export const API_VERSIONS = ['0.9', '1.0'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];

export const LIMITS = {
  // ---- addressing -------------------------------------------------------------------
  /** Slot numbers are u16 path segments (real §1). */
  slot: { kind: 'int', min: 0, max: u16Max, source: 'real §1: <slot> is a u16' },
  service: { kind: 'word', values: SERVICES, source: 'spec, Endpoints' },
  pin: { kind: 'int', min: 1, max: 6, source: SPEC },
  api_version: { kind: 'word', values: ['auto', ...API_VERSIONS], source: 'spec, Versioning' },

  // ---- this package's own settings (not device limits, but bounded all the same) -------
  /** Per-request timeout of the config node: long enough for the driver's 10 s worst case. */
  request_timeout: { kind: 'int', min: 100, max: 600000, default: 5000, unit: 'ms', source: 'package setting' },
  /** notification-poll's interval: the spec says notifications arrive about 20 ms after the event. */
  notification_interval: { kind: 'int', min: 20, max: 3600000, unit: 'ms', source: 'spec, Events (≈ 20 ms latency)' },
  /** Polling of readings; 0 = only when a msg asks. */
  poll_interval: { kind: 'int', min: 20, max: 86400000, also: [0], unit: 'ms', source: 'package setting' },
  /** bmc-watchdog's own keep-alive; at most half the watchdog timeout (see checkKeepAlive). */
  keepalive_interval: { kind: 'int', min: 100, max: 300000, unit: 'ms', source: 'package setting (≤ timeout / 2)' },
  /** How long power-fan waits for the fan to reach a forced mode (spec: up to 10 s). */
  fan_wait: { kind: 'int', min: 0, max: 60000, unit: 'ms', source: 'spec, power fan (apply delay up to 10 s)' },
  /** "Only on change": changes within this many mV (or mA, or units of the reading) are not sent. */
  deadband: { kind: 'int', min: 0, max: 100000, source: 'package setting' },
  /** Requests that may wait per module: bounds memory under a flood of msgs. */
  queue_limit: { kind: 'int', min: 1, max: 100000, default: 100, source: 'package setting' },
  /**
   * The most one device answer may carry, in KiB (config node "answer limit"). The largest
   * record of either API is a few KiB; the cap keeps a broken or hostile device from filling
   * the heap, and its top keeps JSON.parse of a full answer to a few ms of the event loop.
   */
  answer_limit: { kind: 'int', min: 1, max: 256, default: 64, unit: 'KiB', source: 'package setting (device records are a few KiB)' },
  /** Device requests per second of the live sidebar, all modules together (settings.js `modularDevice.sidebarReadsPerSecond`): low, the flows come first. */
  sidebar_reads_per_second: { kind: 'int', min: 1, max: 20, default: 4, unit: '/s', source: 'package setting (a low, settable rate)' },

  // ---- io -------------------------------------------------------------------------------
  input_mode: { kind: 'word', values: ['analog', 'digital'], source: 'spec, io endpoints' },
  threshold_mV: { kind: 'int', min: 50, max: 25000, unit: 'mV', source: SPEC },
  threshold_trigger: { kind: 'word', values: ['disabled', 'rising', 'falling'], source: 'spec, io endpoints' },
  debounce_time_ms: { kind: 'int', min: 0, max: 1000, unit: 'ms', source: SPEC },
  interrupt_trigger: { kind: 'word', values: ['disabled', 'rising', 'falling', 'pulse'], source: 'spec, io endpoints' },
  counter_state: { kind: 'word', values: ['enabled', 'disabled'], source: 'spec, io endpoints' },
  output_state: { kind: 'word', values: ['high', 'low'], source: 'spec, io endpoints' },
  rail: { kind: 'word', values: ['5_volt', '12_volt'], source: SPEC },
  /**
   * Per-pin current budget in mA. The spec leaves unit and bound to the datasheet; the
   * released library caps 5_volt at 300 mA and 12_volt at 500 mA, 0 allowed (real §3.2).
   */
  current_5_volt: { kind: 'int', min: 0, max: 300, unit: 'mA', source: 'real §3.2 power-management' },
  current_12_volt: { kind: 'int', min: 0, max: 500, unit: 'mA', source: 'real §3.2 power-management' },
  /**
   * PWM on the 16-bit timer at 48 MHz (spec rule 6). The released service is stricter than
   * "16-bit, time_on < period" (real §3.2, §6): prescaler 0 is refused and 65535 crashes it,
   * period must be at least 2, time_on at least 1 and below period - 1, and the output
   * frequency may not pass 1 MHz. We take those bounds so no device refuses a value.
   */
  prescaler: { kind: 'int', min: 1, max: u16Max - 1, source: 'spec rule 6 (16-bit); real §6 (1..65534)' },
  period: { kind: 'int', min: 2, max: u16Max, unit: 'ticks', source: 'spec rule 6 (16-bit); real §6 (≥ 2)' },
  /** What the editor's PWM helper takes: integer Hz up to the 1 MHz the service allows. */
  pwm_frequency_hz: { kind: 'int', min: 1, max: 1_000_000, unit: 'Hz', source: 'real §3.2 (≤ 1 MHz)' },
  duty_percent: { kind: 'int', min: 0, max: 100, unit: '%', source: 'spec rule 6 (time_on / period)' },
  /** time_on's upper bound depends on period: see `checkPwm`. */
  time_on: { kind: 'int', min: 1, max: u16Max - 2, unit: 'ticks', source: 'spec rule 6; real §6 (1..period−2)' },

  // ---- bmc ------------------------------------------------------------------------------
  watchdog_timeout: { kind: 'int', min: 1000, max: 600000, also: [0], unit: 'ms', source: SPEC },
  sw_shutdown_timeout: { kind: 'int', min: 10000, max: 600000, unit: 'ms', source: SPEC },
  /** The spec gives no lower bound; the released service allows 0 (real §6). */
  bootloader_timeout: { kind: 'int', min: 0, max: 3600000, unit: 'ms', source: 'spec; real §6 (no lower bound)' },
  /** Required for every mode, also 0 and 1 (real §3.3). */
  buzzer_mode: { kind: 'int', min: 0, max: 5, source: SPEC },
  buzzer_duration: { kind: 'int', min: 1, max: 1000, unit: 'ms', source: SPEC },
  /** USB port numbers of the spec path `usbhub/port/<n>` and fields `port_slot_2..8`. */
  usb_port: { kind: 'int', min: 2, max: 8, source: 'spec usbhub/port/<n>, fields port_slot_2..port_slot_8' },
  /** API 1.0 numbers the hub ports as `usbhub/slot/<n>`, 2..7 (real §0, §6). */
  usb_slot_v1: { kind: 'int', min: 2, max: 7, source: 'real §3.3 usbhub/slot/<n>' },
  watchdog_shutdown: { kind: 'word', values: ['start'], source: 'spec, bmc endpoints' },
  reset_confirmation: { kind: 'word', values: ['yes'], source: 'spec, bmc endpoints' },

  // ---- power ----------------------------------------------------------------------------
  /**
   * Current limits in mA. The spec states exclusive bounds ("greater than 1000 and less
   * than 5950"); its sample sets the upper values themselves, and nothing shows a 0.9
   * device taking the lower ones. The released services accept both bounds (real §0, §3.4).
   * Both accept: above the lower bound, up to and including the upper one.
   */
  limit_3v3: { kind: 'int', min: 1001, max: 5950, unit: 'mA', source: 'spec (> 1000; sample sets 5950); real §3.4 (1000..5950)' },
  limit_5v0: { kind: 'int', min: 1001, max: 4950, unit: 'mA', source: 'spec (> 1000; sample sets 4950); real §3.4 (1000..4950)' },
  limit_12v: { kind: 'int', min: 101, max: 2400, unit: 'mA', source: 'spec (> 100; sample sets 2400); real §3.4 (100..2400)' },
  fan_mode: { kind: 'intSet', values: [0, 20, 40, 60, 80, 100], unit: '%', source: SPEC },
} as const satisfies Record<string, Limit>;

export type LimitName = keyof typeof LIMITS;

/**
 * Bounds on every device answer, which is untrusted input (see lib/answer.ts). None is a
 * device limit: each is far above what a record of either API holds (the deepest nests 4
 * levels, the largest holds about 60 values), and far below what could hurt Node-RED.
 */
export const ANSWER_BOUNDS = {
  /** Objects and arrays inside one another: Node-RED clones msgs recursively. */
  maxDepth: 16,
  /** Values (objects, arrays, strings, numbers, ...) in one answer. */
  maxValues: 10_000,
  /**
   * An error answer (non-2xx) larger than this is no device's error: the services' envelope
   * is under 1 KiB and nginx's pages under 1 KiB.
   */
  maxErrorBytes: 16_384,
  /** Characters of device text (an error message, a page title) that reach a message. */
  maxTextChars: 200,
} as const;

/** The queue alarm of health (lib/module-health.ts): raised above 80 % of the queue limit, cleared below half. */
export const QUEUE_HEALTH = { risePercent: 80, fallPercent: 50, source: 'package choice' } as const;

/** The live sidebar (nodes/live/): editors watching at once, a watcher id's length, a lease's life, snapshots per second, the token bucket's size, the pause while no module is connected. */
export const LIVE_BOUNDS = {
  maxWatchers: 32,
  watcherIdChars: 64,
  leaseMs: 30_000,
  snapshotsPerSecond: 2,
  bucketTokens: 2,
  idleMs: 1000,
  source: 'package choice',
} as const;

/**
 * Fleet publishing (nodes/fleet/): a topic level's characters (prefix and device name), commands
 * waiting for their node's answer, events held while the broker is away, a command's payload
 * in bytes, how long a command waits for its answer, readings remembered for "by exception".
 */
export const FLEET_BOUNDS = {
  levelChars: 64,
  maxPending: 100,
  maxHeld: 1000,
  commandBytes: 4096,
  replyTimeoutMs: 60_000,
  maxReadings: 200,
  source: 'package choice',
} as const;

/** The connection's health check (module/connection.ts): every 10 s; tests may shorten it with MD_HEALTH_INTERVAL_MS (README, Testing). */
export const HEALTH_CHECK = { defaultMs: 10_000, minMs: 100, maxMs: 600_000, env: 'MD_HEALTH_INTERVAL_MS', source: 'package choice' } as const;

/**
 * Runtime texts said so far (base/i18n.ts), per message id and values: a status text is said
 * for every msg, and i18next's lookup costs more than the request. Cleared when full.
 */
export const TEXT_CACHE = { entries: 512, source: 'package choice' } as const;

// ---- checks against the table --------------------------------------------------------

/** Checks a value against the named limit, using the limit's name as the field name. */
export function check(name: LimitName, value: unknown, field: PhraseValue = name): Check {
  return checkValue(field, LIMITS[name], value);
}

/** Checks a boolean field (there is no bound to look up, only the type). */
export function checkBool(field: PhraseValue, value: unknown): Check {
  return checkValue(field, { kind: 'bool', source: 'spec' }, value);
}

// ---- rules that span several fields -------------------------------------------------------

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
