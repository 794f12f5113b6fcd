#!/usr/bin/env node
// `npm test`: every check of the package, in order, each step's result printed, non-zero
// exit when any step fails. CI runs exactly this (.ci/run).
//
//   build        TypeScript → dist/ (three projects: runtime, editor, tests), editor bundle
//   lint         ESLint with the layers' import rules (zero warnings), Prettier's check
//   mocha        unit, simulator, runtime (Node-RED 4.1, the devDependency), reliability
//   api-1.0      the runtime suite, the fault and the load suites again against a simulator
//                speaking the released API 1.0 (MD_API=1.0)
//   fleet        three Node-RED instances (same flow, different env), an embedded MQTT broker
//                (aedes) and a simulated fleet: MQTT scheme, last will, commands (allowed, too big,
//                retained, on a topic naming no module), broker restart, Prometheus metrics; one
//                Node-RED serving 20 devices (a gateway). The same again on Mosquitto where
//                /usr/sbin/mosquitto is installed (about 50 s, 100 s with Mosquitto); and npm
//                start's demo flows on API 0.9 and 1.0, scraped: a healthy start counts no
//                request error (about 15 s)
//   browser      the editor in headless Chromium against a Node-RED with the npm-packed package
//                (4.1; the device sidebar also on 3.1 and 5.0)
//   runtime-3.1  the runtime suite on Node-RED 3.1 (the declared minimum)
//   runtime-5.0  the runtime suite on Node-RED 5.0, under Node 22 (its minimum)
//   kit          the flow test kit (@modular-device/node-red/testing): the examples' tests and
//                scenarios on API 0.9 and 1.0, failing and bad input, record and replay; a process
//                of its own (the kit runs one Node-RED per process)
//   package      the npm-packed tarball: its files, then installed into a bare userDir of
//                Node-RED 3.1, 4.1 and 5.0, every node type and the plugin loaded
//   validate     the Flow Library scorecard (npm run validate)
//
// `node scripts/test.js browser validate` runs only the steps named (build always first), and so
// does `npm run test:<step>` for each step (`test:mocha`, `test:fleet`, `test:browser` ...). Named
// only, never part of `npm test` (the mocha step holds them): `unit`, `simulator`, `runtime`,
// `reliability` (`npm run test:unit` ...), each one folder of the mocha step, and `quick` (`npm run
// test:quick`) the inner loop: unit and runtime tests on API 0.9. One file alone: `npm run test:file
// -- test/unit/queue.test.ts` (scripts/test-file.js). Each folder's mocha settings: scripts/suites.js.
// Mocha runs with --forbid-only and --forbid-pending: a skipped test is a failure, not a pass.
'use strict';
const path = require('path');
const { spawn } = require('child_process');
const runtimes = require('./runtimes');
const { mochaArgs, prepare } = require('./suites');

const root = path.resolve(__dirname, '..');
const mocha = require.resolve('mocha/bin/mocha.js', { paths: [root] });
/** The mocha step: every folder of dist/test but those with a step of their own (longer timeouts, a process of their own). */
const MOCHA_STEP = [
  ...mochaArgs('unit', ['dist/test/**/*.test.js']),
  ...['browser', 'kit', 'fleet', 'package'].flatMap((folder) => ['--ignore', `dist/test/${folder}/**`]),
];
/** The runtime suite alone. */
const RUNTIME_ONLY = mochaArgs('runtime');
/** What runs again on API 1.0: the runtime suite, the reliability suites that talk to a device in every way it can fail, and bad input. */
const API10 = [
  ...RUNTIME_ONLY,
  'dist/test/reliability/faults.test.js',
  'dist/test/reliability/notifications-lost.test.js',
  'dist/test/reliability/hung-device.test.js',
  'dist/test/reliability/nginx-keepalive.test.js',
  'dist/test/reliability/credentials.test.js',
  'dist/test/reliability/tls.test.js',
  'dist/test/reliability/connection-states.test.js',
  'dist/test/reliability/load.test.js',
  'dist/test/reliability/bad-input-io.test.js',
  'dist/test/reliability/bad-input-bmc-power.test.js',
  'dist/test/reliability/bad-input-invariants.test.js',
  'dist/test/fleet/fleet-mqtt.test.js',
];

/**
 * Where a step's output goes: straight through (a step alone), or into a buffer printed whole
 * when the step ends (steps side by side, so each step's output stays together).
 */
