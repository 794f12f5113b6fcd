/**
 * Recording and replaying a device session.
 *
 * startRecorder: a proxy between Node-RED and a device that keeps every exchange with its
 * timing (ms since the start, how long the device took). Bounded: bodies cut at
 * RECORD_LIMITS.bodyChars, at most RECORD_LIMITS.exchanges exchanges, then `truncated`.
 * Credentials never reach the file: no request header is kept (Authorization, cookies),
 * the target's user:password is dropped, query values of credential-like names are masked.
 *
 * startReplay: a device that answers each request with the next recorded answer for its
 * method and path, as late as the device was, so the flow under test sees the same
 * sequence: a recording is a reproducer anyone can run.
 */
import http, { IncomingMessage, ServerResponse } from 'http';
import https from 'https';
import { envelope } from './errors';

export interface Exchange {
  /** ms since the recording started */
  t: number;
  method: string;
  path: string;
  request?: string;
  status: number;
  contentType?: string;
  response: string;
  /** how long the device took, ms */
  ms: number;
  /** a body was longer than RECORD_LIMITS.bodyChars and is cut */
  cut?: true;
}

export interface Recording {
  format: 'modular-device-recording';
  version: 1;
  /** the device API the session spoke, from its paths; null when it made no API request */
  api: string | null;
  target: string;
  started: string;
  /** more exchanges happened than the recording keeps */
  truncated: boolean;
  exchanges: Exchange[];
}

export const RECORD_LIMITS = { exchanges: 20_000, bodyChars: 64 * 1024, requestBytes: 1024 * 1024, replayDelayMs: 30_000 };
const SECRET_QUERY = /token|pass|secret|key|auth|session/i;
const API_PATH = /^\/api\/(?:io|bmc|power)\/(\d+\.\d+)(?:\/|$)/;

/** Path and query as recorded: credential-like query values masked. */
export function scrubPath(url: string): string {
  const [path, query] = url.split('?', 2);
  if (query === undefined) return path;
  const params = new URLSearchParams(query);
  for (const key of [...params.keys()]) if (SECRET_QUERY.test(key)) params.set(key, '***');
  return `${path}?${params.toString()}`;
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        resolve(null);
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function cut(text: string, ex: { cut?: true }): string {
  if (text.length <= RECORD_LIMITS.bodyChars) return text;
  ex.cut = true;
  return text.slice(0, RECORD_LIMITS.bodyChars);
}

export interface Recorder {
  readonly url: string;
  /** The recording so far (a copy). */
  recording(): Recording;
  /** Stops listening; resolves with the recording. */
  close(): Promise<Recording>;
}

export async function startRecorder(options: { target: string; port?: number; host?: string; insecure?: boolean }): Promise<Recorder> {
  const target = new URL(options.target);
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new Error(`--target must be an http:// or https:// URL, got ${options.target}`);
  target.username = '';
  target.password = '';
  const client = target.protocol === 'https:' ? https : http;
  const agent = new client.Agent({ keepAlive: true, ...(options.insecure ? { rejectUnauthorized: false } : {}) });
  const started = Date.now();
  const recording: Recording = {
    format: 'modular-device-recording',
    version: 1,
    api: null,
    target: target.origin,
    started: new Date(started).toISOString(),
    truncated: false,
    exchanges: [],
  };

  const server = http.createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readBody(req, RECORD_LIMITS.requestBytes).catch(() => null);
    if (body === null) return void res.writeHead(413, { 'content-type': 'application/json' }).end(envelope(413));
    const t = Date.now() - started;
    // Every header the client sent goes on to the device (auth included), none into the file.
    const headers = { ...req.headers, host: target.host };
    const upstream = client.request(new URL(req.url ?? '/', target), { method: req.method, headers, agent }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => {
        const data = Buffer.concat(chunks);
        const out = { ...answer.headers };
        delete out['transfer-encoding'];
        res.writeHead(answer.statusCode ?? 502, out).end(data);
        const path = scrubPath(req.url ?? '/');
        if (recording.api === null) recording.api = API_PATH.exec(path)?.[1] ?? null;
        if (recording.exchanges.length >= RECORD_LIMITS.exchanges) return void (recording.truncated = true);
        const ex: Exchange = { t, method: req.method ?? 'GET', path, status: answer.statusCode ?? 0, response: '', ms: Date.now() - started - t };
        if (body.length) ex.request = cut(body.toString('utf8'), ex);
        ex.response = cut(data.toString('utf8'), ex);
        if (answer.headers['content-type']) ex.contentType = String(answer.headers['content-type']);
        recording.exchanges.push(ex);
      });
      answer.on('error', () => res.destroy());
    });
    upstream.on('error', () => res.destroy()); // the device dropped it: so does the proxy, as the client would see
    upstream.end(body);
  });
  const sockets = new Set<import('net').Socket>();
  server.on('connection', (s) => (sockets.add(s), s.on('close', () => sockets.delete(s))));
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(options.port ?? 0, host, () => resolve()));
  const port = (server.address() as import('net').AddressInfo).port;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    recording: () => JSON.parse(JSON.stringify(recording)),
    async close() {
      for (const s of sockets) s.destroy();
      agent.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      return recording;
    },
  };
}
