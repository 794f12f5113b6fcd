/**
 * A hostile device on loopback: a raw TCP server (so it can also break HTTP itself) that
 * answers the version root of every service as a healthy device would, unless told to
 * attack there too, and answers every other request with the chosen attack. Every attack
 * is bounded in bytes and time, so a client that never stops reading still ends.
 */
import net from 'net';

/** How an attack answers. */
export interface Attack {
  /** What it stands for, for the test's name. */
  name: string;
  /** Writes the answer on the socket; `stopped()` turns true once the client went away. */
  answer(socket: net.Socket, stopped: () => boolean): void;
}

/** At most this many bytes go out for one streamed attack, whatever the client does. */
const STREAM_MAX_BYTES = 8 * 1024 * 1024;

function head(status: string, headers: Record<string, string | number>): string {
  return `HTTP/1.1 ${status}\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}Connection: close\r\n\r\n`;
}

function whole(status: string, type: string, body: string | Buffer, extra: Record<string, string> = {}): Attack['answer'] {
  // Encoded once: the server shares the test's event loop, whose delay the test measures.
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  return (socket) => {
    socket.write(head(status, { 'Content-Type': type, 'Content-Length': bytes.length, ...extra }));
    socket.end(bytes);
  };
}

/** Writes `chunk` as fast as the socket drains, until the client goes or the byte bound is reached. */
function stream(socket: net.Socket, stopped: () => boolean, chunk: Buffer, chunked: boolean): void {
  let sent = 0;
  const pump = () => {
    while (!stopped() && sent < STREAM_MAX_BYTES) {
      sent += chunk.length;
      const piece = chunked ? Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]) : chunk;
      if (!socket.write(piece)) {
        socket.once('drain', pump);
        return;
      }
    }
    socket.end();
  };
  pump();
}

/** One byte every `everyMs`, at most `count` bytes. */
function trickle(socket: net.Socket, stopped: () => boolean, everyMs: number, count: number): void {
  let sent = 0;
  const timer = setInterval(() => {
    if (stopped() || sent >= count) {
      clearInterval(timer);
      socket.end();
      return;
    }
    socket.write(sent === 0 ? '{' : ' ');
    sent++;
  }, everyMs);
}

const KIB = 1024;

