/**
 * A loopback TCP proxy between Node-RED and the simulator that reads the HTTP framing of
 * what the client sends: it adds latency per direction, resets chosen requests (before the
 * device sees them, or after it answered, so the device processed them and the answer is
 * lost) and counts requests by path. One upstream connection per client connection, closed
 * together, so the device's keep-alive closes reach the client as they would on a network.
 * Answers are not parsed: clients send one request at a time on a connection (Node's
 * agent does not pipeline), so the next bytes from upstream answer the last request.
 * Bounded (connections, queued bytes, head size, the request record); stop() closes all.
 */
import net from 'net';

export interface ProxyOptions {
  /** The device: host and port to forward to. */
  target: { host?: string; port: number };
  /** Latency added to every byte client → device, ms. */
  upMs?: number;
  /** Latency added to every byte device → client, ms. */
  downMs?: number;
  /** Connections open at once; beyond, a new one is closed at once. Default 64. */
  maxConnections?: number;
}

export interface ProxyFailure {
  /** Substring of the request path, or a pattern. */
  path: string | RegExp;
  /** Upper-case method; any when omitted. */
  method?: string;
  /** Requests to fail; every matching one when omitted. */
  count?: number;
  /**
   * 'request' (default): reset before forwarding, the device never sees it; 'answer':
   * forward it, reset when the answer starts to come back (the device processed it).
   */
  when?: 'request' | 'answer';
}

export interface ProxiedRequest {
  readonly method: string;
  readonly path: string;
  /** When its head reached the proxy, ms since the epoch. */
  readonly time: number;
  /** Set when the proxy reset it. */
  failed?: 'request' | 'answer';
}

/** Bounds of a test helper: far above what a test sends, low enough that a runaway test fails fast. */
const DEFAULT_MAX_CONNECTIONS = 64;
const MAX_QUEUED_BYTES = 8 * 1024 * 1024;
const MAX_HEAD_BYTES = 64 * 1024;
const MAX_RECORDED = 10_000;
const MAX_LATENCY_MS = 120_000;

const CRLF = Buffer.from('\r\n');
const HEAD_END = Buffer.from('\r\n\r\n');

function checkLatency(name: string, ms: number | undefined): number {
  if (ms === undefined) return 0;
  if (!Number.isInteger(ms) || ms < 0 || ms > MAX_LATENCY_MS) throw new RangeError(`${name} must be an integer from 0 to ${MAX_LATENCY_MS} ms, got ${ms}`);
  return ms;
}

/** One direction of a connection: chunks forwarded `latency()` ms after they arrived, in order. */
class DelayLine {
  private readonly queue: Array<{ due: number; chunk: Buffer | null }> = [];
  private queued = 0;
  private timer?: NodeJS.Timeout;
  private lastDue = 0;

  constructor(
    private readonly dest: net.Socket,
    private readonly latency: () => number,
    private readonly overflow: () => void,
  ) {}

  /** A chunk to forward; null forwards the end of the stream. */
  push(chunk: Buffer | null): void {
    // Never before an earlier chunk, even when the latency was lowered meanwhile.
    this.lastDue = Math.max(Date.now() + this.latency(), this.lastDue);
    this.queue.push({ due: this.lastDue, chunk });
    this.queued += chunk?.length ?? 0;
    if (this.queued + this.dest.writableLength > MAX_QUEUED_BYTES) this.overflow();
    else this.flush();
  }

  private flush(): void {
    if (this.timer !== undefined) return;
    while (this.queue.length > 0 && this.queue[0].due <= Date.now()) {
      const { chunk } = this.queue.shift()!;
      if (this.dest.destroyed) continue;
      if (chunk === null) this.dest.end();
      else {
        this.queued -= chunk.length;
        this.dest.write(chunk);
      }
    }
    if (this.queue.length === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, this.queue[0].due - Date.now());
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.queue.length = 0;
  }
}

