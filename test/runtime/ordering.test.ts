/**
 * Ordering and back-pressure through the real runtime and the simulator: writes to one
 * module leave in arrival order, and a full queue refuses the overflowing msgs through
 * Catch while the others succeed.
 */
import 'should';
import { expectCode, inject, ioFlow, loadFlow, waitConnected, waitOutcomes } from '../helpers/node-red';
import { runtimeSuite } from '../helpers/runtime-suite';

describe('io-output ordering and queue (runtime, simulator)', function () {
  this.timeout(30000);
  const { sim, ctl } = runtimeSuite({ server: true, powered: true });

  it('1,000 alternating high/low writes leave in order and end in the state of the last msg', async function () {
    this.timeout(90000);
    const N = 1000;
    // Every msg may wait its turn up to 60 s (the config node's timeout): what is asserted is the
    // order, not that 1,000 requests fit in the default 5 s on a machine busy with other suites.
    const received = await loadFlow(ioFlow({ url: sim.url, queueLimit: 2000, timeout: 60000 }, { pin: '4', state: 'low' }));
    await waitConnected();
    await ctl.clearLog();
    // Odd msgs high, even msgs low: the last (n = 999) is high, the opposite of the configured state.
    const states = Array.from({ length: N }, (_, n) => (n % 2 === 1 ? 'high' : 'low'));
    states.forEach((state, n) => inject({ payload: state, n }));
    await waitOutcomes(received, N, 60000);
    received.caught.should.have.length(0);
    received.sent
      .map((m) => m.n)
      .should.eql(
        states.map((_, n) => n),
        'outputs in msg order',
      );
    const log = await ctl.requests();
    log.should.have.length(N);
    log.map((e) => (e.body as { state: string }).state).should.eql(states, 'requests on the wire in msg order');
    log.every((e) => e.status === 200 && e.path === '/api/io/0.9/2/output/state' && (e.body as { pin: number }).pin === 4).should.be.true();
    const pin = await ctl.pinState(2, 4);
    pin.output.should.equal('high');
  });

  it('queue full: the overflowing msgs fail through Catch with QUEUE_FULL, the others succeed in order', async () => {
    const received = await loadFlow(ioFlow({ url: sim.url, queueLimit: 5 }, { pin: '1', state: 'high' }));
    await waitConnected();
    await ctl.clearLog();
    // Hold the first request so that every msg below arrives while it is on the wire.
    await ctl.fault({ path: 'output/state', latency_ms: 500, count: 1 });
    for (let n = 0; n < 10; n++) inject({ payload: { pin: (n % 6) + 1, state: 'high' }, n });
    await waitOutcomes(received, 10, 10000);
    // One on the wire + 5 waiting are accepted; msgs 6..9 find the queue full.
    received.sent.map((m) => m.n).should.eql([0, 1, 2, 3, 4, 5]);
    received.caught.map((m) => m.n).should.eql([6, 7, 8, 9]);
    for (const msg of received.caught) {
      expectCode(msg.error, 'QUEUE_FULL');
      msg.error.source.id.should.equal('out');
      msg.error.message.should.match(/queue full: 5 requests are already waiting for this module; this msg was refused/);
    }
    (await ctl.requests()).map((e) => (e.body as { pin: number }).pin).should.eql([1, 2, 3, 4, 5, 6], 'only the accepted msgs reached the device');
    // Nothing stays refused: once the queue drains, a new msg is accepted again.
    inject({ payload: false, n: 10 });
    await waitOutcomes(received, 11);
    received.sent.map((m) => m.n).should.eql([0, 1, 2, 3, 4, 5, 10]);
  });
});
