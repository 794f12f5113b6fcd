/**
 * DeviceClient: talks to one module (service + slot) of one device.
 *
 * One client per config node: Node's http/https over keep-alive agents (transport.ts), one
 * ordered, bounded queue for the module, and one mapping of every answer to a result or a
 * DeviceError (verdict.ts). Nodes hand it validated requests; it owns the wire path, so
 * nothing from a msg can change where a request goes. The top of a request's way down
 * (ARCHITECTURE.md): a job waits for its turn here and is handed to its msg's life
 * (msg-life.ts) once; what the client tells its config node goes to its listeners
 * (client-events.ts).
 */
import http from 'http';
import https from 'https';
import { API_VERSIONS, ApiVersion, LIMITS, Service, SERVICES } from '../pure/limits';
import { DeviceError } from '../base/errors';
import { realClock } from '../base/clock';
import { RequestQueue } from './queue';
import { CLOSED_UNSENT, ModuleWay, MsgLife, queueRefusal } from './msg-life';
import { parseBaseUrl } from './wire-path';
import { locationOf } from '../pure/base-url';
import type { ClientOptions } from './client-options';
import { Exchanger } from './exchanger';
import { ClientListener, ClientReport } from './client-events';
import { targetOf } from './channel';
import { firstSpoken, VersionRecord, versionNotSpoken } from './version-record';
import type { DeviceRequest, DeviceResult, Lane, ModuleClient } from './request';
import { httpAgent, httpsAgent } from './keep-alive';

export { parseBaseUrl, type VersionRecord };
export type { ClientOptions, Credentials, TlsOptions } from './client-options';
export type { ClientEvents, ClientListener } from './client-events';
export type { DeviceRequest, DeviceResult, Lane, Method, ModuleClient, SentRequest, SentRequests } from './request';

/** Beyond the timeout, how long a closing client waits for its last answers. */
const CLOSE_GRACE_MS = 1000;
/** Keep-alive rounds never overlap; a few waiting are already a failing device. */
const KEEP_ALIVE_QUEUE_LIMIT = 4;

export class DeviceClient {
  readonly service: Service;
  readonly slot: number;
  private readonly base: URL;
  private readonly agents: { http: http.Agent; https: https.Agent };
  /** Whoever listens to the client (its config node: connection, health and metrics). */
  private readonly report = new ClientReport();
  /** What every msg's life shares: the layers below, the roots, the clock. */
  private readonly way: ModuleWay;
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

  constructor(private readonly options: ClientOptions) {
    if (!SERVICES.includes(options.service)) {
      throw new DeviceError(`service must be one of ${SERVICES.join(', ')}, got ${JSON.stringify(options.service)}`, { code: 'NOT_CONFIGURED' });
    }
    this.service = options.service;
    this.slot = options.slot;
    this.base = parseBaseUrl(options.url);
    this.timeout = options.timeout ?? LIMITS.request_timeout.default;
    const refusal = queueRefusal(this.timeout);
    this.queue = new RequestQueue(options.queueLimit ?? LIMITS.queue_limit.default, 1, realClock, refusal);
    this.keepAliveQueue = new RequestQueue(KEEP_ALIVE_QUEUE_LIMIT, 1, realClock, refusal);
    this.agents = {
      http: httpAgent(),
      https: httpsAgent({ ...options.tls, rejectUnauthorized: options.tls?.rejectUnauthorized ?? true }),
    };
    const target = targetOf(this.base, this.base.protocol === 'https:' ? this.agents.https : this.agents.http);
    const exchanger = new Exchanger(options, this.base, target, this.timeout, this.report, this.queue);
    const prefix = this.base.pathname.replace(/\/+$/, '');
    const roots = Object.fromEntries(API_VERSIONS.map((v) => [v, `${prefix}/api/${this.service}/${v}`])) as Record<ApiVersion, string>;
    this.way = { slot: this.slot, roots, timeoutMs: this.timeout, clock: realClock, exchanger, closed: false };
  }

  /**
   * Adds a listener to what the client tells (client-events.ts: reachability, settings
   * lost, renewing writes, each exchange); returns what removes it.
   */
  listen(listener: ClientListener): () => void {
    return this.report.listen(listener);
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
    return this.way.clock.now() + this.timeout + extraMs;
  }

  /**
   * Sends one request, or several back to back as one job of the queue (nothing from
   * another msg runs between them), stopping at the first failure. Resolves with the answer
   * of the last request and every wire call of them all. The msg's `deadline` bounds it
   * all, the wait in the queue included (msg-life.ts).
   */
  request<T = unknown>(requests: DeviceRequest | DeviceRequest[], lane: Lane = 'ordered', deadline = this.deadline()): Promise<DeviceResult<T>> {
    if (this.way.closed) return Promise.reject(new DeviceError('the device connection is closed', { code: 'NOT_CONFIGURED' }));
    const ordered = lane !== 'keep-alive';
    const queue = ordered ? this.queue : this.keepAliveQueue;
    // Handed down once, at its turn: the msg's life learns the version (when not yet known) within its time.
    const work = () => new MsgLife(deadline, this.way, ordered ? this.queue : undefined).run<T>(requests, this.apiVersion ?? this.version());
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
      this.way.exchanger.exchange({ method: 'GET', path }, this.timeout, undefined, undefined, another ? versionNotSpoken : undefined);
    return firstSpoken(candidates, this.way.roots, read).then((found) => {
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
    return this.way.exchanger.exchange({ method: 'GET', path: `${this.way.roots[version]}/${this.slot}/descriptor` }, this.timeout);
  }

  /**
   * Refuses everything still waiting (never sent: nothing lost) and lets what is on the
   * wire finish, bounded by the timeout, before freeing the sockets: a notification read the
   * device already answered must not be cut off by a redeploy (its flags are cleared there).
   */
  close(): Promise<void> {
    this.way.closed = true;
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
}

/** A class, not an object literal with a getter: one is made per poll round of every module. */
class BoundedClient implements ModuleClient {
  readonly service: Service;
  readonly slot: number;

  constructor(
    private readonly client: DeviceClient,
    private readonly deadline: number,
  ) {
    this.service = client.service;
    this.slot = client.slot;
  }

  get apiVersion(): ApiVersion | undefined {
    return this.client.apiVersion;
  }

  request<T = unknown>(requests: DeviceRequest | DeviceRequest[], lane?: Lane): Promise<DeviceResult<T>> {
    return this.client.request<T>(requests, lane, this.deadline);
  }
}

/** `client` for one msg's conversation: every request of it bounded by `deadline`. */
export function bounded(client: DeviceClient, deadline: number): ModuleClient {
  return new BoundedClient(client, deadline);
}
