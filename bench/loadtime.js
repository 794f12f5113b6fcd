/**
 * Scenario 6: package load time, in a fresh process (run.js starts one per sample): an
 * embedded Node-RED starts with this package installed in its userDir; measured from the
 * moment Node-RED requires the package's first node file to the moment the last of its
 * node types is registered (Node-RED loads a package's node files one after the other).
 * Also: the time spent inside those requires (our code, axios and what they import), and
 * Node-RED's whole start for scale.
 *
 *   node bench/loadtime.js
 */
'use strict';
const Module = require('module');
const path = require('path');
const lib = require('./lib');

async function main() {
  lib.checkBuilt();
  const ownTypes = Object.keys(require(path.join(lib.ROOT, 'package.json'))['node-red'].nodes);
  const nodeFile = /[\\/]dist[\\/]nodes[\\/][^\\/]+\.js$/;
  let firstRequire;
  let lastRegister;
  let inRequireMs = 0;
  let depth = 0;
  const registered = new Set();

  // Time the loader's require() of our node files (a file counts once, outermost call).
  const load = Module._load;
  Module._load = function (request) {
    const ours = nodeFile.test(request) && request.includes('modular-device');
    if (!ours || depth > 0) return load.apply(this, arguments);
    const t0 = performance.now();
    if (firstRequire === undefined) firstRequire = t0;
    depth++;
    try {
      return load.apply(this, arguments);
    } finally {
      depth--;
      inRequireMs += performance.now() - t0;
    }
  };
  // ...and each registration of one of our types (the registry Node-RED itself uses).
  const redPath = path.dirname(require.resolve('node-red/package.json'));
  const registry = require(require.resolve('@node-red/registry', { paths: [redPath, path.join(redPath, 'node_modules', '@node-red', 'runtime')] }));
  const registerType = registry.registerType;
  registry.registerType = function (nodeSet, type) {
    const result = registerType.apply(this, arguments);
    if (ownTypes.includes(type)) {
      registered.add(type);
      lastRegister = performance.now();
    }
    return result;
  };

  const t0 = performance.now();
  const red = await lib.startRed();
  const startMs = performance.now() - t0;
  Module._load = load;
  registry.registerType = registerType;
  await red.stop();
  if (registered.size !== ownTypes.length) throw new Error(`registered ${registered.size} of ${ownTypes.length} node types`);
  return {
    scenario: 'load time',
    types: registered.size,
    requireToRegisteredMs: lib.round(lastRegister - firstRequire, 1),
    insideRequireMs: lib.round(inRequireMs, 1),
    nodeRedStartMs: lib.round(startMs, 0),
  };
}

if (require.main === module) lib.main(main);
module.exports = { main };
