/**
 * Scenario 9: Sparkplug B at the size of issue #44: 50 simulated devices × 3 modules (io, bmc,
 * power) served by one Node-RED (or several: --instances splits the devices), each instance a
 * Sparkplug edge node and each module a Sparkplug device (`<device>.<service>-<slot>`), on the
 * embedded broker (aedes, in this process) with a host subscriber (mqtt.js) on spBv1.0/#.
 * The same flows in UNS mode (fleet-publish wired to the core mqtt out node) are the baseline
 * of the same run: both modes run side by side, each in Node-RED processes of its own on a
 * simulated fleet of its own (one simulator process each), the same alerts raised on both at
 * the same moments, so whatever else the machine does weighs on both alike.
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
 *  - steady state over --seconds, in --segments turns: CPU per Node-RED instance
 *    (/proc/<pid>/stat, % of one core), PUBLISH packets the broker routed per second and their
 *    payload bytes per second, by mode (topic spBv1.0/... or plant/...); each the median of
 *    the turns.
 * Ratios Sparkplug / UNS where both measure the same thing (CPU, msgs/s, bytes/s: the median
 * of each turn's ratio; start).
 *
 *   npm run build && node bench/sparkplug.js [--devices 50] [--instances 1] [--seconds 30] [--segments 3]
 *     [--rebirths 3] [--alerts-per-second 5] [--modes uns,sparkplug] [--limit 600]
 *
 * Bounded: at most 50 devices and 10 instances, --seconds at most 120 in at most 10 turns,
 * --rebirths at most 10, every wait 120 s at most, the whole run --limit seconds (default
 * 600) at most.
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
  seconds: bounded('seconds', 30, 120),
  segments: bounded('segments', 3, 10),
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

/** Every PUBLISH the broker routes from a client, counted (and its payload bytes) by mode: `spBv1.0/...` Sparkplug, `plant/...` UNS. */
function watch(broker) {
  const seen = { uns: { msgs: 0, bytes: 0 }, sparkplug: { msgs: 0, bytes: 0 } };
  broker.on('publish', (packet, client) => {
    if (!client) return;
    const mode = packet.topic.startsWith('spBv1.0/') ? 'sparkplug' : packet.topic.startsWith('plant/') ? 'uns' : undefined;
    if (!mode || client.id === 'bench-host') return;
    seen[mode].msgs++;
    seen[mode].bytes += packet.payload ? packet.payload.length : 0;
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

/** One mode's Node-RED instances on `fleet`'s devices, started until every module is announced; resolves {reds, work, out}. */
async function startMode(mode, fleet, ctx) {
  const { broker, hostSide } = ctx;
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
  const out = { mode, instances: reds.length, devices: opt.devices, modules: opt.devices * MODULES.length };
  const t0 = Date.now();
  try {
    await Promise.all(reds.map((r) => r.start()));
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
    } else {
      const topics = groups.flatMap((devices) => devices.flatMap((d) => MODULES.map((m) => `plant/${d.name}/${m.service}/${m.slot}/state`)));
      await waitFor('every module connected', WAIT, () => topics.every((t) => hostSide.state.states.get(t) === 'connected') || undefined);
      out.startSeconds = lib.round((Date.now() - t0) / 1000, 2);
    }
    return { reds, work, out, per };
  } catch (error) {
    await stopMode({ reds, work }, true);
    throw error;
  }
}

async function stopMode(run, failed = false) {
  if (failed) for (const r of run.reds) process.stderr.write(`--- ${r.name}\n${r.output().slice(-3000)}\n`);
  await Promise.all(run.reds.map((r) => r.stop()));
  run.reds.forEach((r) => r.remove());
  fs.rmSync(run.work, { recursive: true, force: true });
}

/** Rebirths asked by NCMD `Node Control/Rebirth` of edge node gw0, each until its last DBIRTH reached the host. */
async function rebirths(ctx, per) {
  const rebirth = sparkplug.encodePayload({ timestamp: Date.now(), metrics: [{ name: 'Node Control/Rebirth', type: 'Boolean', value: true }] });
  const times = [];
  for (let i = 0; i < opt.rebirths; i++) {
    await lib.sleep(500);
    const asked = Date.now();
    await ctx.hostSide.client.publishAsync(`spBv1.0/${GROUP}/NCMD/gw0`, rebirth, { qos: 0 });
    const round = await waitFor('a rebirth', WAIT, () => allBorn(ctx.hostSide.state.births, asked, ['gw0'], per * MODULES.length));
    times.push(Math.max(...round.map((b) => b.at)) - asked);
  }
  return { median: lib.round(lib.median(times), 1), samples: times };
}

/**
 * The modes side by side, each on a simulated fleet of its own, the same alerts raised on both
 * at the same moments: both measured in the same seconds, so what else the machine does weighs
 * on both alike. --segments turns; each figure the median of the turns.
 */
async function steadyState(runs, fleets, watcher) {
  const turns = [];
  const seconds = opt.seconds / opt.segments;
  await lib.sleep(3000); // the first readings settle
  for (let t = 0; t < opt.segments; t++) {
    const cpu0 = runs.map((r) => r.reds.map((red) => lib.processCpuMs(red.pid)));
    const seen0 = JSON.parse(JSON.stringify(watcher));
    const start = Date.now();
    let alerts = 0;
    while (Date.now() - start < seconds * 1000) {
      const d = Math.floor(Math.random() * opt.devices);
      const pin = 1 + Math.floor(Math.random() * 6);
      await Promise.all(fleets.map((f) => f.devices[d].call('POST', `/sim/io/2/pins/${pin}/alert`, { alert: 'high_current_alert' })));
      alerts++;
      await lib.sleep(1000 / opt.alertsPerSecond);
    }
    const ms = Date.now() - start;
    turns.push(
      runs.map((r, i) => {
        const cpu = r.reds.map((red, k) => ((lib.processCpuMs(red.pid) - cpu0[i][k]) / ms) * 100);
        const w = watcher[r.out.mode];
        const w0 = seen0[r.out.mode];
        return {
          cpu: lib.sum(cpu, (x) => x) / cpu.length,
          cpuMax: Math.max(...cpu),
          msgs: ((w.msgs - w0.msgs) * 1000) / ms,
          kib: ((w.bytes - w0.bytes) * 1000) / ms / 1024,
          alerts,
          ms,
        };
      }),
    );
  }
  runs.forEach((r, i) => {
    const mine = turns.map((turn) => turn[i]);
    const med = (f) => lib.median(mine.map(f));
    r.out.seconds = lib.round(lib.sum(mine, (x) => x.ms) / 1000, 1);
    r.out.alertsRaised = lib.sum(mine, (x) => x.alerts);
    r.out.cpuPercentPerInstance = {
      mean: lib.round(
        med((x) => x.cpu),
        1,
      ),
      max: lib.round(Math.max(...mine.map((x) => x.cpuMax)), 1),
    };
    r.out.brokerMsgsPerSecond = lib.round(
      med((x) => x.msgs),
      1,
    );
    r.out.brokerKiBPerSecond = lib.round(
      med((x) => x.kib),
      2,
    );
  });
  return turns;
}

async function main() {
  lib.checkBuilt();
  const limit = setTimeout(() => {
    process.stderr.write(`bench: sparkplug: over ${opt.limitSeconds} s, stopped\n`);
    process.exit(1);
  }, opt.limitSeconds * 1000);
  limit.unref();
  // A simulated fleet per mode: each notification-poll reads (and clears) the alerts of its own devices.
  const fleets = [];
  for (const _ of opt.modes) fleets.push(await lib.startSimFleet({ devices: opt.devices, modules: MODULES }));
  const broker = new Broker();
  await broker.start();
  const watcher = watch(broker);
  const hostSide = await host(broker.port);
  const ctx = { broker, hostSide };
  const runs = [];
  try {
    for (const [i, mode] of opt.modes.entries()) runs.push(await startMode(mode, fleets[i], ctx));
    const sp = runs.find((r) => r.out.mode === 'sparkplug');
    if (sp) sp.out.birth.rebirthMs = await rebirths(ctx, sp.per);
    const turns = await steadyState(runs, fleets, watcher);
    const uns = runs.find((r) => r.out.mode === 'uns');
    // Each turn's ratio, then their median: the two modes of a turn shared its seconds.
    const ratio = (f) => (uns && sp ? lib.round(lib.median(turns.map((turn) => f(turn[runs.indexOf(sp)]) / f(turn[runs.indexOf(uns)]))), 2) : null);
    return {
      ...opt,
      uns: uns && uns.out,
      sparkplug: sp && sp.out,
      ratios: {
        cpu: ratio((x) => x.cpu),
        brokerMsgsPerSecond: ratio((x) => x.msgs),
        brokerBytesPerSecond: ratio((x) => x.kib),
        start: uns && sp ? lib.round(sp.out.startSeconds / uns.out.startSeconds, 2) : null,
      },
    };
  } finally {
    for (const run of runs) await stopMode(run);
    await hostSide.client.endAsync(true);
    await broker.stop();
    for (const fleet of fleets) await fleet.stop();
  }
}

if (require.main === module) lib.main(main);
module.exports = { main, flows };
