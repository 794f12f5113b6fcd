/**
 * A recorded session served as a device (see record.ts): each request gets the next recorded
 * answer for its method and path, after the time the device took; once those run out, the
 * last one again. A request the recording never saw gets a 404 saying so.
 */
import http from 'http';
import type { AddressInfo, Socket } from 'net';
import { envelope } from './errors';
import { Exchange, Recording, RECORD_LIMITS } from './record';

/** Checks a parsed file is a recording; a message naming the place when not. */
export function checkRecording(value: unknown, where: string): Recording {
  const r = value as Recording;
  if (!r || typeof r !== 'object' || r.format !== 'modular-device-recording')
    throw new Error(`${where}: not a recording of modular-device-sim record (no "format": "modular-device-recording")`);
  if (r.version !== 1) throw new Error(`${where}: recording version ${JSON.stringify(r.version)}, this simulator reads version 1`);
  if (!Array.isArray(r.exchanges)) throw new Error(`${where}: "exchanges" must be a list`);
  if (r.exchanges.length > RECORD_LIMITS.exchanges) throw new Error(`${where}: ${r.exchanges.length} exchanges, at most ${RECORD_LIMITS.exchanges}`);
  r.exchanges.forEach((e: Exchange, i: number) => {
    if (
      !e ||
      typeof e.method !== 'string' ||
      typeof e.path !== 'string' ||
      typeof e.response !== 'string' ||
      !Number.isInteger(e.status) ||
      e.status < 100 ||
      e.status > 599
    ) {
      throw new Error(`${where}: exchanges[${i}]: needs method, path, status (100..599) and response`);
    }
  });
  return r;
}

export interface Replay {
  readonly url: string;
  readonly api: string | null;
  /** Requests answered from the recording, and those it had no answer for. */
  readonly served: number;
  readonly unknown: string[];
  close(): Promise<void>;
}

export async function startReplay(recording: Recording, options: { port?: number; host?: string } = {}): Promise<Replay> {
  const queues = new Map<string, Exchange[]>();
  for (const e of recording.exchanges) {
    const key = `${e.method} ${e.path}`;
    if (!queues.has(key)) queues.set(key, []);
    queues.get(key)!.push(e);
  }
  const used = new Map<string, number>();
  const unknown: string[] = [];
  let served = 0;
  const timers = new Set<NodeJS.Timeout>();
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const key = `${req.method} ${req.url}`;
      const queue = queues.get(key);
      if (!queue) {
        if (unknown.length < 100) unknown.push(key);
        return void res.writeHead(404, { 'content-type': 'application/json' }).end(envelope(404, `not in the recording: ${key}`));
      }
      const n = used.get(key) ?? 0;
      used.set(key, n + 1);
      const e = queue[Math.min(n, queue.length - 1)];
      served++;
      const timer = setTimeout(
        () => {
          timers.delete(timer);
          res.writeHead(e.status, e.contentType ? { 'content-type': e.contentType } : {}).end(e.response);
        },
        Math.min(Math.max(0, e.ms), RECORD_LIMITS.replayDelayMs),
      );
      timers.add(timer);
    });
  });
  const sockets = new Set<Socket>();
  server.on('connection', (s) => (sockets.add(s), s.on('close', () => sockets.delete(s))));
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(options.port ?? 0, host, () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    api: recording.api,
    get served() {
      return served;
    },
    unknown,
    async close() {
      for (const t of timers) clearTimeout(t);
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
