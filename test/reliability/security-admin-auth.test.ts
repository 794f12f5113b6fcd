/**
 * Security, admin routes: with Node-RED adminAuth on, the package's admin routes refuse
 * anonymous and read-only callers, and discovery cannot be aimed at another host by
 * someone without editor rights.
 */
import { deviceNode, helper, sleep } from '../helpers/node-red';
import { startStub, StubServer, versionRecord } from '../helpers/sim-control';
import { adminAuthOff, adminAuthOn, loadCollect, serverSuite, withRealAuth } from '../helpers/reliability';

describe('reliability: security, admin routes (runtime, stub device)', function () {
  this.timeout(60000);
  serverSuite();

  describe('admin routes with Node-RED adminAuth on', () => {
    let stub: StubServer;
    before(async () => {
      adminAuthOn();
      stub = await startStub((req) =>
        /\/api\/[a-z]+\/0\.9$/.test(req.path)
          ? { status: 200, body: versionRecord([0, 9, 0], [2]) }
          : { status: 404, body: { status: 'error', code: 404, message: 'Not Found' } },
      );
    });
    after(async () => {
      adminAuthOff();
      await stub.close();
    });

    it('anonymous and read-only callers get 401/403 and discovery never reaches the host they name', async () => {
      await loadCollect([deviceNode({ url: 'http://127.0.0.1:1' })], {}, withRealAuth());
      stub.requests.length = 0;
      const target = stub.url; // "an arbitrary host" somebody would like the runtime to call
      const answers: number[] = [];
      for (const auth of [undefined, 'Bearer READER-TOKEN', 'Bearer not-a-token']) {
        const withAuth = (r: any) => (auth ? r.set('Authorization', auth) : r);
        answers.push((await withAuth(helper.request().post('/modular-device/discover').send({ url: target }))).status);
        answers.push((await withAuth(helper.request().post('/modular-device/test').send({ url: target, service: 'io', slot: '2' }))).status);
      }
      answers.every((s) => s === 401 || s === 403).should.be.true(`answers ${answers}`);
      await sleep(100);
      stub.requests.should.eql([], 'no request reached the named host');
      // With editor rights it works (the guard is what stopped the others).
      const ok = await helper.request().post('/modular-device/discover').send({ url: target }).set('Authorization', 'Bearer ADMIN-TOKEN');
      ok.status.should.equal(200);
      stub.requests.length.should.be.above(0);
    });
  });
});
