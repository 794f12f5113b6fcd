/**
 * Device and transport failures of io-output: every error envelope status, bodies that are
 * not JSON, a timeout, a reset and a refused connection. Each msg gives exactly one error
 * at Catch (never an output as well), with `statusCode` in `msg.error.cause` where the
 * device answered. Also: credentials never appear in errors, statuses or logs, and the
 * Authorization header is sent as configured.
 */
import should from 'should';
import {
  CaughtError,
  expectCode,
  helper,
  inject,
  ioFlow,
  loadFlow,
  Received,
  sleep,
  statusHistory,
  waitConnected,
  waitFor,
  waitOutcomes,
  waitStatus,
} from '../helpers/node-red';
import { closedPort, startStub, StubServer, versionRecord } from '../helpers/sim-control';
import { runtimeSuite } from '../helpers/runtime-suite';
import { TEST_API, wirePath } from '../helpers/api';

/** Where io-output's request goes on the wire for the API under test. */
const OUTPUT_STATE = wirePath('/api/io/0.9/2/output/state');
const ROOT = `/api/io/${TEST_API}`;

describe('io-output device errors (runtime, simulator)', function () {
  this.timeout(20000);
  const { sim, ctl } = runtimeSuite({ server: true, powered: true });

  async function load(device: Partial<Parameters<typeof ioFlow>[0]> = {}, output: Record<string, unknown> = {}): Promise<Received> {
    const received = await loadFlow(ioFlow({ url: sim.url, ...device }, { pin: '1', state: 'high', ...output }));
    await waitConnected();
    await ctl.clearLog();
    return received;
  }

  /** Sends one msg and returns its one error; proves no output and no second error follow. */
  async function oneError(received: Received, settleMs = 150): Promise<CaughtError & { msg: Record<string, unknown> }> {
    inject({ payload: true, topic: 'the-topic', keep: 42 });
    await waitOutcomes(received, 1);
    await sleep(settleMs);
    received.sent.should.have.length(0, 'no output for a failed msg');
    received.caught.should.have.length(1, 'exactly one error per msg');
    const msg = received.caught[0];
    msg.error.source.id.should.equal('out');
    should(msg.topic).equal('the-topic');
    should(msg.keep).equal(42);
    return Object.assign(msg.error, { msg });
  }

  describe('error envelopes', () => {
    it('400 from the device (no power configuration): DEVICE_ERROR, statusCode 400, the device message', async () => {
      const received = await load();
      await ctl.restart(); // factory state: the power configuration is gone
      await ctl.clearLog();
      const error = await oneError(received);
      expectCode(error, 'DEVICE_ERROR');
      error.cause!.should.containEql({ statusCode: 400, deviceMessage: 'Power config missing', method: 'POST', path: OUTPUT_STATE });
      error.message.should.equal(`DeviceError: POST ${OUTPUT_STATE} failed: 400 Power config missing`);
      (await ctl.requests()).map((e) => [e.path, e.status]).should.eql([['/api/io/0.9/2/output/state', 400]]);
      // The status text is cut at 60 characters: the path leaves room for the start of the message.
      // The dot has room for the device's reason; method and path are in the error for Catch.
      await waitStatus('out', 'red', 'ring', '400 Power config missing');
    });

    it('404 from the device (no module in the slot): statusCode 404; the connection says incompatible', async () => {
      const received = await loadFlow(ioFlow({ url: sim.url, slot: 5 }, { pin: '1', state: 'high' }));
      await waitStatus('out', 'red', 'ring', 'incompatible: no io module in slot 5 (the device lists 2, 3)');
      const error = await oneError(received);
      expectCode(error, 'DEVICE_ERROR');
      error.cause!.statusCode!.should.equal(404);
      error.message.should.match(/failed: 404 Slot not found/);
    });

    for (const [status, message] of [
      [404, 'Not Found'],
      [422, 'Unprocessable Entity'],
      [500, 'Internal driver communication failed'],
    ] as const) {
      it(`${status} envelope: DEVICE_ERROR with statusCode ${status} and the device's message`, async () => {
        const received = await load();
        await ctl.fault({ path: 'output/state', status, message, count: 1 });
        const error = await oneError(received);
        expectCode(error, 'DEVICE_ERROR');
        error.cause!.statusCode!.should.equal(status);
        error.cause!.deviceMessage!.should.equal(message);
        error.message.should.equal(`DeviceError: POST ${OUTPUT_STATE} failed: ${status} ${message}`);
        (await ctl.requests()).map((e) => e.status).should.eql([status]);
      });
    }
  });

  describe('bodies that are not JSON', () => {
    it('200 with an HTML body: BAD_RESPONSE, statusCode 200', async () => {
      const received = await load();
      await ctl.fault({ path: 'output/state', body: 'nonjson', count: 1 });
      const error = await oneError(received);
      expectCode(error, 'BAD_RESPONSE');
      error.cause!.statusCode!.should.equal(200);
      error.message.should.startWith(`DeviceError: POST ${OUTPUT_STATE}: the answer is not JSON`);
    });

    it('200 with a truncated JSON body: BAD_RESPONSE', async () => {
      const received = await load();
      await ctl.fault({ path: 'output/state', body: 'truncated', count: 1 });
      const error = await oneError(received);
      expectCode(error, 'BAD_RESPONSE');
      error.cause!.statusCode!.should.equal(200);
    });

    it('200 with an empty body: BAD_RESPONSE', async () => {
      const received = await load();
      await ctl.fault({ path: 'output/state', body: 'empty', count: 1 });
      const error = await oneError(received);
      expectCode(error, 'BAD_RESPONSE');
    });

    it('502 HTML page of nginx (service down): DEVICE_ERROR 502 with the page title', async () => {
      const received = await load();
      await ctl.serviceDown('io');
      const error = await oneError(received);
      expectCode(error, 'DEVICE_ERROR');
      error.cause!.statusCode!.should.equal(502);
      error.cause!.deviceMessage!.should.equal('502 Bad Gateway');
      error.message.should.match(/failed: 502 Bad Gateway$/);
      await ctl.serviceUp('io');
      // The next msg goes through again.
      inject({ payload: false });
      await waitFor(() => received.sent.length === 1, 'the msg after the service came back');
      (await ctl.pinState(2, 1)).output.should.equal('low');
    });
  });

  describe('transport failures', () => {
    it('timeout (300 ms against 1500 ms latency): TIMEOUT, no statusCode, no late output', async () => {
      const received = await load({ timeout: 300 });
      await ctl.fault({ path: 'output/state', latency_ms: 1500, count: 1 });
      const started = Date.now();
      inject({ payload: true, topic: 'the-topic', keep: 42 });
      await waitOutcomes(received, 1);
      const elapsed = Date.now() - started;
      elapsed.should.be.aboveOrEqual(250, 'failed by the client timeout, not before');
      // Wait until the simulator has answered the abandoned request, then a little more.
      await waitFor(async () => (await ctl.requests()).some((e) => e.path.endsWith('output/state')), 'the late answer', 5000);
      await sleep(150);
      received.sent.should.have.length(0);
      received.caught.should.have.length(1);
      const error = received.caught[0].error;
      expectCode(error, 'TIMEOUT');
      should(error.cause!.statusCode).be.undefined();
      error.message.should.startWith(`DeviceError: POST ${OUTPUT_STATE}: no answer from 127.0.0.1:`);
      error.message.should.endWith(' within 300 ms');
      should(received.caught[0].topic).equal('the-topic');
    });

    it('a reset connection: UNREACHABLE, no statusCode', async () => {
      const received = await load();
      // Twice: a reset on a reused socket at once is taken for a stale keep-alive socket
      // and sent again once on a new connection (device/transport.ts), which is reset too.
      await ctl.fault({ path: 'output/state', reset: true, count: 2 });
      const error = await oneError(received);
      expectCode(error, 'UNREACHABLE');
      should(error.cause!.statusCode).be.undefined();
      error.message.should.match(/output\/state: (connection reset|socket hang up)/);
    });

    it('a refused connection: UNREACHABLE "connection refused", red ring unreachable', async () => {
      const port = await closedPort();
      const received = await loadFlow(ioFlow({ url: `http://127.0.0.1:${port}` }, { pin: '1', state: 'high' }));
      await waitStatus('out', 'red', 'ring', 'unreachable:');
      const error = await oneError(received);
      expectCode(error, 'UNREACHABLE');
      should(error.cause!.statusCode).be.undefined();
      // With API version auto the version is still unknown: the msg fails on detecting it,
      // which asks the newest version first.
      error.message.should.equal(`DeviceError: GET /api/io/1.0: connection refused (127.0.0.1:${port})`);
    });

    it('a refused connection with a fixed API version names the request of the msg', async () => {
      const port = await closedPort();
      const received = await loadFlow(ioFlow({ url: `http://127.0.0.1:${port}`, apiVersion: TEST_API }, { pin: '1', state: 'high' }));
      await waitStatus('out', 'red', 'ring', 'unreachable:');
      const error = await oneError(received);
      expectCode(error, 'UNREACHABLE');
      error.cause!.should.containEql({ method: 'POST', path: OUTPUT_STATE });
      error.message.should.equal(`DeviceError: POST ${OUTPUT_STATE}: connection refused (127.0.0.1:${port})`);
    });
  });

  describe('credentials', () => {
    const USER = 'user-MARKER-1f3a';
    const PASSWORD = 'pw-MARKER-9c2e';
    const TOKEN = 'token-MARKER-77b1';

    /** Everything Node-RED logged through the helper's log spy (node.error/warn included). */
    function loggedCalls(): string[] {
      return helper
        .log()
        .getCalls()
        .map((c: { args: unknown[] }) => JSON.stringify(c.args));
    }

    function assertNoSecret(text: string, where: string): void {
      for (const secret of [USER, PASSWORD, TOKEN, 'MARKER', Buffer.from(`${USER}:${PASSWORD}`).toString('base64')]) {
        if (text.includes(secret)) throw new Error(`${where} contains ${secret}: ${text.slice(0, 400)}`);
      }
    }

    it('never appear in errors at Catch, status texts or the log (Basic auth, every kind of failure)', async () => {
      const port = await closedPort();
      const flow = ioFlow({ url: sim.url, auth: 'basic', timeout: 300 }, { pin: '1', state: 'high' });
      const received = await loadFlow(flow, { dev: { username: USER, password: PASSWORD } });
      await waitConnected();
      // validation, device error, not JSON, timeout
      inject({ payload: { pin: 0 } });
      await waitOutcomes(received, 1);
      await ctl.fault({ path: 'output/state', status: 500, message: 'boom', count: 1 });
      inject({ payload: true });
      await waitOutcomes(received, 2);
      await ctl.fault({ path: 'output/state', body: 'nonjson', count: 1 });
      inject({ payload: true });
      await waitOutcomes(received, 3);
      await ctl.fault({ path: 'output/state', latency_ms: 1000, count: 1 });
      inject({ payload: true });
      await waitOutcomes(received, 4);
      received.caught.should.have.length(4);
      ['INVALID_INPUT', 'DEVICE_ERROR', 'BAD_RESPONSE', 'TIMEOUT'].forEach((code, i) => expectCode(received.caught[i]?.error, code));
      // The spies are reset by unload: read statuses and the log first.
      const texts = [JSON.stringify(statusHistory(helper.getNode('out'))), ...loggedCalls()];
      await helper.unload();

      // refused connection, same credentials
      const refused = await loadFlow(ioFlow({ url: `http://127.0.0.1:${port}`, auth: 'basic' }, {}), { dev: { username: USER, password: PASSWORD } });
      inject({ payload: true });
      await waitOutcomes(refused, 1);
      expectCode(refused.caught[0].error, 'UNREACHABLE');

      await waitStatus('out', 'red', 'ring', 'unreachable:');
      for (const msg of [...received.caught, ...refused.caught]) assertNoSecret(JSON.stringify(msg), `msg.error ${msg.error.code}`);
      texts.push(JSON.stringify(statusHistory(helper.getNode('out'))), ...loggedCalls());
      assertNoSecret(texts.join('\n'), 'status texts and Node-RED log');
      texts.join('\n').should.match(/500 boom/, 'the texts checked include the status of an error');
    });

    it('a URL with user:password@ is refused without echoing the password', async () => {
      const received = await loadFlow(ioFlow({ url: `http://admin:${PASSWORD}@127.0.0.1:1/` }, {}));
      await waitStatus('out', 'red', 'ring', 'invalid: URL must be http:// or https:// followed by a ho');
      inject({ payload: true });
      await waitOutcomes(received, 1);
      expectCode(received.caught[0].error, 'NOT_CONFIGURED');
      assertNoSecret(JSON.stringify(received.caught[0]), 'msg.error');
      assertNoSecret(JSON.stringify(statusHistory(helper.getNode('out'))), 'status');
    });

    it('a URL that does not parse is refused without echoing a password in it', async () => {
      const received = await loadFlow(ioFlow({ url: `http://admin:${PASSWORD}@bad host:80/` }, {}));
      // Any "@" is refused before parsing: the message never needs to repeat the URL.
      await waitStatus('out', 'red', 'ring', 'invalid: URL must be http:// or https:// followed by a ho');
      inject({ payload: true });
      await waitOutcomes(received, 1);
      expectCode(received.caught[0].error, 'NOT_CONFIGURED');
      assertNoSecret(JSON.stringify(received.caught[0]), 'msg.error');
      assertNoSecret(JSON.stringify(statusHistory(helper.getNode('out'))), 'status');
    });

    describe('Authorization header (recorded by a local stub device)', () => {
      let stub: StubServer;
      beforeEach(async () => {
        // A device of the API under test; the config node is fixed to it (no detection round).
        const [major, minor] = TEST_API.split('.').map(Number);
        stub = await startStub((req) =>
          req.method === 'GET' && req.path === ROOT
            ? { status: 200, body: versionRecord([major, minor, 0], [2]) }
            : { status: 200, body: { status: 'success' } },
        );
      });
      afterEach(async () => {
        await stub.close();
      });

      async function exchange(auth: string, credentials: Record<string, string>): Promise<Array<string | undefined>> {
        const received = await loadFlow(ioFlow({ url: stub.url, auth, apiVersion: TEST_API }, { pin: '2', state: 'low' }), { dev: credentials });
        await waitConnected();
        inject({ payload: true });
        await waitOutcomes(received, 1);
        received.sent.should.have.length(1);
        // The version record, the descriptor read that proves the credentials, the msg.
        stub.requests.map((r) => `${r.method} ${r.path}`).should.eql([`GET ${ROOT}`, `GET ${ROOT}/2/descriptor`, `POST ${OUTPUT_STATE}`]);
        JSON.parse(stub.requests[2].body).should.eql({ pin: 2, state: 'high' });
        return stub.requests.map((r) => r.headers.authorization);
      }

      it('basic: "Basic base64(user:password)" on the probe and on every request', async () => {
        const expected = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`;
        (await exchange('basic', { username: USER, password: PASSWORD })).should.eql([expected, expected, expected]);
      });

      it('bearer: "Bearer <token>"', async () => {
        (await exchange('bearer', { token: TOKEN })).should.eql([`Bearer ${TOKEN}`, `Bearer ${TOKEN}`, `Bearer ${TOKEN}`]);
      });

      it('none: no Authorization header even with credentials stored', async () => {
        (await exchange('none', { username: USER, password: PASSWORD, token: TOKEN })).should.eql([undefined, undefined, undefined]);
      });
    });
  });
});
