#!/usr/bin/env node
// Build: compile the TypeScript (fails on any type error), then put what Node-RED
// looks for beside each node's and plugin's .js: its .html, icons/ and locales/<lang>/.
'use strict';
const fs = require('fs');
const path = require('path');
const { spawn } = require('child_process');

const root = path.resolve(__dirname, '..');
const dist = path.join(root, 'dist');

// Build into a fresh folder and swap it in at the end, so a test run reading dist/ never
// sees half a build, and files of deleted sources never linger.
const out = path.join(root, `dist.building-${process.pid}`);
fs.rmSync(out, { recursive: true, force: true });
// Three TypeScript projects, side by side: tsconfig.json compiles everything the tests load
// into dist/; tsconfig.runtime.json (Node, no DOM) and tsconfig.editor.json (DOM, no Node)
// only check, so runtime code that touches the browser, or editor code that imports more
// than the pure layer, fails the build.
const tsc = require.resolve('typescript/bin/tsc');
const projects = [
  ['-p', path.join(root, 'tsconfig.json'), '--outDir', out],
  ['-p', path.join(root, 'tsconfig.runtime.json')],
  ['-p', path.join(root, 'tsconfig.editor.json')],
  // Typings for what users import: the test kit (@modular-device/node-red/testing) and the simulator it starts.
  ['-p', path.join(root, 'tsconfig.testing.json'), '--outDir', out],
];
const compile = (args) => new Promise((resolve) => spawn(process.execPath, [tsc, ...args], { stdio: 'inherit' }).on('close', (code) => resolve(code === 0)));

async function main() {
  const results = await Promise.all(projects.map(compile));
  const failed = projects.filter((_, i) => !results[i]);
  if (failed.length) {
    fs.rmSync(out, { recursive: true, force: true });
    console.error(`build: TypeScript compilation failed (${failed.map((args) => path.basename(args[1])).join(', ')})`);
    process.exit(1);
  }

  // Editor code, bundled for the browser and served by Node-RED from the package's resources/
  // folder: editor.js, limits.ts and the PWM helper as the global `ModularDevice` for the node
  // dialogs; sidebar.js, the device sidebar as `ModularDeviceSidebar`, loaded only by its plugin.
  const BUNDLES = [
    { entry: ['editor', 'index.ts'], globalName: 'ModularDevice', file: 'editor.js' },
    { entry: ['sidebar', 'editor', 'index.ts'], globalName: 'ModularDeviceSidebar', file: 'sidebar.js' },
  ];
  for (const { entry, globalName, file } of BUNDLES) {
    require('esbuild').buildSync({
      entryPoints: [path.join(root, 'nodes', ...entry)],
      bundle: true,
      format: 'iife',
      globalName,
      target: 'es2018',
      outfile: path.join(root, 'resources', file),
      logLevel: 'error',
    });
  }

  const nodesOut = path.join(out, 'nodes');
  fs.mkdirSync(nodesOut, { recursive: true });
  for (const file of fs.readdirSync(path.join(root, 'nodes'))) {
    if (file.endsWith('.html')) fs.copyFileSync(path.join(root, 'nodes', file), path.join(nodesOut, file));
  }
  for (const dir of ['icons', 'locales']) {
    const src = path.join(root, dir);
    if (fs.existsSync(src)) fs.cpSync(src, path.join(nodesOut, dir), { recursive: true });
  }
  // A node or plugin in a folder of its own (the sidebar plugin, nodes/sidebar/): Node-RED reads
  // its .html and its catalogue (locales/<lang>/<name>.json) in its .js's folder, so they go
  // there too; the catalogues stay written once, in locales/.
  const { nodes, plugins } = require(path.join(root, 'package.json'))['node-red'];
  for (const js of [...Object.values(nodes), ...Object.values(plugins ?? {})]) {
    const folder = path.relative(path.join('dist', 'nodes'), path.dirname(js));
    if (!folder) continue; // beside the node files: copied above
    const name = path.basename(js, '.js');
    const html = path.join(root, 'nodes', folder, `${name}.html`);
    if (fs.existsSync(html)) fs.copyFileSync(html, path.join(nodesOut, folder, `${name}.html`));
    for (const lang of fs.readdirSync(path.join(root, 'locales'))) {
      const catalogue = path.join(root, 'locales', lang, `${name}.json`);
      if (!fs.existsSync(catalogue)) continue;
      fs.mkdirSync(path.join(nodesOut, folder, 'locales', lang), { recursive: true });
      fs.copyFileSync(catalogue, path.join(nodesOut, folder, 'locales', lang, `${name}.json`));
    }
  }
  // The CLIs are bin entries: they must be executable once installed.
  for (const cli of [path.join(out, 'simulator', 'cli.js'), path.join(out, 'testing', 'cli.js')]) {
    if (fs.existsSync(cli)) fs.chmodSync(cli, 0o755);
  }

  // Last: the runtime's files into one (scripts/bundle-runtime.js says why).
  require('./bundle-runtime').bundleRuntime(nodesOut);

  fs.rmSync(dist, { recursive: true, force: true });
  fs.renameSync(out, dist);
}

main();
