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

/** Reads one setting as the editor stored it. */
export type SettingReader<T> = (value: unknown) => T;

/** An integer setting (`intSetting`), read from a schema. */
export const int =
  (fallback?: number): SettingReader<unknown> =>
  (value) =>
    intSetting(value, fallback);

/** A checkbox setting (`boolSetting`), read from a schema. */
export const bool =
  (fallback: boolean): SettingReader<boolean> =>
  (value) =>
    boolSetting(value, fallback);

/** A text setting (`textSetting`), read from a schema. */
export const text =
  (fallback = ''): SettingReader<string> =>
  (value) =>
    textSetting(value, fallback);

/** What a schema reads: each key's reader's value. */
export type SettingsOf<R> = { [K in keyof R]: R[K] extends SettingReader<infer T> ? T : never };

/**
 * A node's settings read by a schema, one reader per setting: the settings' type is the
 * schema's, so a node declares each setting once, with its kind and fallback.
 */
export function readWith<R extends Record<string, SettingReader<unknown>>>(schema: R): (def: Record<string, unknown>) => SettingsOf<R> {
  return (def) => {
    const settings: Record<string, unknown> = {};
    for (const key of Object.keys(schema)) settings[key] = schema[key](def[key]);
    return settings as SettingsOf<R>;
  };
}
