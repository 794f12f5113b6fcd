/**
 * Security: credentials never leak (exported flows, logs, status, msgs, error messages);
 * Basic auth and bearer tokens over HTTPS against the simulator with TLS and auth on
 * (certificates made in the test); Node-RED adminAuth guards the package's admin routes
 * and discovery cannot be aimed at another host by someone without editor rights;
 * dangerous operations never run on deploy and need their node's confirmation; path
 * segments come only from validated integers and fixed words.
 */
import https from 'https';
import should from 'should';
import { DeviceClient } from '../../nodes/lib/client';
import { DeviceError } from '../../nodes/lib/errors';
import type { NodeMessage } from '../../nodes/lib/red';
import { deviceNode, FlowNode, helper, sleep, statusHistory, waitConnected } from '../helpers/node-red';
import { closedPort, SimControl, Simulator, startSimulator, startStub, StubServer, versionRecord } from '../helpers/sim-control';
import {
  adminAuthOff,
  adminAuthOn,
  ALL_MODULES,
  attach,
  deploy,
  fire,
  guardProcess,
  isRed,
  kindDevices,
  kindNode,
  KINDS,
  loadCollect,
  makeCerts,
  reliabilityFlow,
  runtime,
  settle,
  TestCerts,
  TLS_MODULE,
  waitAllStatus,
  withRealAuth,
} from '../helpers/reliability';

const MARKER = 'Pw-MARKER-7f3a9c';
const TOKEN = 'Tk-MARKER-51be02';
/** Every form a secret could take on its way: itself, inside a Basic header, URL-encoded. */
const FORMS = [MARKER, TOKEN, Buffer.from(`operator:${MARKER}`).toString('base64'), encodeURIComponent(MARKER), 'MARKER'];

function leaks(where: string, value: unknown): string[] {
  let text: string;
  try {
    text = JSON.stringify(value, (_k, v) => (v instanceof Error ? Object.assign({}, v, { message: v.message, stack: v.stack }) : typeof v === 'bigint' ? String(v) : v));
  } catch {
    text = String(value);
  }
  return FORMS.filter((f) => text?.includes(f)).map((f) => `${where} contains ${f}`);
}

