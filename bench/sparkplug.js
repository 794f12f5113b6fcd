/**
 * Scenario 9: Sparkplug B at the size of issue #44: 50 simulated devices × 3 modules (io, bmc,
 * power) served by one Node-RED (or several: --instances splits the devices), each instance a
 * Sparkplug edge node and each module a Sparkplug device (`<device>.<service>-<slot>`), on the
 * embedded broker (aedes, in this process) with a host subscriber (mqtt.js) on spBv1.0/#.
 * The same flows then run in UNS mode (fleet-publish wired to the core mqtt out node), the
 * baseline of the same run: each mode in fresh Node-RED processes, one after the other.
 *
 * Per device: bmc-readings (voltage, temperature) every 5 s, power-readings (stats,
 * temperature) every 2 s, io-read (every pin's value) every 2 s, notification-poll every
 * 1 s, all into fleet-publish (a change node names the device, as a gateway's flows do); the
 * benchmark raises --alerts-per-second alerts on random devices' io pins (control API).
 *
 * Measured, per mode:
 *  - start: Node-RED started → every module announced (Sparkplug: NBIRTH and a DBIRTH per
 *    module; UNS: every module's retained state `connected`);
 *  - births (Sparkplug): bytes of the NBIRTH and every DBIRTH, metrics declared (decoded by
 *    `sparkplug-payload`, not our decoder), and a rebirth asked by NCMD `Node Control/Rebirth`
 *    until the last DBIRTH arrives (median of --rebirths);
 *  - steady state over --seconds: CPU per Node-RED instance (/proc/<pid>/stat, % of one
 *    core), PUBLISH packets the broker routed per second and their payload bytes per second.
 * Ratios Sparkplug / UNS where both measure the same thing (CPU, msgs/s, bytes/s, start).
 *
 *   npm run build && node bench/sparkplug.js [--devices 50] [--instances 1] [--seconds 20] [--rebirths 3]
 *     [--alerts-per-second 5] [--modes uns,sparkplug] [--limit 600]
 *
 * Bounded: at most 50 devices and 10 instances, --seconds at most 120, --rebirths at most 10,
 * every wait 120 s at most, the whole run --limit seconds (default 600) at most.
 */
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const lib = require('./lib');

const { Broker, NodeRedInstance, waitFor } = lib.requireDist(path.join('test', 'helpers', 'fleet-harness'));
const mqtt = require(require.resolve('mqtt', { paths: [lib.ROOT] }));
const sparkplug = require(require.resolve('sparkplug-payload', { paths: [lib.ROOT] })).get('spBv1.0');

const bounded = (name, fallback, max) => Math.max(1, Math.min(max, Number(lib.option(name, fallback))));
const opt = {
  devices: bounded('devices', 50, 50),
  instances: bounded('instances', 1, 10),
  seconds: bounded('seconds', 20, 120),
  rebirths: bounded('rebirths', 3, 10),
  alertsPerSecond: bounded('alerts-per-second', 5, 50),
  limitSeconds: bounded('limit', 600, 3600),
  /** The modes measured, the baseline first: `uns` alone checks the harness where Sparkplug is not built. */
  modes: String(lib.option('modes', 'uns,sparkplug'))
    .split(',')
    .filter((m) => m === 'uns' || m === 'sparkplug'),
};
const GROUP = 'bench';
const WAIT = 120_000;
const MODULES = [
  { service: 'io', slot: 2 },
  { service: 'bmc', slot: 0 },
  { service: 'power', slot: 1 },
];

const node = (id, type, settings, wires = []) => ({ id, type, z: lib.TAB, x: 300, y: 40, name: '', ...settings, wires });

