/**
 * DeviceClient: talks to one module (service + slot) of one device.
 *
 * One client per config node: Node's http/https over keep-alive agents (lib/transport.ts;
 * why not axios is said there), one ordered, bounded queue for
 * the module, and one mapping of every answer to a result or a DeviceError. Nodes hand it
 * validated requests; it owns the wire path, so nothing from a msg can change where a
 * request goes.
 */
import http from 'http';
import https from 'https';
import { API_VERSIONS, ApiVersion, Service, SERVICES } from './limits';
import { DeviceError } from './errors';
import { QueueFullError, RequestQueue } from './queue';
import { dialectFor } from './dialects';
import { exchange as httpExchange } from './transport';

export type Method = 'GET' | 'POST';

/** A request as a node builds it: the endpoint below `<slot>/` as fixed words and integers. */
export interface DeviceRequest {
  method: Method;
  /** e.g. ['output', 'state'] or ['usbhub', 'port', 3]: words and validated integers only. */
  endpoint: ReadonlyArray<string | number>;
  body?: Record<string, unknown>;
  /** Below the module (`<version>/<slot>/...`, the default) or the service root (`<version>/...`). */
  scope?: 'module' | 'service';
}

/** What was sent, as it is put on `msg.request` (no host, no headers, no credentials). */
export interface SentRequest {
  method: Method;
  path: string;
  body?: Record<string, unknown>;
}

export interface DeviceResult<T = unknown> {
  data: T;
  request: SentRequest;
}

export interface Credentials {
  username?: string;
  password?: string;
  token?: string;
}

/** TLS options as the core tls-config node's addTLSOptions fills them in. */
export interface TlsOptions {
  ca?: string | Buffer;
  cert?: string | Buffer;
  key?: string | Buffer;
  passphrase?: string;
  servername?: string;
  rejectUnauthorized?: boolean;
}

export interface ClientOptions {
  /** Base URL of the device, e.g. http://127.0.0.1:8080 (a path prefix is kept). */
  url: string;
  service: Service;
  slot: number;
  /** 'auto' detects the version from the version record. */
  apiVersion: 'auto' | ApiVersion;
  /** ms per request, from leaving the queue to the last byte of the answer. */
  timeout?: number;
  /** How many requests may wait in the queue. */
  queueLimit?: number;
  auth?: 'none' | 'basic' | 'bearer';
  credentials?: Credentials;
  tls?: TlsOptions;
  /** Told after each request whether the device was reachable (for connection state). */
  onReachability?: (error?: DeviceError) => void;
}

export const CLIENT_DEFAULTS = { timeout: 5000, queueLimit: 100 } as const;

/** The version record of a service root (spec: Version record). */
export interface VersionRecord {
  /** API 1.0: random per start of the device's service. */
  driver_session?: unknown;
  version: { api: { major: number; minor: number; patch: number } } & Record<string, unknown>;
  devices: Array<{ slot_number: number } & Record<string, unknown>>;
}

const WORD = /^[a-z0-9][a-z0-9_-]*$/;

/** One path segment: a fixed lowercase word or a non-negative integer, nothing else. */
function segment(value: string | number): string {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
  if (typeof value === 'string' && WORD.test(value)) return value;
  // Reaching this is a bug in a node (it must validate first); never send such a path.
  throw new DeviceError(`refused to build a device path from ${JSON.stringify(String(value)).slice(0, 40)}`, {
    code: 'INVALID_INPUT',
  });
}

/** Parses the configured base URL; credentials in it are refused (they belong in credentials). */
export function parseBaseUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new DeviceError(`url must be an http:// or https:// URL, got ${JSON.stringify(url.replace(/\/\/.*@/, '//***@'))}`, { code: 'NOT_CONFIGURED' });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new DeviceError(`url must be an http:// or https:// URL, got ${parsed.protocol}`, { code: 'NOT_CONFIGURED' });
  }
  if (parsed.username || parsed.password) {
    throw new DeviceError('url must not contain a user name or password: use the credentials fields', { code: 'NOT_CONFIGURED' });
  }
  return parsed;
}

/** Short readable text of a non-JSON error body (an nginx HTML page, say). */
function bodySnippet(text: string): string {
  const title = /<title>([^<]*)<\/title>/i.exec(text);
  const plain = (title ? title[1] : text).replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
  return plain.length > 120 ? `${plain.slice(0, 117)}...` : plain;
}

/**
 * The released services insert the message into their envelope without escaping it, so a
 * message with a quote makes the body invalid JSON (real §2): read the message anyway.
 */
function brokenEnvelopeMessage(text: string): string | undefined {
  const match = /"status"\s*:\s*"error"[\s\S]*"message"\s*:\s*"([\s\S]*)"\s*\}\s*$/.exec(text);
  return match ? match[1].slice(0, 200) : undefined;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

