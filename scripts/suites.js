// The folders of test/ as mocha runs them: each folder's timeout, and what has to be installed
// before its first test (here, once, not inside a test's time). scripts/test.js (`npm test` and
// its parts, `npm run test:unit` ...) and scripts/test-file.js (`npm run test:file`) both read
// this, so a file run alone runs as it does in its step.
//
// Every run names its files and passes --no-config: .mocharc.json holds no spec list (mocha
// would add it to the files named), only the defaults of a bare `npx mocha <file>`.
'use strict';
const runtimes = require('./runtimes');

/** A skipped or `.only` test fails the run: a skipped test is a failure, not a pass. */
const STRICT = ['--forbid-only', '--forbid-pending'];

const SUITES = {
  unit: { timeout: 10000 },
  simulator: { timeout: 10000 },
  runtime: { timeout: 10000 },
  reliability: { timeout: 10000 },
  fleet: { timeout: 90000 },
  browser: {
    timeout: 180000,
    // test/browser/sidebar-versions.test.ts starts the editor on these too.
    prepare: (log) => {
      const older = runtimes.nodeRed('3.1');
      const newer = runtimes.nodeRed('5.0');
      log(`also Node-RED ${older.version}, and ${newer.version} on Node ${runtimes.node22().version}`);
    },
  },
  // A process of its own: the kit runs one Node-RED per process.
  kit: { timeout: 120000 },
  package: {
    timeout: 120000,
    // The tarball goes into every version's userDir.
    prepare: (log) => {
      const older = runtimes.nodeRed('3.1');
      const newer = runtimes.nodeRed('5.0');
      log(`Node-RED ${older.version}, 4.1 and ${newer.version} on Node ${runtimes.node22().version}`);
    },
  },
};

/** Mocha's arguments for `files` (by default the whole folder) of the folder `suite`. */
function mochaArgs(suite, files = [`dist/test/${suite}/**/*.test.js`], reporter = 'spec') {
  if (!(suite in SUITES)) throw new Error(`no test folder ${suite}; folders: ${Object.keys(SUITES).join(', ')}`);
  return ['--no-config', '--timeout', String(SUITES[suite].timeout), '--reporter', reporter, ...STRICT, ...files];
}

/** Installs what the folder's tests start (Node-RED 3.1, 5.0, Node 22) when it needs any; `log` says which. */
function prepare(suite, log = console.log) {
  SUITES[suite].prepare?.(log);
}

module.exports = { SUITES, STRICT, mochaArgs, prepare };
