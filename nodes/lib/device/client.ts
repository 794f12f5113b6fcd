/**
 * DeviceClient: talks to one module (service + slot) of one device.
 *
 * One client per config node: Node's http/https over keep-alive agents (transport.ts), one
 * ordered, bounded queue for the module, and one mapping of every answer to a result or a
 * DeviceError (verdict.ts). Nodes hand it validated requests; it owns the wire path, so
 * nothing from a msg can change where a request goes.
 */
import http from 'http';
import https from 'https';
import { API_VERSIONS, ApiVersion, LIMITS, Service, SERVICES } from '../pure/limits';
import { asDeviceError, DeviceError } from '../base/errors';
import { realQueueClock, RequestQueue } from './queue';
import { lifeNow, MsgLife, queueRefusal } from './msg-life';
import { answerAsIs, CallFailure, dialectFor, Translation } from './dialects';
import { parseBaseUrl, wireRequest } from './wire-path';
import { locationOf } from '../pure/base-url';
import type { ClientOptions } from './client-options';
import { Exchanger } from './exchanger';
import { targetOf } from './channel';
import { firstSpoken, VersionRecord, versionNotSpoken } from './version-record';
import { DeviceRequest, Lane, SentRequest, SentRequests, sentRequests } from './request';
import { renewing, renewsSession } from './renewing';
import { httpAgent, httpsAgent } from './keep-alive';

export { parseBaseUrl, type VersionRecord };
export type { ClientOptions, Credentials, TlsOptions } from './client-options';
export type { ModuleClient } from './msg-life';
export type { DeviceRequest, Lane, Method, SentRequest, SentRequests } from './request';

export interface DeviceResult<T = unknown> {
  data: T;
  /** Every wire call the answer took, as `msg.request` shows it. */
  request: SentRequests;
}

type Shape = (value: unknown, request: SentRequest) => unknown;

/** The result of a call that passed as it is (Dialect.passesAsIs). */
const asIsResult: Shape = (value, request): DeviceResult => ({ data: answerAsIs(value, request), request });

const CLOSED_UNSENT = 'the node was closed (redeploy or stop) before this request was sent';
/** Beyond the timeout, how long a closing client waits for its last answers. */
const CLOSE_GRACE_MS = 1000;
/** Keep-alive rounds never overlap; a few waiting are already a failing device. */
const KEEP_ALIVE_QUEUE_LIMIT = 4;

export class DeviceClient {
  readonly service: Service;
  readonly slot: number;
  private readonly base: URL;
  private readonly agents: { http: http.Agent; https: https.Agent };
  /** Every HTTP exchange of this client: sent, judged, told to health and metrics. */
  private readonly exchanger: Exchanger;
  /** `<prefix>/api/<service>/<version>` per version. */
  private readonly roots: Record<ApiVersion, string>;
  private readonly queue: RequestQueue;
  /**
   * The keep-alive's own lane: a watchdog alive never waits behind the module's other
   * requests (a slow answer or a flood there would let the device reset). It runs beside
   * the ordered queue, on a socket of its own; its few requests are bounded too.
   */
  private readonly keepAliveQueue: RequestQueue;
  private readonly timeout: number;
  private detected?: ApiVersion;
  /** The version record read now on the wire, shared by everyone who asks meanwhile. */
  private reading?: Promise<{ apiVersion: ApiVersion; record: VersionRecord }>;
  private closed = false;

  constructor(private readonly options: ClientOptions) {
    if (!SERVICES.includes(options.service)) {
      throw new DeviceError(`service must be one of ${SERVICES.join(', ')}, got ${JSON.stringify(options.service)}`, { code: 'NOT_CONFIGURED' });
    }
    this.service = options.service;
    this.slot = options.slot;
    this.base = parseBaseUrl(options.url);
    this.timeout = options.timeout ?? LIMITS.request_timeout.default;
    const refusal = queueRefusal(this.timeout);
    this.queue = new RequestQueue(options.queueLimit ?? LIMITS.queue_limit.default, 1, realQueueClock, refusal);
    this.keepAliveQueue = new RequestQueue(KEEP_ALIVE_QUEUE_LIMIT, 1, realQueueClock, refusal);
    this.agents = {
      http: httpAgent(),
      https: httpsAgent({ ...options.tls, rejectUnauthorized: options.tls?.rejectUnauthorized ?? true }),
    };
    const target = targetOf(this.base, this.base.protocol === 'https:' ? this.agents.https : this.agents.http);
    this.exchanger = new Exchanger(options, this.base, target, this.timeout, () => this.queue.size);
    const prefix = this.base.pathname.replace(/\/+$/, '');
    this.roots = Object.fromEntries(API_VERSIONS.map((v) => [v, `${prefix}/api/${this.service}/${v}`])) as Record<ApiVersion, string>;
  }