/** Every attack the suite drives each node kind, the health check and the admin routes against. */
export const ATTACKS: Attack[] = [
  {
    name: 'a 2 GB Content-Length, the body sent as fast as the socket takes it',
    answer: (socket, stopped) => {
      socket.write(head('200 OK', { 'Content-Type': 'application/json', 'Content-Length': 2 ** 31 }));
      stream(socket, stopped, Buffer.alloc(64 * KIB, '0'), false);
    },
  },
  {
    name: 'an endless chunked body without Content-Length',
    answer: (socket, stopped) => {
      socket.write(head('200 OK', { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' }));
      socket.write('5\r\n[0,0,\r\n');
      stream(socket, stopped, Buffer.from('0,'.repeat(32 * KIB)), true);
    },
  },
  {
    name: 'a body that trickles one byte every 50 ms',
    answer: (socket, stopped) => {
      socket.write(head('200 OK', { 'Content-Type': 'application/json', 'Content-Length': 1000 }));
      trickle(socket, stopped, 50, 200);
    },
  },
  {
    name: 'a 30 KB error body crafted for a backtracking envelope pattern',
    answer: whole('500 Internal Server Error', 'application/json', `{"status":"error"${'"message":"'.repeat(2700)}`),
  },
  {
    name: 'a 100 KB error page of "<"',
    answer: whole('502 Bad Gateway', 'text/html', '<'.repeat(100 * KIB)),
  },
  {
    name: '3 MB of markup in a 502 page',
    answer: whole('502 Bad Gateway', 'text/html', `<html><title>${'<b>x</b>'.repeat(400 * KIB)}</title></html>`),
  },
  {
    name: 'JSON nested 2,000 levels deep (4 KB)',
    answer: whole('200 OK', 'application/json', `${'['.repeat(2000)}${']'.repeat(2000)}`),
  },
  {
    name: 'a 200 KB string',
    answer: whole('200 OK', 'application/json', JSON.stringify({ status: 'success', text: 'x'.repeat(200 * KIB) })),
  },
  {
    name: 'an array of 30,000 numbers (within the byte limit)',
    answer: whole('200 OK', 'application/json', JSON.stringify(new Array(30000).fill(0))),
  },
  {
    name: 'a success record served as text/html',
    answer: whole('200 OK', 'text/html', '{"status": "success"}'),
  },
  {
    name: 'binary bytes served as image/png',
    answer: whole('200 OK', 'image/png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0xff, 0xfe])),
  },
  {
    name: 'a redirect to another host',
    answer: whole('302 Found', 'text/html', '<a href="http://127.0.0.1:1/steal">moved</a>', { Location: 'http://127.0.0.1:1/steal' }),
  },
  {
    name: 'a broken status line',
    answer: (socket) => socket.end('HTTP/1.1 2OO OK\r\nContent-Length: 2\r\n\r\n{}'),
  },
  {
    name: 'not HTTP at all',
    answer: (socket) => socket.end('SSH-2.0-OpenSSH_9.2\r\n\r\n'),
  },
  {
    name: '40 KB of headers',
    answer: (socket) =>
      socket.end(
        `HTTP/1.1 200 OK\r\n${'X-Pad: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n'.repeat(480)}Content-Length: 2\r\n\r\n{}`,
      ),
  },
];

/** A healthy version record for a version root `/api/<service>/<major>.<minor>`. */
function versionRecord(path: string): string | undefined {
  const match = /^\/api\/(io|bmc|power)\/(\d+)\.(\d+)$/.exec(path);
  if (!match) return undefined;
  const slots = { io: [2, 3], bmc: [0], power: [1] }[match[1] as 'io' | 'bmc' | 'power'];
  const api = { major: Number(match[2]), minor: Number(match[3]), patch: 0 };
  return JSON.stringify({ version: { api }, devices: slots.map((slot_number) => ({ slot_number })), driver_session: 'hostile-1' });
}

export interface HostileDevice {
  url: string;
  /** The attack every non-root request gets (undefined: 200 `{"status": "success", "notification": []}`). */
  attack?: Attack;
  /** Also attack at the version roots (the health check, Discover, Test). */
  attackRoot: boolean;
  /** Requests seen: method and path. */
  requests: string[];
  close(): Promise<void>;
}

export function startHostileDevice(): Promise<HostileDevice> {
  const sockets = new Set<net.Socket>();
  const device: HostileDevice = { url: '', attackRoot: false, requests: [], close: async () => undefined };
  const server = net.createServer((socket) => {
    sockets.add(socket);
    let gone = false;
    socket.on('close', () => {
      gone = true;
      sockets.delete(socket);
    });
    socket.on('error', () => undefined);
    let buffered = '';
    const onData = (data: Buffer) => {
      buffered += data.toString('latin1');
      const end = buffered.indexOf('\r\n\r\n');
      if (end < 0) {
        if (buffered.length > 64 * KIB) socket.destroy();
        return;
      }
      socket.off('data', onData);
      const [method, path] = buffered.slice(0, buffered.indexOf('\r\n')).split(' ');
      device.requests.push(`${method} ${path}`);
      const root = versionRecord(path);
      if (root !== undefined && !device.attackRoot) whole('200 OK', 'application/json', root)(socket, () => gone);
      else if (device.attack) device.attack.answer(socket, () => gone);
      else whole('200 OK', 'application/json', '{"status": "success", "notification": []}')(socket, () => gone);
    };
    socket.on('data', onData);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      device.url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
      device.close = () =>
        new Promise<void>((done) => {
          server.close(() => done());
          for (const s of sockets) s.destroy();
        });
      resolve(device);
    });
  });
}
