/**
 * THE table of documented limits, and the checks that need its bounds.
 *
 * Every bound the package enforces lives here once: the runtime nodes, the editor forms
 * (this file is bundled into editor code, so it imports nothing from Node-RED or Node.js)
 * and the help text all read it. The simulator does not: it keeps its own tables, written
 * from the same sources (simulator/api09/limits.ts, simulator/api10/limits.ts), so a wrong bound here
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
import { Check, checkValue, Limit } from './checks';
import { PhraseValue } from './phrase';

export * from './checks';
// The rules over several fields (PWM, keep-alive, power configuration) live in limit-rules.ts, which reads this table: imported from
// there, not re-exported here, so the two files do not import each other.

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
  /**
   * How often a connected config node reads the version record again (config-node/connection.ts),
   * settings.js `modularDevice.healthIntervalMs`: an idle flow learns of an outage or (API 1.0)
   * new sessions within it. Shorter costs a request per module each time; tests use 200 ms.
   */
  health_interval_ms: { kind: 'int', min: 100, max: 600000, default: 10000, unit: 'ms', source: 'package setting (settings.js)' },

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

  // ---- alarms (ISA-18.2 / IEC 62682; pure/alarm-*.ts) -------------------------------------
  /** Four priorities, 1 the most urgent: ISA-18.2 / IEC 62682 advise 3 or 4 levels for an operator to tell apart. */
  alarm_priority: { kind: 'int', min: 1, max: 4, default: 3, source: 'ISA-18.2 / IEC 62682 (3 or 4 priorities)' },
  /**
   * How long a shelve lasts: ISA-18.2 asks shelving to be time-limited so no alarm is
   * forgotten on the shelf; at most one day (a shift handover sees it come back).
   */
  shelve_duration: {
    kind: 'int',
    min: 1000,
    max: 86_400_000,
    default: 3_600_000,
    unit: 'ms',
    source: 'ISA-18.2 (shelving time-limited); package choice ≤ 1 day',
  },
  /** On-delay and off-delay against chattering: ISA-TR18.2.3 (basic alarm design) suggests 15 s (flow, pressure) to 60 s (level, temperature); up to 10 min. */
  alarm_delay: { kind: 'int', min: 0, max: 600_000, default: 0, unit: 'ms', source: 'ISA-TR18.2.3 (15 s to 60 s typical); package choice ≤ 10 min' },
  /** A Hi/HiHi/Lo/LoLo limit in the unit of its value (mA, mV, °C): any number a reading can hold. */
  alarm_limit: { kind: 'number', min: -1e9, max: 1e9, source: 'package choice (any reading of the device)' },
  /** The hysteresis a limit alarm clears by (ISA-TR18.2.3: 1 % to 5 % of the range), in the unit of its value. */
  alarm_deadband: { kind: 'number', min: 0, max: 1e9, default: 0, source: 'ISA-TR18.2.3 (deadband 1-5 % of range)' },
  /** An alarm's id: short, and of characters safe in an MQTT topic level and a file (no `/`, `+`, `#`). */
  alarm_id: { kind: 'text', minChars: 1, maxChars: 64, chars: 'A-Za-z0-9_.:-', source: 'package choice (MQTT topic level, file name)' },
  /** Who acted (acknowledge, shelve, out of service): a user name, as a journal keeps it. */
  alarm_user: { kind: 'text', minChars: 0, maxChars: 64, source: 'package choice (a user name)' },
  /** Why (IEC 62682 asks shelving and out-of-service to be recorded with a reason): a sentence, not a file. */
  alarm_comment: { kind: 'text', minChars: 0, maxChars: 500, source: 'package choice (a reason, journal-sized)' },
  /** The journal entries device-alarm-list sends with each list (a dashboard's table, not the whole journal). */
  alarm_journal_shown: { kind: 'int', min: 0, max: 500, default: 50, source: 'package choice (a table an operator reads)' },
} as const satisfies Record<string, Limit>;

export type LimitName = keyof typeof LIMITS;

/**
 * Bounds on every device answer, which is untrusted input (see device/answer.ts). None is a
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

/** The queue alarm of health (config-node/module-health.ts): raised above 80 % of the queue limit, cleared below half. */
export const QUEUE_HEALTH = { risePercent: 80, fallPercent: 50, source: 'package choice' } as const;

