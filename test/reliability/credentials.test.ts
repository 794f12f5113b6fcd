/**
 * Credentials are proved on connect. Behind the device's nginx the version root
 * is public and everything else needs Basic auth, so a config node that only read the root
 * showed every node green with a wrong password. Now each config node reads its module's
 * descriptor once per connect: a refused password turns every node red "credentials
 * refused" before any msg, Catch still gets DEVICE_ERROR 401 with the hint when a msg is
 * sent, and a redeploy with the right password turns everything green. Both APIs.
 */
import should from 'should';
import { TEST_API } from '../helpers/api';
import { helper, sleep, waitFor } from '../helpers/node-red';
import { Simulator, startSimulator } from '../helpers/sim-control';
import { fire, isGreen, isRed, kindDevices, KINDS, kindNode, loadCollect, reliabilityFlow, settle, waitAllStatus } from '../helpers/reliability';

const USER = 'operator';
const PASSWORD = 'right-password';
const DEVICES = ['dev-io', 'dev-io3', 'dev-bmc', 'dev-power'];
/** Every kind, msg-driven only: nothing polls, so every device request is the test's. */
const QUIET = KINDS.map((k) => ({
  ...k,
  settings: { ...k.settings, applyOnConnect: false, interval: k.type === 'notification-poll' ? '3600000' : '0', keepAlive: false },
}));
const IDS = QUIET.map((k) => k.type);

describe(`reliability: credentials proved on connect (API ${TEST_API})`, function () {
  this.timeout(30000);
  let sim: Simulator;
  before(async () => {
    sim = await startSimulator({ port: 0, api: TEST_API, auth: { username: USER, password: PASSWORD } });
  });
  afterEach(() => helper.unload());
  after(() => sim.close());

  const flow = () => reliabilityFlow(QUIET.map(kindNode), kindDevices(sim.url, { auth: 'basic' }));
  const credentials = (password: string) => Object.fromEntries(DEVICES.map((id) => [id, { username: USER, password }]));

  it('a wrong password: every node red "credentials refused" before any msg; one descriptor read per config node', async () => {
    sim.log.clear();
    const outcomes = await loadCollect(flow(), credentials('wrong'));
    await waitAllStatus(IDS, isRed(/^credentials refused: 401 /), 'every node: credentials refused');
    // One refused descriptor read per module proved it; besides, only notification-poll's
    // first round (a poller reads once at start) met the door.
    const refused = sim.log
      .entries()
      .filter((e) => e.status === 401)
      .map((e) => e.path.replace(/^\/api\/\w+\/\d\.\d\//, ''));
    refused
      .filter((p) => p.endsWith('/descriptor'))
      .sort()
      .should.eql(['0/descriptor', '1/descriptor', '2/descriptor', '3/descriptor']);
    refused
      .filter((p) => !p.endsWith('/descriptor'))
      .every((p) => p.startsWith('2/notification'))
      .should.be.true(refused.join(', '));
    // No msg, no error; but the poller's refused first round (told once, as any failing
    // poll): waited for, so that the count below is the msg's alone.
    await waitFor(() => outcomes.errors > 0, "notification-poll's refused first round at Catch");
    outcomes.caught.map((m) => m.error.source.type).should.eql(['notification-poll']);
    const before = outcomes.errors;

    // A msg still goes to the device (the password may have been fixed there) and its
    // refusal reaches Catch with the hint; the status keeps saying why.
    const ids = fire([['io-read', { payload: {} }]]);
    const [fate] = await settle(outcomes, [['io-read', ids[0]]]);
    outcomes.errors.should.equal(before + 1);
    should(fate.errors[0].error.code).equal('DEVICE_ERROR');
    fate.errors[0].error.message.should.match(
      /failed: 401 Unauthorized \(the device refused the credentials: check the user name and password of the config node\)$/,
    );
    await waitAllStatus(['io-read'], isRed(/^credentials refused/), 'io-read: still credentials refused');
  });

  it('the right password: every node green, the descriptor read once per config node', async () => {
    sim.log.clear();
    await loadCollect(flow(), credentials(PASSWORD));
    await waitAllStatus(IDS, isGreen, 'every node green');
    // A health check or two later, the proof was not repeated while connected.
    await sleep(300);
    const proofs = sim.log.entries().filter((e) => e.path.endsWith('/descriptor'));
    proofs.length.should.equal(DEVICES.length);
    proofs.every((e) => e.status === 200).should.be.true();
  });
});
