#!/usr/bin/env node
// `npm run test:for -- nodes/lib/device/queue.ts [more sources] [--list]`: the tests of a source
// file, found by the rule of scripts/tests-of.js (they import it, name it, are named for it, or
// import a test helper that imports it), listed, then run as `npm run test:file` runs them
// (build first, each folder with its own mocha settings). A source file without tests of its
// own runs the tests of the nearest files that import it, and says so. `--list` only lists.
'use strict';
const path = require('path');
const { spawnSync } = require('child_process');
const { sourcePath, testFiles, testsOf, testsThrough } = require('./tests-of');

function main() {
  const args = process.argv.slice(2);
  const listOnly = args.includes('--list');
  const sources = args.filter((a) => a !== '--list');
  if (!sources.length) {
    console.error('usage: npm run test:for -- <source file, e.g. nodes/lib/device/queue.ts> [more] [--list]');
    process.exit(2);
  }
  const tests = testFiles();
  const run = new Set();
  for (const file of sources) {
    const { rel, error } = sourcePath(file);
    if (error) {
      console.error(`test:for: ${error}`);
      process.exit(2);
    }
    const own = testsOf(rel, tests);
    if (own.length) {
      console.log(`${rel}: ${own.length} test file${own.length === 1 ? '' : 's'}`);
      for (const t of own) {
        console.log(`  ${t}`);
        run.add(t);
      }
      continue;
    }
    const through = testsThrough(rel, tests);
    if (!through.length) {
      console.error(`test:for: ${rel}: no test file imports or names it, nor one of a file that imports it`);
      process.exit(1);
    }
    console.log(`${rel}: no test file of its own; the tests of the files that import it:`);
    for (const { source, tests: of } of through) {
      console.log(`  ${source}:`);
      for (const t of of) {
        console.log(`    ${t}`);
        run.add(t);
      }
    }
  }
  if (listOnly) return;
  const result = spawnSync(process.execPath, [path.join(__dirname, 'test-file.js'), ...run], { stdio: 'inherit' });
  process.exit(result.status ?? 1);
}

main();