  /** The API version in use: the fixed one, or the one detected (undefined until then). */
  get apiVersion(): ApiVersion | undefined {
    return this.options.apiVersion === 'auto' ? this.detected : this.options.apiVersion;
  }

  /** Where the device is, for labels and messages: origin and prefix, never credentials. */
  get location(): string {
    return locationOf(this.base);
  }

  /** Requests waiting in the module's queue. */
  get queued(): number {
    return this.queue.size;
  }

  /**
   * When a msg arriving now must have ended: its timeout from now, plus `extraMs` for an
   * operation that waits by design (power-fan's wait until the fan is at speed).
   */
  deadline(extraMs = 0): number {
    return lifeNow() + this.timeout + extraMs;
  }

  /**
   * Sends one request, or several back to back as one job of the queue (nothing from
   * another msg runs between them), stopping at the first failure. Resolves with the answer
   * of the last request and every wire call of them all. The msg's `deadline` bounds it
   * all, the wait in the queue included (msg-life.ts).
   */
  request<T = unknown>(requests: DeviceRequest | DeviceRequest[], lane: Lane = 'ordered', deadline = this.deadline()): Promise<DeviceResult<T>> {
    if (this.closed) return Promise.reject(new DeviceError('the device connection is closed', { code: 'NOT_CONFIGURED' }));
    const ordered = lane !== 'keep-alive';
    const life = new MsgLife(deadline, this.timeout, ordered ? this.queue : undefined);
    const work = Array.isArray(requests)
      ? async () => {
          const results: DeviceResult[] = [];
          for (const req of requests) results.push(await this.send(req, life));
          return { data: results[results.length - 1].data as T, request: sentRequests(...results.map((r) => r.request)) };
        }
      : () => this.send(requests, life) as Promise<DeviceResult<T>>;
    const queue = ordered ? this.queue : this.keepAliveQueue;
    return lane === 'settings' ? queue.addAhead(work, deadline) : queue.add(work, deadline);
  }

  /**
   * Reads the service's version record (the service root), detecting the API version when
   * it is 'auto'. Not queued: it is how the config node learns whether the device is there.
   * Callers at the same time share one read: a msg that arrives while the config node's
   * first probe is on the wire waits for that probe instead of detecting the version again.
   */
  readVersionRecord(): Promise<{ apiVersion: ApiVersion; record: VersionRecord }> {
    this.reading ??= this.askVersionRecord().finally(() => {
      this.reading = undefined;
    });
    return this.reading;
  }

  private askVersionRecord(): Promise<{ apiVersion: ApiVersion; record: VersionRecord }> {
    // Newest first: released devices speak 1.0; a 0.9 device answers 1.0 with 400 or 404.
    const newestFirst = [...API_VERSIONS].reverse();
    // Once detected, that version is asked first (one request per health check).
    const auto = this.detected ? [this.detected, ...newestFirst.filter((v) => v !== this.detected)] : newestFirst;
    const candidates: readonly ApiVersion[] = this.options.apiVersion === 'auto' ? auto : [this.options.apiVersion];
    // "Not spoken here" while another version is left to ask is the probe's answer, told to
    // health and metrics as answered: no request error at every start of a 0.9 device.
    const read = (path: string, another: boolean) =>
      this.exchanger.exchange({ method: 'GET', path }, undefined, undefined, another ? versionNotSpoken : undefined);
    return firstSpoken(candidates, this.roots, read).then((found) => {
      this.detected = found.apiVersion;
      return found;
    });
  }

