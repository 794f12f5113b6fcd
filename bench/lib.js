/**
 * What every benchmark scenario shares: the simulator in a child process, an embedded
 * Node-RED runtime (`require('node-red')`, `RED.init`, `RED.start`) with this package
 * installed in a temporary userDir, a sink node that hands msgs back to the benchmark,
 * figures (percentiles), and the machine's facts.
 *
 * Plain JavaScript over the compiled package in dist/ (as a user's Node-RED loads it).
 * BENCH_ROOT=<dir> measures another build of the package (a folder with package.json and
 * dist/), e.g. the previous commit's, for a before/after comparison.
 */
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const http = require('http');
const { spawn } = require('child_process');

const ROOT = path.resolve(process.env.BENCH_ROOT || path.join(__dirname, '..'));
const DIST = path.join(ROOT, 'dist');

function requireDist(rel) {
  return require(path.join(DIST, rel));
}

function checkBuilt() {
  if (!fs.existsSync(path.join(DIST, 'nodes', 'io-output.js')) || !fs.existsSync(path.join(DIST, 'simulator', 'cli.js'))) {
    throw new Error(`${DIST} is missing or incomplete: run \`npm install\` (it builds) or \`npm run build\``);
  }
}

/** The value after `--<name>` on the command line, or `fallback`. */
function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`, 2);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

// ---- figures -----------------------------------------------------------------------------

/** Percentile (nearest rank) of an array of numbers; p in 0..100. */
function percentile(values, p) {
  if (!values.length) return NaN;
  const sorted = Float64Array.from(values).sort();
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

function median(values) {
  return percentile(values, 50);
}

function round(value, digits = 2) {
  if (!Number.isFinite(value)) return value;
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Absolute time in ms with sub-ms resolution, comparable between processes of one machine. */
function wallNow() {
  return performance.timeOrigin + performance.now();
}

function machine() {
  const cpus = os.cpus();
  let nodeRed = '?';
  try {
    nodeRed = require('node-red/package.json').version;
  } catch {
    /* not installed */
  }
  let axiosVersion = '?';
  try {
    axiosVersion = require(require.resolve('axios/package.json', { paths: [ROOT] })).version;
  } catch {
    /* not installed */
  }
  return {
    cores: cpus.length,
    cpu: cpus[0] ? cpus[0].model.trim() : '?',
    memoryGiB: round(os.totalmem() / 2 ** 30, 1),
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    node: process.version,
    nodeRed,
    axios: axiosVersion,
    date: new Date().toISOString(),
    loadAverage: os.loadavg().map((v) => round(v, 2)),
  };
}

/** Sum of `f` over `list`. */
function sum(list, f) {
  return list.reduce((total, x) => total + f(x), 0);
}

// ---- event-loop delay -------------------------------------------------------------------------

/** Resolution of monitorEventLoopDelay; its samples include it, so it is taken off. */
const LOOP_RESOLUTION_MS = 10;

/** p50/p99/max event-loop delay in ms of an (enabled, then disabled) monitorEventLoopDelay. */
function loopDelay(histogram) {
  const ms = (ns) => round(Math.max(0, ns / 1e6 - LOOP_RESOLUTION_MS), 2);
  return { p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max) };
}

/**
 * Event-loop delays of several turns, each measured by a histogram of its own (a histogram
 * disabled and enabled again counts the whole pause as one delay): median p50 and p99, max.
 */
function turnsDelay(delays) {
  if (!delays.length) return null;
  return { p50: median(delays.map((d) => d.p50)), p99: median(delays.map((d) => d.p99)), max: Math.max(...delays.map((d) => d.max)) };
}

/**
 * The machine's noise floor: an idle Node process measures its own event-loop delay for
 * `ms`; resolves {p50, p99, max}. Run alongside a measurement, it shows how much of a
 * delay comes from the machine (other processes, a shared VM) rather than from the code.
 */
function idleLoopDelay(ms) {
  const code = `const {monitorEventLoopDelay}=require('perf_hooks');const h=monitorEventLoopDelay({resolution:${LOOP_RESOLUTION_MS}});h.enable();setTimeout(()=>{h.disable();process.stdout.write(JSON.stringify([h.percentile(50),h.percentile(99),h.max]))},${Math.round(ms)})`;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.on('exit', () => {
      try {
        const [p50, p99, max] = JSON.parse(out);
        resolve(loopDelay({ percentile: (p) => (p === 50 ? p50 : p99), max }));
      } catch {
        resolve(null);
      }
    });
  });
}

// ---- the simulator in its own process ---------------------------------------------------------

/** CPU time (user + system, ms) a process has used so far, from /proc (Linux); NaN elsewhere. */
function processCpuMs(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[11], [12] = utime, stime (fields 14 and 15 of proc(5), counted from 1)
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // USER_HZ = 100 on Linux
  } catch {
    return NaN;
  }
}

/**
 * Spawns the simulator CLI with `args` and waits until its stdout, read so far, gives
 * `parse(out)` a value (the port or ports it listens on); resolves {child, value}.
 */
async function spawnSim(args, parse) {
  const child = spawn(process.execPath, [path.join(DIST, 'simulator', 'cli.js'), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const value = await new Promise((resolve, reject) => {
    let out = '';
    const onData = (chunk) => {
      out += chunk.toString();
      const found = parse(out);
      if (found !== undefined) {
        child.stdout.off('data', onData);
        resolve(found);
      }
      if (out.length > 100000) out = out.slice(-1000);
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => reject(new Error(`simulator exited (${code}) before listening`)));
  });
  child.stdout.resume();
  // A benchmark that dies (an uncaught error) takes its simulator with it.
  const orphan = () => child.kill('SIGKILL');
  process.once('exit', orphan);
  child.once('exit', () => process.off('exit', orphan));
  return { child, value };
}

/** A control or device API call over a keep-alive connection to `url`: resolves {status, body}. */
function caller(url) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  // Once more on a fresh connection when a kept-alive one was closed by the server as it was
  // reused (its idle timeout): a race of keep-alive, not an answer of the device.
  const call = (method, p, body) =>
    jsonRequest(agent, `${url}${p}`, method, body).catch((error) => {
      if (!/socket hang up|ECONNRESET/.test(error.message)) throw error;
      return jsonRequest(agent, `${url}${p}`, method, body);
    });
  return { call, destroy: () => agent.destroy() };
}

/** Stops a spawned simulator: SIGTERM, SIGKILL after 3 s. */
async function stopChild(child) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(3000)]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

/**
 * The simulator CLI's options for `modules` (as for the CLI), `api` (default: its own, 0.9)
 * and `nginx`: the device's nginx in front (keep-alive 75 s and 1000 requests per
 * connection, as on a device), instead of Node's own 5 s idle close.
 */
function simArgs({ modules, api, nginx }) {
  const args = nginx ? ['--nginx'] : [];
  if (modules) args.push('--modules', modules.map((m) => `${m.service}:${m.slot}`).join(','));
  if (api) args.push('--api', api);
  return args;
}

/**
 * Starts `modular-device-sim` on an ephemeral port in a child process, so the server's
 * CPU never counts against the client being measured. `modules` as for the CLI.
 */
async function startSim({ modules, api, nginx } = {}) {
  const { child, value: port } = await spawnSim(['--port', '0', ...simArgs({ modules, api, nginx })], (out) => {
    const m = /listening on http:\/\/[^:]+:(\d+)/.exec(out);
    return m ? Number(m[1]) : undefined;
  });
  const url = `http://127.0.0.1:${port}`;
  const control = caller(url);
  return {
    url,
    port,
    pid: child.pid,
    cpuMs: () => processCpuMs(child.pid),
    /** A control or device API call over a keep-alive connection: resolves {status, body}. */
    call: control.call,
    async stop() {
      control.destroy();
      await stopChild(child);
    },
  };
}

