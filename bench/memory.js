/**
 * Scenario 5: memory. Heap and RSS of a Node-RED process before and after 500,000 msgs
 * (half `output/state` through io-output, half `input/values` through io-read; 32 msgs in
 * flight), after a full GC each time. Needs `node --expose-gc`. The simulator runs in its
 * own process, so its request log does not count.
 *
 *   node --expose-gc bench/memory.js [--n 500000]
 */
'use strict';
const lib = require('./lib');

const SLOT = 2;

function args() {
  const a = process.argv.slice(2);
  const i = a.indexOf('--n');
  return { n: Number(i >= 0 ? a[i + 1] : process.env.BENCH_MEMORY_N || 500000), window: 32 };
}

function flow(url) {
  return [
    lib.tab(),
    lib.deviceNode('dev', url, SLOT),
    {
      id: 'out',
      type: 'io-output',
      z: lib.TAB,
      x: 300,
      y: 100,
      name: '',
      device: 'dev',
      pin: '1',
      mode: 'state',
      state: 'high',
      pwmInput: 'raw',
      frequency: '1000',
      duty: '50',
      prescaler: '47',
      period: '1000',
      time_on: '500',
      wires: [['sink']],
    },
    {
      id: 'read',
      type: 'io-read',
      z: lib.TAB,
      x: 300,
      y: 200,
      name: '',
      device: 'dev',
      source: 'values',
      pin: 'all',
      interval: '0',
      onlyOnChange: false,
      deadband: '0',
      output: 'record',
      wires: [['sink']],
    },
    lib.sinkNode('sink'),
    ...lib.catchTo('caught'),
  ];
}

/** n msgs through node `id`, `window` in flight, msgs built by `make(i)`. */
function drive(red, id, n, window, make) {
  const node = red.getNode(id);
  return new Promise((resolve, reject) => {
    let sent = 0;
    let received = 0;
    red.onSink('sink', () => {
      received++;
      if (received === n) resolve();
      else if (sent < n) node.receive(make(sent++));
    });
    red.onSink('caught', (msg) => reject(new Error(`Catch: ${msg.error && msg.error.message}`)));
    while (sent < Math.min(n, window)) node.receive(make(sent++));
  });
}

async function settle() {
  for (let i = 0; i < 4; i++) {
    global.gc();
    await lib.sleep(100);
  }
  const m = process.memoryUsage();
  return { heapUsedMB: lib.round(m.heapUsed / 2 ** 20, 2), rssMB: lib.round(m.rss / 2 ** 20, 1), externalMB: lib.round(m.external / 2 ** 20, 2) };
}

async function main() {
  if (typeof global.gc !== 'function') throw new Error('run with node --expose-gc');
  const opt = args();
  lib.checkBuilt();
  const sim = await lib.startSim();
  const red = await lib.startRed();
  try {
    await lib.powerConfig(sim, SLOT);
    await red.deploy(flow(sim.url));
    await lib.waitConnected(red, ['dev']);
    const write = (i) => ({ payload: { pin: 1, state: i % 2 ? 'low' : 'high' }, topic: 'bench' });
    const read = () => ({ topic: 'bench' });
    // Warm-up: JIT, sockets, Node-RED's and axios' lazy structures.
    await drive(red, 'out', 5000, opt.window, write);
    await drive(red, 'read', 5000, opt.window, read);
    const before = await settle();
    const t0 = Date.now();
    let peakRssMB = 0;
    const sampler = setInterval(() => (peakRssMB = Math.max(peakRssMB, process.memoryUsage().rss / 2 ** 20)), 200);
    await drive(red, 'out', opt.n / 2, opt.window, write);
    await drive(red, 'read', opt.n / 2, opt.window, read);
    clearInterval(sampler);
    const seconds = (Date.now() - t0) / 1000;
    const after = await settle();
    const growth = lib.round(after.heapUsedMB - before.heapUsedMB, 2);
    return {
      scenario: 'memory',
      msgs: opt.n,
      seconds: lib.round(seconds, 1),
      before,
      after,
      heapGrowthMB: growth,
      rssGrowthMB: lib.round(after.rssMB - before.rssMB, 1),
      peakRssMB: lib.round(peakRssMB, 1),
      targetHeapGrowthMB: 5,
      met: growth < 2,
    };
  } finally {
    await red.stop().catch(() => {});
    await sim.stop();
  }
}

if (require.main === module) lib.main(main);
module.exports = { main };
