/**
 * One HTTP exchange over Node's own http/https, with the client's keep-alive agents.
 *
 * The client used axios here first. The benchmark (bench/, docs/performance.md) showed
 * axios spending 100-150 µs of CPU per request on config merging, interceptor promises
 * and stream wrapping: about 0.35-0.45× the speed of a plain `http.request` loop, below the
 * 0.5× the package must reach. This is the small part of a client a device needs: no
 * redirects, no proxy, the answer read as bytes up to a cap and judged by the caller.
 *
 * The answer is untrusted: a Content-Length over the cap is refused before a byte of the
 * body is read, a body that grows past it is cut at once, and one timer covers the whole
 * exchange (connect, send, headers, body), so a body that trickles ends too. Every failure
 * is a TransportError (transport-error.ts) saying which of these happened; where it goes
 * (target, agent, headers) is the client's Channel (channel.ts), made once.
 */
import http from 'http';
import https from 'https';
import type { TLSSocket } from 'tls';
import { exchangeDeadlines, Expiring } from './deadlines';
import type { Channel, Outgoing } from './channel';
import { fromNode, peerOf, PeerCertificate, TlsFacts, TransportError } from './transport-error';

export interface Answer {
  status: number;
  /** The Content-Type header, lower case ('' when absent). */
  type: string;
  text: string;
}

/**
 * A kept-alive socket that the device (its nginx: `keepalive_timeout`) closed while idle can
 * be handed out just as the close is on its way: the request then meets a reset or an EOF
 * before a byte of the answer, one round trip after it left. The device never read it, so
 * it is sent once more on a new connection. Only that case: a reset after any byte of the
 * answer, on a new socket, or after the request had time to be acted on (a device that
 * held it and then went away) stays a failure, so nothing is sent twice.
 */
export const STALE_SOCKET_WINDOW_MS = 500;

function isStaleSocket(error: unknown, reused: boolean, answered: boolean, elapsedMs: number): boolean {
  if (!reused || answered || elapsedMs > STALE_SOCKET_WINDOW_MS) return false;
  const code = (error as { code?: unknown }).code;
  return code === 'ECONNRESET' || code === 'EPIPE';
}

/** One exchange of `request` on `channel`, all of it (a retry included) within `timeoutMs`. */
export function exchange(channel: Channel, request: Outgoing, timeoutMs: number): Promise<Answer> {
  return new Promise((resolve, reject) => new Exchanging(channel, request, timeoutMs, resolve, reject).send(false));
}

/**
 * One exchange in progress: its state in one object, not a closure per piece of it (every
 * request of every msg makes one).
 */
class Exchanging implements Expiring {
  private settled = false;
  private current?: http.ClientRequest;
  /** The answer's status once its status line came; the body bytes so far. */
  status?: number;
  received = 0;
  readonly tls?: TlsFacts;
  readonly deadline: number;
  // The deadline watch's links (deadlines.ts), declared so every exchange has one shape.
  watchedBefore?: Expiring = undefined;
  watchedAfter?: Expiring = undefined;

  constructor(
    readonly channel: Channel,
    readonly request: Outgoing,
    timeoutMs: number,
    private readonly resolve: (answer: Answer) => void,
    private readonly reject: (error: TransportError) => void,
  ) {
    const target = channel.target;
    if (target.secure) this.tls = { name: target.tlsName!, clientCert: !!target.clientCert };
    // One deadline for the whole exchange (a retry included): connect, send, wait and read.
    this.deadline = exchangeDeadlines.now() + timeoutMs;
    exchangeDeadlines.watch(this);
  }

  /**
   * Timers run before the poll phase: when the loop was busy past the deadline, an answer
   * may be waiting in the socket already, so let one poll phase read it before calling it a
   * timeout (a burst of 100,000 msgs once counted 2 answered requests as TIMEOUT).
   */
  expire(): void {
    setImmediate(expired, this);
  }

  send(fresh: boolean): void {
    const sentAt = Date.now();
    const req = open(this, fresh);
    this.current = req;
    req.on('error', (error) => {
      if (!fresh && isStaleSocket(error, req.reusedSocket, this.status !== undefined, Date.now() - sentAt)) this.send(true);
      else this.finish(fromNode(error, this.tls));
    });
  }