function streamed() {
  return { write: (stream, chunk) => stream.write(chunk), log: (text) => console.log(text), flush: () => {} };
}
function buffered() {
  const parts = [];
  return {
    write: (stream, chunk) => parts.push([stream, chunk]),
    log: (text) => parts.push([process.stdout, `${text}\n`]),
    flush: () => {
      for (const [stream, chunk] of parts.splice(0)) stream.write(chunk);
    },
  };
}

/** Runs a command, its output to `out`; resolves with exit code and mocha's counts. */
function run(out, command, args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    // All of it: mocha's failure details come after its counts, however long they are.
    let output = '';
    const keep = (chunk) => {
      output += chunk.toString('utf8');
    };
    child.stdout.on('data', (c) => {
      out.write(process.stdout, c);
      keep(c);
    });
    child.stderr.on('data', (c) => {
      out.write(process.stderr, c);
      keep(c);
    });
    child.on('close', (code, signal) => {
      const count = (word) => {
        const all = [...output.matchAll(new RegExp(`^\\s*(\\d+) ${word}\\b`, 'gm'))];
        return all.length ? Number(all[all.length - 1][1]) : 0;
      };
      resolve({ code: code ?? (signal ? 1 : 0), passing: count('passing'), failing: count('failing'), pending: count('pending') });
    });
  });
}

const STEPS = {
  build: (out) => run(out, process.execPath, ['scripts/build.js']),
  // ESLint (zero warnings; the layers' import rules) and Prettier's check: a lower layer
  // importing a higher one, editor code importing a Node built-in, or a file out of format fails.
  lint: (out) =>
    run(out, process.execPath, [path.join(root, 'node_modules', 'eslint', 'bin', 'eslint.js'), '.', '--max-warnings', '0']).then((eslint) =>
      eslint.code !== 0 ? eslint : run(out, process.execPath, [path.join(root, 'node_modules', 'prettier', 'bin', 'prettier.cjs'), '--check', '.']),
    ),
  mocha: (out) => run(out, process.execPath, [mocha, ...MOCHA_STEP]),
  'api-1.0': (out) => run(out, process.execPath, [mocha, ...API10], { MD_API: '1.0' }),
  fleet: (out) => run(out, process.execPath, [mocha, ...mochaArgs('fleet')]),
  browser: (out) => {
    prepare('browser', out.log);
    return run(out, process.execPath, [mocha, ...mochaArgs('browser')]);
  },
  'runtime-3.1': (out) => {
    const red = runtimes.nodeRed('3.1');
    out.log(`Node-RED ${red.version} on Node ${process.version}`);
    return run(out, process.execPath, [mocha, ...RUNTIME_ONLY], { MD_NODE_RED: red.dir });
  },
  'runtime-5.0': (out) => {
    const red = runtimes.nodeRed('5.0');
    const node = runtimes.node22();
    out.log(`Node-RED ${red.version} on Node ${node.version}`);
    return run(out, node.bin, [mocha, ...RUNTIME_ONLY], { MD_NODE_RED: red.dir });
  },
  kit: (out) => run(out, process.execPath, [mocha, ...mochaArgs('kit')]),
  package: (out) => {
    prepare('package', out.log);
    return run(out, process.execPath, [mocha, ...mochaArgs('package')]);
  },
  validate: (out) => run(out, process.execPath, ['scripts/validate.js']),
};

/**
 * Steps that run side by side when `npm test` (or a `node scripts/test.js` naming every step
 * of a group) runs them, each group where its first step stands. They share no port (every
 * server of theirs listens on port 0 or a free port it asked for), no file (each Node-RED a
 * temporary userDir of its own, the package step its tarball in a temporary folder) and no
 * install dir (Node-RED 3.1 and 5.0 each a folder of .cache/, installed before the group
 * starts; the steps only read them). Lint reads the sources, never dist/. Measured on 2
 * cores: docs/development.md, "Testing". Each step's output is held and printed whole when
 * the step ends, its result line with it.
 */
const TOGETHER = [
  ['build', 'lint'],
  ['fleet', 'runtime-3.1', 'runtime-5.0', 'kit', 'package'],
];

/**
 * Steps run only when named: one folder of the mocha step each (`npm run test:unit` ...), and
 * `npm run test:quick`, the inner loop (unit and runtime tests, API 0.9, a few minutes).
 */
