/**
 * Scenarios 1 and 2: write (`POST output/state` through io-output) and read
 * (`GET input/values` through io-read) throughput, in one process, on one simulator (in
 * its own process), against what a user would otherwise use:
 *
 *   ours          the package's node, msg in with node.receive(), msg out at a sink node
 *   http request  the core node, keep-alive on ("persist"), JSON parsed ("ret: obj"),
 *                 same URL, method and body, msg in and out the same way
 *   plain node    bench/nodes/bench-plain-http: one plain http.request per msg inside a
 *                 Node-RED node, msg in and out the same way: the limit any node can reach
 *   axios         a plain loop in this process: keep-alive agent, maxRedirects 0
 *   axios default the same with axios' defaults (follow-redirects in the path)
 *   raw http      a plain http.request loop, keep-alive agent: the limit of a Node client
 *
 * Sequential for all (the next msg after the previous output): per-msg cost, like for like.
 * Plus a pipelined figure for ours (a window of msgs in flight; the queue takes them in
 * order, one request at a time on the wire). Contestants take turns, in a rotated order,
 * for several rounds (n msgs per contestant in all, n/rounds per round); msgs/s and CPU per
 * msg are medians of the rounds, latencies are pooled, ratios are medians of the per-round
 * ratios (contestants of one round ran seconds apart, so a noisy neighbour hits them alike).
 * Ours and the minimal node first take rounds of their own (phase 1: the targets' figures),
 * then every client takes its turns (phase 2: every other figure); see `pair` below.
 *
 *   node bench/throughput.js --scenario write|read [--n 40000] [--rounds 40] [--sim child|inprocess] [--only ours,raw http]
 */
'use strict';
const http = require('http');
const lib = require('./lib');
const { plainRequest, keepAliveAgent } = require('./plain-http');

function args() {
  const get = lib.option;
  return {
    scenario: get('scenario', 'write'),
    n: Number(get('n', process.env.BENCH_N || 40000)),
    // Short rounds, many of them: a noisy neighbour changes the machine's speed within a
    // second, and the ratios compare contestants of the same round. With rounds of 1000
    // msgs (a sixth of a second for ours), one round's ratio moves by ±10 %; the median of
    // 40 moved by ±1 % over four runs, that of 10 rounds of 2000 by ±4 %.
    rounds: Number(get('rounds', process.env.BENCH_ROUNDS || 40)),
    warmup: Number(get('warmup', 1000)),
    window: Number(get('window', 32)),
    /** Comma-separated contestants to run (for profiling one of them with --cpu-prof). */
    only: get('only', ''),
    /** 'child' (default): the simulator in its own process; 'inprocess': in this one (its CPU then counts). */
    sim: get('sim', process.env.BENCH_SIM || 'child'),
  };
}

const SLOT = 2;

function flows(url, scenario) {
  const path = scenario === 'write' ? `/api/io/0.9/${SLOT}/output/state` : `/api/io/0.9/${SLOT}/input/values`;
  const method = scenario === 'write' ? 'POST' : 'GET';
  return {
    path,
    method,
    nodes: [
      lib.tab(),
      lib.deviceNode('dev', url, SLOT, { queueLimit: '1000' }),
      {
        id: 'ours',
        type: scenario === 'write' ? 'io-output' : 'io-read',
        z: lib.TAB,
        x: 300,
        y: 100,
        name: '',
        device: 'dev',
        ...(scenario === 'write'
          ? { pin: '1', mode: 'state', state: 'high', pwmInput: 'raw', frequency: '1000', duty: '50', prescaler: '47', period: '1000', time_on: '500' }
          : { source: 'values', pin: 'all', interval: '0', onlyOnChange: false, deadband: '0', output: 'record' }),
        wires: [['ours-sink']],
      },
      lib.sinkNode('ours-sink', 100),
      ...lib.httpRequestNode('httpreq', `${url}${path}`, method, 200),
      { id: 'plain', type: 'bench-plain-http', z: lib.TAB, x: 300, y: 300, name: '', url: `${url}${path}`, method, wires: [['plain-sink']] },
      lib.sinkNode('plain-sink', 300),
      ...lib.catchTo('caught'),
    ],
  };
}

