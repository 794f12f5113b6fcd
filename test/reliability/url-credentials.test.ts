/**
 * A password typed into the URL never gets anywhere: a marker password in many URL shapes
 * (well-formed, `http:u:pw@h`, `http:\\u:pw@h`, `https:/u:pw@[::1`, blanks, odd ports,
 * queries, no scheme, ...) is searched for in everything the package says about the URL:
 * the parser's refusal (property-based, 3,000 shapes), and for a sample deployed on a real
 * Node-RED, the status texts, the msg at Catch, the log, and both admin routes' answers.
 */
import should from 'should';
import fc from 'fast-check';
import { parseBaseUrl } from '../../nodes/lib/device/client';
import { DeviceError } from '../../nodes/lib/base/errors';
import { helper, lastStatus, statusHistory, waitFor } from '../helpers/node-red';
import { fire, guardProcess, kindDevices, loadCollect, reliabilityFlow, settle } from '../helpers/reliability';

/** Found in no text the package writes by itself. */
const MARKER = 'q7MARKERpw';

const shapes = fc.record({
  scheme: fc.constantFrom(
    'http://',
    'https://',
    'HTTP://',
    'http:',
    'http:/',
    'https:/',
    'http:\\\\',
    'http:\\',
    '//',
    '',
    'ftp://',
    'javascript:',
    ' http://',
    'http:///',
  ),
  user: fc.constantFrom('admin', '', 'a b', 'a%40b', 'x:y', '\t'),
  password: fc.constantFrom(MARKER, ` ${MARKER}`, `${MARKER}:`, `${MARKER}%20`, `pre${MARKER}`, `${MARKER}@x`),
  host: fc.constantFrom('127.0.0.1', '[::1', '[::1]', 'device', 'bad host', '127.0.0.1:8080', '127.0.0.1:port', '', '[fe80::1%eth0]', '127.0.0.1:99999'),
  rest: fc.constantFrom('', '/', '/api', '?q=1', '#frag', '/a b', '\n', '/%00'),
  separator: fc.constantFrom(':', '::', ':\t'),
});

function urlOf(s: { scheme: string; user: string; password: string; host: string; rest: string; separator: string }): string {
  return `${s.scheme}${s.user}${s.separator}${s.password}@${s.host}${s.rest}`;
}

describe('reliability: a password in the URL never gets anywhere (runtime)', function () {
  this.timeout(60000);
  guardProcess();

  it('parseBaseUrl refuses every shape with userinfo, and its message never holds the password (3,000 shapes)', () => {
    fc.assert(
      fc.property(shapes, (s) => {
        const url = urlOf(s);
        let error: unknown;
        try {
          parseBaseUrl(url);
        } catch (e) {
          error = e;
        }
        should(error).be.instanceOf(DeviceError);
        (error as DeviceError).code.should.equal('NOT_CONFIGURED');
        JSON.stringify({ message: (error as DeviceError).message, cause: (error as DeviceError).cause }).should.not.containEql(MARKER);
      }),
      { numRuns: 3000 },
    );
  });

  describe('deployed on Node-RED', () => {
    before(() => helper.startServer());
    after(() => helper.stopServer());
    afterEach(() => helper.unload());

    const sample = fc.sample(shapes, { numRuns: 25, seed: 13 }).map(urlOf);
    for (const url of sample) {
      it(`${JSON.stringify(url)}: not in statuses, msg.error, the log or the admin routes' answers`, async () => {
        const devices = kindDevices(url);
        const outcomes = await loadCollect(
          reliabilityFlow([{ id: 'out', type: 'io-output', device: 'dev-io', pin: '1', mode: 'state', state: 'high' }], devices),
        );
        await waitFor(() => lastStatus(helper.getNode('out'))?.fill === 'red', 'a red status');
        const [id] = fire([['out', { payload: true }]]);
        await settle(outcomes, [['out', id]]);
        should(outcomes.caught[0]?.error.code).equal('NOT_CONFIGURED');
        const discover = await helper.request().post('/modular-device/discover').send({ url });
        const tested = await helper.request().post('/modular-device/test').send({ url, service: 'io', slot: '2' });
        const seen = JSON.stringify([
          statusHistory(helper.getNode('out')),
          outcomes.caught,
          helper
            .log()
            .getCalls()
            .map((c: { args: unknown[] }) => c.args),
          ['error', 'warn'].flatMap((m) => ((helper as any)._NodePrototype[m].getCalls?.() ?? []).map((c: { args: unknown[] }) => c.args)),
          discover.body,
          tested.body,
        ]);
        seen.should.not.containEql(MARKER);
        seen.length.should.be.above(100, 'the texts checked are there');
      });
    }
  });
});
