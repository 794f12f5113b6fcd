/**
 * What the live sidebar reads of a module, per service, and how each answer goes into the
 * module's reading. The requests go through the module's own DeviceClient, so its dialect
 * has already put an API 1.0 answer in the spec's shape (pin_type names, the hub's ports).
 *
 * Answers are untrusted: only plain numbers (and short printable words for the hub's ports)
 * under short field names pass, at most a few dozen per record. `notification` is never
 * read here: reading clears the flags (alerts.ts shows what the flows' polls saw).
 */
import { printable } from '../../lib/device/answer';
import { LIMITS } from '../../lib/pure/limits';
import type { LiveModule, LivePin } from '../../lib/pure/snapshot';
import type { Service } from '../../lib/pure/limits';

/** What one turn of reads learnt of a module. */
export type Reading = Pick<LiveModule, 'readAt' | 'readError' | 'io' | 'bmc' | 'power'>;

export interface Read {
  endpoint: string[];
  fold(reading: Reading, answer: unknown): void;
}

/** Fields kept per record, and the length of a field name or a word: far above any record. */
const MAX_FIELDS = 32;
const NAME = /^[A-Za-z0-9_]{1,40}$/;
const WORD_CHARS = 24;

function fields(answer: unknown): Array<[string, unknown]> {
  if (!answer || typeof answer !== 'object' || Array.isArray(answer)) return [];
  return Object.entries(answer as Record<string, unknown>)
    .filter(([key]) => NAME.test(key))
    .slice(0, MAX_FIELDS);
}

/** The record's finite numbers. */
function numbers(answer: unknown): Record<string, number> {
  return Object.fromEntries(fields(answer).filter((e): e is [string, number] => typeof e[1] === 'number' && Number.isFinite(e[1])));
}

/** The record's words (the hub's port states), short and printable. */
function words(answer: unknown): Record<string, string> {
  return Object.fromEntries(fields(answer).flatMap(([k, v]) => (typeof v === 'string' ? [[k, printable(v, WORD_CHARS)]] : [])));
}

/** The six pins of the reading, made on first use. */
function pinsOf(reading: Reading): LivePin[] {
  reading.io ??= { pins: [] };
  if (!reading.io.pins.length) for (let pin = LIMITS.pin.min; pin <= LIMITS.pin.max; pin++) reading.io.pins.push({ pin });
  return reading.io.pins;
}

/** `{pins: [{pin, pin_type, value}]}` of input/values(/current), each pin checked. */
function eachPin(answer: unknown, visit: (pin: LivePin, type: string | undefined, value: number) => void, reading: Reading): void {
  const list = (answer as { pins?: unknown } | null)?.pins;
  if (!Array.isArray(list)) return;
  const pins = pinsOf(reading);
  for (const entry of list.slice(0, LIMITS.pin.max)) {
    const { pin, pin_type: type, value } = (entry ?? {}) as Record<string, unknown>;
    const target = pins.find((p) => p.pin === pin);
    if (!target || typeof value !== 'number' || !Number.isFinite(value)) continue;
    visit(target, typeof type === 'string' ? printable(type, WORD_CHARS) : undefined, value);
  }
}

const bmc = (r: Reading) => (r.bmc ??= {});
const power = (r: Reading) => (r.power ??= {});

export const READS: Readonly<Record<Service, readonly Read[]>> = {
  io: [
    {
      endpoint: ['input', 'values'],
      fold: (r, a) =>
        eachPin(
          a,
          (pin, type, value) => {
            pin.type = type;
            pin.value = value;
          },
          r,
        ),
    },
    { endpoint: ['input', 'values', 'current'], fold: (r, a) => eachPin(a, (pin, _type, value) => (pin.current_mA = value), r) },
  ],
  bmc: [
    {
      endpoint: ['watchdog'],
      fold: (r, a) => {
        const { timeout, timeout_left, shutdown_timeout } = numbers(a);
        if (timeout === undefined || timeout_left === undefined) return;
        const emergency = (a as { emergency_mode?: unknown }).emergency_mode;
        bmc(r).watchdog = { timeout, timeout_left, shutdown_timeout, ...(typeof emergency === 'boolean' ? { emergency_mode: emergency } : {}) };
      },
    },
    { endpoint: ['temperature'], fold: (r, a) => (bmc(r).temperature = numbers(a)) },
    { endpoint: ['voltage'], fold: (r, a) => (bmc(r).voltage = numbers(a)) },
    { endpoint: ['usbhub'], fold: (r, a) => (bmc(r).usbhub = words(a)) },
  ],
  power: [
    { endpoint: ['stats'], fold: (r, a) => (power(r).stats = numbers(a)) },
    { endpoint: ['protectionlog'], fold: (r, a) => (power(r).protection = numbers(a)) },
    { endpoint: ['temperature'], fold: (r, a) => (power(r).temperature = numbers(a)) },
    {
      endpoint: ['fan'],
      fold: (r, a) => {
        const forced = (a as { fan_forced?: unknown } | null)?.fan_forced;
        const { fan_current_mode, fan_setting_mode } = numbers(a);
        power(r).fan = { ...power(r).fan, fan_current_mode, fan_setting_mode, ...(typeof forced === 'boolean' ? { fan_forced: forced } : {}) };
      },
    },
    { endpoint: ['fan', 'rpm'], fold: (r, a) => (power(r).fan = { ...power(r).fan, rpm: numbers(a).rpm }) },
  ],
};