/** n sequential msgs: rate, latency of each, CPU per msg of this process and of the simulator. */
async function measure(n, one, sim) {
  const latency = new Float64Array(n);
  const cpu0 = process.cpuUsage();
  const simCpu0 = sim ? sim.cpuMs() : NaN;
  const start = performance.now();
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await one(i);
    latency[i] = performance.now() - t0;
  }
  const elapsed = performance.now() - start;
  const cpu = process.cpuUsage(cpu0);
  return {
    perSecond: (n * 1000) / elapsed,
    latency,
    cpuUsPerMsg: (cpu.user + cpu.system) / n,
    simCpuUsPerMsg: sim ? ((sim.cpuMs() - simCpu0) * 1000) / n : NaN,
  };
}

function writeBody(i) {
  return { pin: 1, state: i % 2 ? 'low' : 'high' };
}

async function main() {
  const opt = args();
  lib.checkBuilt();
  const write = opt.scenario === 'write';
  // Behind the device's nginx: a contestant's connection idles for seconds while the others
  // take their turns, and Node's own server closes an idle one after 5 s, so a msg sent just
  // then met "socket hang up" in the baselines (the http request node, the plain loops);
  // nginx keeps it 75 s, as a device does.
  const sim = opt.sim === 'inprocess' ? await lib.startSimInProcess() : await lib.startSim({ nginx: true });
  const red = await lib.startRed();
  try {
    if (write) await lib.powerConfig(sim, SLOT);
    const f = flows(sim.url, opt.scenario);
    await red.deploy(f.nodes);
    await lib.waitConnected(red, ['dev']);

    const errors = [];
    const ours = lib.nodeDriver(red, 'ours', 'ours-sink');
    const httpNode = lib.nodeDriver(red, 'httpreq', 'httpreq-sink');
    const plainNode = lib.nodeDriver(red, 'plain', 'plain-sink');
    red.onSink('caught', (msg) => {
      errors.push(msg.error && msg.error.message);
      const error = new Error(`Catch: ${msg.error && msg.error.message}`);
      for (const driver of [ours, httpNode, plainNode]) driver.fail(error);
    });

    let outOfOrder = 0;
    const check = (out, i, ok) => {
      if (out.seq !== i) outOfOrder++;
      if (!ok(out)) throw new Error(`unexpected output for msg ${i}: ${JSON.stringify(out.payload).slice(0, 200)}`);
    };
    const oursOk = write ? (m) => m.payload && m.payload.status === 'success' : (m) => m.payload && Array.isArray(m.payload.pins);
    const httpOk = write
      ? (m) => m.statusCode === 200 && m.payload && m.payload.status === 'success'
      : (m) => m.statusCode === 200 && Array.isArray(m.payload.pins);
    const msgFor = (i) => (write ? { payload: writeBody(i), seq: i } : { seq: i });

    const url = `${sim.url}${f.path}`;
    const rawAgent = keepAliveAgent();
    const axios = require(require.resolve('axios', { paths: [lib.ROOT] }));
    const axiosTuned = axios.create({ httpAgent: new http.Agent({ keepAlive: true, maxSockets: 1 }), maxRedirects: 0, proxy: false });
    const axiosDefault = axios.create({ httpAgent: new http.Agent({ keepAlive: true, maxSockets: 1 }) });

    const rawOnce = (i) => plainRequest(rawAgent, url, f.method, write ? JSON.stringify(writeBody(i)) : undefined);
    const axiosOnce = (instance) => async (i) => {
      const res = await instance.request({ method: f.method, url, data: write ? writeBody(i) : undefined });
      if (res.status !== 200 || typeof res.data !== 'object') throw new Error(`axios: ${res.status}`);
      return res.data;
    };

    // The package's client alone (no Node-RED): the same queue, axios instance and answer
    // checks the node uses, to tell the client's cost from Node-RED's.
    const { DeviceClient } = lib.requireDist('nodes/lib/device/client');
    const client = new DeviceClient({ url: sim.url, service: 'io', slot: SLOT, apiVersion: '0.9', queueLimit: 1000 });
    const clientOnce = write
      ? (i) => client.request({ method: 'POST', endpoint: ['output', 'state'], body: writeBody(i) })
      : () => client.request({ method: 'GET', endpoint: ['input', 'values'] });

    // In the order they take turns: the minimal node right after ours, so that the figures
    // the targets compare are measured as close together as possible.
    const contestants = {
      ours: async (i) => check(await ours.send(msgFor(i)), i, oursOk),
      'plain node': async (i) => check(await plainNode.send(msgFor(i)), i, oursOk),
      'ours (client only)': clientOnce,
      'http request': async (i) => check(await httpNode.send(msgFor(i)), i, httpOk),
      axios: axiosOnce(axiosTuned),
      'axios default': axiosOnce(axiosDefault),
      'raw http': rawOnce,
    };
    const names = Object.keys(contestants).filter((name) => !opt.only || opt.only.split(',').includes(name));
    const roundN = Math.round(opt.n / opt.rounds);

    /** `opt.rounds` rounds of the contestants `who`, in an order rotated each round. */
    const rounds = async (who) => {
      const runs = Object.fromEntries(who.map((n) => [n, { perSecond: [], latency: [], cpu: [], simCpu: [] }]));
      for (let round = 0; round < opt.rounds; round++) {
        const order = who.map((_, k) => who[(k + round) % who.length]);
        // No forced collection between turns: V8 throws away the optimized code of every
        // function that holds an object a full collection finds dead (`--trace-deopt`: "weak
        // objects", about 45 functions of Node's http and of ours per `gc()`), so a round that
        // began with one measured the recompiling (CPU per msg 216 µs instead of 90, for every
        // contestant, and most for the one with most code of its own). The garbage of the turn
        // before costs a scavenge nothing (what it pays for is what survives), and a running
        // process seldom collects its old generation (the scale scenario, 100 modules at 10 Hz,
        // did not once in its 100 s after start-up).
        for (const name of order) {
          const r = await measure(roundN, contestants[name], sim);
          runs[name].perSecond.push(r.perSecond);
          runs[name].latency.push(r.latency);
          runs[name].cpu.push(r.cpuUsPerMsg);
          runs[name].simCpu.push(r.simCpuUsPerMsg);
        }
      }
      return runs;
    };

    // Phase 1, the target: ours and the minimal node in rounds of their own, before any other
    // client has run in this process. The others are no like-for-like load: beside the http
    // request node at full speed (a scavenge promotes about 3 MB, a major collection every
    // 2.7 s) ours' rounds cost more than the minimal node's (CPU per msg 126 against 113),
    // where each alone beside the same load cost the same (127 and 126); README.md's "sixth
    // round" before 1.0.0 (git history) says what was ruled out. Phase 2 runs every client together and reports ours /
    // minimal node there too.
    const pair = names.filter((name) => name === 'ours' || name === 'plain node');
    let limit;
    if (pair.length === 2) {
      for (const name of pair) await measure(opt.warmup, contestants[name]);
      limit = await rounds(pair);
    }
    // Warm-up of the rest: JIT, sockets, the simulator's own paths.
    for (const name of names) if (!limit || !pair.includes(name)) await measure(opt.warmup, contestants[name]);
    const runs = await rounds(names);

    // Pipelined: a window of msgs in flight through ours; outputs must come out in order.
    const pipelined = [];
    for (let round = 0; round < (!opt.only || opt.only.split(',').includes('pipelined') ? opt.rounds : 0); round++) {
      pipelined.push(await pipeline(red, ours.node, roundN, opt.window, msgFor, oursOk, () => outOfOrder++));
    }

    const figuresOf = (run) => {
      const all = [];
      for (const l of run.latency) for (const v of l) all.push(v);
      return {
        perSecond: Math.round(lib.median(run.perSecond)),
        rounds: run.perSecond.map((v) => Math.round(v)),
        p50ms: lib.round(lib.percentile(all, 50), 3),
        p99ms: lib.round(lib.percentile(all, 99), 3),
        // CPU time per msg (user + system): of this process, and of the simulator's process
        cpuUsPerMsg: Math.round(lib.median(run.cpu)),
        cpuRounds: run.cpu.map((v) => Math.round(v)),
        simCpuUsPerMsg: Math.round(lib.median(run.simCpu)),
      };
    };
    const figures = {};
    for (const name of names) figures[name] = figuresOf(runs[name]);
    if (pipelined.length) {
      figures['ours (pipelined)'] = {
        perSecond: Math.round(lib.median(pipelined)),
        rounds: pipelined.map((v) => Math.round(v)),
        window: opt.window,
      };
    }
    const perRound = (name) => (name === 'ours (pipelined)' ? pipelined : runs[name] ? runs[name].perSecond : []);
    /** The median of the rounds' ratios a / b, of msgs/s (or what `of` gives per round). */
    const ratio = (a, b, of = perRound) => {
      const x = of(a);
      const y = of(b);
      if (!x.length || x.length !== y.length) return null;
      return lib.round(lib.median(x.map((v, k) => v / y[k])), 2);
    };
    rawAgent.destroy();
    client.close();
    return {
      scenario: opt.scenario,
      request: `${f.method} ${f.path}`,
      n: opt.n,
      rounds: opt.rounds,
      simulator: opt.sim === 'inprocess' ? 'in this process' : 'own process',
      figures,
      /** Phase 1: ours and the minimal node in rounds of their own (the targets' figures). */
      limit: limit && { ours: figuresOf(limit.ours), 'plain node': figuresOf(limit['plain node']) },
      ratios: {
        oursToHttpRequest: ratio('ours', 'http request'),
        oursToRawHttp: ratio('ours', 'raw http'),
        // Ours / minimal node, msgs/s and CPU per msg (the median of the rounds' ratios), in
        // phase 1; the same among every client (phase 2).
        oursToPlainNode: limit ? ratio('ours', 'plain node', (name) => limit[name].perSecond) : null,
        cpuOursToPlainNode: limit ? ratio('ours', 'plain node', (name) => limit[name].cpu) : null,
        oursToPlainNodeAmongAll: ratio('ours', 'plain node'),
        cpuOursToPlainNodeAmongAll: ratio('ours', 'plain node', (name) => (runs[name] ? runs[name].cpu : [])),
        plainNodeToHttpRequest: ratio('plain node', 'http request'),
        rawHttpToHttpRequest: ratio('raw http', 'http request'),
        oursToAxios: ratio('ours', 'axios'),
        pipelinedToHttpRequest: ratio('ours (pipelined)', 'http request'),
        pipelinedToRawHttp: ratio('ours (pipelined)', 'raw http'),
      },
      outOfOrder,
      errors: errors.length,
      firstError: errors[0],
    };
  } finally {
    await red.stop().catch(() => {});
    await sim.stop();
  }
}

/** `n` msgs through `node` with up to `window` in flight; resolves msgs/s. */
function pipeline(red, node, n, window, msgFor, ok, disorder) {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let received = 0;
    const start = performance.now();
    const sendNext = () => node.receive(msgFor(sent++));
    red.onSink('ours-sink', (msg) => {
      if (msg.seq !== received) disorder();
      if (!ok(msg)) return reject(new Error(`unexpected output ${JSON.stringify(msg.payload).slice(0, 200)}`));
      received++;
      if (received === n) return resolve((n * 1000) / (performance.now() - start));
      if (sent < n) sendNext();
    });
    red.onSink('caught', (msg) => reject(new Error(`Catch: ${msg.error && msg.error.message}`)));
    while (sent < Math.min(window, n)) sendNext();
  });
}

if (require.main === module) lib.main(main);
module.exports = { main };
