/**
 * Security, credentials: Basic auth and bearer tokens over HTTPS against the simulator with
 * TLS and auth on (certificates made in the test); credentials never leak (exported flows,
 * logs, status, msgs, error messages). One of the security suites, split by concern: the admin
 * routes (security-admin-auth.test.ts) and the dangerous operations (security-operations.test.ts)
 * have their own files.
 */
import https from 'https';
import should from 'should';
import type { NodeMessage } from '../../nodes/lib/base/node-red';
import { deviceNode, FlowNode, helper, statusHistory, waitConnected } from '../helpers/node-red';
import { closedPort, SimHarness, Simulator, startSimulator } from '../helpers/sim-control';
import {
  ALL_MODULES,
  attach,
  deploy,
  fire,
  isRed,
  kindNode,
  KINDS,
  loadCollect,
  makeCerts,
  reliabilityFlow,
  runtime,
  serverSuite,
  settle,
  TestCerts,
  TLS_MODULE,
  waitAllStatus,
} from '../helpers/reliability';

const MARKER = 'Pw-MARKER-7f3a9c';
const TOKEN = 'Tk-MARKER-51be02';
/** Every form a secret could take on its way: itself, inside a Basic header, URL-encoded. */
const FORMS = [MARKER, TOKEN, Buffer.from(`operator:${MARKER}`).toString('base64'), encodeURIComponent(MARKER), 'MARKER'];

function leaks(where: string, value: unknown): string[] {
  let text: string;
  try {
    text = JSON.stringify(value, (_k, v) =>
      v instanceof Error ? Object.assign({}, v, { message: v.message, stack: v.stack }) : typeof v === 'bigint' ? String(v) : v,
    );
  } catch {
    text = String(value);
  }
  return FORMS.filter((f) => text?.includes(f)).map((f) => `${where} contains ${f}`);
}

