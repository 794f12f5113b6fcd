#!/usr/bin/env node
// `npm start`: the device simulator and Node-RED with this package and the demo flows,
// all on 127.0.0.1. Ctrl-C stops both.
//
// Node-RED runs from devDependencies with its own userDir in .node-red/ (git-ignored); the
// package is linked into that userDir's node_modules, so Node-RED loads it as an installed
// module (with its examples under Import > Examples). The demo tabs are merged into the
// userDir's flows on every start: tabs you added yourself are kept.
'use strict';
const fs = require('fs');
const path = require('path');
const http = require('http');
const { spawn } = require('child_process');

const root = path.resolve(__dirname, '..');
const userDir = path.join(root, '.node-red');
const host = '127.0.0.1';
const simPort = Number(process.env.SIM_PORT || 8080);
const redPort = Number(process.env.PORT || 1880);

/** The example flows npm start deploys, in tab order. */
const DEMO_FLOWS = ['io-output.json', 'alarm-on-notification.json', 'watchdog-keep-alive.json', 'power-overview.json'];

/**
 * Demos that need another Node-RED module (a devDependency), deployed only when it is
 * installed: Node-RED would otherwise stop every flow, waiting for the missing node types.
 */
const OPTIONAL_DEMOS = [
  { file: 'device-dashboard-needs-flowfuse-dashboard.json', module: '@flowfuse/node-red-dashboard', path: '/dashboard' },
  { file: 'alarms-needs-flowfuse-dashboard.json', module: '@flowfuse/node-red-dashboard', path: '/dashboard/alarms' },
];

/** The folder of a module installed next to this package (or in the userDir by hand), or undefined. */
function installed(moduleName) {
  for (const from of [root, userDir]) {
    try {
      return path.dirname(require.resolve(`${moduleName}/package.json`, { paths: [from] }));
    } catch {
      /* not there */
    }
  }
  return undefined;
}

const optionalDemos = OPTIONAL_DEMOS.map((demo) => ({ ...demo, dir: installed(demo.module) }));

function fail(message) {
  console.error(`npm start: ${message}`);
  process.exit(1);
}

/** Links a module folder into the userDir's node_modules, where Node-RED looks for nodes. */
function linkModule(moduleName, target) {
  const link = path.join(userDir, 'node_modules', ...moduleName.split('/'));
  fs.mkdirSync(path.dirname(link), { recursive: true });
  let stat;
  try {
    stat = fs.lstatSync(link);
  } catch {
    /* not there */
  }
  // Installed there for real (the palette manager): not ours to replace.
  if (stat && !stat.isSymbolicLink() && target !== root) return;
  try {
    fs.rmSync(link, { recursive: true, force: true });
  } catch {
    /* not there */
  }
  if (target) fs.symlinkSync(target, link, 'dir');
}

function prepareUserDir() {
  linkModule('@modular-device/node-red', root);
  const dependencies = { '@modular-device/node-red': 'file:..' };
  for (const demo of optionalDemos) {
    // Linked when installed, and an earlier link removed when it is not.
    linkModule(demo.module, demo.dir);
    if (demo.dir) dependencies[demo.module] = require(path.join(demo.dir, 'package.json')).version;
  }
  fs.writeFileSync(path.join(userDir, 'package.json'), JSON.stringify({ name: 'modular-device-demo', private: true, dependencies }, null, 2));
  fs.writeFileSync(
    path.join(userDir, 'settings.js'),
    `// Written by npm start. Node-RED settings for the demo: loopback only, no first-run tours.
module.exports = {
    uiHost: ${JSON.stringify(host)},
    uiPort: ${redPort},
    flowFile: 'flows.json',
    credentialSecret: 'modular-device-demo',
    telemetry: { enabled: false },
    diagnostics: { enabled: false },
    editorTheme: { tours: false, palette: { catalogues: [] }, projects: { enabled: false } },
    logging: { console: { level: 'info', metrics: false, audit: false } },
};
`,
  );
}

/**
 * The demos' language: German when DEMO_LANG, or else the system's locale (LC_ALL,
 * LC_MESSAGES, LANG, as Node-RED's runtime reads it), says German; English otherwise.
 */
function demoLanguage(env = process.env) {
  const said = env.DEMO_LANG || env.LC_ALL || env.LC_MESSAGES || env.LANG || '';
  return /^de([_.@-]|$)/i.test(said) ? 'de' : 'en';
}

/** Texts of the demo tabs and comments per language other than the examples' English, by node id. */
const TRANSLATIONS = { de: path.join(__dirname, 'demos-de.json') };

/**
 * The examples say the usual addresses (simulator on 8080, Node-RED on 1880): the demos say
 * and use the ones in use, in URLs, in `--port` and in the texts.
 */
function retarget(text, simUrl, redPort) {
  const simPort = new URL(simUrl).port;
  return text
    .split('http://127.0.0.1:8080')
    .join(simUrl)
    .split('--port 8080')
    .join(`--port ${simPort}`)
    .split('http://127.0.0.1:1880')
    .join(`http://127.0.0.1:${redPort}`);
}

/** The tabs' labels and the comments' names and descriptions in `lang`. */
function localise(nodes, lang) {
  const file = TRANSLATIONS[lang];
  if (!file) return nodes;
  const texts = JSON.parse(fs.readFileSync(file, 'utf8'));
  return nodes.map((n) => (texts[n.id] ? { ...n, ...texts[n.id] } : n));
}

