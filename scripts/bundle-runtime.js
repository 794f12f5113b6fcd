// The runtime in one file. Node-RED starts faster with one module to resolve, read and
// compile than with the 130 that tsc emits (issue #45: 60-80 ms of loading became about 20
// in a bare process). tsc's output stays the code: esbuild only joins those CommonJS files
// into dist/nodes/runtime.bundle.js, each still evaluated on its first require, in the same
// order as before. Every emitted file is then replaced by a one-line file that hands out its
// module from the bundle, so whatever requires it (Node-RED a node file, a test, the flow
// test kit) gets the one instance the nodes use: the health bus, the alarm system, the
// clocks are each still one per process.
'use strict';
const fs = require('fs');
const path = require('path');

const BUNDLE = 'runtime.bundle.js';

/** The runtime's emitted files under `nodesOut`, relative and with forward slashes; the editor's code (dialogs, sidebar tab) is not runtime code. */
function runtimeFiles(nodesOut) {
  const skip = new Set(['editor', 'sidebar/editor']);
  const files = [];
  const walk = (rel) => {
    for (const entry of fs.readdirSync(path.join(nodesOut, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!skip.has(child) && entry.name !== 'locales' && entry.name !== 'icons') walk(child);
      } else if (entry.name.endsWith('.js') && child !== BUNDLE) {
        files.push(child);
      }
    }
  };
  walk('');
  return files.sort();
}

function bundleRuntime(nodesOut) {
  const files = runtimeFiles(nodesOut);
  const entry = path.join(nodesOut, '.runtime-entry.js');
  // A require per file, each in its own function: esbuild keeps every module's evaluation
  // lazy, so a file's top level runs when it is first required, as it did unbundled.
  fs.writeFileSync(
    entry,
    [
      "'use strict';",
      'const modules = {',
      ...files.map((file) => `  ${JSON.stringify(file)}: () => require(${JSON.stringify(`./${file}`)}),`),
      '};',
      'module.exports = (file) => modules[file]();',
      '',
    ].join('\n'),
  );
  try {
    require('esbuild').buildSync({
      entryPoints: [entry],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node18',
      // prom-client, mqtt, protobufjs: loaded from node_modules when first needed, as before.
      packages: 'external',
      outfile: path.join(nodesOut, BUNDLE),
      // Module names in the bundle as `nodes/...`, the same in every build.
      absWorkingDir: path.dirname(nodesOut),
      logLevel: 'error',
    });
  } finally {
    fs.rmSync(entry, { force: true });
  }
  for (const file of files) {
    const bundle = path.posix.relative(path.posix.dirname(file), BUNDLE);
    fs.writeFileSync(
      path.join(nodesOut, file),
      `'use strict';\n// Compiled into ${BUNDLE} (scripts/bundle-runtime.js says why).\nmodule.exports = require(${JSON.stringify(bundle.startsWith('.') ? bundle : `./${bundle}`)})(${JSON.stringify(file)});\n`,
    );
  }
}

module.exports = { bundleRuntime };
