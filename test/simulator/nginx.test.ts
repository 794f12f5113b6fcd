/**
 * The simulator behaving like the device's nginx (`nginx` option, `--nginx`):
 * idle kept-alive connections closed by the server, the requests-per-connection limit, the
 * `Keep-Alive` announcement only when set, the version root public and Basic auth with
 * nginx's 401 page elsewhere, nginx's 502 page for a service that is down. Connections are
 * raw sockets, so what is proven is what the server does to one connection.
 */
import 'should';
import net from 'net';
import path from 'path';
import { spawn } from 'child_process';
import { startSimulator, Simulator, SimulatorOptions } from '../../simulator';
import { request } from '../helpers/http';
import { sleep } from './setup';

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** One kept-alive connection, requests sent one at a time, answers read by Content-Length. */
class Connection {
  private readonly socket: net.Socket;
  private buffer = '';
  private waiting?: () => void;
  readonly closed: Promise<number>;

  constructor(port: number) {
    this.socket = net.connect(port, '127.0.0.1');
    this.socket.setEncoding('latin1');
    this.socket.on('data', (text: string) => {
      this.buffer += text;
      this.waiting?.();
    });
    this.closed = new Promise((resolve) =>
      this.socket.on('close', () => {
        this.waiting?.();
        resolve(Date.now());
      }),
    );
    this.socket.on('error', () => undefined); // a reset shows as 'close'
  }