/**
 * A fleet of `devices` simulated devices in ONE child process (the CLI's --devices): each a
 * whole device on its own ephemeral port, with its own state, request log and /sim control
 * API, the same `modules` on each. Resolves {pid, cpuMs, devices: [{url, call}], stop}.
 */
async function startSimFleet({ devices, modules, api } = {}) {
  const { child, value: urls } = await spawnSim(['--port', '0', '--devices', String(devices), ...simArgs({ modules, api })], (out) => {
    const found = [...out.matchAll(/^\S+ (http:\/\/127\.0\.0\.1:\d+) \(API/gm)].map((m) => m[1]);
    return found.length >= devices ? found.slice(0, devices) : undefined;
  });
  const controls = urls.map(caller);
  return {
    pid: child.pid,
    cpuMs: () => processCpuMs(child.pid),
    devices: urls.map((url, i) => ({ url, call: controls[i].call })),
    async stop() {
      controls.forEach((c) => c.destroy());
      await stopChild(child);
    },
  };
}

/** The simulator in this process (its CPU then counts against the client): same interface. */
async function startSimInProcess() {
  const sim = await requireDist('simulator').startSimulator({ port: 0 });
  const control = caller(sim.url);
  return {
    url: sim.url,
    port: sim.port,
    pid: process.pid,
    cpuMs: () => NaN,
    call: control.call,
    async stop() {
      control.destroy();
      await sim.close();
    },
  };
}

function jsonRequest(agent, url, method, body) {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      url,
      {
        method,
        agent,
        headers: data ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(data) } : {},
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => {
          let parsed;
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = text;
          }
          resolve({ status: res.statusCode, body: parsed });
        });
        res.on('error', reject);
      },
    );
    req.on('error', (error) => reject(new Error(`${method} ${url}: ${error.message}`)));
    req.end(data);
  });
}

