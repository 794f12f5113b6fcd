/**
 * The config node's admin routes (Discover, Test) as an attacker with some editor rights
 * would use them, with Node-RED's real adminAuth on:
 *
 *  - only users who may change this config node (`modular-device.write`) get an answer:
 *    anonymous and read-only refused (401/403), write-only and read + modular-device.write and admin 200;
 *  - Test sends stored credentials only of a deployed modular-device node, and only to the
 *    URL it was deployed with (after `${ENV}` expansion); never another node's (an http
 *    request node's password), never to another URL;
 *  - both ask only for version roots and answer only the parsed record: whatever else the
 *    device puts in its answer (a long message, markup, extra fields) never comes back.
 */
import path from 'path';
import should from 'should';
import { deviceNode, FlowNode, helper, NodeModule, nodeRedPackage, sleep, waitFor } from '../helpers/node-red';
import { adminAuthOff, adminAuthOn, ALL_MODULES, loadCollect, withRealAuth } from '../helpers/reliability';
import { startStub, StubServer, versionRecord } from '../helpers/sim-control';

const HTTP_REQUEST: NodeModule = require(path.join(nodeRedPackage('@node-red/nodes'), 'core/network/21-httprequest.js'));

const STORED = 'stored-Secret-7';
const OTHER_NODES_SECRET = 'http-request-Secret-9';
const ROOT = /^\/api\/(io|bmc|power)\/\d+\.\d+$/;
const USERS: Array<[string, string | undefined, number]> = [
  ['anonymous', undefined, 401],
  ['read-only', 'Bearer READER-TOKEN', 403],
  ['write-only', 'Bearer WRITE-ONLY-TOKEN', 200],
  ['read + modular-device.write', 'Bearer WRITER-TOKEN', 200],
  ['admin', 'Bearer ADMIN-TOKEN', 200],
];

/** A device whose version records carry junk beside what the package reads. */
function junkDevice(): Promise<StubServer> {
  return startStub((req) => {
    if (!ROOT.test(req.path)) return { status: 404, body: { status: 'error', code: 404, message: 'Not Found' } };
    const [major, minor] = req.path.split('/').pop()!.split('.').map(Number);
    const record = versionRecord([major, minor, 0], [2]) as Record<string, unknown>;
    return { status: 200, body: { ...record, message: `<script>${'x'.repeat(5000)}</script>`, secret_echo: '\u001b[2J' } };
  });
}

function authOf(stub: StubServer): string[] {
  return stub.requests.map((r) => String(r.headers.authorization ?? 'none'));
}

