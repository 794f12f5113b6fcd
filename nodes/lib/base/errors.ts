/**
 * DeviceError: the one error type every failure of this package becomes, so a Catch node
 * always sees the same shape. Node-RED copies `code` and `cause` of the error given to
 * `done(err)` into `msg.error`, so `msg.error.code` says what kind of failure it was and
 * `msg.error.cause` carries the HTTP status and the device's own message.
 *
 * Messages never contain credentials: they name the method and the wire path only, never
 * the base URL (which may carry user:password@) or a header.
 */
import { say, spoken, t } from './i18n';
import type { Phrase } from '../pure/phrase';

export type DeviceErrorCode =
  /** A value from the node or the msg failed the limits; nothing was sent. */
  | 'INVALID_INPUT'
  /** The module's request queue was full; nothing was sent. */
  | 'QUEUE_FULL'
  /**
   * Nothing was sent: the msg's timeout passed while it waited, or the module stopped
   * answering a request ahead of it (it would have been fed a backlog when it woke).
   */
  | 'NOT_SENT'
  /** The device answered with a non-2xx status. */
  | 'DEVICE_ERROR'
  /** The device answered 2xx, but not with what the interface promises. */
  | 'BAD_RESPONSE'
  /** No answer within the configured timeout. */
  | 'TIMEOUT'
  /** Connection refused, reset or the host could not be reached. */
  | 'UNREACHABLE'
  /**
   * The device answered, but TLS stood in the way: its certificate is not trusted, expired or
   * for another name, or it wants (or refused) a client certificate. Nothing reached its service.
   */
  | 'TLS'
  /** The device speaks an API version this package does not support, or lacks the slot. */
  | 'INCOMPATIBLE'
  /** The node has no usable configuration (no device chosen, node closed, ...). */
  | 'NOT_CONFIGURED';

export interface DeviceErrorDetails {
  code: DeviceErrorCode;
  statusCode?: number;
  /** The device's `message` from its error envelope (or the start of a non-JSON body). */
  deviceMessage?: string;
  method?: string;
  path?: string;
  /** What else the device said (e.g. the milliwatts over budget of a denied power-management). */
  detail?: Record<string, unknown>;
  /** The request never left: no connection could be made (refused, host not found, TLS). */
  neverSent?: boolean;
  /** The few words a status dot has room for, when the message is a long sentence (TLS). */
  brief?: string;
  /** The sentence as a catalogue key (of modular-device) and its values: the editor says it in its own language. */
  words?: { key: string; vars: Record<string, string> };
}

/**
 * What `msg.error.cause` holds: the code and the exchange, as an object for Catch, and as
 * text wherever Node-RED makes text of it (the debug sidebar writes `cause + ""` for an
 * error nobody caught, which is `[object Object]` for a plain object). Its class name has no
 * "Error" in it: the debug sidebar shows only name and message of an object so named.
 */
export class FailureCause {
  [field: string]: unknown;
  code!: DeviceErrorCode;
  statusCode?: number;
  deviceMessage?: string;
  method?: string;
  path?: string;

  constructor(fields: Omit<DeviceErrorDetails, 'detail' | 'neverSent' | 'brief' | 'words'> & Record<string, unknown>) {
    Object.assign(this, fields);
  }

  /** `INVALID_INPUT`, or `DEVICE_ERROR 502 GET /api/io/0.9/2/input/values: Bad Gateway`. */
  toString(): string {
    const where = [this.statusCode, this.method, this.path].filter((part) => part !== undefined).join(' ');
    const text = [this.code, where].filter(Boolean).join(' ');
    const said = this.deviceMessage && this.statusCode ? withoutStatus(this.deviceMessage, this.statusCode) : this.deviceMessage;
    return said ? `${text}: ${said}` : text;
  }
}

/**
 * The error's name, which Catch shows before the message (`name: message`): what happened.
 * A failed exchange with the device is a DeviceError; a msg refused before anything was
 * sent says so, so no one looks for the fault at the device.
 */
const NAMES: Partial<Record<DeviceErrorCode, string>> = {
  INVALID_INPUT: 'InvalidInputError',
  QUEUE_FULL: 'QueueFullError',
  NOT_SENT: 'NotSentError',
  NOT_CONFIGURED: 'NotConfiguredError',
};

export class DeviceError extends Error {
  readonly code: DeviceErrorCode;
  readonly statusCode?: number;
  readonly deviceMessage?: string;
  readonly method?: string;
  readonly path?: string;
  readonly neverSent: boolean;
  readonly brief?: string;
  readonly words?: DeviceErrorDetails['words'];
  readonly cause: FailureCause;

  /** `message`: text, or a limit refusal (a phrase), said in the runtime's language. */
  constructor(message: string | Phrase, details: DeviceErrorDetails) {
    super(typeof message === 'string' ? message : spoken(message));
    this.name = NAMES[details.code] ?? 'DeviceError';
    this.code = details.code;
    this.statusCode = details.statusCode;
    this.deviceMessage = details.deviceMessage;
    this.method = details.method;
    this.path = details.path;
    this.neverSent = details.neverSent === true;
    this.brief = details.brief;
    this.words = details.words;
    this.cause = new FailureCause({
      // Node-RED 3.1 copies only message, stack and cause to Catch: the code travels here too.
      code: details.code,
      statusCode: details.statusCode,
      deviceMessage: details.deviceMessage,
      method: details.method,
      path: details.path,
      ...details.detail,
    });
  }
}

