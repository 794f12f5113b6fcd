/**
 * Every TLS failure said plainly: against HTTPS servers of the test's own in
 * front of the simulator, with certificates made by the test, each case shows its own status
 * ("TLS: ..." with what to do) and reaches Catch as code TLS with a sentence naming the
 * certificate's dates or names; nothing reaches the device; API auto-detection never takes a
 * TLS refusal (nginx's 400 pages included) for another API version. Discover and Test read
 * the dialog's tls-config node alike: a private CA and a client certificate get both through.
 */
import https from 'https';
import should from 'should';
import { deviceNode, expectCode, FlowNode, helper, waitConnected } from '../helpers/node-red';
import { Simulator, startSimulator, startStub } from '../helpers/sim-control';
import { TEST_API } from '../helpers/api';
import { ALL_MODULES, fire, isRed, loadCollect, reliabilityFlow, serverSuite, settle, TLS_MODULE, waitAllStatus } from '../helpers/reliability';
import { certDate, chain, makePki, PkiSet, startTlsFront, TlsFront, tlsConfigNode, tlsCredentials } from '../helpers/tls';

type Generated = PkiSet['ca'];

interface Case {
  name: string;
  /** The server's TLS: its key and chain, and for client certificates `ca` + `requestCert`. */
  server: (p: PkiSet) => https.ServerOptions;
  /** Answer a missing or refused client certificate as nginx does (400 pages). */
  nginx?: boolean;
  /** What the tls-config node gives: the CA to trust, a client certificate. */
  ca?: (p: PkiSet) => string;
  client?: (p: PkiSet) => Generated;
  /** msg.error.cause.tls */
  problem: string;
  status: (p: PkiSet) => RegExp;
  words: (p: PkiSet) => RegExp;
}

const serve =
  (cert: (p: PkiSet) => Generated, extra: (p: PkiSet) => string[] = () => []) =>
  (p: PkiSet) => ({ key: cert(p).private, cert: chain(cert(p).cert, ...extra(p)) });
/** A server that wants a client certificate of the plant CA. */
const clientCertServer = (p: PkiSet): https.ServerOptions => ({ ...serve((q) => q.leaf)(p), ca: p.ca.cert, requestCert: true, rejectUnauthorized: true });
const nginxServer = (p: PkiSet): https.ServerOptions => ({ ...serve((q) => q.leaf)(p), ca: p.ca.cert });
const UNTRUSTED = /^TLS: certificate not trusted: give its CA$/;
const notTrusted = (issuer: string) => () =>
  new RegExp(`TLS: the device's certificate \\(issued by “${issuer}”\\) is not trusted: give the CA that issued it, and any intermediate`);

const CASES: Case[] = [
  { name: 'leaf only, its CA not given', server: serve((p) => p.leaf), problem: 'untrusted', status: () => UNTRUSTED, words: notTrusted('Plant CA') },
  {
    name: 'leaf only, a wrong CA given',
    server: serve((p) => p.leaf),
    ca: (p) => p.otherCa.cert,
    problem: 'untrusted',
    status: () => UNTRUSTED,
    words: notTrusted('Plant CA'),
  },
  {
    name: 'chain with an intermediate, the CA not given',
    server: serve(
      (p) => p.leafOfIntermediate,
      (p) => [p.intermediate.cert],
    ),
    problem: 'untrusted',
    status: () => UNTRUSTED,
    words: notTrusted('Plant intermediate'),
  },
  {
    name: 'chain with an intermediate, a wrong CA given',
    server: serve(
      (p) => p.leafOfIntermediate,
      (p) => [p.intermediate.cert],
    ),
    ca: (p) => p.otherCa.cert,
    problem: 'untrusted',
    status: () => UNTRUSTED,
    words: notTrusted('Plant intermediate'),
  },
  {
    name: 'expired',
    server: serve((p) => p.expired),
    ca: (p) => p.ca.cert,
    problem: 'expired',
    status: (p) => new RegExp(`^TLS: certificate expired ${certDate(p.expired.cert, 'validTo').slice(0, 10)}: renew it$`),
    words: (p) => new RegExp(`TLS: the device's certificate expired on ${certDate(p.expired.cert, 'validTo')}: renew it on the device`),
  },
  {
    name: 'not valid yet',
    server: serve((p) => p.notYetValid),
    ca: (p) => p.ca.cert,
    problem: 'notYetValid',
    status: (p) => new RegExp(`^TLS: certificate valid from ${certDate(p.notYetValid.cert, 'validFrom').slice(0, 10)}: check clock$`),
    words: (p) => new RegExp(`TLS: the device's certificate is valid only from ${certDate(p.notYetValid.cert, 'validFrom')} on: set the clock`),
  },
  {
    name: 'for other host names',
    server: serve((p) => p.otherNames),
    ca: (p) => p.ca.cert,
    problem: 'hostName',
    status: () => /^TLS: certificate is not for 127\.0\.0\.1$/,
    words: () => /TLS: the device's certificate is for device\.example, plc\.example, not for 127\.0\.0\.1: use one of those names in the URL/,
  },
  {
    name: 'self-signed',
    server: serve((p) => p.selfSigned),
    problem: 'selfSigned',
    status: () => /^TLS: self-signed certificate: give it as CA$/,
    words: () => /TLS: the device's certificate is self-signed \(“localhost”\): give that certificate itself as CA certificate/,
  },
  {
    name: 'client certificate required (TLS alert), none given',
    server: clientCertServer,
    ca: (p) => p.ca.cert,
    problem: 'clientCertRequired',
    status: () => /^TLS: client certificate required: give one$/,
    words: () => /TLS: the device requires a client certificate and none was given: give a certificate and its private key/,
  },
  {
    name: 'client certificate of a CA the server does not trust (hang-up after the handshake)',
    server: clientCertServer,
    ca: (p) => p.ca.cert,
    client: (p) => p.clientOfOtherCa,
    problem: 'clientCertClosed',
    status: () => /^TLS: client certificate refused \(closed\)$/,
    words: () => /TLS: the device closed the connection during the TLS handshake, most likely because it does not accept the client certificate/,
  },
  {
    name: 'nginx: no client certificate (400 "No required SSL certificate was sent")',
    server: nginxServer,
    nginx: true,
    ca: (p) => p.ca.cert,
    problem: 'clientCertRequired',
    status: () => /^TLS: client certificate required: give one$/,
    words: () => /TLS: the device requires a client certificate and none was given/,
  },
  {
    name: 'nginx: a client certificate it does not trust (400 "The SSL certificate error")',
    server: nginxServer,
    nginx: true,
    ca: (p) => p.ca.cert,
    client: (p) => p.clientOfOtherCa,
    problem: 'clientCertRefused',
    status: () => /^TLS: the device refused the client certificate$/,
    words: () => /TLS: the device refused the client certificate: give one issued by a CA the device trusts/,
  },
];

