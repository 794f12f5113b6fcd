/**
 * The HTTP server: body reading with a size cap, the /sim control API, auth and services
 * down (nginx's 401 and 502), nginx's keep-alive when asked, fault injection, dispatch to
 * the dialect's router, the request log, the port shut while the device reboots
 * (outage.ts). Node's own http module only; no timers left behind (fault timers are tracked).
 */
import http, { IncomingMessage, ServerResponse } from 'http';
import https from 'https';
import type { Socket } from 'net';
import { handleControl } from './control';
import { Device } from './device';
import { envelope } from './errors';
import { Faults, FaultRule, mangle } from './faults';
import { RingLog } from './log';
import { BAD_GATEWAY_HTML, isPublicRoot, KeepAlive, NginxSettings, UNAUTHORIZED_HTML } from './nginx';
import { Listener, OutageGate } from './outage';
import { Dialect, handleDeviceRequest, ParsedBody, segmentsOf, serviceOf } from './router';

/** Bodies above this answer 413 (the released services' JSON limit, real §2). */
export const MAX_BODY_BYTES = 1024 * 1024;
/** Beyond this we stop draining and drop the connection: nobody needs 16 MiB read to learn "413". */
const DRAIN_LIMIT_BYTES = 16 * MAX_BODY_BYTES;

const NO_BODY: ParsedBody = { kind: 'none' };

export interface ServerParts {
  readonly device: Device;
  readonly log: RingLog;
  readonly faults: Faults;
  readonly dialect: Dialect;
  /** Serve HTTPS with this key and certificate (PEM) instead of HTTP. */
  readonly tls?: { key: string | Buffer; cert: string | Buffer };
  /** Require these credentials on every /api request but the version roots, as nginx does on a device. */
  readonly auth?: SimAuth;
  /** Behave like the device's nginx: its keep-alive handling, its public root and 401 page. */
  readonly nginx?: NginxSettings;
}

/** Basic auth (user name and password) or a bearer token. */
export type SimAuth = { username: string; password: string } | { token: string };

/** The Authorization header that `auth` accepts. */
function expectedAuthorization(auth: SimAuth): string {
  return 'token' in auth ? `Bearer ${auth.token}` : `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}`;
}

/**
 * A version root `/api/<svc>/<ver>` stays public, like nginx in front of the released
 * services; without the nginx mode any three-segment /api path counts as one, as before.
 */
function needsAuth(segments: readonly string[], pathname: string, nginx: boolean): boolean {
  return nginx ? !isPublicRoot(pathname) : segments[0] === 'api' && segments.length !== 3;
}

/** Bytes that are not UTF-8 are refused, as Rocket's string read refuses them; a BOM is kept (and is bad JSON). */
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function parseBody(chunks: Buffer[] | null, tooLarge: boolean): ParsedBody {
  if (tooLarge) return { kind: 'too_large' };
  if (chunks === null || chunks.length === 0) return NO_BODY;
  let text: string;
  try {
    text = UTF8.decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
  } catch {
    return { kind: 'bad' };
  }
  if (text.trim().length === 0) return NO_BODY;
  try {
    return { kind: 'json', value: JSON.parse(text), text };
  } catch {
    return { kind: 'bad', text };
  }
}

function send(res: ServerResponse, status: number, body: string, contentType = 'application/json'): void {
  if (res.destroyed || res.writableEnded) return;
  res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body) });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

export class SimServer implements Listener {
  readonly http: http.Server;
  readonly gate: OutageGate;
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly keepAlive?: KeepAlive;
  private address: { port: number; host: string } | null = null;
  private stops = 0;

  constructor(private readonly parts: ServerParts) {
    this.gate = new OutageGate(parts.device, this);
    const handler = (req: IncomingMessage, res: ServerResponse): void => this.onRequest(req, res);
    this.http = parts.tls
      ? https.createServer({ keepAlive: true, key: parts.tls.key, cert: parts.tls.cert }, handler)
      : http.createServer({ keepAlive: true }, handler);
    if (parts.nginx) {
      this.keepAlive = new KeepAlive(parts.nginx);
      this.keepAlive.install(this.http);
    }
    this.http.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    // Garbage that is not HTTP: answer 400 if we can, never crash.
    this.http.on('clientError', (_error, socket: Socket) => {
      if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      else socket.destroy();
    });
  }

