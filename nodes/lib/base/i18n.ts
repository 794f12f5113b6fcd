/**
 * Words of the runtime in the runtime's language (settings.lang), through Node-RED's own
 * `RED._`, from the package's catalogs (locales/<lang>/<catalog>.json, namespace
 * `@modular-device/node-red/<catalog>`, as Node-RED registers them for each node file):
 *
 *  - `t('<type>.<key>', vars)`: a node's runtime text from its own catalog,
 *    `<type>.runtime.<key>`; `t('common.<key>')` a shared one, `modular-device.runtime.common.<key>`.
 *  - A fixed status text (no values: `<type>.status.<key>`, `modular-device.status.common.<key>`
 *    for `t('common.<key>')`, `modular-device.status.<key>` for `say('status.<key>')`) is not
 *    said here: its message id is the status text, and Node-RED's editor says it in the
 *    editor's language (it translates a status text that is a `namespace:key` id).
 *  - `spoken(phrase)`: a limit refusal of checks.ts / limits.ts (see phrase.ts).
 */
import { isPhrase, PhraseValue, render } from '../pure/phrase';
import { TEXT_CACHE } from '../pure/limits';
import type { NodeAPI } from './node-red';

const PACKAGE = '@modular-device/node-red';

/** The runtime's translator, installed by `useRuntimeLanguage`. */
let runtime: NodeAPI['_'] | undefined;
/** Whether a message id is in the catalogs, per id (a fixed set: the keys the code uses). */
const known = new Map<string, boolean>();
/** The runtime language's decimal sign (`decimalSign`), kept until the language changes. */
let sign: ',' | '.' | undefined;

/**
 * Installs the runtime's language (registerActionNode and the config node do, with their
 * RED); undefined uninstalls it (then every text is its message id, as Node-RED shows a
 * missing one).
 */
export function useRuntimeLanguage(RED: Pick<NodeAPI, '_'> | undefined): void {
  runtime = RED ? RED._.bind(RED) : undefined;
  known.clear();
  sign = undefined;
  said.next = undefined;
}

/** The message id `@modular-device/node-red/<catalog>:<catalog>.<key>`. */
function idOf(catalog: string, key: string): string {
  return `${PACKAGE}/${catalog}:${catalog}.${key}`;
}

/** True for a message id of this package's catalogs (what a fixed status text is). */
export function isMessageId(text: unknown): boolean {
  return typeof text === 'string' && text.startsWith(`${PACKAGE}/`) && /^[^:\s]+:[\w.-]+$/.test(text);
}

/**
 * Texts said so far, by message id and then by each value in turn (a tree of Maps, so a
 * text said again is found without building a key). A node says its status text for every
 * msg ("pin 1 high"), and i18next's lookup and interpolation cost more than the request
 * itself; the same id with the same values is the same text for the runtime's life (its
 * language is fixed at start). Map keys keep 1 and '1' apart. Bounded: cleared when full.
 */
interface Said {
  text?: string;
  next?: Map<unknown, Said>;
}
const said: Said = {};
let saidPlaces = 0;

function place(at: Said, key: unknown): Said {
  let next = at.next?.get(key);
  if (!next) {
    if (++saidPlaces > TEXT_CACHE.entries) {
      said.next = undefined;
      saidPlaces = 1;
    }
    (at.next ??= new Map()).set(key, (next = {}));
  }
  return next;
}

/** Where the text of `id` with `vars` is kept; undefined when a value is an object (a phrase): said afresh. */
function placeOf(id: string, vars: Record<string, unknown> | undefined): Said | undefined {
  let at = place(said, id);
  if (!vars) return at;
  for (const name in vars) {
    const value = vars[name];
    if (value !== null && typeof value === 'object') return undefined;
    at = place(place(at, name), value);
  }
  return at;
}

/** An id said in the runtime's language; Node-RED answers a missing one with its key. */
function lookup(id: string, vars?: Record<string, unknown>): string {
  if (!runtime) return id;
  const kept = placeOf(id, vars);
  if (kept?.text !== undefined) return kept.text;
  const text = runtime(id, vars);
  const words = typeof text === 'string' ? text : id;
  if (kept) kept.text = words;
  return words;
}

function has(id: string): boolean {
  let found = known.get(id);
  if (found === undefined) {
    const text = lookup(id);
    found = text !== id && text !== id.slice(id.indexOf(':') + 1);
    known.set(id, found);
  }
  return found;
}

