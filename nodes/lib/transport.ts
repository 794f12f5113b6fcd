/**
 * One HTTP exchange over Node's own http/https, with the client's keep-alive agents.
 *
 * The client used axios here first. The benchmark (bench/, README "Performance") showed
 * axios spending 100-150 µs of CPU per request on config merging, interceptor promises
 * and stream wrapping: about 0.35-0.45× the speed of a plain `http.request` loop, below the
 * 0.5× the package must reach. This is the small part of a client a device needs: no
 * redirects, no proxy, the answer read as bytes up to a cap and judged by the caller.
 *
 * The answer is untrusted: a Content-Length over the cap is refused before a byte of the
 * body is read, a body that grows past it is cut at once, and one timer covers the whole
 * exchange (connect, send, headers, body), so a body that trickles ends too. Every failure
 * is a TransportError saying which of these happened.
 */
import http from 'http';
import https from 'https';

export interface Answer {
  status: number;
  /** The Content-Type header, lower case ('' when absent). */
  type: string;
  text: string;
}

export interface Exchange {
  base: URL;
  agent: http.Agent;
  headers: Readonly<Record<string, string>>;
  timeoutMs: number;
  /** The most bytes the answer's body may have. */
  maxBytes: number;
  method: string;
  path: string;
  body?: unknown;
}

export type TransportFailure =
  /** Nothing came back within the time (not even the status line). */
  | 'timeout'
  /** The status line came, the rest of the answer not within the time. */
  | 'incomplete'
  /** The body is larger than the cap. */
  | 'too-large'
  /** The connection closed in the middle of the answer. */
  | 'cut-off'
  /** What came back is not HTTP (a broken status line or headers). */
  | 'malformed'
  /** Connecting or sending failed: refused, reset, host not found, TLS; `code` is Node's. */
  | 'network';

export class TransportError extends Error {
  constructor(
    readonly failure: TransportFailure,
    /** Node's error code for 'network' (ECONNREFUSED, ...). */
    readonly code?: string,
    /** The HTTP status when the status line had arrived. */
    readonly status?: number,
    /** Body bytes received (or announced by Content-Length, for 'too-large'). */
    readonly bytes = 0,
  ) {
    super(failure);
    this.name = 'TransportError';
  }
}

/** Node's HTTP parser errors (HPE_*) mean the peer does not speak HTTP properly. */
function fromNode(error: unknown): TransportError {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && code.startsWith('HPE_')) return new TransportError('malformed', code);
  return new TransportError('network', typeof code === 'string' ? code : undefined);
}

export function exchange(x: Exchange): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const data = x.body === undefined ? undefined : JSON.stringify(x.body);
    const headers: Record<string, string | number> = { ...x.headers };
    if (data !== undefined) {
      headers['Content-Type'] = 'application/json';
      headers['Content-Length'] = Buffer.byteLength(data);
    }
    let settled = false;
    let status: number | undefined;
    let received = 0;
    const finish = (error: TransportError | undefined, answer?: Answer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) {
        // A refused or unfinished answer leaves the socket in an unknown state: never reuse it.
        req.destroy();
        reject(error);
      } else resolve(answer!);
    };
    const secure = x.base.protocol === 'https:';
    const req = (secure ? https : http).request(
      {
        // URL keeps IPv6 hosts in brackets; http.request wants them bare.
        hostname: x.base.hostname.replace(/^\[|\]$/g, ''),
        port: x.base.port || undefined,
        method: x.method,
        path: x.path,
        headers,
        agent: x.agent,
      },
      (res) => {
        status = res.statusCode ?? 0;
        const announced = Number(res.headers['content-length']);
        if (announced > x.maxBytes) {
          finish(new TransportError('too-large', undefined, status, announced));
          return;
        }
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > x.maxBytes) finish(new TransportError('too-large', undefined, status, received));
          else chunks.push(chunk);
        });
        res.on('end', () => {
          const type = String(res.headers['content-type'] ?? '').toLowerCase();
          finish(undefined, { status: status!, type, text: Buffer.concat(chunks).toString('utf8') });
        });
        const cutOff = () => finish(new TransportError('cut-off', undefined, status, received));
        res.on('error', cutOff);
        res.on('aborted', cutOff);
        res.on('close', () => {
          if (!res.complete) cutOff();
        });
      },
    );
    // One timer for the whole exchange: connect, send, wait and read. Timers run before the
    // poll phase: when the loop was busy past the deadline, an answer may be waiting in the
    // socket already, so let one poll phase read it before calling it a timeout (a burst of
    // 100,000 msgs once counted 2 answered requests as TIMEOUT).
    const timer = setTimeout(() => {
      setImmediate(() => finish(new TransportError(status === undefined ? 'timeout' : 'incomplete', undefined, status, received)));
    }, x.timeoutMs);
    req.on('error', (error) => finish(fromNode(error)));
    req.end(data);
  });
}