/** The demo files deployed this time: the core ones, then the optional ones whose module is installed. */
function demoFiles() {
  return [...DEMO_FLOWS, ...optionalDemos.filter((d) => d.dir).map((d) => d.file)];
}

/** The labels of the demo tabs deployed this time, in tab order. */
function demoTabs() {
  return demoFiles().flatMap(tabsOf);
}

function tabsOf(name) {
  return readExample(name, { lang: demoLanguage() })
    .filter((n) => n.type === 'tab')
    .map((n) => `"${n.label}"`);
}

/** An example as a demo deploys it: in `lang`, with the addresses in use. */
function readExample(name, { simUrl = 'http://127.0.0.1:8080', redPort = 1880, lang = 'en' } = {}) {
  const nodes = localise(JSON.parse(fs.readFileSync(path.join(root, 'examples', name), 'utf8')), lang);
  return JSON.parse(retarget(JSON.stringify(nodes), simUrl, redPort));
}

/**
 * The demo tabs' nodes as npm start deploys them (the test of a healthy start deploys the
 * same): the demos share one config node per module (same id in every file), deployed once.
 */
function demoNodes(simUrl, port = redPort, lang = demoLanguage()) {
  const read = (name) => readExample(name, { simUrl, redPort: port, lang });
  return [
    ...new Map(
      demoFiles()
        .flatMap(read)
        .map((n) => [n.id, n]),
    ).values(),
  ];
}

/** Demo tabs replace their earlier copies (in whichever language); everything else in flows.json stays. */
function mergeDemoFlows(simUrl) {
  const file = path.join(userDir, 'flows.json');
  let flows = [];
  if (fs.existsSync(file)) {
    try {
      flows = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch {
      const backup = `${file}.unreadable-${Date.now()}`;
      fs.renameSync(file, backup);
      console.warn(`npm start: flows.json was not valid JSON; kept it as ${path.basename(backup)}`);
    }
  }
  const demo = demoNodes(simUrl);
  // A skipped demo's earlier copy goes too: its node types would not be there.
  const read = (name) => readExample(name, { simUrl, redPort, lang: demoLanguage() });
  const all = [...demo, ...optionalDemos.filter((d) => !d.dir).flatMap((d) => read(d.file))];
  const ids = new Set(all.map((n) => n.id));
  const tabs = new Set(all.filter((n) => n.type === 'tab').map((n) => n.id));
  const kept = flows.filter((n) => !ids.has(n.id) && !tabs.has(n.z));
  fs.writeFileSync(file, JSON.stringify([...demo, ...kept], null, 2));
}

function waitForHttp(url, timeoutMs) {
  const until = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const req = http.get(url, (res) => {
        res.resume();
        resolve();
      });
      req.on('error', () => (Date.now() > until ? reject(new Error(`${url} did not answer`)) : setTimeout(attempt, 300)));
    };
    attempt();
  });
}

async function main() {
  let startSimulator;
  let DEFAULT_REBOOT_MS;
  try {
    ({ startSimulator, DEFAULT_REBOOT_MS } = require(path.join(root, 'dist', 'simulator')));
  } catch {
    fail('dist/ is missing: run `npm install` (it builds the package) or `npm run build`');
  }
  let sim;
  try {
    // A reset takes the device down as a real board's boot does: the demos show recovering.
    sim = await startSimulator({ host, port: simPort, rebootMs: DEFAULT_REBOOT_MS });
  } catch (error) {
    fail(`cannot start the simulator on ${host}:${simPort} (${error.message}); set SIM_PORT to another port`);
  }
  console.log(`simulator:  ${sim.url}  (control API: ${sim.url}/sim/state)`);

  prepareUserDir();
  mergeDemoFlows(sim.url);
  const red = spawn(process.execPath, [require.resolve('node-red/red.js'), '--userDir', userDir, '--settings', path.join(userDir, 'settings.js')], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
  });

  let stopping = false;
  const stop = async (code) => {
    if (stopping) return;
    stopping = true;
    red.kill('SIGINT');
    await sim.close();
    process.exit(code);
  };
  process.on('SIGINT', () => stop(0));
  process.on('SIGTERM', () => stop(0));
  red.on('exit', (code) => {
    if (!stopping) {
      console.error(`npm start: Node-RED exited (${code})`);
      stop(code || 1);
    }
  });

  const editor = `http://${host}:${redPort}/`;
  try {
    await waitForHttp(editor, 60000);
  } catch {
    console.error(`npm start: Node-RED did not answer at ${editor}`);
    return stop(1);
  }
  console.log('');
  console.log(`Node-RED editor:  ${editor}`);
  // Tab names, as the editor shows them: what a user looks for, not our file names.
  console.log(`demo tabs:        ${demoTabs().join(', ')}`);
  for (const demo of optionalDemos) {
    if (demo.dir) console.log(`dashboard:        http://${host}:${redPort}${demo.path}`);
    else console.log(`(tab ${tabsOf(demo.file).join(', ')} skipped: ${demo.module} is not installed; \`npm install\` brings it)`);
  }
  console.log('Ctrl-C stops Node-RED and the simulator.');
}

// The browser test of the demos deploys the same tabs as npm start.
if (require.main === module) main();
module.exports = { DEMO_FLOWS, OPTIONAL_DEMOS, optionalDemos, demoNodes, readExample, demoLanguage };
