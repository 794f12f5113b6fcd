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

function fail(message) {
  console.error(`npm start: ${message}`);
  process.exit(1);
}

function prepareUserDir() {
  fs.mkdirSync(path.join(userDir, 'node_modules', '@modular-device'), { recursive: true });
  const link = path.join(userDir, 'node_modules', '@modular-device', 'node-red');
  try {
    fs.rmSync(link, { recursive: true, force: true });
  } catch {
    /* not there */
  }
  fs.symlinkSync(root, link, 'dir');
  fs.writeFileSync(
    path.join(userDir, 'package.json'),
    JSON.stringify({ name: 'modular-device-demo', private: true, dependencies: { '@modular-device/node-red': 'file:..' } }, null, 2),
  );
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

/** Demo tabs replace their earlier copies; everything else in flows.json stays. */
/** The examples point at the simulator's usual address; follow SIM_PORT when it differs. */
function retarget(text, simUrl) {
  return text.split('http://127.0.0.1:8080').join(simUrl);
}

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
  const demo = DEMO_FLOWS.flatMap((name) => JSON.parse(retarget(fs.readFileSync(path.join(root, 'examples', name), 'utf8'), simUrl)));
  const ids = new Set(demo.map((n) => n.id));
  const tabs = new Set(demo.filter((n) => n.type === 'tab').map((n) => n.id));
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
  try {
    ({ startSimulator } = require(path.join(root, 'dist', 'simulator')));
  } catch {
    fail('dist/ is missing: run `npm install` (it builds the package) or `npm run build`');
  }
  let sim;
  try {
    sim = await startSimulator({ host, port: simPort });
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
  console.log(`demo flows:       ${DEMO_FLOWS.map((f) => f.replace(/\.json$/, '')).join(', ')}`);
  console.log('Ctrl-C stops Node-RED and the simulator.');
}

main();
