/**
 * A contributor finds the tests of a source file: `npm run test:for -- <source>` lists and runs
 * them by the rule of scripts/tests-of.js (a test file imports it, names it, is named for it,
 * or imports a test helper that imports it). Every file under nodes/lib has such a test file,
 * or stands below as an exception, reached only through the files that import it (which
 * test:for then runs). A new file under nodes/lib without a test fails here, and so does an
 * exception that has found a test of its own (the list only shrinks).
 */
import path from 'path';
import should from 'should';

const root = path.resolve(__dirname, '..', '..', '..');
const { filesBelow, testFiles, testsOf, testsThrough } = require(path.join(root, 'scripts', 'tests-of.js')) as {
  filesBelow(dir: string, ending: string): string[];
  testFiles(): string[];
  testsOf(rel: string, tests?: string[]): string[];
  testsThrough(rel: string, tests?: string[]): Array<{ source: string; tests: string[] }>;
};

/** Files under nodes/lib with no test file of their own, and why that is acceptable for now. */
const EXCEPTIONS: Record<string, string> = {
  'nodes/lib/action/action-node.ts': 'the frame of every action node: the runtime suites of the nodes',
  'nodes/lib/action/action-spec.ts': 'the frame of every action node: the runtime suites of the nodes',
  'nodes/lib/action/applied-on-connect.ts': 'io-input, io-power, io-threshold runtime suites',
  'nodes/lib/action/hand-over.ts': 'the frame of every action node: the runtime suites of the nodes',
  'nodes/lib/action/keep-alive-watch.ts': 'bmc-watchdog keep-alive runtime suites',
  'nodes/lib/action/msg.ts': 'the runtime suites of the nodes',
  'nodes/lib/action/operation-choice.ts': 'the runtime suites of the nodes with an operation',
  'nodes/lib/action/tripped-pins.ts': 'the module-protection runtime suite',
  'nodes/lib/action/typed-setting.ts': 'io-output and the typed-settings runtime suite',
  'nodes/lib/config-node/driven-pins.ts': 'connection.ts and the conflict-status runtime suite',
  'nodes/lib/config-node/module-health.ts': 'the modular-device runtime suite',
  'nodes/lib/device/client-options.ts': 'client.ts',
  'nodes/lib/device/client-events.ts': 'types only: client.ts and connection.ts, checked by the compiler',
  'nodes/lib/device/exchanger.ts': 'client.ts',
  'nodes/lib/device/renewing.ts': 'client.ts',
  'nodes/lib/device/settings-lost.ts': 'io-output',
  'nodes/lib/pure/base-url.ts': 'client.ts, flow-nodes.ts',
  'nodes/lib/pure/confirm-rule.ts': 'flow-check.ts, the editor confirm box',
  'nodes/lib/pure/flow-check-bmc.ts': 'flow-check.ts',
  'nodes/lib/pure/flow-check-conflicts.ts': 'flow-check.ts',
  'nodes/lib/pure/flow-check-io.ts': 'flow-check.ts',
  'nodes/lib/pure/flow-index.ts': 'flow-check.ts',
  'nodes/lib/pure/same-type.ts': 'a type only: the compiler checks it where lists are held to their types',
  'nodes/lib/pure/power-budget.ts': 'the device sidebar (sidebar/editor/render-io.ts): the browser suites',
};

describe('every source file under nodes/lib has tests a contributor finds (npm run test:for)', function () {
  this.timeout(30000);
  const tests = testFiles();
  const sources = filesBelow('nodes/lib', '.ts');

  it('finds the tests of a file by its import, its name, its path: queue.ts, limit-rules.ts, client.ts', () => {
    testsOf('nodes/lib/device/queue.ts', tests).should.containEql('test/unit/queue.test.ts');
    testsOf('nodes/lib/pure/limit-rules.ts', tests).should.containEql('test/unit/limits.test.ts');
    testsOf('nodes/lib/device/client.ts', tests).should.containEql('test/unit/client.test.ts');
    testsOf('nodes/lib/device/client.ts', tests).should.not.containEql('test/unit/queue.test.ts');
  });

  it('every file under nodes/lib has a test file of its own, or is a listed exception', () => {
    sources.length.should.be.above(40);
    const without = sources.filter((s) => !testsOf(s, tests).length && !(s in EXCEPTIONS));
    should(without).eql([], `files under nodes/lib no test file imports or names: write one (or name it in its test): ${without.join(', ')}`);
  });

  it('every exception still exists and still has no test of its own (the list only shrinks)', () => {
    const gone = Object.keys(EXCEPTIONS).filter((s) => !sources.includes(s));
    should(gone).eql([], `exceptions that are no source file under nodes/lib any more: ${gone.join(', ')}`);
    const tested = Object.keys(EXCEPTIONS).filter((s) => testsOf(s, tests).length);
    should(tested).eql([], `exceptions that have a test file now: drop them from the list: ${tested.join(', ')}`);
  });

  it('an exception runs the tests of the files that import it (test:for)', () => {
    const unreached = Object.keys(EXCEPTIONS).filter((s) => !testsThrough(s, tests).length);
    unreached.should.eql([]);
    testsThrough('nodes/lib/pure/flow-check-io.ts', tests)
      .map((t) => t.source)
      .should.eql(['nodes/lib/pure/flow-check.ts']);
  });
});