  /** A new TLS connection reached the device's certificate (before it is verified). */
  handshake(peer: PeerCertificate | undefined): void {
    if (this.tls) this.tls.peer = peer;
  }

  finish(error: TransportError | undefined, answer?: Answer): void {
    if (this.settled) return;
    this.settled = true;
    exchangeDeadlines.unwatch(this);
    if (error) {
      // A refused or unfinished answer leaves the socket in an unknown state: never reuse it.
      this.current?.destroy();
      this.reject(error);
    } else this.resolve(answer!);
  }
}

function expired(p: Exchanging): void {
  p.finish(new TransportError(p.status === undefined ? 'timeout' : 'incomplete', undefined, p.status, p.received));
}

/**
 * The first value of two headers, from the raw list: reading `res.headers` would build the
 * whole header object (Node builds it on first use), which costs more than the rest of the
 * answer's handling.
 */
function lengthAndType(raw: string[]): { length: number; type: string } {
  let length = NaN;
  let type: string | undefined;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i];
    if (name.length === 14 && Number.isNaN(length) && name.toLowerCase() === 'content-length') length = Number(raw[i + 1]);
    else if (name.length === 12 && type === undefined && name.toLowerCase() === 'content-type') type = raw[i + 1].toLowerCase();
  }
  return { length, type: type ?? '' };
}

/** Sends the request once: on the agent's sockets, or on a new connection of its own (`fresh`). */
function open(p: Exchanging, fresh: boolean): http.ClientRequest {
  const { channel, request } = p;
  const data = request.body === undefined ? undefined : JSON.stringify(request.body);
  // http.request copies the headers: the client's own object serves every GET as it is. The
  // client's headers are spread last: a spread followed by new properties costs V8 a
  // runtime call per property (0.75 µs per request, against 0.04).
  const headers: Readonly<Record<string, string | number>> =
    data === undefined ? channel.headers : { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(data), ...channel.headers };
  const t = channel.target;
  const maxBytes = channel.maxBytes;
  const options: https.RequestOptions = { hostname: t.hostname, port: t.port, method: request.method, path: request.path, headers };
  // A fresh connection borrows the agent's TLS options but not its pool of sockets.
  if (!fresh) options.agent = t.agent;
  else Object.assign(options, t.tls, { agent: false });
  const req = (t.secure ? https : http).request(options, (res) => {
    const status = res.statusCode ?? 0;
    p.status = status;
    const { length, type } = lengthAndType(res.rawHeaders);
    if (length > maxBytes) {
      p.finish(new TransportError('too-large', undefined, status, length));
      return;
    }
    let first: Buffer | undefined;
    let more: Buffer[] | undefined;
    let received = 0;
    res.on('data', (chunk: Buffer) => {
      received += chunk.length;
      p.received = received;
      if (received > maxBytes) p.finish(new TransportError('too-large', undefined, status, received));
      else if (!first) first = chunk;
      else (more ??= [first]).push(chunk);
    });
    res.on('end', () => {
      // Most answers come in one chunk: read it as it is, without a copy.
      const text = more ? Buffer.concat(more).toString('utf8') : first ? first.toString('utf8') : '';
      p.finish(undefined, { status, type, text });
    });
    // A connection closed before the answer's end: Node destroys the answer with ECONNRESET
    // ('aborted'), which is an 'error' here (Node 18 and later).
    res.on('error', () => p.finish(new TransportError('cut-off', undefined, status, received)));
  });
  // Node verifies the certificate right after the 'secure' event and drops the socket (and
  // the certificate with it) when it fails: a listener ahead of that check keeps what the
  // user needs to know (until when it was valid, for which names). Only on a new socket: a
  // reused one finished its handshake long ago.
  if (t.secure) {
    req.on('socket', (socket) => {
      if (!req.reusedSocket) (socket as TLSSocket).prependOnceListener('secure', () => p.handshake(peerOf(socket as TLSSocket)));
    });
  }
  req.end(data);
  return req;
}
