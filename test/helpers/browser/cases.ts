/**
 * What the editor test does with each node type: the settings that reveal each group of
 * limited fields, the settings it is deployed with, and how its working is seen.
 *
 * The limited fields themselves are not listed here: they are read from the node's own
 * editor definition (`prop: { ..., validate: ModularDevice.validator('<limit>', '<field>') }`
 * in nodes/<type>.html, or `validator(...)` in the editor module that builds its defaults), so a new limited text field is tested without touching this file.
 * Out-of-range values and the expected messages come from limits.ts.
 */
import fs from 'fs';
import path from 'path';
import { LIMITS, Limit, LimitName, check, checkValue, entryField, labelled } from '../../../nodes/lib/pure/limits';
import { checkKeepAlive, checkPwm } from '../../../nodes/lib/pure/limit-rules';
import { english } from '../i18n';
import { dialogDefinition } from '../source-files';

const root = path.resolve(__dirname, '..', '..', '..', '..');

export type Service = 'io' | 'bmc' | 'power' | 'io3';

/** A select value (string) or a checkbox state (boolean), by property name. */
export type Settings = Record<string, string | boolean>;

/** One field check: type `bad`, expect `message`; type `good`, expect no error. */
export interface FieldCheck {
  selector: string;
  bad: string;
  message: string;
  good: string;
}

export interface Phase {
  settings: Settings;
  /** Props (from the node's validators) whose field this phase shows. */
  props: string[];
  /** Checks of fields that use a validator other than ModularDevice.validator. */
  extra?: FieldCheck[];
}

export interface Case {
  type: string;
  service: Service;
  phases: Phase[];
  /** The settings it is deployed with (valid; dangerous operations confirmed). */
  deploy: Settings;
  /** Text inputs to set for the deployed flow. */
  deployText?: Record<string, string>;
  /** It acts on deploy and polls by itself: no inject needed for its first output. */
  notification?: boolean;
  /** It has no input: its first output is what it hears on deploy (the module connecting). */
  listens?: boolean;
}

export interface LimitedField {
  prop: string;
  limit: LimitName;
  /** The msg's name of the value. */
  field: string;
  /** The dialog's label key, where it differs from `field`. */
  label?: string;
  type: string;
}

