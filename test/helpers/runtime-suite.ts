/**
 * The opening every runtime suite shared: the simulator fixture (simulatorSuite: a simulator
 * speaking the API under test for the whole suite, reset before each test, the flow unloaded
 * after it), with the test helper's HTTP server when asked, and the io module's power
 * configuration before each test when asked. Written once here so that a suite opens with
 *
 *     const { sim, ctl } = runtimeSuite({ server: true, powered: true });
 *
 * instead of two `let`s, a callback that fills them and hooks of its own.
 */
import { SimHarness, Simulator, simulatorSuite, startSimulator } from './sim-control';

export interface RuntimeSuiteOptions {
  /** Start the test helper's HTTP server for the suite (nodes that serve admin routes, the sidebar). */
  server?: boolean;
  /** Options of the simulator beyond port and API (fan delay, reboot time, ...). */
  simulator?: Parameters<typeof startSimulator>[0];
  /** Before each test: io slot 2's power configuration (what io-output needs), then an empty log. */
  powered?: boolean;
}

/**
 * Stands for a value the suite's `before` makes: mocha collects the tests before any hook runs,
 * so the suite holds this stand-in from the start and the hook puts the real value behind it.
 * Read before that (while tests are collected), it says so instead of reading undefined.
 */
function lateBound<T extends object>(what: string): { value: T; set(real: T): void } {
  let real: T | undefined;
  const value = new Proxy({} as T, {
    get(_target, key) {
      if (!real) throw new Error(`runtimeSuite: ${what} is there from the suite's before hook on, not while mocha collects tests`);
      const member = Reflect.get(real, key, real);
      // Methods run on the real object (its closures and getters see it, not the stand-in).
      return typeof member === 'function' ? member.bind(real) : member;
    },
    set(_target, key, v) {
      if (!real) throw new Error(`runtimeSuite: ${what} is there from the suite's before hook on`);
      return Reflect.set(real, key, v, real);
    },
  });
  return { value, set: (r) => (real = r) };
}

/** The simulator fixture of a runtime suite; call it in the suite's `describe`. */
export function runtimeSuite(options: RuntimeSuiteOptions = {}): { sim: Simulator; ctl: SimHarness } {
  const sim = lateBound<Simulator>('the simulator');
  const ctl = lateBound<SimHarness>('the simulator control');
  simulatorSuite(
    (s, c) => {
      sim.set(s);
      ctl.set(c);
    },
    { server: options.server, simulator: options.simulator },
  );
  if (options.powered) {
    beforeEach(async () => {
      await ctl.value.powerConfig(2);
      await ctl.value.clearLog();
    });
  }
  return { sim: sim.value, ctl: ctl.value };
}
