/**
 * Where a request goes, from the config node's base URL and a node's endpoint: nothing
 * from a msg can change it. Words and integers only in a path; no credentials in a URL.
 */
import { DeviceError } from './errors';
import { describe } from './limits';

const WORD = /^[a-z0-9][a-z0-9_-]*$/;

/** One path segment: a fixed lowercase word or a non-negative integer, nothing else. */
export function segment(value: string | number): string {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
  if (typeof value === 'string' && WORD.test(value)) return value;
  // Reaching this is a bug in a node (it must validate first); never send such a path.
  throw new DeviceError(`refused to build a device path from ${JSON.stringify(String(value)).slice(0, 40)}`, {
    code: 'INVALID_INPUT',
  });
}

/**
 * Parses the configured base URL with the WHATWG parser. A user name or password belongs in
 * the credentials: any `@` is refused before parsing, so no shape of URL (`http:u:pw@h`,
 * `https:/u:pw@[::1`, ...) can carry one past here, and a refused URL is never repeated in
 * the message when it has an `@` in it.
 */
export function parseBaseUrl(url: string): URL {
  const notConfigured = (message: string) => new DeviceError(message, { code: 'NOT_CONFIGURED' });
  if (url.includes('@')) throw notConfigured('url must not contain a user name or password (no "@"): use the credentials fields');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw notConfigured(`url must be an http:// or https:// URL with a host, got ${describe(url)}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw notConfigured(`url must be an http:// or https:// URL, got ${describe(parsed.protocol)}`);
  }
  if (parsed.username || parsed.password) throw notConfigured('url must not contain a user name or password: use the credentials fields');
  if (parsed.search || parsed.hash) throw notConfigured('url must not have a query (?) or fragment (#): give the device\'s base URL');
  return parsed;
}