  async get(pathname: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
    const lines = [`GET ${pathname} HTTP/1.1`, 'Host: device', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
    this.socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    for (;;) {
      const answer = this.take();
      if (answer) return answer;
      if (this.socket.destroyed) throw new Error(`connection closed before an answer to ${pathname}`);
      await new Promise<void>((resolve) => (this.waiting = resolve));
    }
  }

  private take(): RawAnswer | undefined {
    const end = this.buffer.indexOf('\r\n\r\n');
    if (end < 0) return undefined;
    const [statusLine, ...fields] = this.buffer.slice(0, end).split('\r\n');
    const headers: Record<string, string> = {};
    for (const field of fields) headers[field.slice(0, field.indexOf(':')).toLowerCase()] = field.slice(field.indexOf(':') + 1).trim();
    const length = Number(headers['content-length'] ?? 0);
    if (this.buffer.length < end + 4 + length) return undefined;
    const body = this.buffer.slice(end + 4, end + 4 + length);
    this.buffer = this.buffer.slice(end + 4 + length);
    return { status: Number(statusLine.split(' ')[1]), headers, body };
  }

  destroy(): void {
    this.socket.destroy();
  }
}

const ROOT = '/api/io/1.0';
const VALUES = '/api/io/1.0/2/input/values';
const BASIC = (user: string, password: string) => ({ Authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });
const PAGE_401 =
  '<html>\r\n<head><title>401 Authorization Required</title></head>\r\n<body>\r\n<center><h1>401 Authorization Required</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';
const PAGE_502 =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

describe('simulator behind nginx', function () {
  const sims: Simulator[] = [];
  const connections: Connection[] = [];
  const start = async (options: SimulatorOptions): Promise<Simulator> => {
    const sim = await startSimulator({ api: '1.0', ...options });
    sims.push(sim);
    return sim;
  };
  const connect = (sim: Simulator): Connection => {
    const connection = new Connection(sim.port);
    connections.push(connection);
    return connection;
  };
  afterEach(async function () {
    for (const c of connections.splice(0)) c.destroy();
    for (const sim of sims.splice(0)) await sim.close();
  });

  describe('keep-alive', function () {
    it('closes a kept-alive connection after the idle timeout, announcing nothing by default', async function () {
      const sim = await start({ nginx: { keepAliveTimeoutMs: 1000 } });
      const connection = connect(sim);
      const answer = await connection.get(ROOT);
      const answered = Date.now();
      answer.status.should.equal(200);
      answer.headers.connection.should.equal('keep-alive');
      answer.headers.should.not.have.property('keep-alive');
      // The server closes it without any request from us; never before the timeout.
      ((await connection.closed) - answered).should.be.aboveOrEqual(950);
    });

    it('a held answer is not idleness: the idle timer runs from the answer', async function () {
      const sim = await start({ nginx: { keepAliveTimeoutMs: 300 } });
      (await request(sim.url, 'POST', '/sim/faults', { path: 'input/values', answer_delay_ms: 1000, count: 1 }, { agent: false })).status.should.equal(200);
      const connection = connect(sim);
      (await connection.get(VALUES)).status.should.equal(200);
      const answered = Date.now();
      ((await connection.closed) - answered).should.be.aboveOrEqual(250);
    });

    it('answers the Nth request of a connection with Connection: close and closes it', async function () {
      const sim = await start({ nginx: { keepAliveRequests: 3 } });
      const connection = connect(sim);
      const answers = [await connection.get(ROOT), await connection.get(VALUES), await connection.get(ROOT)];
      answers.map((a) => a.status).should.eql([200, 200, 200]);
      answers.map((a) => a.headers.connection).should.eql(['keep-alive', 'keep-alive', 'close']);
      await connection.closed;
      // Each connection counts its own: a new one starts again at 1.
      (await connect(sim).get(ROOT)).headers.connection.should.equal('keep-alive');
    });

    it('announces Keep-Alive: timeout=N only when set; nginx defaults are 75 s and 1000 requests', async function () {
      const announced = await start({ nginx: { keepAliveTimeoutMs: 1000, keepAliveHeaderS: 1 } });
      (await connect(announced).get(ROOT)).headers['keep-alive'].should.equal('timeout=1');
      const defaults = await start({ nginx: true });
      const connection = connect(defaults);
      for (let i = 1; i < 1000; i++) (await connection.get(ROOT)).headers.connection.should.equal('keep-alive');
      (await connection.get(ROOT)).headers.connection.should.equal('close', 'the 1000th answer');
      await connection.closed;
    });

    it('keepAliveTimeoutMs 0 turns keep-alive off; a client asking to close is closed', async function () {
      const off = await start({ nginx: { keepAliveTimeoutMs: 0 } });
      const connection = connect(off);
      (await connection.get(ROOT)).headers.connection.should.equal('close');
      await connection.closed;
      const sim = await start({ nginx: true });
      const closing = connect(sim);
      (await closing.get(ROOT, { Connection: 'close' })).headers.connection.should.equal('close');
      await closing.closed;
    });

    it('without the nginx mode nothing changes: Node announces its own 5 s', async function () {
      const sim = await start({});
      (await connect(sim).get(ROOT)).headers['keep-alive'].should.equal('timeout=5');
    });

    it('refuses settings out of range', async function () {
      await startSimulator({ nginx: { keepAliveRequests: 0 } }).should.be.rejectedWith('nginx keepAliveRequests must be an integer from 1 to 1000000, got 0');
      await startSimulator({ nginx: { keepAliveTimeoutMs: 1.5 } }).should.be.rejectedWith(/keepAliveTimeoutMs must be an integer/);
      await startSimulator({ nginx: { keepAliveHeaderS: -1 } }).should.be.rejectedWith(/keepAliveHeaderS must be an integer from 0 to 3600/);
    });
  });

  describe('auth and pages', function () {
    it("the version root is public; elsewhere no or wrong credentials get nginx's 401 page", async function () {
      const sim = await start({ nginx: true, auth: { username: 'operator', password: 'secret' } });
      const connection = connect(sim);
      for (const root of [ROOT, `${ROOT}/`, '/api/bmc/1.0', '/api/POWER/01.0']) (await connection.get(root)).status.should.not.equal(401, root);
      (await connection.get(ROOT)).status.should.equal(200);
      for (const headers of [{}, BASIC('operator', 'wrong'), BASIC('someone', 'secret'), { Authorization: 'Bearer secret' }]) {
        for (const pathname of [VALUES, '/api/io/1.0/2/descriptor', '/api/io/1.0/2', '/api/io/1.0.0', '/']) {
          const answer = await connection.get(pathname, headers);
          answer.status.should.equal(401, `${pathname} ${JSON.stringify(headers)}`);
          answer.headers['content-type'].should.equal('text/html');
          answer.headers['www-authenticate'].should.equal('Basic realm="modular-device"');
          answer.body.should.equal(PAGE_401);
        }
      }
      (await connection.get(VALUES, BASIC('operator', 'secret'))).status.should.equal(200);
      (await connection.get('/sim/state')).status.should.equal(200, 'the control API is no part of the device');
    });

    it("a service that is down: nginx's 502 page, after the credentials check", async function () {
      const sim = await start({ nginx: true, auth: { username: 'operator', password: 'secret' } });
      (await request(sim.url, 'POST', '/sim/services/io/down', undefined, { agent: false })).status.should.equal(200);
      const connection = connect(sim);
      const down = await connection.get(VALUES, BASIC('operator', 'secret'));
      down.status.should.equal(502);
      down.headers['content-type'].should.equal('text/html');
      down.body.should.equal(PAGE_502);
      (await connection.get(ROOT)).body.should.equal(PAGE_502);
      (await connection.get(VALUES)).status.should.equal(401);
      (await connection.get('/api/bmc/1.0/0/descriptor', BASIC('operator', 'secret'))).status.should.equal(200);
    });
  });

  it('CLI: --keepalive-requests and --keepalive-header imply --nginx', async function () {
    const cli = path.join(__dirname, '..', '..', 'simulator', 'cli.js');
    const child = spawn(process.execPath, [cli, '--port', '0', '--api', '1.0', '--keepalive-requests', '2', '--keepalive-header', '7']);
    let out = '';
    child.stdout.on('data', (c) => (out += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      while (!/slot 3/.test(out) && child.exitCode === null) await sleep(50);
      out.should.match(/behind nginx/);
      const port = Number(/listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1]);
      const connection = connect({ port } as Simulator);
      const first = await connection.get(ROOT);
      first.headers.should.have.properties({ connection: 'keep-alive', 'keep-alive': 'timeout=7' });
      (await connection.get(ROOT)).headers.connection.should.equal('close');
    } finally {
      child.kill('SIGTERM');
    }
    (await exited)!.should.equal(0);
  });
});
