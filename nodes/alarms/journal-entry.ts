/**
 * One journal entry's bound, and how it is kept: as its JSON text, made once when the entry
 * arrives. The text is what the file holds, so a batch is a join of strings (no
 * re-serialising thousands of entries every second), and the journal keeps its own copy,
 * which a caller mutating its object afterwards cannot change.
 *
 * An entry over the bound is TRUNCATED, never refused: the journal promises every
 * transition, and a transition whose comment is cut is worth more than none. A 1 MB comment
 * (from a msg or an MQTT command) must not make a 1 MB journal line: strings are cut, ending
 * in "…", and the entry gets `truncated: true` so a reader knows it is not whole. An entry
 * still over the bound after that (many fields, deep structure) keeps only its top-level
 * numbers, booleans and short strings, which for a transition record
 * (`{alarm, from, to, value, time, user?, comment?}`) is still the transition.
 */

/** Deeper structure than this is cut to `null` when an entry is truncated. */
const MAX_DEPTH = 8;
/** Strings are cut to no fewer characters than this before giving up on the whole shape. */
const MIN_CUT = 16;
/** What the last resort keeps of a top-level string. */
const LAST_RESORT_CUT = 64;

/**
 * The entry's JSON text within `maxBytes` (UTF-8), or undefined when it is not JSON at all
 * (a cycle, a BigInt, a function): that is a caller's bug, not data to keep.
 */
export function boundJson(value: object, maxBytes: number): { json: string; truncated: boolean } | undefined {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    return undefined;
  }
  if (typeof json !== 'string' || !json.startsWith('{')) return undefined;
  if (Buffer.byteLength(json) <= maxBytes) return { json, truncated: false };
  for (let cut = Math.floor(maxBytes / 4); cut >= MIN_CUT; cut = Math.floor(cut / 2)) {
    const shorter = JSON.stringify({ ...(cutStrings(value, cut, 0) as object), truncated: true });
    if (Buffer.byteLength(shorter) <= maxBytes) return { json: shorter, truncated: true };
  }
  const kept: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (typeof field === 'number' || typeof field === 'boolean') kept[key] = field;
    else if (typeof field === 'string') kept[key] = cutString(field, LAST_RESORT_CUT);
  }
  kept.truncated = true;
  const last = JSON.stringify(kept);
  return { json: Buffer.byteLength(last) <= maxBytes ? last : '{"truncated":true}', truncated: true };
}

/** A copy of `value` with every string longer than `cut` characters cut. */
function cutStrings(value: unknown, cut: number, depth: number): unknown {
  if (typeof value === 'string') return cutString(value, cut);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return null;
  // toJSON (a Date) first, as JSON.stringify would: the copy must say what the original said.
  const plain = typeof (value as { toJSON?: unknown }).toJSON === 'function' ? (value as { toJSON: () => unknown }).toJSON() : value;
  if (plain !== value) return cutStrings(plain, cut, depth);
  if (Array.isArray(value)) return value.map((item) => cutStrings(item, cut, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) copy[cutString(key, cut)] = cutStrings(field, cut, depth + 1);
  return copy;
}

function cutString(text: string, cut: number): string {
  if (text.length <= cut) return text;
  // Never split a surrogate pair: half a character would be written as a lone escape.
  const end = /[\uD800-\uDBFF]/.test(text[cut - 1]) ? cut - 1 : cut;
  return `${text.slice(0, end)}…`;
}
