/**
 * The transport's one retry (nodes/lib/device/transport.ts), against raw TCP servers on loopback
 * that play the device's nginx at the moment it closes an idle kept-alive connection.
 *
 * A request that meets a reset on a reused socket before any byte of the answer is sent
 * once more on a new connection, and the device acts on it once. A reset on a new socket,
 * or after the answer began, is a failure: the device may have acted on it, so nothing is
 * sent twice.
 */
import http from 'http';
import net from 'net';
import should from 'should';
import { exchange } from '../../nodes/lib/device/transport';
import { targetOf } from '../../nodes/lib/device/channel';
import { TransportError } from '../../nodes/lib/device/transport-error';

interface Peer {
  url: URL;
  /** Connections accepted. */
  connections: number;
  /** Requests answered (acted on), by path. */
  served: string[];
  close(): Promise<void>;
}

type Behaviour = (socket: net.Socket, request: { path: string; index: number; onSocket: number }) => 'answer' | 'reset' | 'half';

const OK_BODY = '{"status":"success"}';

/** A keep-alive HTTP/1.1 peer that decides per request to answer, reset, or reset after the status line. */
function startPeer(behave: Behaviour): Promise<Peer> {
  const sockets = new Set<net.Socket>();
  const peer = { connections: 0, served: [] as string[] } as Peer;
  let index = 0;
  const server = net.createServer((socket) => {
    peer.connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let onSocket = 0;
    let buffered = '';
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      let end: number;
      while ((end = buffered.indexOf('\r\n\r\n')) >= 0) {
        const head = buffered.slice(0, end);
        buffered = buffered.slice(end + 4);
        const path = head.split(' ')[1];
        const what = behave(socket, { path, index: index++, onSocket: onSocket++ });
        if (what === 'reset') {
          socket.resetAndDestroy();
          return;
        }
        if (what === 'half') {
          socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"sta');
          setImmediate(() => socket.resetAndDestroy());
          return;
        }
        peer.served.push(path);
        socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${OK_BODY.length}\r\nConnection: keep-alive\r\n\r\n${OK_BODY}`);
      }
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      peer.url = new URL(`http://127.0.0.1:${(server.address() as net.AddressInfo).port}`);
      peer.close = () =>
        new Promise((done) => {
          for (const s of sockets) s.destroy();
          server.close(() => done());
        });
      resolve(peer);
    });
  });
}

describe('transport: a stale kept-alive socket', function () {
  let agent: http.Agent;
  let peer: Peer | undefined;
  beforeEach(() => {
    agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  });
  afterEach(async () => {
    agent.destroy();
    await peer?.close();
    peer = undefined;
  });
  const send = (path: string) =>
    exchange({ target: targetOf(peer!.url, agent), headers: {}, maxBytes: 4096 }, { method: 'POST', path, body: { state: 'high' } }, 2000);

  it('closed by the device just as a request goes out: sent again on a new connection, acted on once', async () => {
    // The second request is the first one on a reused socket: the peer drops it unread.
    peer = await startPeer((_s, r) => (r.onSocket === 1 ? 'reset' : 'answer'));
    (await send('/one')).status.should.equal(200);
    const answer = await send('/two');
    answer.status.should.equal(200);
    answer.text.should.equal(OK_BODY);
    peer.served.should.deepEqual(['/one', '/two']);
    peer.connections.should.equal(2);
  });

  it('retries once only: a new connection that fails too is the failure', async () => {
    // Reused socket dropped, and the fresh connection reset as well.
    peer = await startPeer((_s, r) => (r.index === 0 ? 'answer' : 'reset'));
    await send('/one');
    const error = await send('/two').then(
      () => undefined,
      (e: unknown) => e,
    );
    should(error).be.instanceOf(TransportError);
    (error as TransportError).failure.should.equal('network');
    peer.connections.should.equal(2);
    peer.served.should.deepEqual(['/one']);
  });

  it('a reset on a new connection is not retried (the device may have read it)', async () => {
    peer = await startPeer(() => 'reset');
    const error = await send('/only').then(
      () => undefined,
      (e: unknown) => e,
    );
    should(error).be.instanceOf(TransportError);
    peer.connections.should.equal(1);
  });

  it('a reset after the answer began is not retried (the device acted on it)', async () => {
    peer = await startPeer((_s, r) => (r.onSocket === 1 ? 'half' : 'answer'));
    await send('/one');
    const error = await send('/two').then(
      () => undefined,
      (e: unknown) => e,
    );
    should(error).be.instanceOf(TransportError);
    (error as TransportError).failure.should.equal('cut-off');
    peer.connections.should.equal(1);
  });
});
