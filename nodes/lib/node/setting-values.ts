/**
 * Reading node settings as the editor stores them (text), into values for the limits.
 * Checking stays with the callers (via limits.ts), so a message names the field as the
 * user sees it.
 */
import { parseInteger } from '../pure/limits';

/** An integer setting: text parsed, empty → fallback. */
export function intSetting(value: unknown, fallback?: number): unknown {
  if (value === undefined || value === null || value === '') return fallback;
  return parseInteger(value);
}

/** A checkbox setting: stored as true/false (or "true"/"false" after env substitution). */
export function boolSetting(value: unknown, fallback: boolean): boolean {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  return fallback;
}

/** A text setting, trimmed; empty → fallback. */
export function textSetting(value: unknown, fallback = ''): string {
  return typeof value === 'string' && value.trim() ? value.trim() : fallback;
}
