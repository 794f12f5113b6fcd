/**
 * The config node `modular-device`: connection states pushed to its users, recovery after
 * the device goes away and comes back, a clear error for an API version it does not speak,
 * and its admin routes (discover, test) with and without adminAuth.
 */
import should from 'should';
import path from 'path';
import {
  ALL_NODES,
  deviceNode,
  expectCode,
  helper,
  inject,
  ioFlow,
  loadFlow,
  MODULES,
  NodeModule,
  nodeRedPackage,
  statusHistory,
  waitConnected,
  waitOutcomes,
  waitStatus,
} from '../helpers/node-red';
import { closedPort, startStub, StubServer, versionRecord } from '../helpers/sim-control';
import { runtimeSuite } from '../helpers/runtime-suite';
import { IS_API10, TEST_API } from '../helpers/api';

const ROOT = `/api/io/${TEST_API}`;
const CONNECTED = `connected (API ${TEST_API})`;
const [MAJOR, MINOR] = TEST_API.split('.').map(Number);

describe('modular-device config node (runtime, simulator)', function () {
  this.timeout(30000);
  const { sim, ctl } = runtimeSuite({ server: true, powered: true });

  describe('connection', () => {
    it('reads the version record on start: yellow ring connecting, then green ring connected', async () => {
      await ctl.fault({ path: ROOT, method: 'GET', latency_ms: 300, count: 1 });
      await loadFlow(ioFlow({ url: sim.url }));
      await waitStatus('out', 'yellow', 'ring', 'connecting');
      await waitStatus('out', 'green', 'ring', CONNECTED);
      const history = statusHistory(helper.getNode('out'));
      history[0].should.eql({ fill: 'yellow', shape: 'ring', text: 'connecting' });
      const state = helper.getNode('dev').connection.state;
      if (IS_API10) {
        // API 1.0 names the run of the device's service: driver_session.
        state.session.should.match(/^[A-Z0-9]{64}$/);
        // And each module's run: device_session (new whenever the module is reset).
        state.deviceSession.should.match(/^[A-Z0-9]{64}$/);
        state.should.eql({ state: 'connected', apiVersion: '1.0', session: state.session, deviceSession: state.deviceSession });
      } else state.should.eql({ state: 'connected', apiVersion: '0.9' });
      // "auto" asks the newest version first: a 0.9 device refuses 1.0 with 400. Then one
      // read of the descriptor proves the credentials (the version root is public).
      (await ctl.wireLog())
        .map((e) => `${e.method} ${e.path} ${e.status}`)
        .should.eql(
          IS_API10
            ? ['GET /api/io/1.0 200', 'GET /api/io/1.0/2/descriptor 200']
            : ['GET /api/io/1.0 400', 'GET /api/io/0.9 200', 'GET /api/io/0.9/2/descriptor 200'],
        );
    });

    it('a msg arriving during the first version probe waits for it: one detection, not two', async () => {
      await ctl.fault({ path: ROOT, method: 'GET', latency_ms: 300, count: 1 });
      const received = await loadFlow(ioFlow({ url: sim.url }));
      await waitStatus('out', 'yellow', 'ring', 'connecting');
      inject({ payload: true });
      await waitOutcomes(received, 1);
      const roots = (await ctl.wireLog()).filter((e) => /^\/api\/io\/\d+\.\d+$/.test(e.path)).map((e) => `${e.method} ${e.path} ${e.status}`);
      roots.should.eql(IS_API10 ? ['GET /api/io/1.0 200'] : ['GET /api/io/1.0 400', 'GET /api/io/0.9 200']);
    });

    it('pushes the state to every user node', async () => {
      const flow = ioFlow({ url: sim.url });
      flow.push({ ...flow.find((n) => n.id === 'out')!, id: 'out2', pin: '2' });
      await loadFlow(flow);
      await waitStatus('out', 'green', 'ring', 'connected');
      await waitStatus('out2', 'green', 'ring', 'connected');
    });

    it('recovers after the device goes down and comes back (red ring unreachable, then connected)', async () => {
      const received = await loadFlow(ioFlow({ url: sim.url }, { pin: '1', state: 'high' }));
      await waitConnected();
      await sim.pause();
      inject({ payload: true, n: 1 });
      await waitOutcomes(received, 1);
      received.caught.should.have.length(1);
      expectCode(received.caught[0].error, 'UNREACHABLE');
      received.caught[0].error.message.should.match(/connection (refused|reset)/);
      await waitStatus('out', 'red', 'ring', 'unreachable:');
      helper.getNode('dev').connection.state.state.should.equal('unreachable');

      await sim.resume();
      // Backoff starts at 1 s and doubles: the retries find the device again by themselves.
      await waitStatus('out', 'green', 'ring', CONNECTED, 12000);
      inject({ payload: false, n: 2 });
      await waitOutcomes(received, 2);
      received.sent.map((m) => m.n).should.eql([2]);
      (await ctl.pinState(2, 1)).output.should.equal('low');
      const history = statusHistory(helper.getNode('out'));
      const red = history.findIndex((s) => s.fill === 'red' && /^unreachable/.test(s.text ?? ''));
      const green = history.findIndex((s, i) => i > red && s.fill === 'green' && s.shape === 'ring');
      red.should.be.above(-1);
      green.should.be.above(red);
    });

    it('keeps retrying while the device stays away, then connects when it appears', async () => {
      await sim.pause();
      await loadFlow(ioFlow({ url: sim.url }));
      await waitStatus('out', 'red', 'ring', 'unreachable:');
      await sim.resume();
      await waitStatus('out', 'green', 'ring', CONNECTED, 12000);
    });

    it('a fixed API version needs no detection and connects the same', async () => {
      await loadFlow(ioFlow({ url: sim.url, apiVersion: TEST_API }));
      await waitStatus('out', 'green', 'ring', CONNECTED);
      (await ctl.wireLog()).map((e) => `${e.method} ${e.path} ${e.status}`).should.eql([`GET ${ROOT} 200`, `GET ${ROOT}/2/descriptor 200`]);
    });
  });

  describe('API version', () => {
    let stub: StubServer;
    afterEach(async () => {
      await stub?.close();
    });

    it('a version record with api 2.0.0 gives a clear incompatible error', async () => {
      stub = await startStub(() => ({ status: 200, body: versionRecord([2, 0, 0], [2]) }));
      await loadFlow(ioFlow({ url: stub.url }));
      const status = await waitStatus('out', 'red', 'ring', 'incompatible: the device reports API 2.0.0');
      status.text!.should.match(/^incompatible: the device reports API 2\.0\.0, this package/); // cut at 60 characters
      const state = helper.getNode('dev').connection.state;
      state.should.eql({ state: 'incompatible', reason: 'the device reports API 2.0.0, this package supports 0.9, 1.0' });
    });

    /** A device of another API version, as the released services answer at /api/<svc>/0.9 (real). */
    function refusingDevice(): Promise<StubServer> {
      return startStub(() => ({ status: 400, body: { status: 'error', code: 400, message: 'Version not compatible' } }));
    }

    it('a device that refuses version 0.9 (400 "Version not compatible") says so in the status', async () => {
      stub = await refusingDevice();
      await loadFlow(ioFlow({ url: stub.url }));
      await waitStatus('out', 'red', 'ring', 'incompatible: 400 Version not compatible');
      const state = helper.getNode('dev').connection.state;
      state.reason.should.equal('400 Version not compatible');
    });

    // A 400 to the version root is an answer: the device is there and speaks another version.
    it('a device that refuses version 0.9 is incompatible, not unreachable', async () => {
      stub = await refusingDevice();
      await loadFlow(ioFlow({ url: stub.url }));
      await waitStatus('out', 'red', 'ring', /^incompatible: /);
      helper.getNode('dev').connection.state.state.should.equal('incompatible');
    });

    it('an answer that is not a version record is reported, not taken as connected', async () => {
      stub = await startStub(() => ({ status: 200, body: { hello: 'world' } }));
      await loadFlow(ioFlow({ url: stub.url }));
      await waitStatus('out', 'red', 'ring', 'incompatible: the answer is not a version record');
      const state = helper.getNode('dev').connection.state;
      state.state.should.equal('incompatible');
      state.reason.should.equal('the answer is not a version record');
    });
  });

  describe('close', () => {
    it('unload stops the retries: no request reaches the device after the flow is stopped', async () => {
      await sim.pause();
      await loadFlow(ioFlow({ url: sim.url }));
      await waitStatus('out', 'red', 'ring', 'unreachable:');
      await helper.unload();
      await sim.resume();
      await ctl.clearLog();
      await new Promise((resolve) => setTimeout(resolve, 1800)); // past the first retry (1 s after the failure)
      (await ctl.log()).should.eql([]);
    });
  });

  describe('admin routes', () => {
    it('POST /modular-device/discover lists the modules of every service (no adminAuth)', async () => {
      await loadFlow([deviceNode({ url: sim.url })]);
      const res = await helper.request().post('/modular-device/discover').send({ url: sim.url }).expect(200);
      res.body.errors.should.eql({});
      res.body.modules
        .map((m: { service: string; slot: number; api: string; apiVersion: string }) => `${m.service}/${m.slot} ${m.api} ${m.apiVersion}`)
        .should.eql(['io/2', 'io/3', 'bmc/0', 'power/1'].map((m) => `${m} ${TEST_API}.0 ${TEST_API}`));
    });

    it('POST /modular-device/discover answers 502 naming each service when nothing answers', async () => {
      const port = await closedPort();
      await loadFlow([deviceNode({ url: sim.url })]);
      const res = await helper
        .request()
        .post('/modular-device/discover')
        .send({ url: `http://127.0.0.1:${port}` })
        .expect(502);
      res.body.error.should.match(/no service answered/);
      Object.keys(res.body.errors).sort().should.eql(['bmc', 'io', 'power']);
    });

    it('POST /modular-device/test answers the parsed version record of the configured module; 404 for a missing slot', async () => {
      await loadFlow([deviceNode({ url: sim.url })]);
      const ok = await helper.request().post('/modular-device/test').send({ url: sim.url, service: 'io', slot: '3' }).expect(200);
      ok.body.should.eql({ apiVersion: TEST_API, api: `${MAJOR}.${MINOR}.0`, service: 'io', slot: 3 });
      const missing = await helper.request().post('/modular-device/test').send({ url: sim.url, service: 'io', slot: '7' }).expect(404);
      missing.body.error.should.match(/no io module in slot 7 \(the device lists 2, 3\)/);
      const bad = await helper.request().post('/modular-device/test').send({ url: sim.url, service: 'gpio', slot: '2' }).expect(400);
      bad.body.error.should.match(/Service \(service\) must be one of io, bmc, power/);
    });

    it('POST /modular-device/test uses the stored password when the editor sends its placeholder', async () => {
      // A device of the API under test: other version roots get the released services' 400.
      const stub = await startStub((req) =>
        req.path === ROOT
          ? { status: 200, body: versionRecord([MAJOR, MINOR, 0], [2]) }
          : /^\/api\/io\/\d+\.\d+$/.test(req.path)
            ? { status: 400, body: { status: 'error', code: 400, message: 'Version not compatible' } }
            : { status: 200, body: { slot_number: 2 } },
      );
      try {
        await loadFlow([deviceNode({ url: stub.url, auth: 'basic' })], { dev: { username: 'u', password: 'stored-secret' } });
        await waitConnected(); // the config node's own probe, then only the route's requests
        stub.requests.length = 0;
        const res = await helper
          .request()
          .post('/modular-device/test')
          .send({ id: 'dev', url: stub.url, service: 'io', slot: '2', auth: 'basic', credentials: { username: 'u', password: '__PWRD__' } })
          .expect(200);
        res.body.slot.should.equal(2);
        const expected = `Basic ${Buffer.from('u:stored-secret').toString('base64')}`;
        // The route detects the version (newest first) and asks nothing else.
        const roots = IS_API10 ? ['/api/io/1.0'] : ['/api/io/1.0', '/api/io/0.9'];
        stub.requests.map((r) => `${r.method} ${r.path} ${r.headers.authorization}`).should.eql(roots.map((root) => `GET ${root} ${expected}`));
        JSON.stringify(res.body).should.not.containEql('stored-secret');
      } finally {
        await stub.close();
      }
    });

    describe("with adminAuth on (Node-RED's own needsPermission)", () => {
      // Node-RED's editor-api auth: what RED.auth is in a real runtime. The test helper gives
      // nodes a pass-through stub instead, so the real one is handed to the config node here.
      const editorApi = nodeRedPackage('@node-red/editor-api');

      const auth = require(path.join(editorApi, 'lib/auth'));

      const passport = require(require.resolve('passport', { paths: [editorApi] }));
      const storage = { getSessions: async () => ({}), saveSessions: async () => undefined };
      // A bcrypt hash (of "password"); login is not exercised: static API tokens stand for
      // sessions (Tokens.create would leave a week-long timer that keeps mocha alive).
      const HASH = '$2b$08$wuAqPiKJlVN27eF5qJp.RuQYuy6ZYONW7a/UWYxDTtwKFCdB8F19y';

      function withRealAuth(): NodeModule[] {
        const configNode: NodeModule = (RED) => {
          RED.httpAdmin.use(passport.initialize());
          MODULES.modularDevice({ ...RED, auth: { needsPermission: auth.needsPermission } });
        };
        return [configNode, ...ALL_NODES.filter((m) => m !== MODULES.modularDevice)];
      }

      before(() => {
        auth.init(
          {
            adminAuth: {
              type: 'credentials',
              users: [
                { username: 'admin', password: HASH, permissions: '*' },
                { username: 'reader', password: HASH, permissions: 'read' },
              ],
              tokens: [
                { token: 'ADMIN-TOKEN', user: 'admin', scope: '*' },
                { token: 'READER-TOKEN', user: 'reader', scope: 'read' },
              ],
            },
          },
          storage,
        );
      });
      after(() => {
        auth.init({}, storage); // adminAuth off again for the other files
      });

      it('refuses an anonymous caller with 401 on discover and test, and sends nothing to the device', async () => {
        await loadFlow([deviceNode({ url: sim.url })], {}, withRealAuth());
        await waitConnected();
        await ctl.clearLog();
        await helper.request().post('/modular-device/discover').send({ url: sim.url }).expect(401);
        await helper.request().post('/modular-device/test').send({ url: sim.url, service: 'io', slot: '2' }).expect(401);
        (await ctl.log()).should.eql([]);
      });

      it('refuses a user with read permission only (the routes need modular-device.write)', async () => {
        await loadFlow([deviceNode({ url: sim.url })], {}, withRealAuth());
        await helper.request().post('/modular-device/discover').send({ url: sim.url }).set('Authorization', 'Bearer READER-TOKEN').expect(401);
      });

      it('lets a user with full permission through', async () => {
        await loadFlow([deviceNode({ url: sim.url })], {}, withRealAuth());
        const res = await helper.request().post('/modular-device/discover').send({ url: sim.url }).set('Authorization', 'Bearer ADMIN-TOKEN').expect(200);
        res.body.modules.should.have.length(4);
        should(res.body.errors).eql({});
      });
    });
  });
});
