/**
 * The client's keep-alive agent (nodes/lib/device/keep-alive.ts), against Node's own HTTP
 * server on loopback: one connection for a module's requests, an idle one closed by the
 * client before the server's announced keep-alive runs out, none kept when that is too
 * short, and a socket in use never closed by its idle timer.
 */
import http from 'http';
import type { AddressInfo, Socket } from 'net';
import should from 'should';
import { httpAgent, IDLE_MS } from '../../nodes/lib/device/keep-alive';
import { exchange } from '../../nodes/lib/device/transport';
import { targetOf } from '../../nodes/lib/device/channel';

interface Server {
  url: URL;
  /** Connections accepted, and for each whether the client ended it (its FIN came first). */
  connections: Array<{ endedByClient: boolean; closed: Promise<void> }>;
  close(): Promise<void>;
}

/** Answers `{}`, after `delayMs` for a path `/slow`; announces `Keep-Alive: timeout=<keepAliveS>`. */
async function startServer(keepAliveS: number, delayMs = 0): Promise<Server> {
  const sockets = new Set<Socket>();
  const connections: Server['connections'] = [];
  const server = http.createServer((req, res) => {
    const answer = () => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    if (req.url === '/slow') setTimeout(answer, delayMs);
    else answer();
  });
  server.keepAliveTimeout = keepAliveS * 1000;
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    const connection = { endedByClient: false, closed: new Promise<void>((resolve) => socket.on('close', () => resolve())) };
    socket.on('end', () => (connection.endedByClient = true));
    connections.push(connection);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}`),
    connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

describe('keep-alive agent', function () {
  this.timeout(15000);
  let agent: http.Agent;
  let server: Server | undefined;
  beforeEach(() => {
    agent = httpAgent();
  });
  afterEach(async () => {
    agent.destroy();
    await server?.close();
    server = undefined;
  });
  const get = (path = '/') => exchange({ target: targetOf(server!.url, agent), headers: {}, maxBytes: 4096 }, { method: 'GET', path }, 5000);

  it('sends a module’s requests one after another on one connection', async () => {
    server = await startServer(10);
    for (let i = 0; i < 5; i++) (await get()).status.should.equal(200);
    server.connections.should.have.length(1);
  });

  it(`closes an idle connection itself after ${IDLE_MS} ms, before a server that keeps it longer`, async () => {
    server = await startServer(10);
    await get();
    await server.connections[0].closed;
    server.connections[0].endedByClient.should.be.true();
  });

  it('closes it before the server’s announced keep-alive runs out when that is shorter', async () => {
    // timeout=2: the client keeps it 1 s (Node's margin), the server 2 s.
    server = await startServer(2);
    await get();
    await server.connections[0].closed;
    server.connections[0].endedByClient.should.be.true();
  });

  it('keeps no connection when the announced keep-alive leaves no margin', async () => {
    server = await startServer(1);
    await get();
    await get();
    server.connections.should.have.length(2);
  });

  it('never closes a connection in use when its idle time passes', async () => {
    // Idle for 1 s (timeout=2); the second answer takes 1.5 s on the kept connection.
    server = await startServer(2, 1500);
    await get();
    const answer = await get('/slow');
    answer.status.should.equal(200);
    answer.text.should.equal('{}');
    server.connections.should.have.length(1);
    should(server.connections[0].endedByClient).be.false();
  });
});
