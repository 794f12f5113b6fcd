import should from 'should';
import { HealthEvent, onTally, publish, subscribe, tally } from '../../nodes/lib/config-node/health';
import { speak } from '../helpers/i18n';

const io2 = { config: 'c1', service: 'io', slot: 2, device: '10.0.4.17' };
const exchange = { kind: 'exchange', method: 'GET', path: '/api/x', ms: 3, ok: true, queued: 0 } as const;

describe('health bus (nodes/lib/config-node/health.ts)', function () {
  before(() => speak());
  const stops: Array<() => void> = [];
  afterEach(() => stops.splice(0).forEach((stop) => stop()));

  it("says a listener's failure once, where its subscriber asked, and still tells the other listeners", function () {
    const said: string[] = [];
    const heard: HealthEvent[] = [];
    stops.push(
      subscribe(
        () => {
          throw new Error('listener broke');
        },
        (text) => said.push(text),
      ),
      subscribe((event) => heard.push(event)),
    );
    publish('reset', io2, 'driver_session changed');
    publish('reapplied', io2, '2 settings', { settings: 2, failed: 0 });
    heard.map((e) => e.kind).should.eql(['reset', 'reapplied']);
    // Once: a listener that fails, fails on every event; the log would drown in it.
    said.should.eql(['a listener of the health news (reset) failed: listener broke; the others still hear it, further failures of this listener are not said']);
  });

  it("says a counting listener's failure too, once, and the other counters still count", function () {
    const said: string[] = [];
    let counted = 0;
    stops.push(
      onTally(
        () => {
          throw new TypeError('counter broke');
        },
        (text) => said.push(text),
      ),
      onTally(() => counted++),
    );
    tally(io2, exchange);
    tally(io2, exchange);
    counted.should.equal(2);
    said.should.have.length(1);
    said[0].should.containEql('(exchange) failed: counter broke');
  });

  it('says the failure as a Node warning when the subscriber named no place', async function () {
    const warned = new Promise<Error>((resolve) => process.once('warning', resolve));
    stops.push(
      subscribe(() => {
        throw 'not even an Error';
      }),
    );
    publish('connection', io2, 'connected (API 0.9)', { state: 'connected', apiVersion: '0.9' });
    const warning = await warned;
    warning.name.should.equal('ModularDeviceWarning');
    warning.message.should.containEql('(connection) failed: not even an Error');
  });

  it('a report that fails too stops nothing', function () {
    const heard: string[] = [];
    stops.push(
      subscribe(
        () => {
          throw new Error('listener broke');
        },
        () => {
          throw new Error('report broke');
        },
      ),
      subscribe((event) => heard.push(event.kind)),
    );
    should(() => publish('reset', io2, 'driver_session changed')).not.throw();
    heard.should.eql(['reset']);
  });
});