/** Six pins on the 5 V rail: the power-management configuration output/state needs. */
const POWER_CONFIG = [1, 2, 3, 4, 5, 6].map((pin) => ({ pin, rail: '5_volt', current: 100 }));

/** The same six pins in API 1.0's words: entries in pin order, the current's field renamed. */
const POWER_CONFIG_10 = POWER_CONFIG.map((e) => ({ rail: e.rail, current_milliampere: e.current }));

async function powerConfig(sim, slot, api = '0.9') {
  const config = api === '1.0' ? POWER_CONFIG_10 : POWER_CONFIG;
  const answer = await sim.call('POST', `/api/io/${api}/${slot}/power-management`, { config });
  if (answer.status !== 200) throw new Error(`power-management of slot ${slot}: ${answer.status} ${JSON.stringify(answer.body)}`);
}

// ---- embedded Node-RED ------------------------------------------------------------------------

const sinks = new Map();
global.__modularDeviceBenchSink = (id, msg) => {
  const handler = sinks.get(id);
  if (handler) handler(msg);
};

/**
 * Node-RED 4 embedded in this process: a temporary userDir with this package linked into
 * its node_modules (as `npm start` does), the bench sink from bench/nodes, no editor, no
 * HTTP listener. `flows` is deployed once started.
 */
async function startRed({ flows, level = process.env.BENCH_LOG || 'error' } = {}) {
  const userDir = fs.mkdtempSync(path.join(os.tmpdir(), 'md-bench-'));
  const scope = path.join(userDir, 'node_modules', '@modular-device');
  fs.mkdirSync(scope, { recursive: true });
  fs.symlinkSync(ROOT, path.join(scope, 'node-red'), 'dir');
  fs.writeFileSync(
    path.join(userDir, 'package.json'),
    JSON.stringify({ name: 'modular-device-bench', private: true, dependencies: { '@modular-device/node-red': 'file:' + ROOT } }),
  );
  const RED = require('node-red');
  const server = http.createServer();
  RED.init(server, {
    userDir,
    flowFile: 'flows.json',
    nodesDir: [path.join(__dirname, 'nodes')],
    httpAdminRoot: false,
    httpNodeRoot: false,
    credentialSecret: 'modular-device-bench',
    telemetry: { enabled: false },
    diagnostics: { enabled: false },
    externalModules: { autoInstall: false },
    logging: { console: { level, metrics: false, audit: false } },
  });
  await RED.start();
  const types = ['modular-device', 'io-output', 'io-read', 'notification-poll', 'bmc-readings', 'power-readings', 'bmc-watchdog'];
  for (const type of [...types, 'bench-sink', 'bench-plain-http', 'bench-plain-poll']) {
    if (!RED.nodes.getType(type)) throw new Error(`node type ${type} did not load in Node-RED (see the log above)`);
  }
  const red = {
    RED,
    /** The runtime's userDir (a temporary folder, removed by stop). */
    userDir,
    getNode: (id) => RED.nodes.getNode(id),
    /** Calls `handler(msg)` for every msg reaching the bench-sink node `id`. */
    onSink(id, handler) {
      sinks.set(id, handler);
    },
    /** Deploys `nodes` (a full deploy); resolves once every one of them runs (setFlows resolves before). */
    async deploy(nodes) {
      sinks.clear();
      await RED.runtime.flows.setFlows({ flows: { flows: nodes }, deploymentType: 'full' });
      const ids = nodes.filter((n) => n.type !== 'tab').map((n) => n.id);
      for (let waited = 0; ids.some((id) => !RED.nodes.getNode(id)); waited += 10) {
        if (waited > 15000) throw new Error(`deployed nodes not started after 15 s, e.g. ${ids.find((id) => !RED.nodes.getNode(id))}`);
        await sleep(10);
      }
    },
    async stop() {
      sinks.clear();
      try {
        await red.deploy([]);
        await RED.stop();
      } finally {
        fs.rmSync(userDir, { recursive: true, force: true });
      }
    },
  };
  if (flows) await red.deploy(flows);
  return red;
}

