/**
 * The config node's health check pace from settings.js `modularDevice.healthIntervalMs`
 * (config-node/connection-options.ts), on the real runtime against the simulator: a value
 * within LIMITS.health_interval_ms is used (the version record read again and again while
 * connected and idle); one outside it, or not a number, is refused with a warning naming
 * the setting, the value and the range, and the default 10 s stays.
 */
import 'should';
import { deviceNode, helper, MODULES, waitConnected, waitFor } from '../helpers/node-red';
import { isProbe } from '../helpers/sim-control';
import { runtimeSuite } from '../helpers/runtime-suite';
import { LIMITS } from '../../nodes/lib/pure/limits';

/** Warnings in the runtime's log (level 30) about the setting (the helper warns of its own things too). */
const warnings = () =>
  (helper.log().args as unknown[][])
    .map((a) => a[0] as { level?: number; msg?: unknown })
    .filter((m) => m.level === 30)
    .map((m) => String(m.msg))
    .filter((text) => text.includes('healthIntervalMs'));

describe('health check interval from settings.js (runtime, simulator)', function () {
  this.timeout(20000);
  const { sim, ctl } = runtimeSuite();
  let saved: Record<string, unknown>;
  beforeEach(() => (saved = helper.settings()));
  afterEach(() => void helper.settings(saved));

  async function load(healthIntervalMs: unknown): Promise<void> {
    helper.settings({ ...saved, modularDevice: { healthIntervalMs } });
    await helper.load([MODULES.modularDevice], [deviceNode({ url: sim.url })]);
    await waitConnected();
    await ctl.clearLog();
  }

  /** Version record reads since the log was cleared (the connection's health checks). */
  const checks = async () => (await ctl.log()).filter((e) => isProbe(e) && !e.path.endsWith('/descriptor')).length;

  it(`a value within its bound is the pace: the version record read again while idle (${LIMITS.health_interval_ms.min} ms)`, async () => {
    await load(LIMITS.health_interval_ms.min);
    // Three checks are seconds away at the default 10 s: only the setting brings them in this bound.
    await waitFor(async () => (await checks()) >= 3, 'three health checks', 5000, 50);
    warnings().should.eql([]);
  });

  for (const bad of [LIMITS.health_interval_ms.min - 1, LIMITS.health_interval_ms.max + 1, 'fast']) {
    it(`${JSON.stringify(bad)} is refused with a warning naming the setting and its range; the default stays`, async () => {
      await load(bad);
      const said = warnings();
      said.should.have.length(1);
      said[0].should.containEql(JSON.stringify(bad));
      said[0].should.containEql(`${LIMITS.health_interval_ms.min}`);
      said[0].should.containEql(`${LIMITS.health_interval_ms.max}`);
      said[0].should.containEql(`${LIMITS.health_interval_ms.default} ms`);
    });
  }
});
