/**
 * The fleet at scale (a benchmark, not a test): N simulated devices × 3 modules, a Node-RED
 * per device running examples/fleet-mqtt.json (the same flow file, its own env), one
 * embedded broker (aedes) and a central subscriber to plant/#, all on this machine.
 *
 * Measured, after the instances settled:
 *  - CPU per device instance: /proc/<pid>/stat user+system over --seconds, % of one core
 *    (mean, p50, max over the instances);
 *  - broker messages per second: PUBLISH packets the broker routed (aedes 'publish', not $SYS);
 *  - device → central latency: an alert raised on a random device's io pin (control API) until
 *    its alert event reaches the subscriber (notification-poll polls every 500 ms: half of
 *    that on average is waiting for the poll), and a device stopped until its module state
 *    'unreachable' arrives; p50 and p99.
 *
 *   npm run build && node bench/fleet.js [--devices 50] [--seconds 30] [--batch 5]
 */
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');

const root = path.resolve(__dirname, '..');
const { startFleet } = require(path.join(root, 'dist', 'simulator'));
const { Broker, NodeRedInstance, Subscriber, waitFor, writeExampleFlow } = require(path.join(root, 'dist', 'test', 'helpers', 'fleet-harness'));

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}
const DEVICES = arg('devices', 50);
const SECONDS = arg('seconds', 30);
const BATCH = arg('batch', 5);
const TICKS = 100; // clock ticks per second of /proc/<pid>/stat (CLK_TCK on Linux x64)

function cpuTicks(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]); // utime + stime
}

function percentile(sorted, p) {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const started = Date.now();
  const fleet = await startFleet({ devices: DEVICES, namePrefix: 'cell' });
  const broker = new Broker();
  await broker.start();
  let routed = 0;
  const central = new Subscriber();
  await central.connect(broker.port, 'central-bench');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'md-fleet-bench-'));
  const flowFile = path.join(work, 'flows.json');
  writeExampleFlow(flowFile, broker.protocol); // aedes speaks MQTT 3.1.1 only: the example's broker node says so
  const instances = fleet.devices.map(
    (d) =>
      new NodeRedInstance(d.name, flowFile, {
        DEVICE_URL: d.url,
        IO_SLOT: '2',
        BMC_SLOT: '0',
        POWER_SLOT: '1',
        FLEET_PREFIX: 'plant',
        FF_DEVICE_NAME: d.name,
        MQTT_BROKER: '127.0.0.1',
        MQTT_PORT: String(broker.port),
        FLEET_INSTANCE_TOPIC: `plant/${d.name}/node-red`,
        FLEET_COMMAND_TOPIC: `plant/${d.name}/+/+/command`,
      }),
  );
  try {
    for (let i = 0; i < instances.length; i += BATCH) await Promise.all(instances.slice(i, i + BATCH).map((n) => n.start()));
    const states = () =>
      fleet.devices.every((d) => ['io/2', 'bmc/0', 'power/1'].every((m) => central.last.get(`plant/${d.name}/${m}/state`)?.state === 'connected'));
    await waitFor('every module connected', 120_000, states);
    const startMs = Date.now() - started;
    console.log(`${DEVICES} devices × 3 modules, ${DEVICES} Node-RED instances: all connected after ${(startMs / 1000).toFixed(1)} s`);

    // Steady state with alerts: CPU per instance, broker rate, alert latency.
    const pids = instances.map((n) => n.pid);
    const cpu0 = pids.map(cpuTicks);
    const onPublish = (packet) => {
      if (!packet.topic.startsWith('$SYS')) routed++;
    };
    broker.on('publish', onPublish);
    routed = 0;
    const t0 = Date.now();
    const raised = new Map(); // key device/pin → time raised
    const alertLatency = [];
    central.client.on('message', (topic, buffer) => {
      const m = /^plant\/(cell-\d+)\/io\/2\/alert$/.exec(topic);
      if (!m) return;
      const pin = JSON.parse(buffer.toString()).pin;
      const at = raised.get(`${m[1]}/${pin}`);
      if (at !== undefined) {
        alertLatency.push(Date.now() - at);
        raised.delete(`${m[1]}/${pin}`);
      }
    });
    let n = 0;
    while (Date.now() - t0 < SECONDS * 1000) {
      const d = fleet.devices[n % DEVICES];
      const pin = 1 + (n % 6);
      n++;
      if (raised.has(`${d.name}/${pin}`)) continue;
      raised.set(`${d.name}/${pin}`, Date.now());
      await fetch(`${d.url}/sim/io/2/pins/${pin}/alert`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{"alert":"high_current_alert"}',
      });
      await sleep(1000 / Math.min(DEVICES, 20));
    }
    await sleep(2000); // the last polls
    const seconds = (Date.now() - t0) / 1000;
    const cpu = pids.map((pid, i) => ((cpuTicks(pid) - cpu0[i]) / TICKS / seconds) * 100).sort((a, b) => a - b);
    broker.off('publish', onPublish);
    const rate = routed / seconds;

    // State changes: each device stopped in turn until its io state says so.
    const stateLatency = [];
    for (const d of fleet.devices.slice(0, Math.min(DEVICES, 20))) {
      const stoppedAt = Date.now();
      await d.pause();
      await waitFor(`${d.name} unreachable`, 60_000, () => /^(unreachable|refused)$/.test(central.last.get(`plant/${d.name}/io/2/state`)?.state));
      stateLatency.push(Date.now() - stoppedAt);
      await d.resume();
    }
    alertLatency.sort((a, b) => a - b);
    stateLatency.sort((a, b) => a - b);
    const result = {
      devices: DEVICES,
      modules: DEVICES * 3,
      startSeconds: startMs / 1000,
      cpuPercentPerInstance: { mean: cpu.reduce((a, b) => a + b, 0) / cpu.length, p50: percentile(cpu, 50), max: cpu[cpu.length - 1] },
      brokerMessagesPerSecond: rate,
      alerts: { raised: n, delivered: alertLatency.length, p50Ms: percentile(alertLatency, 50), p99Ms: percentile(alertLatency, 99) },
      stateChange: { samples: stateLatency.length, p50Ms: percentile(stateLatency, 50), p99Ms: percentile(stateLatency, 99) },
      loadAverage: os.loadavg()[0],
      cores: os.cpus().length,
    };
    console.log(JSON.stringify(result, null, 2));
  } finally {
    await Promise.all(instances.map((i) => i.stop()));
    instances.forEach((i) => i.remove());
    await central.close();
    await broker.stop();
    await fleet.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
