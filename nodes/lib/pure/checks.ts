/**
 * How a value is checked against a limit, and how the problem is put: what kinds of limit
 * there are, the generic check, a safe rendering of the value, and reading editor text.
 * The bounds themselves live only in limits.ts, which builds its checks on these.
 *
 * A check returns `true` or a phrase (see phrase.ts) naming the field, the value and the
 * allowed range: said by the editor's or the runtime's Node-RED in its own language, e.g.
 * `threshold_mV must be an integer from 50 to 25000 mV, got 25001`. Checks are strict
 * about types: a number field takes a JSON number, never a string; editor text goes
 * through `parseInteger` first. Pure: bundled into the editor.
 */
import { phrase, Phrase, PhraseValue } from './phrase';

export type Check = true | Phrase;

/** An integer field with inclusive bounds, optionally with extra allowed values. */
export interface IntLimit {
  readonly kind: 'int';
  readonly min: number;
  readonly max: number;
  /** Values allowed besides [min, max], e.g. 0 = "off" for the watchdog timeout. */
  readonly also?: readonly number[];
  readonly unit?: string;
  readonly source: string;
  /** A setting's value when none is given: the one the runtime uses and the dialog starts with. */
  readonly default?: number;
}

/** A number field (fractions allowed, never NaN or infinite) with inclusive bounds: an alarm's limits and deadband. */
export interface NumberLimit {
  readonly kind: 'number';
  readonly min: number;
  readonly max: number;
  readonly unit?: string;
  readonly source: string;
  readonly default?: number;
}

/**
 * A text field of a bounded length, optionally of listed characters only (`chars`: the
 * inside of a regular expression's character class, said as it is in the refusal).
 */
export interface TextLimit {
  readonly kind: 'text';
  readonly minChars: number;
  readonly maxChars: number;
  readonly chars?: string;
  readonly source: string;
}

/** An integer field that takes one of a few listed values. */
export interface IntSetLimit {
  readonly kind: 'intSet';
  readonly values: readonly number[];
  readonly unit?: string;
  readonly source: string;
}

/** A string field that takes one of the listed words. */
export interface WordLimit {
  readonly kind: 'word';
  readonly values: readonly string[];
  readonly source: string;
}

/** A boolean field. */
export interface BoolLimit {
  readonly kind: 'bool';
  readonly source: string;
}

export type Limit = IntLimit | NumberLimit | TextLimit | IntSetLimit | WordLimit | BoolLimit;

/**
 * A short, safe rendering of any value for a message (never the whole object). Numbers and
 * user text stay as they are (text quoted, cut at 40 characters); what has no literal form
 * ("nothing", "an array") is a phrase, said in the reader's language.
 */
export function describe(value: string): string;
export function describe(value: unknown): PhraseValue;
export function describe(value: unknown): PhraseValue {
  if (value === undefined) return phrase('limits.nothing');
  if (value === null) return 'null';
  if (typeof value === 'number') return Number.isNaN(value) ? 'NaN' : String(value);
  if (typeof value === 'string') {
    const text = value.length > 40 ? `${value.slice(0, 37)}...` : value;
    return JSON.stringify(text);
  }
  if (typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (Array.isArray(value)) return phrase('limits.anArray');
  return typeof value === 'object' ? phrase('limits.anObject') : phrase('limits.aType', { type: typeof value });
}

function listWords(values: readonly (string | number)[]): string {
  return values.join(', ');
}

/** The allowed range of a limit in words, as used in messages. */
export function rangeText(limit: Limit): Phrase {
  switch (limit.kind) {
    case 'int': {
      const span = phrase('limits.intRange', { min: limit.min, max: limit.max, unit: limit.unit ? ` ${limit.unit}` : '' });
      return limit.also?.length ? phrase('limits.alsoOr', { also: listWords(limit.also), range: span }) : span;
    }
    case 'number':
      return phrase('limits.numberRange', { min: limit.min, max: limit.max, unit: limit.unit ? ` ${limit.unit}` : '' });
    case 'text': {
      const length = { min: limit.minChars, max: limit.maxChars };
      return limit.chars ? phrase('limits.textOf', { ...length, chars: limit.chars }) : phrase('limits.textRange', length);
    }
    case 'intSet':
    case 'word':
      return phrase('limits.oneOf', { values: listWords(limit.values) });
    case 'bool':
      return phrase('limits.trueOrFalse');
  }
}

export function isInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value);
}

