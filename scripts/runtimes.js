// The other Node-RED versions the runtime tests run on, and the Node 22 that Node-RED 5
// needs, installed from the npm registry into .cache/ (git-ignored) and reused while they
// are there. Only the 4.1 devDependency comes from package-lock.json: a second and third
// node-red in devDependencies would not install side by side.
'use strict';
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');

const root = path.resolve(__dirname, '..');
const cache = path.join(root, '.cache');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function installedVersion(dir, name) {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, 'node_modules', name, 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
}

/** `npm install <spec>` into `dir` unless `name` is there at a version starting with `prefix`. */
function ensure(dir, name, spec, prefix) {
  const found = installedVersion(dir, name);
  if (found && found.startsWith(prefix)) return found;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  console.log(`installing ${spec} into ${path.relative(root, dir)}/ (once; reused afterwards)`);
  execFileSync(npm, ['install', '--prefix', dir, spec, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], {
    cwd: root,
    stdio: 'inherit',
  });
  const version = installedVersion(dir, name);
  if (!version || !version.startsWith(prefix)) throw new Error(`${spec} did not install into ${dir}`);
  return version;
}

/** The folder of node-red `series` (e.g. '3.1', '5.0'): what MD_NODE_RED points the tests at. */
function nodeRed(series) {
  const dir = path.join(cache, `node-red-${series}`);
  const version = ensure(dir, 'node-red', `node-red@~${series}.0`, `${series}.`);
  return { dir: path.join(dir, 'node_modules', 'node-red'), version };
}

/** A Node 22 binary from the npm package `node` (its bin/node is the real executable). */
function node22() {
  const dir = path.join(cache, 'node22');
  const version = ensure(dir, 'node', 'node@22', '22.');
  const bin = path.join(dir, 'node_modules', 'node', 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  if (!fs.existsSync(bin)) throw new Error(`no node binary at ${bin}`);
  return { bin, version };
}

module.exports = { nodeRed, node22 };