/** The live sidebar (nodes/sidebar/runtime/): editors watching at once, a watcher id's length, a lease's life, snapshots per second, the token bucket's size, the pause while no module is connected. */
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

/**
 * Sparkplug B (fleet-publish's Sparkplug mode, nodes/fleet/sparkplug/): what an incoming
 * payload (NCMD, DCMD, the primary host's STATE) may be before anything decodes it, how many
 * metrics one command may carry, the ids' length (a topic level each), how many metric
 * values store and forward keeps while the primary host is offline (beyond: dropped, counted),
 * and the MQTT link's settings and pace (mqtt-link.ts) and the bdSeq file's size.
 */
export const SPARKPLUG_BOUNDS = {
  payloadBytes: 65_536,
  commandMetrics: 64,
  stateBytes: 1024,
  idChars: 64,
  storedValues: 10_000,
  /** The Broker URL's characters (mqtt://host:port or mqtts://...). */
  urlChars: 1024,
  /** The MQTT client id: MQTT 3.1.1 (3.1.3.1) obliges a broker to take 23 characters; longer ones it may refuse. */
  clientIdChars: 23,
  /** Between two attempts to reach the broker, and how long one CONNECT may take. */
  reconnectMs: 5000,
  connectTimeoutMs: 10_000,
  /** bdseq-store.ts: the userDir file's size read back (a few hundred edge nodes' counters). */
  storeBytes: 65_536,
  source: 'package choice; clientIdChars MQTT 3.1.1 section 3.1.3.1',
} as const;

/**
 * Runtime texts said so far (base/i18n.ts), per message id and values: a status text is said
 * for every msg, and i18next's lookup costs more than the request. Cleared when full.
 */
export const TEXT_CACHE = { entries: 512, source: 'package choice' } as const;

/**
 * Alarm-system health (pure/alarm-health.ts), as ISA-18.2 / IEC 62682 measure it (monitoring and assessment):
 * activations per 10 minutes, a flood above 10 per 10 minutes, chattering at 3 or more
 * activations in a minute, stale after a day active, the 10 most frequent. `maxEvents` bounds
 * the activations kept (100 per second for the whole window of 10 minutes is 60,000).
 */
export const ALARM_HEALTH = {
  windowMs: 600_000,
  floodAbove: 10,
  chatterCount: 3,
  chatterMs: 60_000,
  staleMs: 86_400_000,
  topCount: 10,
  maxEvents: 100_000,
  source: 'ISA-18.2 / IEC 62682 (alarm system performance); maxEvents package choice',
} as const;

/**
 * The alarm journal (nodes/alarms/journal.ts): what it keeps, one entry's and one state's size,
 * and its pace. A write at most every second is the most a crash can lose; under a flood the
 * disk's share stretches that (a full 1 MB file every 4 s, not every second: an SD card's life).
 */
export const ALARM_JOURNAL = {
  /** Entries kept: at the bench's 100 transitions per second, the last 50 s; at a plant's pace, weeks. */
  maxEntries: 5000,
  /** One entry's JSON, UTF-8 bytes: a transition with a comment of a few hundred characters fits whole. */
  maxEntryBytes: 2048,
  /** Alarms whose state is kept; a state for one more is refused. */
  maxStates: 5000,
  /** One alarm's state, JSON bytes (the state machine's state is a few fields). */
  maxStateBytes: 1024,
  /** At most one write per this (ms). */
  intervalMs: 1000,
  /** This many entries waiting write at once, before the interval ends. */
  flushPending: 1000,
  /** Bytes per second the journal may write under a flood. */
  writeBytesPerSecond: 256 * 1024,
  source: 'package choice',
} as const;

// ---- checks against the table --------------------------------------------------------

/** Checks a value against the named limit, using the limit's name as the field name. */
export function check(name: LimitName, value: unknown, field: PhraseValue = name): Check {
  return checkValue(field, LIMITS[name], value);
}

/** Checks a boolean field (there is no bound to look up, only the type). */
export function checkBool(field: PhraseValue, value: unknown): Check {
  return checkValue(field, { kind: 'bool', source: 'spec' }, value);
}
