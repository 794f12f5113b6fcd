/**
 * Where a request goes, from the config node's base URL and a node's endpoint: nothing
 * from a msg can change it. Words and integers only in a path; no credentials in a URL.
 */
import { DeviceError } from '../base/errors';
import { say } from '../base/i18n';
import { baseUrl } from '../pure/base-url';
import type { DeviceRequest, SentRequest } from './request';

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

/** A wire call as it goes out: its path below the version's root (`root`), under the module unless the call is the service's, and its body. */
export function wireRequest(root: string, slot: number, call: DeviceRequest): SentRequest {
  let path = call.scope === 'service' ? root : `${root}/${slot}`;
  for (const part of call.endpoint) path += `/${segment(part)}`;
  return call.body === undefined ? { method: call.method, path } : { method: call.method, path, body: call.body };
}

/**
 * Parses the configured base URL by the one rule of pure/base-url.ts (no `user:pw@`, no query,
 * no hash: no shape of URL, `http:u:pw@h`, `https:/u:pw@[::1`, ..., carries credentials past
 * here). Every refusal is the one sentence the
 * dialog's URL field shows (`modular-device.errors.url`), so field and Test say the same,
 * and it never repeats the URL, which may hold a password.
 */
export function parseBaseUrl(url: string): URL {
  const parsed = baseUrl(url);
  if (!parsed) throw new DeviceError(say('errors.url'), { code: 'NOT_CONFIGURED' });
  return parsed;
}
