/**
 * What nginx in front of the released services adds (real §1): its own HTML
 * pages (401, 502), the public version root, and its keep-alive handling of client
 * connections (keepalive_timeout, keepalive_requests), so clients meet on the simulator
 * the idle closes and connection limits they meet on a device.
 */
import type { IncomingMessage, Server, ServerResponse } from 'http';
import type { Socket } from 'net';

/** nginx's page for a status, as ngx_http_special_response.c writes it. */
function page(title: string): string {
  return `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
}

/** What nginx answers when the upstream service is down. */
export const BAD_GATEWAY_HTML = page('502 Bad Gateway');
/** What nginx's auth_basic answers without credentials or with wrong ones. */
export const UNAUTHORIZED_HTML = page('401 Authorization Required');

/** The location the services' nginx snippets make public (auth_basic off), case-insensitive as there. */
const PUBLIC_ROOT = /^\/api\/(io|bmc|power)\/[0-9]{1,3}\.[0-9]{1,3}\/?$/i;

export function isPublicRoot(pathname: string): boolean {
  return PUBLIC_ROOT.test(pathname);
}

export interface NginxOptions {
  /**
   * keepalive_timeout, ms: an idle kept-alive connection is closed by the server after this
   * long. Default 75000 (nginx's); 0 turns keep-alive off (every answer `Connection: close`).
   */
  keepAliveTimeoutMs?: number;
  /** keepalive_requests: the Nth answer on a connection says `Connection: close` and the server closes it. Default 1000 (nginx's). */
  keepAliveRequests?: number;
  /**
   * keepalive_timeout's second parameter, s: announce `Keep-Alive: timeout=<s>` on kept-alive
   * answers. Default: no header, as nginx sends none unless it is set.
   */
  keepAliveHeaderS?: number;
}

export type NginxSettings = Required<Omit<NginxOptions, 'keepAliveHeaderS'>> & Pick<NginxOptions, 'keepAliveHeaderS'>;

/** nginx's own defaults (ngx_http_core_module). */
export const NGINX_DEFAULTS = { keepAliveTimeoutMs: 75_000, keepAliveRequests: 1000 } as const;

/** Sim-only bounds: an hour of idle time and a million requests cover any device setting; beyond is a typo. */
const MAX_TIMEOUT_MS = 3_600_000;
const MAX_REQUESTS = 1_000_000;
const MAX_HEADER_S = 3600;

function checkInteger(name: string, value: number | undefined, min: number, max: number): void {
  if (value !== undefined && !(Number.isInteger(value) && value >= min && value <= max)) {
    throw new Error(`${name} must be an integer from ${min} to ${max}, got ${value}`);
  }
}

/** The options with nginx's defaults filled in; throws on a value out of range. */
export function nginxSettings(options: NginxOptions | true): NginxSettings {
  const o = options === true ? {} : options;
  checkInteger('nginx keepAliveTimeoutMs', o.keepAliveTimeoutMs, 0, MAX_TIMEOUT_MS);
  checkInteger('nginx keepAliveRequests', o.keepAliveRequests, 1, MAX_REQUESTS);
  checkInteger('nginx keepAliveHeaderS', o.keepAliveHeaderS, 0, MAX_HEADER_S);
  return {
    keepAliveTimeoutMs: o.keepAliveTimeoutMs ?? NGINX_DEFAULTS.keepAliveTimeoutMs,
    keepAliveRequests: o.keepAliveRequests ?? NGINX_DEFAULTS.keepAliveRequests,
    keepAliveHeaderS: o.keepAliveHeaderS,
  };
}

/** Answers on each connection so far; a WeakMap so a closed socket takes its count with it. */
const answered = new WeakMap<Socket, number>();

/**
 * nginx's keep-alive on Node's server. Node's own keepAliveTimeout is switched off: since
 * Node 20.20 it closes a fixed second late, so a "1 s" device would look like a 2 s one and
 * hide the race of an idle kept-alive connection closed just as a request reuses it. The idle timer is armed here instead, when an answer has
 * been written, and disarmed when the next request arrives (a held answer is not idleness);
 * when it fires Node destroys the socket (no 'timeout' listener anywhere). The Connection
 * header is always set here: that keeps Node from announcing its own `Keep-Alive: timeout=`
 * (nginx sends none by default), and `Connection: close` makes Node close after the answer.
 */
export class KeepAlive {
  constructor(private readonly settings: NginxSettings) {}

  install(server: Server): void {
    server.keepAliveTimeout = 0;
  }

  /** Call before anything is written for this request. */
  onRequest(req: IncomingMessage, res: ServerResponse): void {
    const socket = req.socket;
    socket.setTimeout(0);
    const count = (answered.get(socket) ?? 0) + 1;
    answered.set(socket, count);
    // A client that asked to close (or HTTP/1.0 without keep-alive) gets Node's own handling.
    if (!res.shouldKeepAlive) return;
    if (this.settings.keepAliveTimeoutMs === 0 || count >= this.settings.keepAliveRequests) {
      res.setHeader('Connection', 'close');
      return;
    }
    res.setHeader('Connection', 'keep-alive');
    if (this.settings.keepAliveHeaderS !== undefined) res.setHeader('Keep-Alive', `timeout=${this.settings.keepAliveHeaderS}`);
    res.once('finish', () => {
      if (!socket.destroyed) socket.setTimeout(this.settings.keepAliveTimeoutMs);
    });
  }
}
