/**
 * One HTTP exchange over Node's own http/https, with the client's keep-alive agents.
 *
 * The client used axios here first. The benchmark (bench/, README "Performance") showed
 * axios spending 100-150 µs of CPU per request on config merging, interceptor promises
 * and stream wrapping: about 0.35-0.45× the speed of a plain `http.request` loop, below the
 * 0.5× the package must reach. This is the small part of a client a device needs: no
 * redirects, no proxy, the answer always read as text and judged by the caller. Failures
 * carry the error codes DeviceClient maps (ECONNABORTED for the timeout,
 * ERR_BAD_RESPONSE for an answer cut off, socket and TLS codes as Node gives them).
 */
import http from 'http';
import https from 'https';

export interface Answer {
  status: number;
  text: string;
}

export interface Exchange {
  base: URL;
  agent: http.Agent;
  headers: Readonly<Record<string, string>>;
  timeoutMs: number;
  method: string;
  path: string;
  body?: unknown;
}

function failure(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
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
    const finish = (error: unknown, answer?: Answer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) reject(error);
      else resolve(answer!);
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
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => finish(undefined, { status: res.statusCode ?? 0, text }));
        const cutOff = () => finish(failure('answer cut off', 'ERR_BAD_RESPONSE'));
        res.on('error', cutOff);
        res.on('aborted', cutOff);
        res.on('close', () => {
          if (!res.complete) cutOff();
        });
      },
    );
    // One timer for the whole exchange: connect, send, wait and read.
    const timer = setTimeout(() => {
      finish(failure(`timeout of ${x.timeoutMs} ms`, 'ECONNABORTED'));
      req.destroy();
    }, x.timeoutMs);
    req.on('error', (error) => finish(error));
    req.end(data);
  });
}