/** One instance's flows: its devices' config nodes and reading nodes into one fleet-publish in `mode`. */
function flows(mode, devices, k, brokerPort) {
  const edge = `gw${k}`;
  const nodes = [lib.tab()];
  const pub = `${edge}-pub`;
  if (mode === 'uns') {
    nodes.push(
      {
        id: `${edge}-broker`,
        type: 'mqtt-broker',
        broker: '127.0.0.1',
        port: String(brokerPort),
        clientid: edge,
        autoConnect: true,
        protocolVersion: '4', // aedes speaks MQTT 3.1.1
        keepalive: '15',
        cleansession: true,
        birthTopic: `plant/${edge}/node-red`,
        birthQos: '1',
        birthRetain: 'true',
        birthPayload: 'online',
        willTopic: `plant/${edge}/node-red`,
        willQos: '1',
        willRetain: 'true',
        willPayload: 'offline',
      },
      node(pub, 'fleet-publish', { prefix: 'plant', deviceName: edge, protocol: 'uns', commands: 'io-read' }, [[`${edge}-out`], []]),
      node(`${edge}-out`, 'mqtt out', { broker: `${edge}-broker`, topic: '', qos: '', retain: '' }),
      node(`${edge}-status`, 'status', { scope: [`${edge}-out`] }, [[pub]]),
    );
  } else {
    nodes.push(
      node(
        pub,
        'fleet-publish',
        {
          prefix: 'plant',
          deviceName: edge,
          protocol: 'sparkplug',
          broker: `mqtt://127.0.0.1:${brokerPort}`,
          group: GROUP,
          edgeNode: edge,
          primaryHost: '',
          commands: 'io-read',
        },
        [[], []],
      ),
    );
  }
  devices.forEach((device, d) => {
    const id = (what) => `${edge}-d${d}-${what}`;
    for (const m of MODULES)
      nodes.push({
        ...lib.deviceNode(id(m.service), device.url, m.slot, { service: m.service, name: `${m.service} ${device.name}` }),
        fleetDevice: device.name,
      });
    const whose = id('whose');
    const reading = { onlyOnChange: false, deadband: '0', output: 'record' };
    nodes.push(
      node(id('bmcr'), 'bmc-readings', { ...reading, device: id('bmc'), voltage: true, temperature: true, interval: '5000' }, [[whose]]),
      node(
        id('powr'),
        'power-readings',
        { ...reading, device: id('power'), source: false, protectionlog: false, stats: true, temperature: true, interval: '2000' },
        [[whose]],
      ),
      node(id('read'), 'io-read', { ...reading, device: id('io'), source: 'values', pin: 'all', interval: '2000' }, [[whose]]),
      node(id('poll'), 'notification-poll', { device: id('io'), interval: '1000', pins: [], alerts: [], combined: false }, [[whose]]),
      // A msg of a module names its module by slot only: msg.device says whose it is (a gateway's flows).
      node(whose, 'change', { rules: [{ t: 'set', p: 'device', pt: 'msg', to: device.name, tot: 'str' }] }, [[pub]]),
    );
  });
  return nodes;
}

/** The host side: every PUBLISH the broker routes (count, bytes), and a subscriber keeping Sparkplug births and UNS states. */
function watch(broker) {
  const seen = { msgs: 0, bytes: 0 };
  broker.on('publish', (packet, client) => {
    if (!client || packet.topic.startsWith('$SYS')) return;
    seen.msgs++;
    seen.bytes += packet.payload ? packet.payload.length : 0;
  });
  return seen;
}

async function host(port) {
  const client = mqtt.connect(`mqtt://127.0.0.1:${port}`, { clientId: 'bench-host', clean: true, reconnectPeriod: 200 });
  await new Promise((resolve, reject) => {
    client.once('connect', resolve);
    client.once('error', reject);
  });
  const state = { births: [], states: new Map(), listeners: new Set() };
  client.on('message', (topic, buffer) => {
    const at = Date.now();
    const parts = topic.split('/');
    if (parts[0] === 'spBv1.0' && /^(NBIRTH|DBIRTH)$/.test(parts[2])) {
      state.births.push({
        at,
        type: parts[2],
        edge: parts[3],
        device: parts[4],
        bytes: buffer.length,
        metrics: sparkplug.decodePayload(buffer).metrics.length,
      });
    } else if (parts[0] === 'plant' && parts[parts.length - 1] === 'state') {
      try {
        state.states.set(topic, JSON.parse(buffer.toString('utf8')).state);
      } catch {
        /* not ours */
      }
    }
  });
  await client.subscribeAsync([`spBv1.0/${GROUP}/NBIRTH/#`, `spBv1.0/${GROUP}/DBIRTH/#`, 'plant/+/+/+/state'], { qos: 0 });
  return { client, state };
}

/** Per instance: an NBIRTH and a DBIRTH per module at or after `since`; resolves the births of the last round, or undefined. */
function allBorn(births, since, instances, perInstance) {
  const round = births.filter((b) => b.at >= since);
  const ok = instances.every(
    (edge) =>
      round.some((b) => b.type === 'NBIRTH' && b.edge === edge) &&
      new Set(round.filter((b) => b.type === 'DBIRTH' && b.edge === edge).map((b) => b.device)).size >= perInstance,
  );
  return ok ? round : undefined;
}

