/**
 * Expectations on msgs: a partial, deep match (every field the expectation names must be
 * there with that value; others are free), and, when nothing matched, a sentence saying how
 * the closest msg differed, so a failing test reads as what went wrong.
 */
import { show } from './errors';

export type Expected = Record<string, unknown>;
export type Where = Expected | ((msg: Record<string, any>) => boolean);

/** Depth bound: a user's expectation is small; a cycle in a msg must not loop. */
const MAX_DEPTH = 32;

/** The first place where `actual` differs from `expected`, or null when it matches. */
export function difference(actual: unknown, expected: unknown, at = 'msg', depth = 0): string | null {
  if (depth > MAX_DEPTH) return `${at}: nested too deep to compare`;
  if (expected !== null && typeof expected === 'object' && !Array.isArray(expected)) {
    if (actual === null || typeof actual !== 'object') return `${at} was ${show(actual, 80)}, expected an object with ${show(expected, 80)}`;
    for (const [key, value] of Object.entries(expected)) {
      const diff = difference((actual as Record<string, unknown>)[key], value, `${at}.${key}`, depth + 1);
      if (diff) return diff;
    }
    return null;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return `${at} was ${show(actual, 80)}, expected ${show(expected, 80)}`;
    for (let i = 0; i < expected.length; i++) {
      const diff = difference(actual[i], expected[i], `${at}[${i}]`, depth + 1);
      if (diff) return diff;
    }
    return null;
  }
  return Object.is(actual, expected) ? null : `${at} was ${show(actual, 80)}, expected ${show(expected, 80)}`;
}

export function matches(msg: Record<string, any>, where?: Where): boolean {
  if (!where) return true;
  return typeof where === 'function' ? where(msg) : difference(msg, where) === null;
}

/** Why none of `msgs` matched: the differences of the last few, newest first. */
export function whyNot(msgs: Array<Record<string, any>>, where?: Where): string {
  if (msgs.length === 0) return 'none arrived';
  if (!where || typeof where === 'function') return `${msgs.length} arrived, none matched the condition`;
  const lines = msgs
    .slice(-3)
    .reverse()
    .map((m) => difference(m, where));
  return `${msgs.length} arrived, none matched: ${lines.join('; ')}`;
}
