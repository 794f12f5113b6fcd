/**
 * Ours (io-output) against the minimal node, msg by msg: one Node-RED, one simulator (its own
 * process), the two nodes take blocks of `--k` msgs in turn (the first of a pair alternating),
 * and the figure is the difference of their latencies per msg, with its standard error, which
 * a busy machine moves far less than a ratio of rates. Not part of `npm run bench`: a tool for
 * digging (the history of docs/performance.md, in git: README.md before 1.0.0, "The sixth round").
 *
 *   node --expose-gc bench/pairs.js [--n 20000] [--k 1] [--between 0] [--gc]
 *
 * --between N: N msgs through the core http request node after every pair of blocks, the
 * garbage-heavy neighbour of the bench's phase 2. --gc: a forced collection before every
 * block, as the bench did before the sixth round. Prints JSON.
 */
'use strict';
const lib = require('./lib');

const SLOT = 2;

function flows(url) {
  const path = `/api/io/0.9/${SLOT}/output/state`;
  return [
    lib.tab(),
    lib.deviceNode('dev', url, SLOT, { queueLimit: '1000' }),
    { id: 'ours', type: 'io-output', z: lib.TAB, x: 300, y: 100, name: '', device: 'dev', pin: '1', mode: 'state', state: 'high', wires: [['ours-sink']] },
    lib.sinkNode('ours-sink', 100),
    { id: 'plain', type: 'bench-plain-http', z: lib.TAB, x: 300, y: 200, name: '', url: `${url}${path}`, method: 'POST', wires: [['plain-sink']] },
    lib.sinkNode('plain-sink', 200),
    ...lib.httpRequestNode('httpreq', `${url}${path}`, 'POST', 300),
    ...lib.catchTo('caught'),
  ];
}

const mean = (x) => x.reduce((s, v) => s + v, 0) / x.length;
const sd = (x) => {
  const m = mean(x);
  return Math.sqrt(x.reduce((s, v) => s + (v - m) ** 2, 0) / (x.length - 1));
};
const us = (ms) => lib.round(ms * 1000, 1);

async function main() {
  const n = Number(lib.option('n', 20000));
  const k = Number(lib.option('k', 1));
  const between = Number(lib.option('between', 0));
  const forced = process.argv.includes('--gc');
  if (forced && !global.gc) throw new Error('--gc needs node --expose-gc');
  lib.checkBuilt();
  const sim = await lib.startSim({ nginx: true });
  const red = await lib.startRed();
  try {
    await lib.powerConfig(sim, SLOT);
    await red.deploy(flows(sim.url));
    await lib.waitConnected(red, ['dev']);
    const drivers = { ours: lib.nodeDriver(red, 'ours', 'ours-sink'), plain: lib.nodeDriver(red, 'plain', 'plain-sink') };
    const neighbour = lib.nodeDriver(red, 'httpreq', 'httpreq-sink');
    red.onSink('caught', (msg) => {
      const error = new Error(`Catch: ${msg.error && msg.error.message}`);
      for (const d of [drivers.ours, drivers.plain, neighbour]) d.fail(error);
    });
    const msg = (i) => ({ payload: { pin: 1, state: i % 2 ? 'low' : 'high' } });
    for (let i = 0; i < 2000; i++) {
      await drivers.ours.send(msg(i));
      await drivers.plain.send(msg(i));
    }
    const latency = { ours: new Float64Array(n), plain: new Float64Array(n) };
    const cpu = { ours: 0, plain: 0 };
    for (let first = 0; first < n; first += k) {
      const order = (first / k) % 2 ? ['ours', 'plain'] : ['plain', 'ours'];
      for (const who of order) {
        if (forced) global.gc();
        const cpu0 = process.cpuUsage();
        for (let i = first; i < Math.min(n, first + k); i++) {
          const t0 = performance.now();
          await drivers[who].send(msg(i));
          latency[who][i] = performance.now() - t0;
        }
        const c = process.cpuUsage(cpu0);
        cpu[who] += c.user + c.system;
      }
      for (let i = 0; i < between; i++) await neighbour.send(msg(i));
    }
    const diff = Array.from(latency.ours, (v, i) => v - latency.plain[i]);
    return {
      n,
      k,
      between,
      forced,
      latencyUs: { ours: us(mean(latency.ours)), plain: us(mean(latency.plain)) },
      cpuUsPerMsg: { ours: lib.round(cpu.ours / n, 1), plain: lib.round(cpu.plain / n, 1) },
      /** Ours' msgs/s over the minimal node's (the inverse ratio of the mean latencies). */
      ratio: lib.round(mean(latency.plain) / mean(latency.ours), 3),
      diffUs: us(mean(diff)),
      diffStandardErrorUs: us(sd(diff) / Math.sqrt(n)),
      diffMedianUs: us(lib.percentile(diff, 50)),
    };
  } finally {
    await red.stop().catch(() => {});
    await sim.stop();
  }
}

if (require.main === module) lib.main(main);
module.exports = { main };