export class DeviceClient {
  readonly service: Service;
  readonly slot: number;
  private readonly base: URL;
  private readonly prefix: string;
  private readonly headers: Readonly<Record<string, string>>;
  private readonly agents: { http: http.Agent; https: https.Agent };
  private readonly queue: RequestQueue;
  private readonly timeout: number;
  private detected?: ApiVersion;
  private closed = false;

  constructor(private readonly options: ClientOptions) {
    if (!SERVICES.includes(options.service)) {
      throw new DeviceError(`service must be one of ${SERVICES.join(', ')}, got ${JSON.stringify(options.service)}`, {
        code: 'NOT_CONFIGURED',
      });
    }
    this.service = options.service;
    this.slot = options.slot;
    this.base = parseBaseUrl(options.url);
    this.prefix = this.base.pathname.replace(/\/+$/, '');
    this.timeout = options.timeout ?? CLIENT_DEFAULTS.timeout;
    this.queue = new RequestQueue(options.queueLimit ?? CLIENT_DEFAULTS.queueLimit);
    // Keep-alive: one warm connection per module instead of a handshake per msg. Idle
    // sockets are closed after 4 s, before a Node server's 5 s keep-alive timeout can close
    // them under a request that is just being sent.
    const agentOptions = { keepAlive: true, maxSockets: 4, timeout: 4000 };
    this.agents = {
      http: new http.Agent(agentOptions),
      https: new https.Agent({ ...agentOptions, ...options.tls, rejectUnauthorized: options.tls?.rejectUnauthorized ?? true }),
    };
    const headers: Record<string, string> = { Accept: 'application/json' };
    const creds = options.credentials ?? {};
    if (options.auth === 'basic' && (creds.username || creds.password)) {
      headers.Authorization = `Basic ${Buffer.from(`${creds.username ?? ''}:${creds.password ?? ''}`).toString('base64')}`;
    } else if (options.auth === 'bearer' && creds.token) {
      headers.Authorization = `Bearer ${creds.token}`;
    }
    this.headers = headers;
  }

  /** The API version in use: the fixed one, or the one detected (undefined until then). */
  get apiVersion(): ApiVersion | undefined {
    return this.options.apiVersion === 'auto' ? this.detected : this.options.apiVersion;
  }

  /** Where the device is, for labels and messages: origin and prefix, never credentials. */
  get location(): string {
    return `${this.base.host}${this.prefix}`;
  }

  /** Requests waiting in the module's queue. */
  get queued(): number {
    return this.queue.size;
  }

  /**
   * Sends one request, or several back to back as one job of the queue (nothing from
   * another msg runs between them), stopping at the first failure. Resolves with the answer
   * of the last request.
   */
  request<T = unknown>(requests: DeviceRequest | DeviceRequest[]): Promise<DeviceResult<T>> {
    const list = Array.isArray(requests) ? requests : [requests];
    if (this.closed) return Promise.reject(new DeviceError('the device connection is closed', { code: 'NOT_CONFIGURED' }));
    return this.queue
      .add(async () => {
        let result: DeviceResult | undefined;
        for (const req of list) result = await this.send(req);
        return result as DeviceResult<T>;
      })
      .catch((error: unknown) => {
        if (error instanceof QueueFullError) {
          throw new DeviceError(`${error.message}; this msg was refused (raise "queue limit" or slow the flow down)`, {
            code: 'QUEUE_FULL',
          });
        }
        throw error;
      });
  }

  /**
   * Reads the service's version record (the service root), detecting the API version when
   * it is 'auto'. Not queued: it is how the config node learns whether the device is there.
   */
  async readVersionRecord(): Promise<{ apiVersion: ApiVersion; record: VersionRecord }> {
    // Newest first: released devices speak 1.0; a 0.9 device answers 1.0 with 400 or 404.
    const newestFirst = [...API_VERSIONS].reverse();
    // Once detected, that version is asked first (one request per health check).
    const auto = this.detected ? [this.detected, ...newestFirst.filter((v) => v !== this.detected)] : newestFirst;
    const candidates: readonly ApiVersion[] = this.options.apiVersion === 'auto' ? auto : [this.options.apiVersion];
    let lastError: DeviceError | undefined;
    for (const version of candidates) {
      try {
        const { data } = await this.exchange('GET', this.rootPath(version));
        const record = data as VersionRecord;
        if (!record || typeof record !== 'object' || typeof record.version?.api?.major !== 'number' || !Array.isArray(record.devices)) {
          throw new DeviceError(`GET ${this.rootPath(version)}: the answer is not a version record`, {
            code: 'BAD_RESPONSE',
            method: 'GET',
            path: this.rootPath(version),
          });
        }
        this.detected = version;
        return { apiVersion: version, record };
      } catch (error) {
        lastError = error as DeviceError;
        // Only "this version is not spoken here" moves on to the next candidate.
        if (!(lastError instanceof DeviceError && (lastError.statusCode === 400 || lastError.statusCode === 404))) throw lastError;
      }
    }
    throw lastError!;
  }