type Framing = { state: 'head' } | { state: 'body' | 'chunk-data'; remaining: number } | { state: 'chunk-size' | 'trailer' };

/** What the client sends, cut at request boundaries: each head is seen whole before it is forwarded. */
class RequestReader {
  private pending = Buffer.alloc(0);
  private framing: Framing = { state: 'head' };

  constructor(
    private readonly onHead: (method: string, path: string) => 'forward' | 'reset',
    private readonly forward: (bytes: Buffer) => void,
    private readonly fail: () => void,
  ) {}

  read(chunk: Buffer): void {
    let buf = this.pending.length > 0 ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = Buffer.alloc(0);
    while (buf.length > 0) {
      const f = this.framing;
      if (f.state === 'body' || f.state === 'chunk-data') {
        const take = Math.min(f.remaining, buf.length);
        this.forward(buf.subarray(0, take));
        buf = buf.subarray(take);
        f.remaining -= take;
        if (f.remaining === 0) this.framing = { state: f.state === 'body' ? 'head' : 'chunk-size' };
        continue;
      }
      const end = buf.indexOf(f.state === 'head' ? HEAD_END : CRLF);
      if (end < 0) {
        if (buf.length > MAX_HEAD_BYTES) this.fail();
        else this.pending = Buffer.from(buf);
        return;
      }
      const part = buf.subarray(0, end + (f.state === 'head' ? 4 : 2));
      buf = buf.subarray(part.length);
      if (f.state === 'head' && !this.head(part)) return;
      if (f.state !== 'head') this.forward(part);
      if (f.state === 'chunk-size') {
        const size = parseInt(part.toString('latin1'), 16);
        if (!Number.isFinite(size)) return this.fail();
        this.framing = size === 0 ? { state: 'trailer' } : { state: 'chunk-data', remaining: size + 2 };
      } else if (f.state === 'trailer' && part.length === 2) this.framing = { state: 'head' };
    }
  }

  /** Reads one request head; false when the connection was reset for it. */
  private head(part: Buffer): boolean {
    const lines = part.toString('latin1').split('\r\n');
    const [method = '', target = ''] = lines[0].split(' ');
    const field = (name: string): string | undefined =>
      lines
        .find((l) => l.toLowerCase().startsWith(`${name}:`))
        ?.slice(name.length + 1)
        .trim()
        .toLowerCase();
    if (this.onHead(method, target.split('?')[0]) === 'reset') return false;
    this.forward(part);
    const length = Number(field('content-length') ?? 0);
    if (field('transfer-encoding')?.includes('chunked')) this.framing = { state: 'chunk-size' };
    else if (length > 0) this.framing = { state: 'body', remaining: length };
    return true;
  }
}

export class Proxy {
  private readonly server: net.Server;
  private readonly closers = new Set<() => void>();
  private failures: Array<ProxyFailure & { left: number }> = [];
  private readonly recorded: ProxiedRequest[] = [];
  private upMs: number;
  private downMs: number;
  private seen = 0;
  private listeningPort = 0;

  private constructor(private readonly options: ProxyOptions) {
    this.upMs = checkLatency('upMs', options.upMs);
    this.downMs = checkLatency('downMs', options.downMs);
    this.server = net.createServer((client) => this.connection(client));
  }

  static async start(options: ProxyOptions): Promise<Proxy> {
    const proxy = new Proxy(options);
    await new Promise<void>((resolve, reject) => {
      proxy.server.once('error', reject);
      proxy.server.listen(0, '127.0.0.1', () => resolve());
    });
    proxy.listeningPort = (proxy.server.address() as net.AddressInfo).port;
    return proxy;
  }