/** A string of the limit's length (in UTF-16 units, as JavaScript counts) and characters. */
function isText(value: unknown, limit: TextLimit): boolean {
  if (typeof value !== 'string' || value.length < limit.minChars || value.length > limit.maxChars) return false;
  return limit.chars === undefined || new RegExp(`^[${limit.chars}]*$`).test(value);
}

/**
 * A field named as its node's dialog labels it, with the name a msg uses in brackets:
 * `5 V rail (limit_5v0)`. `label` is the key under `<type>.label.` when it differs from `wire`.
 */
export function labelled(type: string, wire: string, label: string = wire): Phrase {
  // The same few fields are named for every msg a node checks: one phrase each, kept (a
  // phrase is never changed once made). Bounded by the types' fields in the code.
  let fields = labels.get(type);
  if (!fields) labels.set(type, (fields = new Map()));
  const key = label === wire ? wire : `${wire} ${label}`;
  let made = fields.get(key);
  if (!made) fields.set(key, (made = phrase('limits.field', { label: { key: `label.${label}`, catalog: type }, wire })));
  return made;
}

/** labelled's phrases, by node type, then field (and label when it differs). */
const labels = new Map<string, Map<string, Phrase>>();

/** A field named as `type`'s dialog labels it (see `labelled`), or by its msg name alone without a type. */
export function fieldOf(type: string | undefined, wire: string, label?: string): PhraseValue {
  return type ? labelled(type, wire, label) : wire;
}

/**
 * A field of one entry of a table setting (io-power's pins), named as its dialog's row says
 * it, `Current of pin 3 (config[2].current)`: the key `<type>.field.<column>` takes the pin.
 */
export function entryField(type: string | undefined, index: number, pin: number, column: string): PhraseValue {
  const wire = `config[${index}].${column}`;
  return type ? phrase('limits.field', { label: { key: `field.${column}`, catalog: type, values: { pin } }, wire }) : wire;
}

/** "`field` must be `range`, got `value`": the one shape of a refused value. */
export function mustBe(field: PhraseValue, range: PhraseValue, value: unknown): Phrase {
  return phrase('limits.mustBe', { field, range, got: describe(value) });
}

/** Checks `value` against `limit`; `field` is the name the message uses. */
export function checkValue(field: PhraseValue, limit: Limit, value: unknown): Check {
  let ok: boolean;
  switch (limit.kind) {
    case 'int':
      ok = isInteger(value) && ((value >= limit.min && value <= limit.max) || (limit.also ?? []).includes(value));
      break;
    case 'number':
      ok = typeof value === 'number' && Number.isFinite(value) && value >= limit.min && value <= limit.max;
      break;
    case 'text':
      ok = isText(value, limit);
      break;
    case 'intSet':
      ok = isInteger(value) && limit.values.includes(value);
      break;
    case 'word':
      ok = typeof value === 'string' && limit.values.includes(value);
      break;
    case 'bool':
      ok = typeof value === 'boolean';
      break;
  }
  return ok ? true : mustBe(field, rangeText(limit), value);
}

// ---- editor text ---------------------------------------------------------------------

/**
 * Reads an integer typed into a form field: optional sign and decimal digits only (no
 * exponent, no hex, no blanks inside). Anything else is returned unchanged, so the
 * validator names what was typed.
 */
export function parseInteger(text: unknown): unknown {
  if (typeof text !== 'string') return text;
  const trimmed = text.trim();
  return /^[+-]?\d{1,16}$/.test(trimmed) ? Number(trimmed) : text;
}

/**
 * Reads a number typed into a form field (a number limit: an alarm's Hi, its deadband):
 * optional sign, digits, an optional fraction, an optional exponent. Anything else is
 * returned unchanged, so the validator names what was typed.
 */
export function parseNumber(text: unknown): unknown {
  if (typeof text !== 'string') return text;
  const trimmed = text.trim();
  return /^[+-]?(?:\d{1,16}(?:\.\d{0,16})?|\.\d{1,16})(?:[eE][+-]?\d{1,3})?$/.test(trimmed) ? Number(trimmed) : text;
}

/** The variable's name when a value is exactly `${VAR}` or `$(VAR)` (resolved only at runtime). */
export function envReferenceName(text: unknown): string | undefined {
  if (typeof text !== 'string') return undefined;
  const match = /^\s*(?:\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$\(([A-Za-z_][A-Za-z0-9_]*)\))\s*$/.exec(text);
  return match ? (match[1] ?? match[2]) : undefined;
}

/** True for a value that is exactly `${VAR}` or `$(VAR)`: resolved only at runtime. */
export function isEnvReference(text: unknown): boolean {
  return envReferenceName(text) !== undefined;
}
