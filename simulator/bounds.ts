/**
 * The shape of one bound in a dialect's table (api09/limits.ts, api10/limits.ts) and how a
 * value is tested against it. Each bound names its source; the words a device answers with
 * belong to the dialect, not to this file.
 */

/** Where a bound comes from (a section of the spec or the reference), and its unit. */
type Cited = { readonly source: string; readonly unit?: string };
/** Integers from `min` to `max` inclusive, plus the `also` values (0 = "off"). */
export type IntBound = Cited & { readonly kind: 'int'; readonly min: number; readonly max: number; readonly also?: readonly number[] };
/** One of a few listed integers. */
export type SetBound = Cited & { readonly kind: 'set'; readonly values: readonly number[] };
/** One of a few listed words (no unit). */
export type WordBound = Cited & { readonly kind: 'word'; readonly values: readonly string[] };
export type Bound = IntBound | SetBound | WordBound;

export const int = (min: number, max: number, source: string, more: { unit?: string; also?: readonly number[] } = {}): IntBound => ({
  kind: 'int',
  min,
  max,
  source,
  ...more,
});

export const words = (values: readonly string[], source: string): WordBound => ({ kind: 'word', values, source });

export const set = (values: readonly number[], source: string, unit?: string): SetBound => ({ kind: 'set', values, source, unit });

export function fits(bound: Bound, value: unknown): boolean {
  switch (bound.kind) {
    case 'int':
      return Number.isInteger(value) && (((value as number) >= bound.min && (value as number) <= bound.max) || (bound.also ?? []).includes(value as number));
    case 'set':
      return Number.isInteger(value) && bound.values.includes(value as number);
    case 'word':
      return typeof value === 'string' && bound.values.includes(value);
  }
}

/** What a bound allows, in short: `50..25000 mV`, `0 or 1000..600000 ms`, `rising, falling`. */
export function allowedText(bound: Bound): string {
  const unit = bound.unit ? ` ${bound.unit}` : '';
  if (bound.kind !== 'int') return `${bound.values.join(', ')}${unit}`;
  const also = bound.also?.length ? `${bound.also.join(', ')} or ` : '';
  return `${also}${bound.min}..${bound.max}${unit}`;
}

/** A value as a device would echo it: numbers plain, strings quoted and cut short. */
export function shown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 37)}...` : value);
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : typeof value;
}
