#!/usr/bin/env node
// `npm run fleet`: a small fleet on one machine, all on 127.0.0.1. Ctrl-C stops everything.
//
//   - an MQTT broker (aedes, embedded) on MQTT_PORT (1883)
//   - FLEET_DEVICES (3) simulated devices (the simulator's startFleet) from SIM_PORT (18080)
//   - one Node-RED per device on PORT+10, PORT+11 ... (1890 ...): the same flow file,
//     examples/fleet-mqtt.json, with each instance's env (DEVICE_URL, FF_DEVICE_NAME ...)
//   - a central Node-RED on PORT (1880) with the Dashboard 2 overview
//     (examples/fleet-overview-needs-flowfuse-dashboard.json) at /dashboard/fleet
//
// Each Node-RED keeps its files in .fleet/<name>/ (git-ignored), rewritten on every start.
'use strict';
const fs = require('fs');
const net = require('net');
const path = require('path');
const { spawn } = require('child_process');

const root = path.resolve(__dirname, '..');
const work = path.join(root, '.fleet');
const count = Number(process.env.FLEET_DEVICES || 3);
const mqttPort = Number(process.env.MQTT_PORT || 1883);
const simPort = Number(process.env.SIM_PORT || 18080);
const redPort = Number(process.env.PORT || 1880);
const prefix = 'plant';

if (!Number.isInteger(count) || count < 1 || count > 20) {
  console.error(`npm run fleet: FLEET_DEVICES must be an integer from 1 to 20 (a Node-RED each), got ${process.env.FLEET_DEVICES}`);
  process.exit(2);
}
if (!fs.existsSync(path.join(root, 'dist', 'simulator', 'index.js'))) {
  console.error('npm run fleet: build first (npm run build)');
  process.exit(1);
}

function userDir(name, flowFile, port, links) {
  const dir = path.join(work, name);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  for (const [module, target] of links) {
    const link = path.join(dir, 'node_modules', ...module.split('/'));
    fs.mkdirSync(path.dirname(link), { recursive: true });
    fs.symlinkSync(target, link, 'dir');
  }
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: `fleet-${name}`, private: true }));
  fs.copyFileSync(flowFile, path.join(dir, 'flows.json'));
  fs.writeFileSync(
    path.join(dir, 'settings.js'),
    `// Written by npm run fleet.
module.exports = {
  uiHost: '127.0.0.1', uiPort: ${port}, flowFile: 'flows.json', credentialSecret: false,
  telemetry: { enabled: false }, diagnostics: { enabled: false }, mqttReconnectTime: 1000,
  editorTheme: { tours: false, palette: { catalogues: [] }, projects: { enabled: false } },
  logging: { console: { level: 'warn', metrics: false, audit: false } },
};
`,
  );
  return dir;
}

const children = [];
function startNodeRed(name, dir, env) {
  const child = spawn(process.execPath, [require.resolve('node-red/red.js'), '--userDir', dir, '--settings', path.join(dir, 'settings.js')], {
    cwd: dir,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const prefixLines = (chunk) =>
    chunk
      .toString()
      .split('\n')
      .filter(Boolean)
      .map((l) => `[${name}] ${l}\n`)
      .join('');
  child.stdout.on('data', (c) => process.stdout.write(prefixLines(c)));
  child.stderr.on('data', (c) => process.stderr.write(prefixLines(c)));
  children.push(child);
}

async function main() {
  const { startFleet } = require(path.join(root, 'dist', 'simulator'));
  const aedes = require('aedes')();
  const broker = net.createServer(aedes.handle);
  await new Promise((resolve, reject) => broker.once('error', reject).listen(mqttPort, '127.0.0.1', resolve));
  const fleet = await startFleet({ devices: count, basePort: simPort, namePrefix: 'cell', rebootMs: 3000, fanApplyDelayMs: 3000 });
  const ours = [['@modular-device/node-red', root]];
  fleet.devices.forEach((device, i) => {
    const dir = userDir(device.name, path.join(root, 'examples', 'fleet-mqtt.json'), redPort + 10 + i, ours);
    // The example's broker node speaks MQTT 5 (a retained command keeps its flag); aedes speaks 3.1.1 only.
    const flowFile = path.join(dir, 'flows.json');
    const flow = JSON.parse(fs.readFileSync(flowFile, 'utf8'));
    for (const node of flow) if (node.type === 'mqtt-broker') node.protocolVersion = '4';
    fs.writeFileSync(flowFile, JSON.stringify(flow, null, 2));
    startNodeRed(device.name, dir, {
      DEVICE_URL: device.url,
      IO_SLOT: '2',
      BMC_SLOT: '0',
      POWER_SLOT: '1',
      FLEET_PREFIX: prefix,
      FF_DEVICE_NAME: device.name,
      MQTT_BROKER: '127.0.0.1',
      MQTT_PORT: String(mqttPort),
      FLEET_INSTANCE_TOPIC: `${prefix}/${device.name}/node-red`,
      FLEET_COMMAND_TOPIC: `${prefix}/${device.name}/+/+/command`,
    });
  });
  let dashboard;
  try {
    dashboard = path.dirname(require.resolve('@flowfuse/node-red-dashboard/package.json', { paths: [root] }));
  } catch {
    console.log('npm run fleet: @flowfuse/node-red-dashboard is not installed: no central overview (npm install brings it)');
  }
  if (dashboard) {
    const dir = userDir('central', path.join(root, 'examples', 'fleet-overview-needs-flowfuse-dashboard.json'), redPort, [
      ...ours,
      ['@flowfuse/node-red-dashboard', dashboard],
    ]);
    startNodeRed('central', dir, { MQTT_BROKER: '127.0.0.1', MQTT_PORT: String(mqttPort) });
  }

  console.log(`\nA fleet of ${count}:`);
  console.log(`  broker          mqtt://127.0.0.1:${mqttPort} (topics ${prefix}/#)`);
  fleet.devices.forEach((d, i) =>
    console.log(`  ${d.name}         device ${d.url} (control ${d.url}/sim), its Node-RED http://127.0.0.1:${redPort + 10 + i}/`),
  );
  if (dashboard) console.log(`  overview        http://127.0.0.1:${redPort}/dashboard/fleet`);
  console.log(`  metrics         http://127.0.0.1:${redPort + 10}/modular-device/metrics (each device's Node-RED)`);
  console.log('Try: curl -X POST -d \'{"alert":"high_current_alert"}\' -H "Content-Type: application/json" ' + `${fleet.devices[0].url}/sim/io/2/pins/3/alert`);
  console.log('Ctrl-C stops everything.\n');

  const stop = () => {
    for (const child of children) child.kill('SIGINT');
    Promise.all(children.map((c) => (c.exitCode !== null ? null : new Promise((r) => c.once('exit', r)))))
      .then(() => fleet.close())
      .then(() => new Promise((r) => aedes.close(r)))
      .then(() => broker.close(() => process.exit(0)));
    setTimeout(() => process.exit(0), 8000).unref();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error) => {
  console.error(`npm run fleet: ${error.message}`);
  for (const child of children) child.kill('SIGINT');
  process.exit(1);
});