/** A value failed its limit: the message is the one from limits.ts (field, value, range). */
export function invalidInput(message: string | Phrase): DeviceError {
  return new DeviceError(message, { code: 'INVALID_INPUT' });
}

/** Throws the limits.ts refusal of a failed check; passes on `true`. */
export function ensure(result: true | Phrase): void {
  if (result !== true) throw invalidInput(result);
}

/** Any failure as a DeviceError: one already is; anything else gets `code`. */
export function asDeviceError(error: unknown, code: DeviceErrorCode): DeviceError {
  return error instanceof DeviceError ? error : new DeviceError(String((error as Error)?.message ?? error), { code });
}

/** The device answered 2xx with something the interface does not promise. */
export function badResponse(message: string): DeviceError {
  return new DeviceError(message, { code: 'BAD_RESPONSE' });
}

/**
 * The module did not answer a request within its msg's timeout: the `count` msgs waiting
 * behind it end at once, unsent, instead of reaching the device long after they were asked.
 */
export function notAnswered(count: number, timedOut: DeviceError): DeviceError {
  const request = [timedOut.method, timedOut.path].filter(Boolean).join(' ');
  const words = t(count === 1 ? 'common.notAnsweredOne' : 'common.notAnsweredMany', { count, request });
  return new DeviceError(words, { code: 'NOT_SENT', neverSent: true, detail: { notSent: count } });
}

/** The msg's timeout passed before its request could leave (waiting in the queue, or behind its own earlier requests). */
export function deadlinePassed(timeoutMs: number, request?: { method: string; path: string }): DeviceError {
  const words = t('common.deadlinePassed', { timeout: timeoutMs });
  return new DeviceError(request ? `${request.method} ${request.path}: ${words}` : words, { code: 'NOT_SENT', neverSent: true, ...request });
}

/** A request of a msg not sent because an earlier one of the same msg got no answer. */
export function afterNoAnswer(request: { method: string; path: string }): DeviceError {
  return new DeviceError(`${request.method} ${request.path}: ${t('common.afterNoAnswer')}`, { code: 'NOT_SENT', neverSent: true, ...request });
}

/**
 * Whether the device may have acted on a request that failed: it may have been read and
 * answered, the answer lost or unreadable (a timeout, a cut-off or broken answer, a reset
 * after sending). No for an answer that refused it, and for a request that never left
 * (refused before sending, queue full, closed, no connection made). A notification read
 * that may have reached the device may have cleared flags: those are announced as lost.
 */
export function mayHaveReachedDevice(error: DeviceError): boolean {
  if (error.code === 'TIMEOUT' || error.code === 'BAD_RESPONSE') return true;
  return error.code === 'UNREACHABLE' && !error.neverSent;
}

/** Whether an error means the device cannot be reached: no answer came (a transport failure). */
export function isUnreachable(error: unknown): boolean {
  if (!(error instanceof DeviceError)) return true;
  return error.code === 'TIMEOUT' || error.code === 'UNREACHABLE';
}

/**
 * Whether the device answered that its service is not there: nginx's 502/503/504 (also when
 * its page is too odd to read: then the code is BAD_RESPONSE, the status still says it).
 * The device is reachable; the status says "service down", not "unreachable".
 */
export function isServiceDown(error: unknown): error is DeviceError {
  return error instanceof DeviceError && [502, 503, 504].includes(error.statusCode ?? 0);
}

/** Whether the module is not there right now, either way: retried until it is back. */
export function isGone(error: unknown): boolean {
  return isUnreachable(error) || isServiceDown(error);
}

/** Whether the device refused the credentials (nginx's Basic auth in front of the services). */
export function isRefused(error: unknown): error is DeviceError {
  return error instanceof DeviceError && error.code === 'DEVICE_ERROR' && (error.statusCode === 401 || error.statusCode === 403);
}

/**
 * Whether an answer's refusal concerns every node of the module, not just this msg: refused
 * credentials, or nginx refusing TLS (a client certificate missing or refused).
 */
export function concernsModule(error: unknown): error is DeviceError {
  return isRefused(error) || (error instanceof DeviceError && error.code === 'TLS');
}

/**
 * nginx titles its own pages with the status ("401 Authorization Required", "502 Bad
 * Gateway"): a message that names the status already keeps the words without it.
 */
export function withoutStatus(text: string, status: number): string {
  const prefix = `${status} `;
  return text.startsWith(prefix) ? text.slice(prefix.length) : text;
}

/** The few words a status dot has room for: the device's own reason first. */
export function statusText(error: DeviceError): string {
  // TLS: its own category and a short version of the sentence (the whole one goes to Catch).
  if (error.code === 'TLS' && error.brief) return say('status.tls', { reason: error.brief });
  // An HTTP refusal: its status and the device's words. (A 2xx refusal, like 1.0's power
  // budget `denied`, explains itself in the message.)
  if (error.code === 'DEVICE_ERROR' && error.statusCode && error.statusCode >= 300)
    return `${error.statusCode} ${withoutStatus(error.deviceMessage ?? '', error.statusCode)}`.trim();
  // The method and path are in the error for Catch; the dot needs only the reason.
  return error.message.replace(/^(GET|POST) \S+?:? (failed: )?/, '');
}