describe('reliability: security, credentials and HTTPS (runtime, simulator)', function () {
  this.timeout(60000);
  serverSuite();
  let certs: TestCerts;

  before(async () => {
    certs = await makeCerts();
  });

  /** A tls-config node as the editor saves it, the CA pasted in (credentials). */
  function tlsNode(id: string, verify: boolean): FlowNode {
    return {
      id,
      type: 'tls-config',
      name: '',
      cert: '',
      key: '',
      ca: '',
      certname: '',
      keyname: '',
      caname: '',
      servername: '',
      verifyservercert: verify,
      alpnprotocol: '',
    };
  }

  function ioRead(device = 'dev'): FlowNode {
    return { id: 'read', type: 'io-read', device, source: 'values', pin: 'all', interval: '0', onlyOnChange: false, deadband: '0', output: 'record' };
  }

  async function readOnce(outcomes: Awaited<ReturnType<typeof loadCollect>>) {
    const ids = fire([['read', { payload: {} }]]);
    const [fate] = await settle(outcomes, [['read', ids[0]]]);
    return fate;
  }

  describe('HTTPS with Basic auth and bearer tokens (simulator with TLS and auth on)', () => {
    // The control API helper speaks plain HTTP: this simulator's log is read in-process.
    let sim: Simulator;
    before(async () => {
      sim = await startSimulator({ port: 0, tls: { key: certs.key, cert: certs.cert }, auth: { username: 'operator', password: MARKER } });
    });
    beforeEach(() => sim.log.clear());
    after(async () => {
      await sim.close();
    });

    function flow(options: { password?: string; tls?: FlowNode | null; auth?: string } = {}) {
      const nodes: FlowNode[] = [];
      if (options.tls !== null) nodes.push(options.tls ?? tlsNode('tls', true));
      nodes.push({ ...deviceNode({ id: 'dev', url: sim.url, auth: options.auth ?? 'basic' }), tls: options.tls === null ? '' : 'tls' });
      return reliabilityFlow([ioRead()], nodes);
    }
    const creds = (password = MARKER) => ({ dev: { username: 'operator', password }, tls: { cadata: certs.ca } });

    it('the right password over HTTPS with the CA in the tls-config node: connected, requests pass', async () => {
      sim.url.should.startWith('https://');
      const outcomes = await loadCollect(flow(), creds(), [TLS_MODULE, ...ALL_MODULES]);
      await waitConnected('dev');
      const fate = await readOnce(outcomes);
      should(fate.errors).have.length(0);
      should(fate.outputs[0].payload).have.property('pins');
    });

    it('a wrong password: one clear 401 error at Catch naming the credentials, red status', async () => {
      const outcomes = await loadCollect(flow(), creds('wrong-password'), [TLS_MODULE, ...ALL_MODULES]);
      // The version root stays public, as on a device: the config node proves the
      // credentials with one read of the descriptor, and every node shows the refusal.
      await waitAllStatus(['read'], isRed(/^credentials refused: 401 Unauthorized$/), 'red: credentials refused');
      const fate = await readOnce(outcomes);
      fate.errors.should.have.length(1);
      const error = fate.errors[0].error;
      should(error.code).equal('DEVICE_ERROR');
      should(error.cause?.statusCode).equal(401);
      error.message.should.equal(
        'DeviceError: GET /api/io/0.9/2/input/values failed: 401 Unauthorized (the device refused the credentials: check the user name and password of the config node)',
      );
      await waitAllStatus(['read'], isRed(/^credentials refused: 401 Unauthorized$/), 'still red: credentials refused');
      sim.log
        .entries()
        .filter((e) => e.status === 401)
        .map((e) => e.path)
        .should.eql(['/api/io/0.9/2/descriptor', '/api/io/0.9/2/input/values']);
    });

    it('the CA not given: the certificate is refused (TLS, "not trusted"), nothing reaches the device', async () => {
      sim.log.clear();
      const outcomes = await loadCollect(flow({ tls: null }), { dev: { username: 'operator', password: MARKER } });
      await waitAllStatus(['read'], isRed(/^TLS: certificate not trusted: give its CA$/), 'red: certificate not trusted');
      const fate = await readOnce(outcomes);
      should(fate.errors[0].error.code).equal('TLS');
      fate.errors[0].error.message.should.match(
        /TLS: the device's certificate \(issued by “modular-device test CA”\) is not trusted: give the CA that issued it/,
      );
      sim.log.entries().should.eql([], 'no HTTP request got through the refused handshake');
      // The same with a tls-config node that has no CA and verification on.
      await helper.unload();
      const again = await loadCollect(
        reliabilityFlow([ioRead()], [tlsNode('tls', true), { ...deviceNode({ id: 'dev', url: sim.url, auth: 'basic' }), tls: 'tls' }]),
        {
          dev: { username: 'operator', password: MARKER },
        },
        [TLS_MODULE, ...ALL_MODULES],
      );
      should((await readOnce(again)).errors[0].error.code).equal('TLS');
    });

    it('verification turned off explicitly in the tls-config node: the unknown certificate is accepted', async () => {
      const outcomes = await loadCollect(flow({ tls: tlsNode('tls', false) }), { dev: { username: 'operator', password: MARKER } }, [
        TLS_MODULE,
        ...ALL_MODULES,
      ]);
      await waitConnected('dev');
      should((await readOnce(outcomes)).errors).have.length(0);
    });

    it('a self-signed certificate: refused, accepted once it is given as the CA', async () => {
      const self = await startSimulator({ port: 0, tls: { key: certs.selfKey, cert: certs.selfCert }, auth: { token: TOKEN } });
      try {
        const device = (tls: string) => ({ ...deviceNode({ id: 'dev', url: self.url, auth: 'bearer' }), tls });
        let outcomes = await loadCollect(reliabilityFlow([ioRead()], [device('')]), { dev: { token: TOKEN } });
        let fate = await readOnce(outcomes);
        should(fate.errors[0].error.code).equal('TLS');
        fate.errors[0].error.message.should.match(/TLS: the device's certificate is self-signed \(“localhost”\)/);
        await helper.unload();
        outcomes = await loadCollect(
          reliabilityFlow([ioRead()], [tlsNode('tls', true), device('tls')]),
          { dev: { token: TOKEN }, tls: { cadata: certs.selfCert } },
          [TLS_MODULE, ...ALL_MODULES],
        );
        await waitConnected('dev');
        fate = await readOnce(outcomes);
        should(fate.errors).have.length(0);
        // A wrong token: 401 with the hint to check the token.
        await helper.unload();
        outcomes = await loadCollect(
          reliabilityFlow([ioRead()], [tlsNode('tls', true), device('tls')]),
          { dev: { token: 'not-the-token' }, tls: { cadata: certs.selfCert } },
          [TLS_MODULE, ...ALL_MODULES],
        );
        await waitAllStatus(['read'], isRed(/^credentials refused/), 'red: credentials refused');
        fate = await readOnce(outcomes);
        fate.errors[0].error.message.should.match(/failed: 401 Unauthorized \(the device refused the credentials: check the token of the config node\)$/);
      } finally {
        await helper.unload();
        await self.close();
      }
    });

    it('the simulator answers 401 with the envelope and WWW-Authenticate, and keeps the version root public', async () => {
      const get = (path: string, headers: Record<string, string> = {}) =>
        new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
          https
            .get(`${sim.url}${path}`, { ca: certs.ca, headers, agent: false }, (res) => {
              let body = '';
              res.on('data', (c) => (body += c));
              res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
            })
            .on('error', reject);
        });
      const denied = await get('/api/io/0.9/2/descriptor');
      denied.status.should.equal(401);
      JSON.parse(denied.body).should.eql({ status: 'error', code: 401, message: 'Unauthorized' });
      String(denied.headers['www-authenticate']).should.match(/^Basic realm=/);
      (await get('/api/io/0.9')).status.should.equal(200);
      (await get('/api/io/0.9/2/descriptor', { Authorization: `Basic ${Buffer.from(`operator:${MARKER}`).toString('base64')}` })).status.should.equal(200);
    });
  });

  describe('credentials never leak', () => {
    it('not in exported flows, logs, status, msgs or error messages (marker password and token)', async () => {
      const sim = await startSimulator({ port: 0, auth: { username: 'operator', password: MARKER } });
      const down = await closedPort();
      try {
        const ctl = new SimHarness(sim);
        await ctl.powerConfig(2).catch(() => undefined); // refused without credentials: fine
        const devices = [
          { ...deviceNode({ id: 'dev', url: sim.url, auth: 'basic' }), credentials: { username: 'operator', password: MARKER } },
          { ...deviceNode({ id: 'dev-wrong', url: sim.url, auth: 'bearer', timeout: 300 }), credentials: { token: TOKEN } },
          { ...deviceNode({ id: 'dev-down', url: `http://127.0.0.1:${down}`, auth: 'basic' }), credentials: { username: 'operator', password: MARKER } },
        ];
        const actions = [
          { ...ioRead('dev'), id: 'read' },
          { ...ioRead('dev-wrong'), id: 'read-wrong' },
          { ...ioRead('dev-down'), id: 'read-down' },
          { ...kindNode(KINDS.find((k) => k.type === 'device-info')!), device: 'dev' },
        ];
        // Deployed as the editor deploys: credentials inside the node objects.
        await loadCollect(reliabilityFlow([], []), {});
        await deploy(reliabilityFlow(actions, devices as FlowNode[]), 'full');
        const outcomes = attach(reliabilityFlow(actions, devices as FlowNode[]));
        await waitConnected('dev');
        await ctl.fault({ path: 'descriptor', latency_ms: 400, count: 1 });
        const sent: Array<[string, string]> = [];
        for (const id of ['read', 'read-wrong', 'read-down', 'device-info']) {
          const ids = fire([[id, { payload: {}, topic: 'leak check' } as NodeMessage]]);
          sent.push([id, ids[0]]);
        }
        await settle(outcomes, sent, 15000);
        // The failures whose messages are checked below did happen.
        const codes = outcomes.caught.map((m) => `${m.error.code} ${m.error.cause?.statusCode ?? ''}`.trim()).sort();
        codes.should.containEql('DEVICE_ERROR 401');
        codes.should.containEql('UNREACHABLE');
        helper.log().getCalls().length.should.be.above(0);
        const problems = [
          ...leaks('exported flows', runtime().nodes.getFlows()),
          ...leaks('outputs', [...outcomes.out.values()]),
          ...leaks('msgs at Catch (error messages, stacks)', outcomes.caught),
          ...leaks(
            'status',
            ['read', 'read-wrong', 'read-down', 'device-info'].map((id) => statusHistory(helper.getNode(id))),
          ),
          ...leaks(
            'log',
            helper
              .log()
              .getCalls()
              .map((c: { args: unknown[] }) => c.args),
          ),
          ...leaks(
            'node.error/warn calls',
            ['error', 'warn'].flatMap((m) => ((helper as any)._NodePrototype[m].getCalls?.() ?? []).map((c: { args: unknown[] }) => c.args)),
          ),
        ];
        // The admin route's answers, with the stored password and a wrong typed one.
        for (const body of [
          { id: 'dev', url: sim.url, service: 'io', slot: '2', auth: 'basic', credentials: { username: 'operator', password: '__PWRD__' } },
          { url: sim.url, service: 'io', slot: '2', auth: 'bearer', credentials: { token: TOKEN.slice(0, 5) } },
        ]) {
          const res = await helper.request().post('/modular-device/test').send(body);
          problems.push(...leaks(`POST /modular-device/test answer (${res.status})`, res.body));
        }
        should(problems).eql([]);
      } finally {
        await sim.close();
      }
    });
  });
});