  listen(port: number, host: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const onError = (error: Error): void => reject(error);
      this.http.once('error', onError);
      this.http.listen(port, host, () => {
        this.http.off('error', onError);
        const bound = (this.http.address() as { port: number }).port;
        this.address = { port: bound, host };
        resolve(bound);
      });
    });
  }

  /** Listening again after an outage, on the port it had; not after stop(). */
  async reopen(): Promise<void> {
    if (this.address === null || this.http.listening) return;
    const { port, host } = this.address;
    const stops = this.stops;
    await this.listen(port, host);
    if (this.stops !== stops) this.http.close(); // stopped meanwhile
  }

  /** The device went down: nothing accepts connections, every open one is gone but `keep`. */
  shut(keep?: Socket): void {
    if (this.http.listening) this.http.close();
    for (const socket of this.sockets) if (socket !== keep) socket.destroy();
  }

  /** Stops listening and drops every connection, keep-alive ones included; resolves promptly. */
  stop(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.address = null;
    this.stops++;
    this.gate.stop();
    return new Promise((resolve) => {
      if (!this.http.listening) {
        this.destroySockets();
        resolve();
        return;
      }
      this.http.close(() => resolve());
      this.destroySockets();
    });
  }

  /** Runs `action` after `ms`, unless the server stops first. */
  private later(ms: number, action: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      action();
    }, ms);
    this.timers.add(timer);
  }

  private destroySockets(): void {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    const received = Date.now();
    this.keepAlive?.onRequest(req, res);
    // Requests without a body (the hot path: GET input/values) skip the chunk machinery.
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
      req.resume();
      this.dispatch(req, res, received, null, false);
      return;
    }
    const declared = Number(req.headers['content-length']);
    if (declared > DRAIN_LIMIT_BYTES) {
      res.setHeader('Connection', 'close');
      const control = segmentsOf((req.url ?? '/').split('?')[0])[0] === 'sim';
      const tooLarge = control ? { body: envelope(413), contentType: undefined } : this.parts.dialect.error(413, undefined, req.headers.accept);
      send(res, 413, tooLarge.body, tooLarge.contentType);
      res.on('finish', () => req.socket.destroy());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > DRAIN_LIMIT_BYTES) req.socket.destroy();
      else if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => this.dispatch(req, res, received, chunks, tooLarge));
    req.on('error', () => req.socket.destroy());
  }

  private dispatch(req: IncomingMessage, res: ServerResponse, received: number, chunks: Buffer[] | null, tooLarge: boolean): void {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const pathname = q < 0 ? url : url.slice(0, q);
    const method = req.method ?? 'GET';
    const body = parseBody(chunks, tooLarge);
    const segments = segmentsOf(pathname);
    const { device, log, faults } = this.parts;
    try {
      if (this.gate.refused(req.socket)) return;
      if (segments[0] === 'sim') {
        const answer = handleControl({ device, log, faults, now: device.now() }, method, segments, q < 0 ? '' : url.slice(q + 1), body);
        this.gate.closeIfDown(req.socket, res);
        send(res, answer.status, answer.body);
        return;
      }
      const logged = body.kind === 'json' ? body.value : null;
      const { auth, nginx } = this.parts;
      if (auth && needsAuth(segments, pathname, nginx !== undefined) && req.headers.authorization !== expectedAuthorization(auth)) {
        res.setHeader('WWW-Authenticate', `${'token' in auth ? 'Bearer' : 'Basic'} realm="modular-device"`);
        if (nginx) send(res, 401, UNAUTHORIZED_HTML, 'text/html');
        else send(res, 401, envelope(401));
        log.add(received, method, pathname, logged, 401);
        return;
      }
      const service = serviceOf(segments);
      if (service !== undefined && device.servicesDown.has(service)) {
        send(res, 502, BAD_GATEWAY_HTML, 'text/html');
        log.add(received, method, pathname, logged, 502);
        return;
      }
      const fault = faults.take(method, pathname);
      // A frozen device: the request arrived (logged now), nothing more ever happens to it.
      if (fault?.hang) {
        log.add(received, method, pathname, logged, 0);
        return;
      }
      const answer = (): void => {
        let status = 500;
        try {
          status = this.answerDevice(req, res, method, segments, body, fault);
        } catch (error) {
          send(res, 500, envelope(500, `simulator error: ${(error as Error).message}`));
        }
        log.add(received, method, pathname, logged, status);
      };
      if (fault?.latency_ms) this.later(fault.latency_ms, answer);
      else answer();
    } catch (error) {
      // A bug must not take the simulator down: answer 500 and keep serving.
      send(res, 500, envelope(500, `simulator error: ${(error as Error).message}`));
    }
  }

  /**
   * Answers a device API request, applying a fault if one matched; returns the status
   * (0 = no answer: reset before, or answer dropped after processing).
   */
  private answerDevice(req: IncomingMessage, res: ServerResponse, method: string, segments: string[], body: ParsedBody, fault?: FaultRule): number {
    if (res.destroyed || this.gate.refused(req.socket)) return 0;
    if (fault?.reset) {
      req.socket.destroy();
      return 0;
    }
    if (fault?.status !== undefined) {
      send(res, fault.status, envelope(fault.status, fault.message));
      return fault.status;
    }
    const now = this.parts.device.now();
    const request = { method, segments, body, accept: req.headers.accept };
    const answer = handleDeviceRequest(this.parts.dialect, this.parts.device, request, now);
    this.gate.closeIfDown(req.socket, res);
    const deliver = (): void => {
      if (fault?.drop_answer) req.socket.destroy();
      else send(res, answer.status, fault?.body ? mangle(fault.body, answer.body) : answer.body, fault?.body ? undefined : answer.contentType);
    };
    if (fault?.answer_delay_ms) this.later(fault.answer_delay_ms, deliver);
    else deliver();
    return fault?.drop_answer ? 0 : answer.status;
  }
}
