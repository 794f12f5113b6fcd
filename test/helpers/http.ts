/**
 * A tiny HTTP client for tests: keep-alive agent, JSON in, `{status, headers, body, text}` out
 * (body = parsed JSON, or the raw text when it is not JSON). Rejects only on network errors.
 */
import http from 'http';
import net from 'net';

export interface HttpResult {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Parsed JSON, or the raw text if the body is not JSON. */
  body: any;
  text: string;
}

export interface RequestOptions {
  /** Sent as is instead of JSON.stringify(body). */
  raw?: string | Buffer;
  headers?: Record<string, string>;
  agent?: http.Agent | false;
  timeoutMs?: number;
}

export const keepAliveAgent = new http.Agent({ keepAlive: true, maxSockets: 16 });

export function request(baseUrl: string, method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<HttpResult> {
  const url = new URL(path, baseUrl);
  const payload = options.raw ?? (body === undefined ? undefined : JSON.stringify(body));
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (payload !== undefined) {
    headers['Content-Type'] ??= 'application/json';
    headers['Content-Length'] = String(Buffer.byteLength(payload));
  }
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent: options.agent ?? keepAliveAgent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          /* not JSON: keep the text */
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed, text });
      });
    });
    req.on('error', reject);
    if (options.timeoutMs) req.setTimeout(options.timeoutMs, () => req.destroy(new Error('timeout')));
    req.end(payload);
  });
}

/** A client bound to one base URL. */
export function httpClient(baseUrl: string) {
  return {
    get: (path: string, options?: RequestOptions) => request(baseUrl, 'GET', path, undefined, options),
    post: (path: string, body?: unknown, options?: RequestOptions) => request(baseUrl, 'POST', path, body, options),
    del: (path: string, options?: RequestOptions) => request(baseUrl, 'DELETE', path, undefined, options),
    request: (method: string, path: string, body?: unknown, options?: RequestOptions) => request(baseUrl, method, path, body, options),
  };
}

export type HttpClient = ReturnType<typeof httpClient>;

/** A free loopback port (listen on 0, read it, close): for a child process that must be told its port. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

/** A GET on a fresh connection (no agent), its body as text: for a server a test is about to stop. */
export function getText(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}