/** Values as the runtime says them: a phrase (a refusal passed on) in its language. */
function sayValues(vars: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!vars) return vars;
  let phrases = false;
  for (const name in vars) phrases ||= isPhrase(vars[name]);
  if (!phrases) return vars;
  const said: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(vars)) said[name] = isPhrase(value) ? spoken(value) : value;
  return said;
}

/** A fixed status text's id when `key` is one and there are no values to fill in. */
function statusId(catalog: string, key: string, vars: Record<string, unknown> | undefined): string | undefined {
  // Any value at all: the text is made with it, it is no fixed status.
  if (vars) for (const _ in vars) return undefined;
  const id = idOf(catalog, `status.${key}`);
  return has(id) ? id : undefined;
}

/** `say('status.connected', {api})`: the shared catalog's `modular-device.<key>`. */
export function say(key: string, vars?: Record<string, unknown>): string {
  const status = key.startsWith('status.') ? statusId('modular-device', key.slice('status.'.length), vars) : undefined;
  return status ?? lookup(idOf('modular-device', key), sayValues(vars));
}

/**
 * A runtime text of a node, or a shared one (`common.`):
 * `t('io-output.pinState', {pin: 3, state: 'high'})` → `pin 3 high`.
 */
export function t(key: string, vars?: Record<string, unknown>): string {
  let ids = tIds.get(key);
  if (!ids) {
    const dot = key.indexOf('.');
    const type = key.slice(0, dot);
    const name = key.slice(dot + 1);
    const catalog = type === 'common' ? 'modular-device' : type;
    ids = {
      catalog,
      status: type === 'common' ? `common.${name}` : name,
      runtime: idOf(catalog, type === 'common' ? `runtime.common.${name}` : `runtime.${name}`),
    };
    tIds.set(key, ids);
  }
  const status = statusId(ids.catalog, ids.status, vars);
  if (status) return status;
  return lookup(ids.runtime, sayValues(vars));
}

/** t's keys taken apart once (the keys are the code's own: a fixed set). */
const tIds = new Map<string, { catalog: string; status: string; runtime: string }>();

/** A status text as words: a fixed status's id said here (e.g. to add "..." to it). */
export function textOf(status: string): string {
  return isMessageId(status) ? lookup(status) : status;
}

/*
 * Numbers and clock times in a status, written as the runtime language's words are. Not with
 * Intl: a process's first Intl.NumberFormat maps ICU's locale data, about 8 MB of resident
 * memory (a DateTimeFormat 0.7 MB more) that a Node-RED without this package never pays
 * (bench scenario 10). A status needs only the decimal sign and a 24-hour clock.
 */

/** The runtime language's decimal sign, as its own catalogue says it (`common.decimalSign`). */
function decimalSign(): ',' | '.' {
  return (sign ??= t('common.decimalSign') === ',' ? ',' : '.');
}

/**
 * A device's number for a status as the runtime's language writes it (48,426 in German):
 * at most three decimals (rounded half away from zero), no grouping, so a reading reads as
 * the device sent it (3300 mV); anything else as it is.
 */
export function numberText(value: unknown): string {
  if (typeof value !== 'number' || Number.isInteger(value) || !Number.isFinite(value)) return String(value);
  // Below 2^53 a non-integer never prints with an exponent once rounded to three decimals.
  const text = String((Math.sign(value) * Math.round(Math.abs(value) * 1000)) / 1000 || 0);
  return decimalSign() === ',' ? text.replace('.', ',') : text;
}

const twoDigits = (n: number): string => (n < 10 ? `0${n}` : String(n));

/** A clock time for a status, local time, 24 hours in every language (no AM/PM, a word of one language only). */
export function clockText(date: Date): string {
  return `${twoDigits(date.getHours())}:${twoDigits(date.getMinutes())}:${twoDigits(date.getSeconds())}`;
}

/** A limit refusal (or any phrase) in the runtime's language. */
export function spoken(value: PhraseValue): string {
  return render(value, (id, values) => lookup(id, values));
}

/**
 * A word of a node's own dialog, from its catalog `locales/<lang>/<type>.json`, so a refusal
 * names a setting exactly as the user sees it: `nodeText('io-reset', 'label.confirm')`.
 */
export function nodeText(type: string, key: string, vars?: Record<string, unknown>): string {
  return lookup(idOf(type, key), sayValues(vars));
}

/** Like nodeText, with `fallback` where the node's catalog has no such word. */
export function nodeTextOr(type: string, key: string, fallback: string): string {
  return has(idOf(type, key)) ? nodeText(type, key) : fallback;
}