const ON_REQUEST = {
  unit: (out) => run(out, process.execPath, [mocha, ...mochaArgs('unit')]),
  simulator: (out) => run(out, process.execPath, [mocha, ...mochaArgs('simulator')]),
  runtime: (out) => run(out, process.execPath, [mocha, ...RUNTIME_ONLY]),
  reliability: (out) => run(out, process.execPath, [mocha, ...mochaArgs('reliability')]),
  quick: (out) => run(out, process.execPath, [mocha, ...mochaArgs('unit', ['dist/test/unit/**/*.test.js', 'dist/test/runtime/**/*.test.js'], 'dot')]),
};

function seconds(ms) {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** The steps in stages: a stage of one step, or a group of TOGETHER when every step of it is asked for. */
function stages(names) {
  const out = [];
  for (const name of names) {
    if (out.some((stage) => stage.includes(name))) continue;
    const group = TOGETHER.find((g) => g.includes(name) && g.every((n) => names.includes(n)));
    out.push(group ?? [name]);
  }
  return out;
}

/** One step: its header, its output (to `out`), its result line; resolves its result. */
async function step(name, out) {
  out.log(`\n===== ${name} =====`);
  const started = Date.now();
  let result;
  try {
    result = await (STEPS[name] ?? ON_REQUEST[name])(out);
  } catch (error) {
    out.write(process.stderr, `test: ${name}: ${error.message}\n`);
    result = { code: 1, passing: 0, failing: 0, pending: 0 };
  }
  const ok = result.code === 0 && result.failing === 0 && result.pending === 0;
  out.log(`===== ${name}: ${ok ? 'ok' : 'FAILED'} (${seconds(Date.now() - started)}) =====`);
  return { name, ok, ms: Date.now() - started, ...result };
}

/** Steps side by side, each one's output printed whole when it ends (so a failing one's is shown in one piece). */
async function together(names) {
  console.log(`\n===== ${names.join(', ')}: side by side (each step's output when it ends) =====`);
  const started = Date.now();
  // The installs first, one after the other (npm into .cache/, printed as they happen): the
  // steps then only read them.
  if (names.some((name) => ['runtime-3.1', 'runtime-5.0', 'package', 'browser'].includes(name))) {
    runtimes.nodeRed('3.1');
    runtimes.nodeRed('5.0');
    runtimes.node22();
  }
  const results = await Promise.all(
    names.map(async (name) => {
      const out = buffered();
      const result = await step(name, out);
      out.flush();
      return result;
    }),
  );
  console.log(`===== ${names.join(', ')}: ${seconds(Date.now() - started)} together =====`);
  return results;
}

async function main() {
  const asked = process.argv.slice(2);
  const unknown = asked.filter((s) => !(s in STEPS) && !(s in ON_REQUEST));
  if (unknown.length) {
    console.error(`test: unknown step(s) ${unknown.join(', ')}; steps: ${[...Object.keys(STEPS), ...Object.keys(ON_REQUEST)].join(', ')}`);
    process.exit(2);
  }
  const names = asked.length ? ['build', ...asked.filter((s) => s !== 'build')] : Object.keys(STEPS);
  const started = Date.now();
  const results = [];
  const planned = stages(names);
  for (const stage of planned) {
    if (stage.length > 1) results.push(...(await together(stage)));
    else results.push(await step(stage[0], streamed()));
    if (stage[0] === 'build' && !results[0].ok) break; // nothing else can run on a broken build
  }

  console.log('\n===== summary =====');
  for (const r of results) {
    const counts = r.passing || r.failing || r.pending ? `  ${r.passing} passing, ${r.failing} failing${r.pending ? `, ${r.pending} pending` : ''}` : '';
    console.log(`${r.ok ? 'ok    ' : 'FAILED'}  ${r.name.padEnd(12)} ${seconds(r.ms).padStart(8)}${counts}`);
  }
  const passed = results.reduce((n, r) => n + r.passing, 0);
  const failed = results.reduce((n, r) => n + r.failing + r.pending, 0) + results.filter((r) => !r.ok && !r.failing && !r.pending).length;
  // One closing line over every suite (a failed step without test counts counts as one failure).
  console.log(`\nwall time: ${seconds(Date.now() - started)}${planned.some((stage) => stage.length > 1) ? ' (some steps side by side)' : ''}`);
  console.log(`tests: ${passed} passed, ${failed} failed`);
  process.exit(results.every((r) => r.ok) && results.length === names.length ? 0 : 1);
}

main();
