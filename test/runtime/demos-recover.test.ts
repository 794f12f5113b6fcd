/**
 * The demos recover by themselves: `npm start`'s io-output, alarm and watchdog
 * tabs, deployed as they ship (pointed at this test's simulator). Pressing "stop
 * keep-alive" lets the watchdog reset the whole device; afterwards the io-output tab's
 * toggling works again and the alarm tab's threshold is back on the module, with no
 * redeploy: the config nodes noticed the reset (the device is down 3 s, as a board that
 * boots) and applied what the package had set.
 */
import should from 'should';
import { TEST_API } from '../helpers/api';
import { loadExamples } from '../helpers/demos';
import { helper, waitFor } from '../helpers/node-red';
import { runtimeSuite } from '../helpers/runtime-suite';
import { BACKOFF, HEALTH_INTERVAL_MS } from '../../nodes/lib/config-node/connection';

/**
 * How long a config node may take to see the device back: its next retry comes at most
 * BACKOFF.maxMs after the last failed one (a loaded machine reaches the longer steps), or
 * the next health check does.
 */
const BACK_WITHIN_MS = BACKOFF.maxMs + HEALTH_INTERVAL_MS;

const DEMOS = ['io-output.json', 'alarm-on-notification.json', 'watchdog-keep-alive.json'];
/** The watchdog demo's timeout: the device resets this long after the last alive. */
const WATCHDOG_MS = 10000;
/** The device is down this long after the reset, as a board that boots again (the simulator's CLI default). */
const REBOOT_MS = 3000;

describe(`demos recover after the keep-alive demo's reset (runtime, simulator, API ${TEST_API})`, function () {
  this.timeout(WATCHDOG_MS + REBOOT_MS + 2 * BACK_WITHIN_MS + 20000);
  const { ctl } = runtimeSuite({ simulator: { rebootMs: REBOOT_MS } });

  it('"stop keep-alive", the device resets, then the io-output and alarm tabs work again without a redeploy', async () => {
    await loadExamples(ctl.url, DEMOS);
    const successes = async (suffix: string, since: number) =>
      (await ctl.log(since)).filter((e) => e.method === 'POST' && e.path.endsWith(suffix) && e.status === 200);
    // The demos are running: the threshold set, pin 1 toggling, the watchdog kept alive.
    await waitFor(
      async () => (await successes('/input/analog/threshold', 0)).length > 0 && (await successes('/output/state', 0)).length > 1,
      'the demos running',
      15000,
    );
    const resetsBefore = (await ctl.state()).resets;
    // The threshold is set once, at deploy: another POST of it after this point is its
    // re-set after the reset. Counted from here, not from when this test sees the device up
    // again: a config node that polls every 100 ms can put it back before this test's next
    // look at the log (a race that failed this test about once in a full run).
    const beforeStop = (await ctl.log()).slice(-1)[0]?.seq ?? 0;
    helper.getNode('wdgkeep0i4').receive({}); // the "stop keep-alive" inject
    // The reset takes the device down for REBOOT_MS (its port refuses); then it is back.
    await waitFor(
      async () => (await ctl.state().catch(() => ({ resets: resetsBefore + 1 }))).resets > resetsBefore,
      'the watchdog reset the device',
      WATCHDOG_MS + 5000,
    );
    await waitFor(
      async () =>
        await ctl.state().then(
          () => true,
          () => false,
        ),
      'the device up again',
      REBOOT_MS + 5000,
    );
    const after = (await ctl.log()).slice(-1)[0]?.seq ?? 0;
    // No redeploy: the io-output tab toggles again, the alarm tab's threshold is back.
    await waitFor(async () => (await successes('/output/state', after)).length > 1, 'io-output tab: pin 1 toggles again', BACK_WITHIN_MS);
    await waitFor(async () => (await successes('/input/analog/threshold', beforeStop)).length > 0, 'alarm tab: the threshold set again', BACK_WITHIN_MS);
    // And it is on the pin now: the reset cleared the pins, so it was put back after it.
    should((await ctl.pinState(2, 3)) as unknown as { threshold: unknown }).have.property('threshold', { mv: 3000, trigger: 'rising' });
  });
});