describe('reliability: admin routes (adminAuth on, stub devices on loopback)', function () {
  this.timeout(20000);
  let saved: StubServer;
  let other: StubServer;
  before(async () => {
    saved = await junkDevice();
    other = await junkDevice();
    await helper.startServer();
    // After the server: starting it sets up Node-RED's auth from empty settings.
    adminAuthOn();
  });
  after(async () => {
    await helper.stopServer();
    adminAuthOff();
    await saved.close();
    await other.close();
    delete process.env.MD_ADMIN_TEST_URL;
  });
  afterEach(async () => {
    await helper.unload();
  });

  /** The config node `dev` at `saved`'s URL with a stored password, and an http request node with its own. */
  async function deployBoth(url = saved.url): Promise<void> {
    const flow: FlowNode[] = [
      { id: 't', type: 'tab', label: 't' },
      { ...deviceNode({ id: 'dev', url, auth: 'basic' }), z: 't' },
      { id: 'http', type: 'http request', z: 't', method: 'GET', url: 'http://127.0.0.1:1/', authType: 'basic', ret: 'txt', wires: [] },
    ];
    await loadCollect(
      flow,
      { dev: { username: 'op', password: STORED }, http: { user: 'op', password: OTHER_NODES_SECRET } },
      withRealAuth([...ALL_MODULES, HTTP_REQUEST]),
    );
    await waitFor(() => saved.requests.length > 0, 'the config node to reach its device');
    await sleep(50);
    saved.requests.length = 0;
    other.requests.length = 0;
  }

  const test = (body: Record<string, unknown>, token = 'Bearer WRITER-TOKEN') =>
    helper.request().post('/modular-device/test').set('Authorization', token).send(body);

  it('only users who may change the config node get an answer; the others reach no device', async () => {
    await deployBoth();
    for (const [who, token, expected] of USERS) {
      const withAuth = (r: any) => (token ? r.set('Authorization', token) : r);
      const discover = await withAuth(helper.request().post('/modular-device/discover').send({ url: other.url }));
      const tested = await withAuth(helper.request().post('/modular-device/test').send({ url: other.url, service: 'io', slot: '2' }));
      // Node-RED answers a known user without the permission 401 too.
      const seen = [discover.status, tested.status].map((s) => (s === 403 ? 401 : s));
      should(seen).eql([expected === 403 ? 401 : expected, expected === 403 ? 401 : expected], who);
      if (expected !== 200) should(other.requests).eql([], `${who}: no request reached the device`);
      other.requests.length = 0;
    }
  });

  it("Test sends the stored password only to the config node's own URL", async () => {
    await deployBoth();
    const basic = `Basic ${Buffer.from(`op:${STORED}`).toString('base64')}`;
    const placeholder = { username: 'op', password: '__PWRD__' };
    (await test({ id: 'dev', url: saved.url, service: 'io', slot: '2', auth: 'basic', credentials: placeholder })).status.should.equal(200);
    authOf(saved)
      .every((a) => a === basic)
      .should.be.true(authOf(saved).join());
    // Another URL with the same id: the stored password stays home.
    (await test({ id: 'dev', url: other.url, service: 'io', slot: '2', auth: 'basic', credentials: placeholder })).status.should.equal(200);
    authOf(other).should.not.containEql(basic);
    authOf(other).join().should.not.containEql(Buffer.from(STORED).toString('base64').slice(0, 8));
    // The same origin with another path prefix is another URL too.
    other.requests.length = 0;
    (await test({ id: 'dev', url: `${saved.url}/elsewhere`, service: 'io', slot: '2', auth: 'basic', credentials: placeholder })).status.should.be.oneOf([
      404, 502,
    ]);
    saved.requests
      .filter((r) => r.path.startsWith('/elsewhere'))
      .map((r) => r.headers.authorization)
      .should.not.containEql(basic);
  });

  it("Test never uses another node's credentials (an http request node's password), whatever the URL", async () => {
    await deployBoth();
    for (const url of [saved.url, other.url]) {
      const res = await test({ id: 'http', url, service: 'io', slot: '2', auth: 'basic', credentials: { username: 'op', password: '__PWRD__' } });
      res.status.should.equal(200);
    }
    const sent = [...authOf(saved), ...authOf(other)];
    const leaked = Buffer.from(`op:${OTHER_NODES_SECRET}`).toString('base64');
    sent.should.not.containEql(`Basic ${leaked}`);
  });

  it('Test expands a ${ENV} URL as the runtime does: the same device gets its stored password', async () => {
    process.env.MD_ADMIN_TEST_URL = saved.url;
    await deployBoth('${MD_ADMIN_TEST_URL}');
    const basic = `Basic ${Buffer.from(`op:${STORED}`).toString('base64')}`;
    for (const url of ['${MD_ADMIN_TEST_URL}', saved.url, `${saved.url}/`]) {
      saved.requests.length = 0;
      (await test({ id: 'dev', url, service: 'io', slot: '2', auth: 'basic', credentials: { username: 'op', password: '__PWRD__' } })).status.should.equal(200);
      authOf(saved)
        .every((a) => a === basic)
        .should.be.true(`${url}: ${authOf(saved).join()}`);
    }
  });

  it('typed credentials go to the URL typed with them; nothing at all without any', async () => {
    await deployBoth();
    await test({ url: other.url, service: 'io', slot: '2', auth: 'basic', credentials: { username: 'me', password: 'typed' } });
    authOf(other)
      .every((a) => a === `Basic ${Buffer.from('me:typed').toString('base64')}`)
      .should.be.true();
    other.requests.length = 0;
    await test({ id: 'dev', url: other.url, service: 'io', slot: '2', auth: 'basic' });
    authOf(other)
      .every((a) => a === 'none')
      .should.be.true(authOf(other).join());
  });

  it('both routes ask only for version roots and answer only the parsed record, never what else the device said', async () => {
    await deployBoth();
    const discover = await helper.request().post('/modular-device/discover').set('Authorization', 'Bearer WRITER-TOKEN').send({ url: other.url });
    const tested = await test({ url: other.url, service: 'io', slot: '2' });
    other.requests.every((r) => r.method === 'GET' && ROOT.test(r.path)).should.be.true(other.requests.map((r) => r.path).join());
    Object.keys(tested.body).sort().should.eql(['api', 'apiVersion', 'service', 'slot']);
    for (const m of discover.body.modules) Object.keys(m).sort().should.eql(['api', 'apiVersion', 'service', 'slot']);
    const text = JSON.stringify([discover.body, tested.body]);
    text.should.not.match(/script|xxxxx|\\u001b/);
  });

  it('an error the device words at length comes back short and printable', async () => {
    const loud = await startStub(() => ({ status: 500, body: { status: 'error', code: 500, message: `\u001b[31m${'boom '.repeat(3000)}` } }));
    try {
      await deployBoth();
      const tested = await test({ url: loud.url, service: 'io', slot: '2' });
      const discover = await helper.request().post('/modular-device/discover').set('Authorization', 'Bearer WRITER-TOKEN').send({ url: loud.url });
      for (const text of [tested.body.error, discover.body.error, ...Object.values(discover.body.errors as Record<string, string>)]) {
        text.length.should.be.belowOrEqual(300);
        text.should.not.match(/[\u0000-\u001f]/);
      }
    } finally {
      await loud.close();
    }
  });
});