describe('reliability: TLS failures said plainly (runtime, own HTTPS servers in front of the simulator)', function () {
  this.timeout(30000);
  serverSuite();
  let pki: PkiSet;
  let sim: Simulator;
  let front: TlsFront | undefined;

  before(async () => {
    pki = await makePki();
    sim = await startSimulator({ port: 0, api: TEST_API });
  });
  afterEach(async () => {
    await helper.unload();
    await front?.close();
    front = undefined;
  });
  after(async () => {
    await sim.close();
  });

  const READ: FlowNode = {
    id: 'read',
    type: 'io-read',
    device: 'dev',
    source: 'values',
    pin: 'all',
    interval: '0',
    onlyOnChange: false,
    deadband: '0',
    output: 'record',
  };

  /** io-read behind a config node at `url` with a tls-config node giving `ca` and `client`. */
  function load(url: string, ca?: string, client?: Generated) {
    const flow = reliabilityFlow([READ], [tlsConfigNode('tls'), { ...deviceNode({ id: 'dev', url }), tls: 'tls' }]);
    return loadCollect(flow, { tls: tlsCredentials(ca, client) }, [TLS_MODULE, ...ALL_MODULES]);
  }

  async function readOnce(outcomes: Awaited<ReturnType<typeof load>>) {
    const [fate] = await settle(outcomes, [['read', fire([['read', { payload: {} }]])[0]]]);
    return fate;
  }

  for (const c of CASES) {
    it(`${c.name}: status "TLS: ..." with what to do, Catch gets code TLS and the sentence; nothing reaches the device`, async () => {
      front = await startTlsFront(sim.url, c.server(pki), c.nginx);
      const outcomes = await load(front.url, c.ca?.(pki), c.client?.(pki));
      await waitAllStatus(['read'], isRed(c.status(pki)), `red: ${c.name}`);
      // Its own category: not "unreachable", and auto-detection did not call it another API version.
      helper.getNode('dev').connection.state.state.should.equal('tls');
      const fate = await readOnce(outcomes);
      fate.errors.should.have.length(1);
      const error = fate.errors[0].error;
      expectCode(error, 'TLS');
      should(error.cause?.code).equal('TLS');
      should(error.cause?.tls).equal(c.problem);
      error.message.should.match(c.words(pki));
      front.forwarded.should.eql([], 'nothing got through to the device');
      // nginx answered every try at the first version root: no fallback to another version's root.
      if (c.nginx) [...new Set(front.refused)].should.eql([`/api/io/1.0`]);
    });
  }

  it('the expired case carries the date in msg.error.cause.validTo', async () => {
    front = await startTlsFront(sim.url, serve((p) => p.expired)(pki));
    const outcomes = await load(front.url, pki.ca.cert);
    const fate = await readOnce(outcomes);
    should(fate.errors[0].error.cause?.validTo).equal(certDate(pki.expired.cert, 'validTo'));
  });

  it('a renewed certificate is picked up without a redeploy: the retries find it, the node is green again', async () => {
    front = await startTlsFront(sim.url, serve((p) => p.expired)(pki));
    const outcomes = await load(front.url, pki.ca.cert);
    await waitAllStatus(['read'], isRed(/^TLS: certificate expired /), 'red: expired');
    front.renew(serve((p) => p.leaf)(pki));
    // The backoff doubles from 1 s: the next try comes within 8 s of the renewal.
    await waitConnected('dev', 20000);
    const fate = await readOnce(outcomes);
    should(fate.errors).have.length(0);
  });

  for (const nginx of [false, true]) {
    it(`a client certificate of the plant CA gets through (${nginx ? 'nginx-like' : 'TLS-level'} check): connected, the read answers`, async () => {
      front = await startTlsFront(sim.url, (nginx ? nginxServer : clientCertServer)(pki), nginx);
      const outcomes = await load(front.url, pki.ca.cert, pki.client);
      await waitConnected('dev');
      const fate = await readOnce(outcomes);
      should(fate.errors).have.length(0);
      should(fate.outputs[0].payload).have.property('pins');
      front.forwarded.length.should.be.above(0);
    });
  }

  it('https:// to a port without TLS: "use http://" (TLS), not unreachable', async () => {
    const outcomes = await load(sim.url.replace(/^http:/, 'https:'), pki.ca.cert);
    await waitAllStatus(['read'], isRed(/^TLS: no TLS on this port: use http:\/\/$/), 'red: no TLS');
    const fate = await readOnce(outcomes);
    should(fate.errors[0].error.cause?.tls).equal('notTls');
  });

  for (const status of [401, 403]) {
    it(`auto-detection does not take a ${status} on the version root for another API version: "credentials refused", only the 1.0 root asked`, async () => {
      const stub = await startStub(() => ({ status, body: { status: 'error', code: status, message: status === 401 ? 'Unauthorized' : 'Forbidden' } }));
      try {
        await loadCollect(reliabilityFlow([READ], [deviceNode({ id: 'dev', url: stub.url, auth: 'basic' })]), { dev: { username: 'u', password: 'p' } });
        await waitAllStatus(['read'], isRed(/^credentials refused: /), 'red: credentials refused');
        helper.getNode('dev').connection.state.state.should.equal('refused');
        [...new Set(stub.requests.map((r) => r.path))].should.eql(['/api/io/1.0']);
      } finally {
        await helper.unload();
        await stub.close();
      }
    });
  }

  describe("Discover and Test read the dialog's tls-config node alike (private CA, client certificate)", () => {
    /** The dialog's tls-config node, deployed (the routes look it up by id, as Test always did). */
    async function deployTls(ca?: string, client?: Generated) {
      await helper.load([TLS_MODULE, ...ALL_MODULES], [{ id: 't', type: 'tab' }, { ...tlsConfigNode('tls') }], { tls: tlsCredentials(ca, client) });
    }
    const dialog = (url: string, tls: string) => ({ id: 'new-device', url, service: 'io', slot: '2', apiVersion: 'auto', timeout: '3000', auth: 'none', tls });

    it('with the private CA both succeed; without it both say the certificate is not trusted', async () => {
      front = await startTlsFront(
        sim.url,
        serve(
          (p) => p.leafOfIntermediate,
          (p) => [p.intermediate.cert],
        )(pki),
      );
      await deployTls(pki.ca.cert);
      const discovered = await helper.request().post('/modular-device/discover').send(dialog(front.url, 'tls')).expect(200);
      discovered.body.errors.should.eql({});
      discovered.body.modules.map((m: { service: string; slot: number }) => `${m.service}/${m.slot}`).should.eql(['io/2', 'io/3', 'bmc/0', 'power/1']);
      const tested = await helper.request().post('/modular-device/test').send(dialog(front.url, 'tls')).expect(200);
      tested.body.should.eql({ apiVersion: TEST_API, api: `${TEST_API}.0`, service: 'io', slot: 2 });
      // No TLS configuration chosen: both refuse alike, with the sentence, not "no service".
      const lost = await helper.request().post('/modular-device/discover').send(dialog(front.url, '')).expect(502);
      lost.body.error.should.match(
        /^no service answered at this URL: TLS: the device's certificate \(issued by “Plant intermediate”\) is not trusted: give the CA that issued it/,
      );
      // The same sentence as words, for the dialog to say in the editor's language.
      lost.body.words.key.should.equal('runtime.common.tls.untrusted');
      lost.body.words.vars.issuer.should.equal('Plant intermediate');
      const failed = await helper.request().post('/modular-device/test').send(dialog(front.url, '')).expect(502);
      failed.body.error.should.match(/^TLS: the device's certificate \(issued by “Plant intermediate”\) is not trusted/);
    });

    it('a device that wants a client certificate: both succeed with the one in the tls-config node', async () => {
      front = await startTlsFront(sim.url, nginxServer(pki), true);
      await deployTls(pki.ca.cert, pki.client);
      const discovered = await helper.request().post('/modular-device/discover').send(dialog(front.url, 'tls')).expect(200);
      discovered.body.modules.should.have.length(4);
      await helper.request().post('/modular-device/test').send(dialog(front.url, 'tls')).expect(200);
      front.refused.should.eql([]);
    });
  });
});
