#!/usr/bin/env node
// `npm run validate`: the Flow Library scorecard (`node-red-dev validate`) of the built
// package, failing on any check that did not pass. node-red-dev's exit code is 0 even with
// failed checks, so the verdict comes from its `-o` JSON: `{"P01": {"test": true, ...}, ...}`.
//
// node-red-dev fetches the Flow Library catalogue over the internet and aborts without it.
// scripts/scorecard-offline.js (preloaded into node-red-dev) lets it try; when the catalogue
// cannot be fetched it serves an empty one, so every other check still runs, and this script
// says so plainly: P08 (similar names) and N01 (unique node types) then compared nothing.
// The other checks need the npm registry (P06, P07, D03), as `npm install` does.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync, spawnSync } = require('child_process');

const root = path.resolve(__dirname, '..');
const offline = path.join(__dirname, 'scorecard-offline.js');

/** The checks node-red-dev runs on a local package (P02 needs npm metadata, so it is absent). */
const CHECKS = {
  P01: 'license',
  P03: 'repository and bugs links',
  P04: 'package name',
  P05: '"node-red" keyword',
  P06: 'node-red.version satisfied by the latest Node-RED',
  P07: "engines.node allows the latest Node-RED's Node",
  P08: 'no similarly named package',
  N01: 'unique node types',
  N02: 'examples for every node',
  D01: 'at most 6 dependencies',
  D02: 'no known-bad packages',
  D03: 'dependencies up to date',
};

function main() {
  // It reads the .html beside each listed dist/nodes/<type>.js: build first.
  execFileSync(process.execPath, [path.join(root, 'scripts', 'build.js')], { cwd: root, stdio: 'inherit' });

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'md-score-'));
  const scoreFile = path.join(dir, 'score.json');
  const reportFile = path.join(dir, 'catalogue.json');
  const cli = require.resolve('node-red-dev/bin/run', { paths: [root] });
  const run = spawnSync(process.execPath, [cli, 'validate', '-o', scoreFile], {
    cwd: root,
    encoding: 'utf8',
    // Quoted: NODE_OPTIONS splits on spaces, and a clone may live in a folder with one.
    env: { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS || ''} --require ${JSON.stringify(offline)}`.trim(), MD_SCORECARD_REPORT: reportFile },
  });
  let catalogue;
  try {
    catalogue = JSON.parse(fs.readFileSync(reportFile, 'utf8'));
  } catch {
    catalogue = undefined; // node-red-dev stopped before it asked for the catalogue
  }
  if (!fs.existsSync(scoreFile)) {
    fs.rmSync(dir, { recursive: true, force: true });
    process.stdout.write(run.stdout || '');
    process.stderr.write(run.stderr || '');
    console.error('validate: node-red-dev wrote no scorecard');
    process.exit(1);
  }
  const score = JSON.parse(fs.readFileSync(scoreFile, 'utf8'));
  fs.rmSync(dir, { recursive: true, force: true });

  if (catalogue && catalogue.catalogue === 'fetched') {
    console.log(`Flow Library catalogue: fetched (${catalogue.modules} packages); P08 and N01 compared against it`);
  } else {
    const why = catalogue ? catalogue.reason : 'node-red-dev did not ask for it';
    console.log(`Flow Library catalogue: NOT fetched (${why}).`);
    console.log('  Scored against an EMPTY catalogue: P08 (similar names) and N01 (unique node types) pass without comparing with any other package.');
  }
  const unchecked = catalogue && catalogue.catalogue === 'fetched' ? new Set() : new Set(['P08', 'N01']);

  let failed = 0;
  console.log(`Flow Library scorecard of ${score.package ? `${score.package.name}@${score.package.version}` : 'the package'}:`);
  for (const [id, what] of Object.entries(CHECKS)) {
    const result = score[id];
    const ok = !!result && result.test === true;
    if (!ok) failed++;
    const note = !result ? ' (not run)' : !ok ? ` ${JSON.stringify(result)}` : unchecked.has(id) ? ' (empty catalogue: nothing compared)' : '';
    console.log(`  ${ok ? 'pass' : 'FAIL'}  ${id}  ${what}${note}`);
  }
  // A check this script does not know yet (a newer node-red-dev) counts too.
  for (const [id, result] of Object.entries(score)) {
    if (id === 'package' || id in CHECKS) continue;
    const ok = !!result && result.test === true;
    if (!ok) failed++;
    console.log(`  ${ok ? 'pass' : 'FAIL'}  ${id}${ok ? '' : ` ${JSON.stringify(result)}`}`);
  }
  if (failed) {
    console.error(`validate: ${failed} check(s) not passed; node-red-dev said:\n${run.stdout}${run.stderr}`);
    process.exit(1);
  }
  console.log('validate: every check passed');
}

main();