/** Waits until every config node in `ids` says connected. */
async function waitConnected(red, ids, timeoutMs = 15000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const missing = ids.filter((id) => red.getNode(id)?.connection?.state.state !== 'connected');
    if (!missing.length) return;
    if (Date.now() > until) {
      const state = red.getNode(missing[0])?.connection?.state;
      throw new Error(`${missing.length} config node(s) not connected, e.g. ${missing[0]}: ${JSON.stringify(state)}`);
    }
    await sleep(20);
  }
}

// ---- flow pieces ---------------------------------------------------------------------------------

const TAB = 'bench-tab';

function tab(id = TAB) {
  return { id, type: 'tab', label: 'bench' };
}

function deviceNode(id, url, slot, extra = {}) {
  return {
    id,
    type: 'modular-device',
    name: `bench ${slot}`,
    url,
    service: 'io',
    slot: String(slot),
    apiVersion: 'auto',
    timeout: '5000',
    queueLimit: '100',
    auth: 'none',
    tls: '',
    ...extra,
  };
}

function sinkNode(id, y = 100, z = TAB) {
  return { id, type: 'bench-sink', z, x: 600, y, name: id, wires: [] };
}

/** One msg at a time through a Node-RED node: `send` resolves with the msg at the sink, `fail` rejects the one waiting. */
function nodeDriver(red, nodeId, sinkId) {
  const node = red.getNode(nodeId);
  let waiting = null;
  red.onSink(sinkId, (msg) => {
    const w = waiting;
    waiting = null;
    if (w) w.resolve(msg);
  });
  return {
    node,
    send(msg) {
      return new Promise((resolve, reject) => {
        waiting = { resolve, reject };
        node.receive(msg);
      });
    },
    fail(error) {
      const w = waiting;
      waiting = null;
      if (w) w.reject(error);
    },
  };
}

/**
 * The core http request node as the throughput scenarios use it: keep-alive on ("persist"),
 * JSON parsed ("ret: obj"), wired to a sink `<id>-sink` at the same height.
 */
function httpRequestNode(id, url, method, y) {
  return [
    {
      id,
      type: 'http request',
      z: TAB,
      x: 300,
      y,
      name: '',
      method,
      ret: 'obj',
      paytoqs: 'ignore',
      url,
      tls: '',
      persist: true,
      proxy: '',
      insecureHTTPParser: false,
      authType: '',
      senderr: false,
      headers: [],
      wires: [[`${id}-sink`]],
    },
    sinkNode(`${id}-sink`, y),
  ];
}

/** A core Catch node for the whole tab, wired to a sink (errors would stall a sequential loop). */
function catchTo(sinkId, z = TAB) {
  return [{ id: `${z}-catch`, type: 'catch', z, x: 100, y: 400, name: '', scope: null, uncaught: false, wires: [[sinkId]] }, sinkNode(sinkId, 400, z)];
}

/** Sends results to the parent when forked by run.js, or prints them when run alone. */
function report(result) {
  if (process.send) process.send({ result });
  else process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}

/** Runs a scenario's main(); exits non-zero with the message on failure. */
function main(fn) {
  fn().then(
    (result) => {
      report(result);
      // Let the IPC message flush before leaving.
      setTimeout(() => process.exit(0), 50);
    },
    (error) => {
      process.stderr.write(`bench: ${error && error.stack ? error.stack : error}\n`);
      if (process.send) process.send({ error: String(error && error.message ? error.message : error) });
      setTimeout(() => process.exit(1), 50);
    },
  );
}

module.exports = {
  ROOT,
  DIST,
  requireDist,
  checkBuilt,
  option,
  percentile,
  median,
  round,
  sum,
  sleep,
  wallNow,
  machine,
  processCpuMs,
  LOOP_RESOLUTION_MS,
  loopDelay,
  turnsDelay,
  idleLoopDelay,
  startSim,
  startSimFleet,
  startSimInProcess,
  jsonRequest,
  powerConfig,
  POWER_CONFIG,
  startRed,
  waitConnected,
  TAB,
  tab,
  deviceNode,
  sinkNode,
  httpRequestNode,
  nodeDriver,
  catchTo,
  report,
  main,
};