  /** Refuses everything still waiting and frees the sockets. */
  close(): void {
    this.closed = true;
    this.queue.clear(new DeviceError('the node was closed (redeploy or stop) before this request was sent', { code: 'NOT_CONFIGURED' }));
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  private rootPath(version: ApiVersion): string {
    return `${this.prefix}/api/${this.service}/${version}`;
  }

  private async version(): Promise<ApiVersion> {
    return this.apiVersion ?? (await this.readVersionRecord()).apiVersion;
  }

  private async send(req: DeviceRequest): Promise<DeviceResult> {
    const version = await this.version();
    // The dialect turns the spec-shaped request into the wire form of the device's version.
    const translation = dialectFor(version).translate(req);
    const answers: unknown[] = [];
    let request: SentRequest | undefined;
    for (const call of translation.calls) {
      const under = call.scope === 'service' ? [] : [this.slot];
      const path = [this.rootPath(version), ...under, ...call.endpoint].map((part, i) => (i === 0 ? part : segment(part))).join('/');
      const result = await this.exchange(call.method, path, call.body);
      if (call.method === 'POST' && !translation.ownStatus) {
        const data = result.data as { status?: unknown } | null;
        if (!data || typeof data !== 'object' || data.status !== 'success') {
          throw new DeviceError(`${call.method} ${path}: the device did not answer "status": "success"`, {
            code: 'BAD_RESPONSE',
            statusCode: 200,
            method: call.method,
            path,
          });
        }
      }
      answers.push(result.data);
      request = result.request;
    }
    return { data: translation.answer(answers), request: request! };
  }

  /** One HTTP exchange, every outcome mapped to a result or a DeviceError. */
  private async exchange(method: Method, path: string, body?: Record<string, unknown>): Promise<DeviceResult> {
    const request: SentRequest = body === undefined ? { method, path } : { method, path, body };
    let response: { status: number; text: string };
    try {
      const agent = this.base.protocol === 'https:' ? this.agents.https : this.agents.http;
      response = await httpExchange({ base: this.base, agent, headers: this.headers, timeoutMs: this.timeout, method, path, body });
    } catch (error) {
      const mapped = this.transportError(error, method, path);
      this.options.onReachability?.(mapped);
      throw mapped;
    }
    this.options.onReachability?.();
    const text = response.text;
    const parsed = parseJson(text);
    const status = response.status;
    if (status < 200 || status > 299) {
      const envelope = parsed.ok ? (parsed.value as { message?: unknown }) : undefined;
      const deviceMessage =
        envelope && typeof envelope === 'object' && typeof envelope.message === 'string' ? envelope.message : brokenEnvelopeMessage(text) ?? bodySnippet(text);
      const hint = status === 401 ? ` (the device refused the credentials: check the ${this.options.auth === 'bearer' ? 'token' : 'user name and password'} of the config node)` : '';
      throw new DeviceError(`${method} ${path} failed: ${status}${deviceMessage ? ` ${deviceMessage}` : ''}${hint}`, {
        code: 'DEVICE_ERROR',
        statusCode: status,
        deviceMessage,
        method,
        path,
      });
    }
    if (!parsed.ok) {
      throw new DeviceError(`${method} ${path}: the answer is not JSON (${text.length} bytes)`, {
        code: 'BAD_RESPONSE',
        statusCode: status,
        method,
        path,
      });
    }
    return { data: parsed.value, request };
  }

  private transportError(error: unknown, method: Method, path: string): DeviceError {
    const code = (error as { code?: string }).code;
    const where = this.base.host;
    if (code === 'ECONNABORTED' || code === 'ETIMEDOUT') {
      return new DeviceError(`${method} ${path}: no answer from ${where} within ${this.timeout} ms`, { code: 'TIMEOUT', method, path });
    }
    const reasons: Record<string, string> = {
      ECONNREFUSED: 'connection refused',
      ECONNRESET: 'connection reset',
      EPIPE: 'connection reset',
      ENOTFOUND: 'host not found',
      EAI_AGAIN: 'host not found',
      EHOSTUNREACH: 'host unreachable',
      ENETUNREACH: 'network unreachable',
      ERR_BAD_RESPONSE: 'answer cut off',
      DEPTH_ZERO_SELF_SIGNED_CERT: 'TLS: self-signed certificate (give its CA in the TLS configuration)',
      SELF_SIGNED_CERT_IN_CHAIN: 'TLS: self-signed certificate in chain (give its CA in the TLS configuration)',
      UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS: certificate not trusted (give its CA in the TLS configuration)',
      ERR_TLS_CERT_ALTNAME_INVALID: 'TLS: certificate does not match the host name',
    };
    const reason = (code && reasons[code]) || (error as Error).message || 'request failed';
    return new DeviceError(`${method} ${path}: ${reason} (${where})`, { code: 'UNREACHABLE', method, path });
  }
}
