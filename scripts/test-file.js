#!/usr/bin/env node
// `npm run test:file -- test/unit/queue.test.ts [more files]`: builds, then runs just these test
// files, each with its folder's mocha settings (scripts/suites.js), as its step of `npm test`
// runs it. A file is named by its source (test/<folder>/<name>.test.ts) or by what the build
// made of it (dist/test/<folder>/<name>.test.js). Files of different folders run folder after
// folder, each folder in a mocha of its own (the kit runs one Node-RED per process). The
// environment passes through: `MD_API=1.0 npm run test:file -- ...` runs them on API 1.0.
// Without the build, on an earlier one: `npx mocha dist/test/unit/queue.test.js`
// (.mocharc.json's defaults: 10 s a test, which the unit, simulator, runtime and reliability
// folders use).
'use strict';
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');
const { SUITES, mochaArgs, prepare } = require('./suites');

const root = path.resolve(__dirname, '..');
const mocha = require.resolve('mocha/bin/mocha.js', { paths: [root] });

/** `file` as the compiled test mocha runs and the folder it belongs to, or why it cannot run. */
function compiled(file) {
  const relative = path.relative(root, path.resolve(file)).split(path.sep).join('/');
  const match = /^(?:dist\/)?test\/([^/]+)\/(.+)\.test\.(?:ts|js)$/.exec(relative);
  if (!match) return { error: `${file}: not a test file (test/<folder>/<name>.test.ts or dist/test/<folder>/<name>.test.js)` };
  const [, folder, name] = match;
  if (!(folder in SUITES)) return { error: `${file}: test/${folder}/ is no test folder; folders: ${Object.keys(SUITES).join(', ')}` };
  if (!fs.existsSync(path.join(root, 'test', folder, `${name}.test.ts`))) return { error: `${file}: no test/${folder}/${name}.test.ts` };
  return { folder, js: `dist/test/${folder}/${name}.test.js` };
}

function main() {
  const files = process.argv.slice(2);
  if (!files.length) {
    console.error('usage: npm run test:file -- test/<folder>/<name>.test.ts [more files]');
    process.exit(2);
  }
  const found = files.map(compiled);
  const errors = found.filter((f) => f.error).map((f) => f.error);
  if (errors.length) {
    console.error(`test:file: ${errors.join('\n           ')}`);
    process.exit(2);
  }

  const build = spawnSync(process.execPath, [path.join(root, 'scripts', 'build.js')], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(1);

  // Folder by folder, in the order first named; the same file named twice runs once.
  const byFolder = new Map();
  for (const { folder, js } of found) byFolder.set(folder, [...new Set([...(byFolder.get(folder) ?? []), js])]);
  let failed = false;
  for (const [folder, js] of byFolder) {
    prepare(folder);
    const result = spawnSync(process.execPath, [mocha, ...mochaArgs(folder, js)], { cwd: root, stdio: 'inherit' });
    if (result.status !== 0) failed = true;
  }
  process.exit(failed ? 1 : 0);
}

main();