/** The `validator('<limit>', '<field>'[, when, '<label>'])` defaults of a node's editor definition (its html, or the editor module building them). */
export function limitedFields(type: string): LimitedField[] {
  const html = dialogDefinition(type);
  const found: LimitedField[] = [];
  for (const m of html.matchAll(/^\s*(\w+):\s*\{[^\n]*?\bvalidator\('(\w+)'(?:,\s*'([^']+)')?(?:,\s*\w+,\s*'([^']+)')?/gm)) {
    found.push({ prop: m[1], limit: m[2] as LimitName, field: m[3] ?? m[2], label: m[4], type });
  }
  return found;
}

/** Values just outside an integer limit (below min unless that is an allowed extra, above max). */
export function outOfRange(limit: LimitName): number[] {
  const l = LIMITS[limit] as Limit;
  if (l.kind !== 'int') return [];
  const values = [l.max + 1];
  const below = l.min - 1;
  if (!(l.also ?? []).includes(below)) values.unshift(below);
  return values;
}

/** The message the editor must show for `value` typed into a field with `limit`. */
export function expectedMessage(f: LimitedField, value: number): string {
  // Named as the dialog labels it (wire name in brackets) where the node's catalog has the label.
  const labels = JSON.parse(fs.readFileSync(path.join(root, 'locales', 'en-US', `${f.type}.json`), 'utf8'))[f.type].label ?? {};
  const result = check(f.limit, value, typeof labels[f.label ?? f.field] === 'string' ? labelled(f.type, f.field, f.label) : f.field);
  if (result === true) throw new Error(`${value} is within ${f.limit}`);
  return english(result);
}

/** A valid value for an integer limit: the minimum (or the first listed value). */
export function validValue(limit: LimitName): string {
  const l = LIMITS[limit];
  if (l.kind === 'int') return String(l.min);
  if (l.kind === 'intSet') return String(l.values[0]);
  throw new Error(`${limit} is not a number`);
}

const pwm = { prescaler: 47, period: 1000 };
const keepAliveTimeout = 10000;

/**
 * A field check whose message is the English refusal of `result`, said when read (Node-RED's
 * i18n has the catalogs only once `catalogsReady` resolved, after CASES is built).
 */
function refusal(check: Omit<FieldCheck, 'message'>, result: () => ReturnType<typeof checkValue>): FieldCheck {
  return Object.defineProperty({ ...check }, 'message', { get: () => english(result()), enumerable: true }) as FieldCheck;
}

export const CASES: Case[] = [
  {
    type: 'io-power',
    service: 'io',
    phases: [
      {
        settings: {},
        props: [],
        // The current table: each row against its rail's bound (checkPowerConfig's per-pin limits).
        extra: [
          refusal({ selector: '#io-power-current-1', bad: '301', good: '100' }, () =>
            checkValue(entryField('io-power', 0, 1, 'current'), LIMITS.current_5_volt, 301),
          ),
        ],
      },
    ],
    deploy: {},
  },
  {
    type: 'io-output',
    service: 'io',
    phases: [
      { settings: { mode: 'state' }, props: ['pin'] },
      { settings: { mode: 'pwm', pwmInput: 'frequency' }, props: ['frequency', 'duty'] },
      {
        settings: { mode: 'pwm', pwmInput: 'raw' },
        props: ['prescaler', 'period'],
        extra: [
          refusal({ selector: '#node-input-time_on', bad: String(pwm.period - 1), good: '500' }, () =>
            checkPwm({ ...pwm, time_on: pwm.period - 1 }, 'io-output'),
          ),
        ],
      },
    ],
    deploy: { mode: 'state', state: 'high' },
    deployText: { pin: '1', prescaler: String(pwm.prescaler), period: String(pwm.period), time_on: '500' },
  },
  {
    type: 'io-threshold',
    service: 'io',
    phases: [{ settings: {}, props: ['pin', 'threshold_mV'] }],
    deploy: {},
    deployText: { pin: '3', threshold_mV: '3000' },
  },
  {
    type: 'io-input',
    service: 'io',
    phases: [{ settings: { mode: 'digital', trigger: 'rising' }, props: ['pin', 'debounce_time_ms'] }],
    deploy: {},
    deployText: { pin: '4', debounce_time_ms: '250' },
  },
  {
    type: 'io-read',
    service: 'io',
    phases: [{ settings: { onlyOnChange: true }, props: ['interval', 'deadband'] }],
    deploy: { onlyOnChange: false },
    deployText: { interval: '0', deadband: '0' },
  },
  {
    type: 'notification-poll',
    service: 'io',
    phases: [{ settings: {}, props: ['interval'] }],
    deploy: {},
    deployText: { interval: '100' },
    notification: true,
  },
  { type: 'device-info', service: 'io', phases: [], deploy: {} },
  { type: 'device-status', service: 'io', phases: [], deploy: {}, listens: true },
  {
    type: 'bmc-watchdog',
    service: 'bmc',
    phases: [
      { settings: { operation: 'timeout', keepAlive: false }, props: ['timeout'] },
      { settings: { operation: 'sw_shutdown_timeout', keepAlive: false }, props: ['swShutdownTimeout'] },
      // A keep-alive arms the watchdog: the runtime refuses it without confirm, so the case ticks it.
      {
        settings: { operation: 'read', keepAlive: true, confirm: true },
        props: [],
        extra: [
          // The keep-alive interval may be at most half the timeout (checkKeepAlive).
          refusal({ selector: '#node-input-interval', bad: String(keepAliveTimeout / 2 + 1), good: '3000' }, () =>
            checkKeepAlive(keepAliveTimeout / 2 + 1, keepAliveTimeout, 'bmc-watchdog'),
          ),
        ],
      },
    ],
    deploy: { operation: 'read', keepAlive: false },
    deployText: { timeout: String(keepAliveTimeout), swShutdownTimeout: '60000' },
  },
  {
    type: 'bmc-readings',
    service: 'bmc',
    phases: [{ settings: { onlyOnChange: true }, props: ['interval', 'deadband'] }],
    deploy: { onlyOnChange: false },
    deployText: { interval: '0', deadband: '0' },
  },
  {
    type: 'bmc-system',
    service: 'bmc',
    phases: [
      { settings: { operation: 'buzzer' }, props: ['duration'] },
      { settings: { operation: 'usb_bootloader' }, props: ['timeout'] },
    ],
    deploy: { operation: 'buzzer' },
    deployText: { duration: '200', timeout: '0' },
  },
  {
    type: 'power-fan',
    service: 'power',
    phases: [{ settings: { operation: 'set', fan_forced: true, waitApplied: true }, props: ['wait'] }],
    deploy: { waitApplied: false, operation: 'read' },
    deployText: { wait: '12000' },
  },
  {
    type: 'power-limits',
    service: 'power',
    phases: [{ settings: { operation: 'set' }, props: ['limit_3v3', 'limit_5v0', 'limit_12v'] }],
    deploy: { operation: 'set' },
    deployText: { limit_3v3: '5950', limit_5v0: '4950', limit_12v: '2400' },
  },
  {
    type: 'power-readings',
    service: 'power',
    phases: [{ settings: { onlyOnChange: true }, props: ['interval', 'deadband'] }],
    deploy: { onlyOnChange: false },
    deployText: { interval: '0', deadband: '0' },
  },
  // Dangerous operations last, each confirmed: they must work, and safely, on the simulator.
  { type: 'io-reset', service: 'io3', phases: [], deploy: { confirm: true } },
  {
    type: 'bmc-usbhub',
    service: 'bmc',
    phases: [{ settings: { operation: 'port' }, props: ['port'] }],
    deploy: { operation: 'reset', confirm: true },
    deployText: { port: '2' },
  },
  { type: 'bmc-watchdog', service: 'bmc', phases: [], deploy: { operation: 'shutdown', confirm: true, keepAlive: false } },
  { type: 'bmc-system', service: 'bmc', phases: [], deploy: { operation: 'hard_reset', confirm: true } },
];

/** The node types the package declares (package.json "node-red".nodes). */
export function declaredTypes(): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  return Object.keys(pkg['node-red'].nodes);
}
