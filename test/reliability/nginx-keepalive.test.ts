/**
 * Behind the device's nginx: it closes idle kept-alive connections after its
 * keepalive_timeout. A request handed a socket whose close is on its way used to fail with
 * "connection reset" (21 of 120 msgs at 1 s). Here the simulator plays nginx with a 1 s idle
 * timeout and no Keep-Alive header (so the client cannot see it coming), and nodes send just
 * at the timeout: no msg may fail, and the device acts on each exactly once.
 */
import should from 'should';
import { TEST_API } from '../helpers/api';
import { helper, sleep } from '../helpers/node-red';
import { Simulator, startSimulator } from '../helpers/sim-control';
import { fire, kindDevices, KINDS, kindNode, loadCollect, reliabilityFlow, settle } from '../helpers/reliability';

const IDLE_MS = 1000;
const ROUNDS = 8;

describe(`reliability: behind nginx with a ${IDLE_MS} ms keep-alive timeout (API ${TEST_API})`, function () {
  this.timeout(60000);
  let sim: Simulator;
  before(async () => {
    sim = await startSimulator({ port: 0, api: TEST_API, nginx: { keepAliveTimeoutMs: IDLE_MS } });
  });
  after(() => sim.close());
  afterEach(() => helper.unload());

  it('io-power, io-output and io-read, each msg sent just at the idle timeout: none fails, each acted on once', async () => {
    const kinds = KINDS.filter((k) => ['io-power', 'io-output', 'io-read'].includes(k.type)).map((k) => ({ ...k, settings: { ...k.settings, interval: '0' } }));
    const outcomes = await loadCollect(reliabilityFlow(kinds.map(kindNode), kindDevices(sim.url)));
    await sleep(300);
    sim.log.clear();
    let failed = 0;
    for (let round = 0; round < ROUNDS; round++) {
      // Idle for the server's timeout, give or take the scheduler: the race of a reused connection the server is closing.
      await sleep(IDLE_MS + (round % 4) * 5 - 10);
      const ids = fire(kinds.map((k) => [k.type, k.msg()] as [string, ReturnType<typeof k.msg>]));
      const fates = await settle(
        outcomes,
        kinds.map((k, i) => [k.type, ids[i]] as [string, string]),
      );
      failed += fates.filter((f) => f.errors.length > 0).length;
    }
    const writes = sim.log.entries().filter((e) => e.method === 'POST' && e.path.endsWith('/output/state'));
    console.log(`      [nginx] ${ROUNDS * kinds.length} msgs at the ${IDLE_MS} ms idle timeout: ${failed} failed; ${writes.length} writes reached the device`);
    should(failed).equal(0);
    writes.length.should.equal(ROUNDS, 'each write acted on exactly once');
  });
});