async function measureMode(mode, ctx) {
  const { fleet, broker, watcher, hostSide } = ctx;
  const per = Math.ceil(opt.devices / opt.instances);
  const groups = [];
  for (let k = 0; k * per < opt.devices; k++)
    groups.push(fleet.devices.slice(k * per, (k + 1) * per).map((d, i) => ({ ...d, name: `cell-${k * per + i + 1}` })));
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `md-bench-sp-${mode}-`));
  const reds = groups.map((devices, k) => {
    const file = path.join(work, `gw${k}.json`);
    fs.writeFileSync(file, JSON.stringify(flows(mode, devices, k, broker.port)));
    return new NodeRedInstance(`gw${k}-${mode}`, file, {});
  });
  const edges = groups.map((_, k) => `gw${k}`);
  hostSide.state.births.length = 0;
  hostSide.state.states.clear();
  try {
    const t0 = Date.now();
    await Promise.all(reds.map((r) => r.start()));
    const out = { mode, instances: reds.length, devices: opt.devices, modules: opt.devices * MODULES.length };
    if (mode === 'sparkplug') {
      const births = await waitFor('every NBIRTH and DBIRTH', WAIT, () => allBorn(hostSide.state.births, t0, edges, per * MODULES.length));
      out.startSeconds = lib.round((Math.max(...births.map((b) => b.at)) - t0) / 1000, 2);
      const first = births.filter((b) => b.edge === 'gw0');
      const nbirth = first.find((b) => b.type === 'NBIRTH');
      const dbirths = first.filter((b) => b.type === 'DBIRTH');
      out.birth = {
        nbirthBytes: nbirth.bytes,
        nbirthMetrics: nbirth.metrics,
        dbirths: dbirths.length,
        dbirthBytes: lib.sum(dbirths, (b) => b.bytes),
        dbirthMetrics: lib.sum(dbirths, (b) => b.metrics),
        bytesPerEdgeNode: nbirth.bytes + lib.sum(dbirths, (b) => b.bytes),
      };
      // Rebirth on NCMD: NBIRTH and every DBIRTH again, timed at the host.
      const rebirth = sparkplug.encodePayload({ timestamp: Date.now(), metrics: [{ name: 'Node Control/Rebirth', type: 'Boolean', value: true }] });
      const times = [];
      for (let i = 0; i < opt.rebirths; i++) {
        await lib.sleep(500);
        const asked = Date.now();
        await hostSide.client.publishAsync(`spBv1.0/${GROUP}/NCMD/gw0`, rebirth, { qos: 0 });
        const round = await waitFor('a rebirth', WAIT, () => allBorn(hostSide.state.births, asked, ['gw0'], per * MODULES.length));
        times.push(Math.max(...round.map((b) => b.at)) - asked);
      }
      out.birth.rebirthMs = { median: lib.round(lib.median(times), 1), samples: times };
    } else {
      const topics = groups.flatMap((devices) => devices.flatMap((d) => MODULES.map((m) => `plant/${d.name}/${m.service}/${m.slot}/state`)));
      await waitFor('every module connected', WAIT, () => topics.every((t) => hostSide.state.states.get(t) === 'connected') || undefined);
      out.startSeconds = lib.round((Date.now() - t0) / 1000, 2);
    }
    await lib.sleep(3000); // the first readings settle
    const pids = reds.map((r) => r.pid);
    const cpu0 = pids.map(lib.processCpuMs);
    const msgs0 = watcher.msgs;
    const bytes0 = watcher.bytes;
    const start = Date.now();
    let n = 0;
    while (Date.now() - start < opt.seconds * 1000) {
      const device = fleet.devices[Math.floor(Math.random() * opt.devices)];
      const pin = 1 + Math.floor(Math.random() * 6);
      await device.call('POST', `/sim/io/2/pins/${pin}/alert`, { alert: 'high_current_alert' });
      n++;
      await lib.sleep(1000 / opt.alertsPerSecond);
    }
    const ms = Date.now() - start;
    const cpu = pids.map((pid, i) => ((lib.processCpuMs(pid) - cpu0[i]) / ms) * 100);
    out.seconds = lib.round(ms / 1000, 1);
    out.alertsRaised = n;
    out.cpuPercentPerInstance = { mean: lib.round(lib.sum(cpu, (x) => x) / cpu.length, 1), max: lib.round(Math.max(...cpu), 1) };
    out.brokerMsgsPerSecond = lib.round(((watcher.msgs - msgs0) * 1000) / ms, 1);
    out.brokerKiBPerSecond = lib.round(((watcher.bytes - bytes0) * 1000) / ms / 1024, 2);
    return out;
  } catch (error) {
    for (const r of reds) process.stderr.write(`--- ${r.name}\n${r.output().slice(-3000)}\n`);
    throw error;
  } finally {
    await Promise.all(reds.map((r) => r.stop()));
    reds.forEach((r) => r.remove());
    fs.rmSync(work, { recursive: true, force: true });
  }
}

async function main() {
  lib.checkBuilt();
  const limit = setTimeout(() => {
    process.stderr.write(`bench: sparkplug: over ${opt.limitSeconds} s, stopped\n`);
    process.exit(1);
  }, opt.limitSeconds * 1000);
  limit.unref();
  const fleet = await lib.startSimFleet({ devices: opt.devices, modules: MODULES });
  const broker = new Broker();
  await broker.start();
  const watcher = watch(broker);
  const hostSide = await host(broker.port);
  try {
    const ctx = { fleet, broker, watcher, hostSide };
    const uns = opt.modes.includes('uns') ? await measureMode('uns', ctx) : undefined;
    const sp = opt.modes.includes('sparkplug') ? await measureMode('sparkplug', ctx) : undefined;
    const ratio = (f) => (uns && sp ? lib.round(f(sp) / f(uns), 2) : null);
    return {
      ...opt,
      uns,
      sparkplug: sp,
      ratios: {
        cpu: ratio((x) => x.cpuPercentPerInstance.mean),
        brokerMsgsPerSecond: ratio((x) => x.brokerMsgsPerSecond),
        brokerBytesPerSecond: ratio((x) => x.brokerKiBPerSecond),
        start: ratio((x) => x.startSeconds),
      },
    };
  } finally {
    await hostSide.client.endAsync(true);
    await broker.stop();
    await fleet.stop();
  }
}

if (require.main === module) lib.main(main);
module.exports = { main, flows };
