/**
 * What the outcome of one exchange means: the device's JSON value, or the one DeviceError
 * that says what went wrong. Device text reaches a message only through answer.ts (bounded,
 * printable, linear); everything else in a message is ours (method, wire path, host).
 */
import { errorMessage, parseAnswer, printable } from './answer';
import { DeviceError, withoutStatus } from '../base/errors';
import { t } from '../base/i18n';
import { ANSWER_BOUNDS } from '../pure/limits';
import { tlsError, tlsFailure, tlsPage } from './tls-failure';
import type { Answer } from './transport';
import type { TransportError } from './transport-error';

/**
 * A request that had at least this share of the timeout and got no answer says the module
 * stopped answering (msg-life.ts ends the msgs behind it). One sent with less (it waited in
 * the queue first) says little: on a busy event loop its answer may just have come too late
 * to be read; its message says how much it had.
 */
export const WHOLE_TIMEOUT_SHARE = 0.9;

export interface Where {
  method: string;
  path: string;
  /** host[:port] of the device, for transport failures. */
  host: string;
  /** The time this exchange had: the msg's timeout, or what was left of it. */
  timeoutMs: number;
  /** The msg's timeout (the config node's), when the exchange had less than all of it. */
  msgTimeoutMs?: number;
  maxBytes: number;
  auth?: 'none' | 'basic' | 'bearer';
}

/** Node's network error codes → their words' keys (the runtime's language: an outage is a status every node shows). */
const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: 'common.net.refused',
  ECONNRESET: 'common.net.reset',
  EPIPE: 'common.net.reset',
  ENOTFOUND: 'common.net.hostNotFound',
  EAI_AGAIN: 'common.net.hostNotFound',
  EHOSTUNREACH: 'common.net.hostUnreachable',
  ENETUNREACH: 'common.net.networkUnreachable',
};

/** Failures of making the connection: the request never left. */
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

function kib(bytes: number): string {
  return `${Math.ceil(bytes / 1024)} KiB`;
}

/**
 * The msg's timeout, counted from its arrival: `400 ms`; when the request had clearly less
 * of it (it waited in the queue), `400 ms (the msg's timeout; 213 ms of it were left for this request)`.
 */
function within(w: Where): string {
  const whole = w.msgTimeoutMs ?? w.timeoutMs;
  return w.timeoutMs < whole * WHOLE_TIMEOUT_SHARE ? t('common.net.msgTimeout', { whole, left: w.timeoutMs }) : `${whole} ms`;
}

function bad(w: Where, statusCode: number | undefined, what: string): DeviceError {
  return new DeviceError(`${w.method} ${w.path}: ${what}`, { code: 'BAD_RESPONSE', statusCode, method: w.method, path: w.path });
}

/** A failed exchange: no answer (TIMEOUT, UNREACHABLE), TLS in the way, or an answer that broke the rules (BAD_RESPONSE). */
export function transportFailure(error: TransportError, w: Where): DeviceError {
  const { method, path } = w;
  switch (error.failure) {
    case 'timeout':
      return new DeviceError(`${method} ${path}: ${t('common.net.noAnswer', { host: w.host, within: within(w) })}`, { code: 'TIMEOUT', method, path });
    case 'incomplete':
      return bad(w, error.status, `the answer (${error.status}) did not finish within ${within(w)} (${error.bytes} bytes came)`);
    case 'too-large':
      return bad(w, error.status, `the answer (${error.status}) is larger than the answer limit of ${kib(w.maxBytes)} (${error.bytes} bytes or more)`);
    case 'malformed':
      return bad(w, undefined, `the answer is not valid HTTP (${error.code})`);
    case 'cut-off':
      return new DeviceError(`${method} ${path}: ${t('common.net.cutOff', { host: w.host })}`, { code: 'UNREACHABLE', method, path });
    case 'network': {
      const tls = tlsFailure(error, w);
      if (tls) return tls;
      const known = error.code ? NETWORK_REASONS[error.code] : undefined;
      const reason = known ? t(known) : error.code ? t('common.net.failedCode', { code: error.code }) : t('common.net.failed');
      const neverSent = !!error.code && NEVER_SENT.has(error.code);
      return new DeviceError(`${method} ${path}: ${reason} (${w.host})`, { code: 'UNREACHABLE', method, path, neverSent });
    }
  }
}

/**
 * An answer that arrived whole: its JSON value; throws the DeviceError it amounts to.
 * `where` is asked only for a failure: a good answer (every msg's) makes no message.
 */
export function judgeAnswer(answer: Answer, where: () => Where): unknown {
  const { status, text } = answer;
  // The services answer JSON with application/json; no Content-Type at all is let through.
  const json = !answer.type || answer.type.includes('json');
  const parsed = status >= 200 && status <= 299 && json ? parseAnswer(text) : undefined;
  if (parsed?.ok) return parsed.value;
  const w = where();
  const { method, path } = w;
  if (status >= 300 && status < 400)
    throw bad(w, status, `the device answered ${status}, a redirect; the device interface never redirects, so it is not followed`);
  if (status < 200 || status > 299) {
    const bytes = Buffer.byteLength(text);
    if (bytes > ANSWER_BOUNDS.maxErrorBytes) {
      throw bad(w, status, `an error answer (${status}) of ${bytes} bytes, larger than any device error (${kib(ANSWER_BOUNDS.maxErrorBytes)})`);
    }
    const deviceMessage = errorMessage(text, parseAnswer(text));
    const words = withoutStatus(deviceMessage, status);
    // nginx's own pages about TLS: the device never got the request (and it is no sign of another API version).
    const tls = tlsPage(status, words);
    if (tls) throw tlsError(tls, w, {}, { statusCode: status, deviceMessage });
    const hint =
      status === 401 ? ` (the device refused the credentials: check the ${w.auth === 'bearer' ? 'token' : 'user name and password'} of the config node)` : '';
    throw new DeviceError(`${method} ${path} failed: ${status}${words ? ` ${words}` : ''}${hint}`, {
      code: 'DEVICE_ERROR',
      statusCode: status,
      deviceMessage,
      method,
      path,
    });
  }
  if (!json) throw bad(w, status, `the answer is ${printable(answer.type, 60)}, not JSON`);
  // A 2xx JSON answer was parsed above and failed; nothing is parsed twice.
  const failed = parsed ?? parseAnswer(text);
  if (failed.ok) return failed.value;
  const why = {
    json: `the answer is not JSON (${text.length} bytes)`,
    depth: `the answer nests deeper than ${ANSWER_BOUNDS.maxDepth} levels`,
    values: `the answer holds more than ${ANSWER_BOUNDS.maxValues} values`,
  }[failed.problem];
  throw bad(w, status, why);
}