  /**
   * Reads the module's descriptor, not queued: the config node's proof that the device
   * accepts the credentials (the version root is public behind the device's nginx).
   */
  async readDescriptor(): Promise<unknown> {
    const version = await this.version();
    return this.exchanger.exchange({ method: 'GET', path: `${this.roots[version]}/${this.slot}/descriptor` });
  }

  /**
   * Refuses everything still waiting (never sent: nothing lost) and lets what is on the
   * wire finish, bounded by the timeout, before freeing the sockets: a notification read the
   * device already answered must not be cut off by a redeploy (its flags are cleared there).
   */
  close(): Promise<void> {
    this.closed = true;
    const unsent = new DeviceError(CLOSED_UNSENT, { code: 'NOT_CONFIGURED' });
    this.queue.clear(unsent);
    this.keepAliveQueue.clear(unsent);
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.timeout + CLOSE_GRACE_MS);
    });
    return Promise.race([Promise.all([this.queue.idle(), this.keepAliveQueue.idle()]), bound]).then(() => {
      clearTimeout(timer);
      this.agents.http.destroy();
      this.agents.https.destroy();
    });
  }

  private async version(): Promise<ApiVersion> {
    return this.apiVersion ?? (await this.readVersionRecord()).apiVersion;
  }

  /**
   * The dialect turns the spec-shaped request into the wire form of the device's version,
   * and judges the answers (whether a POST succeeded included). Most msgs are one wire call
   * to a module whose version is known, passing as it is: sent without an async step of
   * its own, and without a translation made for it.
   */
  private send(req: DeviceRequest, life: MsgLife): Promise<DeviceResult> {
    const version = this.apiVersion;
    if (!version) return this.sendAll(req, life);
    const dialect = dialectFor(version);
    if (dialect.passesAsIs(req)) return this.call(version, req, wireRequest(this.roots[version], this.slot, req), life, asIsResult) as Promise<DeviceResult>;
    const translation = dialect.translate(req);
    if (translation.calls.length !== 1 || translation.independent) return this.sendAll(req, life, translation);
    const call = translation.calls[0];
    const request = wireRequest(this.roots[version], this.slot, call);
    return this.call(version, call, request, life).then((answer) => ({ data: translation.answer([answer], [request]), request }));
  }

  /** One wire call; the connection is told around it when it renews the session (renewing.ts). */
  private call(version: ApiVersion, call: DeviceRequest, request: SentRequest, life: MsgLife, shape?: Shape): Promise<unknown> {
    const onRenewing = this.options.onRenewing;
    if (onRenewing && renewsSession(version, call)) return renewing(onRenewing, () => this.exchanger.exchange(request, life, shape));
    return this.exchanger.exchange(request, life, shape);
  }

  private async sendAll(req: DeviceRequest, life: MsgLife, known?: Translation): Promise<DeviceResult> {
    // The first read of the version may be slow: no longer than the msg's time.
    const version = this.apiVersion ?? (await life.within(this.version()));
    const translation = known ?? dialectFor(version).translate(req);
    const calls = translation.calls;
    const answers: unknown[] = [];
    const sent: SentRequest[] = [];
    const failures: CallFailure[] = [];
    for (let index = 0; index < calls.length; index++) {
      const call = calls[index];
      const request = wireRequest(this.roots[version], this.slot, call);
      const path = request.path;
      if (!translation.independent) {
        answers.push(await this.call(version, call, request, life));
        sent.push(request);
        continue;
      }
      // Closed mid-way (a redeploy), the device silent or the msg's time up: the calls not
      // yet sent stay unsent (never read, so nothing is lost); the round ends in its time.
      const unsent = this.closed
        ? new DeviceError(`${call.method} ${path}: ${CLOSED_UNSENT}`, { code: 'NOT_CONFIGURED', method: call.method, path })
        : life.unsent(request);
      if (unsent) {
        failures.push({ index, error: unsent });
        answers.push(undefined);
        continue;
      }
      try {
        answers.push(await this.exchanger.exchange(request, life));
        sent.push(request);
      } catch (error) {
        failures.push({ index, error: asDeviceError(error, 'UNREACHABLE') });
        answers.push(undefined);
        sent.push(request);
      }
    }
    return { data: translation.answer(answers, sent, failures), request: sentRequests(sent) };
  }
}
