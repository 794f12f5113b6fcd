/**
 * The test helper's proxy (test/helpers/proxy.ts) in front of the real simulator: requests
 * counted by path across kept-alive connections and every body framing, latency per
 * direction (only lower bounds are asserted: a busy machine makes things later, never
 * earlier), resets before the device sees a request and after it answered, the device's
 * own connection closes passed on, its bounds, and stop() closing everything.
 */
import 'should';
import http from 'http';
import net from 'net';
import { startSimulator, Simulator } from '../../simulator';
import { Proxy, startProxy } from '../helpers/proxy';
import { request } from '../helpers/http';

const VALUES = '/api/io/0.9/2/input/values';
const MODE = '/api/io/0.9/2/input/mode';

describe('test helper: the loopback proxy', function () {
  let sim: Simulator;
  let proxy: Proxy;
  let agent: http.Agent;
  const direct = (method: string, path: string, body?: unknown) => request(sim.url, method, path, body, { agent: false });
  const via = (method: string, path: string, body?: unknown, raw?: string) => request(proxy.url, method, path, body, { agent, raw });
  const lastLog = async () => (await direct('GET', '/sim/log')).body.entries.at(-1);
  const pinType = async (pin: number) => (await direct('GET', VALUES)).body.pins[pin - 1].pin_type;

  beforeEach(async function () {
    sim = await startSimulator();
    proxy = await startProxy({ target: { port: sim.port } });
    agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  });
  afterEach(async function () {
    agent.destroy();
    await proxy.stop();
    await sim.close();
  });

  it('forwards and counts requests on one kept-alive connection, whatever the body framing', async function () {
    (await via('GET', VALUES)).status.should.equal(200);
    (await via('POST', MODE, { pin: 1, mode: 'digital' })).status.should.equal(200);
    const chunked = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${proxy.url}${MODE}`, { method: 'POST', agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.write('{"pin":2,');
      req.end('"mode":"digital"}');
    });
    chunked.should.equal(200);
    (await via('GET', `${VALUES}?pin=1`)).body.pins[1].pin_type.should.equal('digital_input');
    proxy.count().should.equal(4);
    proxy.count('input/mode').should.equal(2);
    proxy.count(/input\/values$/).should.equal(2);
    proxy.total.should.equal(4);
    proxy.requests.map((r) => r.method).should.eql(['GET', 'POST', 'POST', 'GET']);
    proxy.connections.should.equal(1);
  });

  it('adds latency per direction', async function () {
    proxy.setLatency({ upMs: 300 });
    const sent = Date.now();
    await via('GET', VALUES);
    ((await lastLog()).time - sent).should.be.aboveOrEqual(290, 'client → device');
    proxy.setLatency({ upMs: 0, downMs: 300 });
    await via('GET', VALUES);
    const arrived = Date.now();
    (arrived - (await lastLog()).time).should.be.aboveOrEqual(290, 'device → client');
    (() => proxy.setLatency({ upMs: -1 })).should.throw(/upMs must be an integer/);
  });

  it('resets a chosen request before the device sees it', async function () {
    proxy.fail({ path: 'input/mode', count: 1 });
    await via('POST', MODE, { pin: 3, mode: 'digital' }).should.be.rejected();
    (await pinType(3)).should.equal('voltage_mV');
    (await direct('GET', '/sim/log')).body.total.should.equal(1, 'only our own read of the values');
    (await via('POST', MODE, { pin: 3, mode: 'digital' })).status.should.equal(200, 'count 1: the next one passes');
    proxy.requests.map((r) => r.failed).should.eql(['request', undefined]);
  });

  it('resets a chosen request after the device answered it: processed, answer lost', async function () {
    proxy.fail({ path: /mode$/, method: 'post', when: 'answer' });
    await via('GET', VALUES);
    await via('POST', MODE, { pin: 4, mode: 'digital' }).should.be.rejected();
    (await pinType(4)).should.equal('digital_input');
    (await lastLog()).should.have.properties({ path: VALUES });
    (await direct('GET', '/sim/log')).body.entries.map((e: { status: number }) => e.status).should.eql([200, 200, 200]);
    await via('POST', MODE, { pin: 5, mode: 'digital' }).should.be.rejected(); // no count: every one
    proxy.clearFailures();
    (await via('GET', VALUES)).status.should.equal(200);
    proxy.count('input/mode').should.equal(2);
  });

  it('passes the device closing a connection on to the client (one upstream per client connection)', async function () {
    const nginx = await startSimulator({ nginx: { keepAliveTimeoutMs: 300 } });
    const front = await startProxy({ target: { port: nginx.port } });
    try {
      const socket = net.connect(front.port, '127.0.0.1');
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      socket.on('error', () => undefined);
      socket.resume(); // read the answer: the close comes after it
      socket.write('GET /api/io/0.9 HTTP/1.1\r\nHost: device\r\n\r\n');
      await closed; // the device's idle close, through the proxy
      front.count().should.equal(1);
    } finally {
      await front.stop();
      await nginx.close();
    }
  });

  it('is bounded: connections beyond the limit and oversized heads are closed', async function () {
    const small = await startProxy({ target: { port: sim.port }, maxConnections: 1 });
    const closedOf = (socket: net.Socket) =>
      new Promise<void>((resolve) =>
        socket
          .on('close', () => resolve())
          .on('error', () => undefined)
          .resume(),
      );
    try {
      const first = net.connect(small.port, '127.0.0.1');
      await new Promise((resolve) => first.once('connect', resolve));
      while (small.connections < 1) await new Promise((resolve) => setImmediate(resolve));
      const second = net.connect(small.port, '127.0.0.1');
      await closedOf(second);
      small.connections.should.equal(1);
      first.write(`GET /${'x'.repeat(70 * 1024)}`);
      await closedOf(first);
    } finally {
      await small.stop();
    }
  });

  it('stop() closes every connection at once, with an answer still held by the device', async function () {
    (await direct('POST', '/sim/faults', { path: 'input/values', answer_delay_ms: 60000, count: 1 })).status.should.equal(200);
    const pending = via('GET', VALUES).then(
      () => 'answered',
      () => 'dropped',
    );
    while ((await direct('GET', '/sim/faults')).body.faults.length > 0) await new Promise((resolve) => setTimeout(resolve, 20));
    await proxy.stop();
    (await pending).should.equal('dropped');
    proxy.connections.should.equal(0);
    await request(proxy.url, 'GET', VALUES, undefined, { agent: false }).should.be.rejectedWith({ code: 'ECONNREFUSED' });
    proxy = await startProxy({ target: { port: sim.port } }); // for afterEach
  });
});