describe('reliability: security (runtime, simulator)', function () {
  this.timeout(60000);
  guardProcess();
  let certs: TestCerts;

  before(async () => {
    certs = await makeCerts();
    await helper.startServer();
  });
  after(async () => {
    await helper.stopServer();
  });
  afterEach(async () => {
    await helper.unload();
  });

  /** A tls-config node as the editor saves it, the CA pasted in (credentials). */
  function tlsNode(id: string, verify: boolean): FlowNode {
    return { id, type: 'tls-config', name: '', cert: '', key: '', ca: '', certname: '', keyname: '', caname: '', servername: '', verifyservercert: verify, alpnprotocol: '' };
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
      sim.log.entries().filter((e) => e.status === 401).map((e) => e.path).should.eql(['/api/io/0.9/2/descriptor', '/api/io/0.9/2/input/values']);
    });

    it('the CA not given: the certificate is refused (UNREACHABLE, "not trusted"), nothing reaches the device', async () => {
      sim.log.clear();
      const outcomes = await loadCollect(flow({ tls: null }), { dev: { username: 'operator', password: MARKER } });
      await waitAllStatus(['read'], isRed(/^unreachable: TLS: certificate not trusted \(give its CA/), 'red: certificate not trusted');
      const fate = await readOnce(outcomes);
      should(fate.errors[0].error.code).equal('UNREACHABLE');
      fate.errors[0].error.message.should.match(/TLS: certificate not trusted \(give its CA in the TLS configuration\)/);
      sim.log.entries().should.eql([], 'no HTTP request got through the refused handshake');
      // The same with a tls-config node that has no CA and verification on.
      await helper.unload();
      const again = await loadCollect(reliabilityFlow([ioRead()], [tlsNode('tls', true), { ...deviceNode({ id: 'dev', url: sim.url, auth: 'basic' }), tls: 'tls' }]), {
        dev: { username: 'operator', password: MARKER },
      }, [TLS_MODULE, ...ALL_MODULES]);
      should((await readOnce(again)).errors[0].error.code).equal('UNREACHABLE');
    });

    it('verification turned off explicitly in the tls-config node: the unknown certificate is accepted', async () => {
      const outcomes = await loadCollect(flow({ tls: tlsNode('tls', false) }), { dev: { username: 'operator', password: MARKER } }, [TLS_MODULE, ...ALL_MODULES]);
      await waitConnected('dev');
      should((await readOnce(outcomes)).errors).have.length(0);
    });

    it('a self-signed certificate: refused, accepted once it is given as the CA', async () => {
      const self = await startSimulator({ port: 0, tls: { key: certs.selfKey, cert: certs.selfCert }, auth: { token: TOKEN } });
      try {
        const device = (tls: string) => ({ ...deviceNode({ id: 'dev', url: self.url, auth: 'bearer' }), tls });
        let outcomes = await loadCollect(reliabilityFlow([ioRead()], [device('')]), { dev: { token: TOKEN } });
        let fate = await readOnce(outcomes);
        should(fate.errors[0].error.code).equal('UNREACHABLE');
        fate.errors[0].error.message.should.match(/TLS: self-signed certificate/);
        await helper.unload();
        outcomes = await loadCollect(reliabilityFlow([ioRead()], [tlsNode('tls', true), device('tls')]), { dev: { token: TOKEN }, tls: { cadata: certs.selfCert } }, [TLS_MODULE, ...ALL_MODULES]);
        await waitConnected('dev');
        fate = await readOnce(outcomes);
        should(fate.errors).have.length(0);
        // A wrong token: 401 with the hint to check the token.
        await helper.unload();
        outcomes = await loadCollect(reliabilityFlow([ioRead()], [tlsNode('tls', true), device('tls')]), { dev: { token: 'not-the-token' }, tls: { cadata: certs.selfCert } }, [TLS_MODULE, ...ALL_MODULES]);
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
        const ctl = new SimControl(sim);
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
          ...leaks('status', ['read', 'read-wrong', 'read-down', 'device-info'].map((id) => statusHistory(helper.getNode(id)))),
          ...leaks('log', helper.log().getCalls().map((c: { args: unknown[] }) => c.args)),
          ...leaks('node.error/warn calls', ['error', 'warn'].flatMap((m) => ((helper as any)._NodePrototype[m].getCalls?.() ?? []).map((c: { args: unknown[] }) => c.args))),
        ];
        // The admin route's answers, with the stored password and a wrong typed one.
        for (const body of [{ id: 'dev', url: sim.url, service: 'io', slot: '2', auth: 'basic', credentials: { username: 'operator', password: '__PWRD__' } }, { url: sim.url, service: 'io', slot: '2', auth: 'bearer', credentials: { token: TOKEN.slice(0, 5) } }]) {
          const res = await helper.request().post('/modular-device/test').send(body);
          problems.push(...leaks(`POST /modular-device/test answer (${res.status})`, res.body));
        }
        should(problems).eql([]);
      } finally {
        await sim.close();
      }
    });
  });

  describe('admin routes with Node-RED adminAuth on', () => {
    let stub: StubServer;
    before(async () => {
      adminAuthOn();
      stub = await startStub((req) => (/\/api\/[a-z]+\/0\.9$/.test(req.path) ? { status: 200, body: versionRecord([0, 9, 0], [2]) } : { status: 404, body: { status: 'error', code: 404, message: 'Not Found' } }));
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
        answers.push((await withAuth(helper.request().get('/modular-device/discover').query({ url: target }))).status);
        answers.push((await withAuth(helper.request().post('/modular-device/test').send({ url: target, service: 'io', slot: '2' }))).status);
      }
      answers.every((s) => s === 401 || s === 403).should.be.true(`answers ${answers}`);
      await sleep(100);
      stub.requests.should.eql([], 'no request reached the named host');
      // With editor rights it works (the guard is what stopped the others).
      const ok = await helper.request().get('/modular-device/discover').query({ url: target }).set('Authorization', 'Bearer ADMIN-TOKEN');
      ok.status.should.equal(200);
      stub.requests.length.should.be.above(0);
    });
  });

  describe('dangerous operations and path segments', () => {
    let sim: Simulator;
    let ctl: SimControl;
    before(async () => {
      sim = await startSimulator({ port: 0 });
      ctl = new SimControl(sim);
    });
    after(async () => {
      await sim.close();
    });
    beforeEach(async () => {
      await ctl.reset();
    });

    // Every operation that needs confirm; the hard reset last of the bmc ones, as it restarts the device.
    const DANGEROUS = [
      { id: 'reset', type: 'io-reset', device: 'dev-io3', path: '/reset' },
      { id: 'boot', type: 'bmc-system', device: 'dev-bmc', operation: 'usb_bootloader', path: '/usb_bootloader' },
      { id: 'save', type: 'bmc-watchdog', device: 'dev-bmc', operation: 'save', keepAlive: false, timeout: '0', path: '/watchdog/save' },
      { id: 'hub', type: 'bmc-usbhub', device: 'dev-bmc', operation: 'reset', path: '/usbhub/reset' },
      { id: 'shutdown', type: 'bmc-watchdog', device: 'dev-bmc', operation: 'shutdown', keepAlive: false, timeout: '0', path: '/watchdog/shutdown' },
      { id: 'hard', type: 'bmc-system', device: 'dev-bmc', operation: 'hard_reset', path: '/hard_reset' },
    ];
    const dangerousFlow = (confirm: boolean) =>
      reliabilityFlow(
        DANGEROUS.map(({ path: _p, ...d }) => ({ ...d, confirm })),
        kindDevices(sim.url),
      );
    const touched = async () => (await ctl.log()).filter((e) => DANGEROUS.some((d) => e.path.endsWith(d.path))).map((e) => `${e.method} ${e.path}`);

    it('never on deploy, redeploy or reconnection, even with confirm on', async () => {
      const flow = dangerousFlow(true);
      await loadCollect(flow);
      for (const id of ['dev-io3', 'dev-bmc']) await waitConnected(id);
      await deploy(flow, 'full');
      await sim.pause();
      await sleep(300);
      await sim.resume();
      await sleep(1500); // the retry finds the device again
      for (const id of ['dev-io3', 'dev-bmc']) await waitConnected(id);
      (await touched()).should.eql([]);
    });

    it('refused without the node\'s confirm setting (nothing sent); sent with it', async () => {
      let outcomes = await loadCollect(dangerousFlow(false));
      for (const id of ['dev-io3', 'dev-bmc']) await waitConnected(id);
      let ids = fire(DANGEROUS.map((d) => [d.id, { payload: { confirm: true, reset: 'yes' }, operation: d.operation }]));
      let fates = await settle(outcomes, DANGEROUS.map((d, i) => [d.id, ids[i]]));
      for (const fate of fates) {
        should(fate.errors[0]?.error.code).equal('INVALID_INPUT');
        fate.errors[0].error.message.should.match(/^DeviceError: "[a-z_]+" refused: tick ".+" in the node's dialog to allow it$/);
      }
      (await touched()).should.eql([]);
      await helper.unload();
      outcomes = await loadCollect(dangerousFlow(true));
      for (const id of ['dev-io3', 'dev-bmc']) await waitConnected(id);
      ids = fire(DANGEROUS.map((d) => [d.id, { payload: {}, operation: d.operation }]));
      fates = await settle(outcomes, DANGEROUS.map((d, i) => [d.id, ids[i]]));
      (await touched()).sort().should.eql([
        'GET /api/bmc/0.9/0/watchdog/save',
        'GET /api/io/0.9/3/reset',
        'POST /api/bmc/0.9/0/hard_reset',
        'POST /api/bmc/0.9/0/usb_bootloader',
        'POST /api/bmc/0.9/0/usbhub/reset',
        'POST /api/bmc/0.9/0/watchdog/shutdown',
      ]);
    });

    it('path segments only from validated integers and fixed words: a crafted pin, port, slot or operation sends nothing', async () => {
      const outcomes = await loadCollect(reliabilityFlow(KINDS.map(kindNode), kindDevices(sim.url)));
      for (const id of ['dev-io', 'dev-io3', 'dev-bmc', 'dev-power']) await waitConnected(id);
      await sleep(300);
      const since = (await ctl.log()).reduce((max, e) => Math.max(max, e.seq), 0);
      const crafted = ['1/../../hard_reset', '0?x', '../reset', '2%2F..%2Fhard_reset', '3#x', '1 ', ' 1'];
      const sent: Array<[string, string]> = [];
      for (const value of crafted) {
        for (const kind of KINDS) {
          const msg = { payload: { pin: value, port: value, slot: value, path: value, endpoint: value }, operation: kind.type === 'bmc-usbhub' ? 'port' : undefined } as NodeMessage;
          if (msg.operation === undefined) delete msg.operation;
          sent.push([kind.type, fire([[kind.type, msg]])[0]]);
          const op = { payload: {}, operation: value } as NodeMessage;
          sent.push([kind.type, fire([[kind.type, op]])[0]]);
        }
      }
      const fates = await settle(outcomes, sent, 30000);
      // Nodes that take a pin or port refuse the msg; the others ignore what they do not read.
      for (const [i, fate] of fates.entries()) {
        const type = sent[i][0];
        const takesPin = i % 2 === 0 && ['io-output', 'io-threshold', 'io-input', 'io-read', 'bmc-usbhub'].includes(type);
        const takesOperation = i % 2 === 1 && ['bmc-usbhub', 'bmc-watchdog', 'bmc-system', 'power-fan', 'power-limits'].includes(type);
        if (takesPin || takesOperation) {
          should(fate.errors[0]?.error.code).equal('INVALID_INPUT', `${type} msg ${i}`);
        }
      }
      const log = (await ctl.log(since)).filter((e) => e.seq > since);
      const bad = log.filter((e) => /\.\.|\?|%|#|hard_reset|\/reset$/.test(e.path) || !/^\/api\/(io\/0\.9(\/[23](\/[a-z_/0-9-]+)?)?|bmc\/0\.9(\/0\/[a-z_/0-9-]+)?|power\/0\.9(\/1\/[a-z_/0-9-]+)?)$/.test(e.path));
      // io-reset (confirm on) may send its own fixed `reset`: the crafted values changed nothing of its path.
      bad.filter((e) => e.path !== '/api/io/0.9/3/reset').map((e) => `${e.method} ${e.path}`).should.eql([]);

      // And the client itself refuses such a segment if a node ever forgot to validate.
      const client = new DeviceClient({ url: sim.url, service: 'io', slot: 2, apiVersion: '0.9', timeout: 1000 });
      try {
        for (const endpoint of [['input', '1/../../hard_reset'], ['usbhub', 'port', 3.5], ['x?y'], ['..'], [-1]] as Array<Array<string | number>>) {
          const error = await client.request({ method: 'GET', endpoint }).then(
            () => undefined,
            (e: unknown) => e,
          );
          should(error).be.instanceOf(DeviceError);
          should((error as DeviceError).code).equal('INVALID_INPUT');
        }
      } finally {
        client.close();
      }
      (await ctl.log(since)).filter((e) => /\.\.|\?|hard_reset/.test(e.path)).should.eql([]);
    });
  });
});