  /** The port it listens on (kept after stop(), for messages). */
  get port(): number {
    return this.listeningPort;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Requests seen since start, also those the record no longer holds. */
  get total(): number {
    return this.seen;
  }

  /** Client connections open now. */
  get connections(): number {
    return this.closers.size;
  }

  setLatency(latency: { upMs?: number; downMs?: number }): void {
    if (latency.upMs !== undefined) this.upMs = checkLatency('upMs', latency.upMs);
    if (latency.downMs !== undefined) this.downMs = checkLatency('downMs', latency.downMs);
  }

  /** Resets the matching requests from now on (the first matching rule, in the order added). */
  fail(rule: ProxyFailure): void {
    if (rule.count !== undefined && !(Number.isInteger(rule.count) && rule.count > 0)) throw new RangeError('count must be a positive integer');
    this.failures.push({ ...rule, method: rule.method?.toUpperCase(), left: rule.count ?? Infinity });
  }

  clearFailures(): void {
    this.failures = [];
  }

  /** The latest requests (up to 10,000), oldest first. */
  get requests(): readonly ProxiedRequest[] {
    return this.recorded;
  }

  /** Requests recorded whose path matches (substring or pattern); all when omitted. */
  count(path?: string | RegExp): number {
    return path === undefined ? this.recorded.length : this.recorded.filter((r) => matches(path, r.path)).length;
  }

  /** Stops listening and closes every connection at once, queued bytes and timers included. */
  stop(): Promise<void> {
    this.failures = [];
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      for (const close of [...this.closers]) close();
    });
  }

  private connection(client: net.Socket): void {
    const max = this.options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
    if (this.closers.size >= max) {
      client.destroy();
      return;
    }
    const upstream = net.connect(this.options.target.port, this.options.target.host ?? '127.0.0.1');
    const closeAll = (reset = false): void => {
      up.stop();
      down.stop();
      this.closers.delete(closeAll);
      if (reset) client.resetAndDestroy();
      else client.destroy();
      upstream.destroy();
    };
    this.closers.add(closeAll);
    const up = new DelayLine(upstream, () => this.upMs, closeAll);
    const down = new DelayLine(client, () => this.downMs, closeAll);
    let awaitingAnswer: ProxiedRequest | undefined;
    const reader = new RequestReader(
      (method, path) => {
        const request = this.record(method, path);
        const when = this.take(method, path);
        if (when === 'request') {
          request.failed = 'request';
          closeAll(true);
          return 'reset';
        }
        awaitingAnswer = when === 'answer' ? request : undefined;
        return 'forward';
      },
      (bytes) => up.push(bytes),
      () => closeAll(),
    );
    client.on('data', (chunk: Buffer) => reader.read(chunk));
    upstream.on('data', (chunk: Buffer) => {
      if (awaitingAnswer !== undefined) {
        awaitingAnswer.failed = 'answer';
        closeAll(true);
      } else down.push(chunk);
    });
    // A half-close travels on after the bytes before it; an error or a full close ends both.
    client.on('end', () => up.push(null));
    upstream.on('end', () => down.push(null));
    for (const socket of [client, upstream]) {
      socket.on('error', () => closeAll());
      socket.on('close', () => {
        if (client.destroyed && upstream.destroyed) this.closers.delete(closeAll);
        else if (socket === client) closeAll();
      });
    }
  }

  private record(method: string, path: string): ProxiedRequest {
    const request: ProxiedRequest = { method, path, time: Date.now() };
    this.seen++;
    this.recorded.push(request);
    if (this.recorded.length > MAX_RECORDED) this.recorded.shift();
    return request;
  }

  private take(method: string, path: string): 'request' | 'answer' | undefined {
    const rule = this.failures.find((r) => (r.method === undefined || r.method === method) && matches(r.path, path));
    if (rule === undefined) return undefined;
    if (--rule.left <= 0) this.failures = this.failures.filter((r) => r !== rule);
    return rule.when ?? 'request';
  }
}

function matches(pattern: string | RegExp, path: string): boolean {
  return typeof pattern === 'string' ? path.includes(pattern) : pattern.test(path);
}

/** A proxy in front of `target` (e.g. the simulator's port). */
export function startProxy(options: ProxyOptions): Promise<Proxy> {
  return Proxy.start(options);
}
