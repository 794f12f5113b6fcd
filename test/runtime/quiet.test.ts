/**
 * Quiet running tells nothing: every shipped example (npm start's demo tabs among
 * them) deployed against one simulator, then many health checks with no fault at all. No
 * `reset`, `reapplied` or `notifications-lost` event (but the suspend of a power-management
 * msg an example sends on deploy), and each io-power's configuration
 * POSTed once (on connect, or by the msg an example sends on deploy), never again: on API
 * 1.0 the new device_session that follows the package's own power-management is adopted,
 * not taken for a reset. The health interval is shortened for the test (settings.js modularDevice.healthIntervalMs, withHealthInterval).
 */
import should from 'should';
import { TEST_API } from '../helpers/api';
import { EXAMPLE_FILES, loadExamples } from '../helpers/demos';
import { lastSeq } from '../helpers/io-nodes';
import { FlowNode, waitFor, withHealthInterval } from '../helpers/node-red';
import { isProbe } from '../helpers/sim-control';
import { runtimeSuite } from '../helpers/runtime-suite';
import { HealthEvent, subscribe } from '../../nodes/lib/config-node/health';

/** A health check every 200 ms: 25 of them per io module take five seconds. */
const INTERVAL_MS = 200;
const ROUNDS = 25;
/** The fleet example's settings (environment variables), pointed at this test's simulator. */
const FLEET_ENV = { IO_SLOT: '3', BMC_SLOT: '0', POWER_SLOT: '1' };

describe(`quiet running: every example deployed, no fault, nothing to tell (runtime, simulator, API ${TEST_API})`, function () {
  this.timeout(60000);
  const { ctl } = runtimeSuite();
  const saved: Record<string, string | undefined> = {};
  withHealthInterval(INTERVAL_MS);
  const env = (url: string) => ({ ...FLEET_ENV, DEVICE_URL: url });
  before(() => {
    for (const name of Object.keys(env(''))) saved[name] = process.env[name];
  });
  after(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it(`${ROUNDS} health checks of each io module: 0 reset, 0 reapplied, 0 notifications-lost, each power configuration POSTed once`, async () => {
    Object.assign(process.env, env(ctl.url));
    const events: HealthEvent[] = [];
    const stop = subscribe((e) => events.push(e));
    try {
      const flow = await loadExamples(ctl.url, EXAMPLE_FILES);
      const ids = (type: string) => new Set(flow.filter((n) => n.type === type).map((n) => n.id));
      const powers = ids('io-power');
      // Each io-power applies on connect; an inject that fires on deploy into one sends one more.
      const onDeploy = flow.filter((n: FlowNode) => n.type === 'inject' && n.once === true && (n.wires as string[][]).flat().some((id) => powers.has(id)));
      const expected = flow.filter((n) => n.type === 'io-power' && n.applyOnConnect !== false).length + onDeploy.length;
      const ioConfigs = ids('modular-device').size - flow.filter((n) => n.type === 'modular-device' && n.service !== 'io').length;
      const powerPosts = async () => (await ctl.log()).filter((e) => e.method === 'POST' && e.path.endsWith('/power-management'));
      await waitFor(async () => (await powerPosts()).length >= expected, `${expected} power configurations applied`, 15000);
      const since = await lastSeq(ctl);
      const ioProbes = async () => (await ctl.log(since)).filter((e) => isProbe(e) && /^\/api\/io\/[\d.]+$/.test(e.path)).length;
      await waitFor(async () => (await ioProbes()) >= ROUNDS * ioConfigs, `${ROUNDS} health checks of each of the ${ioConfigs} io modules`, 40000);
      (await powerPosts()).length.should.equal(expected);
      // A power-management msg (an inject on deploy) suspends the module, and the driver drops
      // the notification it holds unread (issue #43): each notification-poll of that module may
      // announce it once, with that reason. Nothing else is told.
      const suspend = (e: HealthEvent) => e.kind === 'notifications-lost' && /power-management suspended the module/.test(e.cause);
      const polls = flow.filter((n) => n.type === 'notification-poll').length;
      events.filter(suspend).length.should.be.belowOrEqual(onDeploy.length * polls);
      should(events.filter((e) => ['reset', 'reapplied', 'notifications-lost'].includes(e.kind) && !suspend(e)).map((e) => `${e.kind}: ${e.cause}`)).eql([]);
    } finally {
      stop();
    }
  });
});
