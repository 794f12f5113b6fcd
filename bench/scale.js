/**
 * Scenario 4: scale. 100 io modules (one simulator, in its own process, with io modules in
 * slots 0..99), 100 modular-device config nodes in one Node-RED process, each polled by a
 * notification-poll node at 10 Hz (100 ms) for 30 s. Measured on the Node-RED process only:
 * CPU (process.cpuUsage, % of one core), event-loop delay (perf_hooks.monitorEventLoopDelay,
 * p99), and alerts missed out of ~10 per second raised at random on random modules, pins
 * and kinds (the control requests are sent from this process; they cost ~0.1 % CPU).
 *
 *   node bench/scale.js [--modules 100] [--seconds 30] [--interval 100] [--api 1.0]
 */
'use strict';
const { monitorEventLoopDelay, performance } = require('perf_hooks');
const lib = require('./lib');

const KINDS = ['under_voltage_alert', 'high_voltage_alert', 'high_current_alert', 'custom_voltage_alert'];

function args() {
  const a = process.argv.slice(2);
  const get = (name, fallback) => {
    const i = a.indexOf(`--${name}`);
    return i >= 0 ? a[i + 1] : fallback;
  };
  return {
    modules: Number(get('modules', 100)),
    seconds: Number(get('seconds', process.env.BENCH_SCALE_SECONDS || 30)),
    interval: Number(get('interval', 100)),
    alertsPerSecond: Number(get('alerts-per-second', 10)),
    /** The device's API version (the simulator's --api); default 0.9. */
    api: get('api', undefined),
  };
}

async function main() {
  const opt = args();
  lib.checkBuilt();
  const slots = Array.from({ length: opt.modules }, (_, i) => i);
  const sim = await lib.startSim({ modules: slots.map((slot) => ({ service: 'io', slot })), api: opt.api });
  const red = await lib.startRed();
  try {
    const nodes = [lib.tab()];
    for (const slot of slots) {
      nodes.push(lib.deviceNode(`dev-${slot}`, sim.url, slot));
      nodes.push({
        id: `poll-${slot}`,
        type: 'notification-poll',
        z: lib.TAB,
        x: 300,
        y: 40 + slot * 40,
        name: '',
        device: `dev-${slot}`,
        interval: String(opt.interval),
        pins: '',
        alerts: '',
        combined: false,
        wires: [[`sink-${slot}`]],
      });
      nodes.push(lib.sinkNode(`sink-${slot}`, 40 + slot * 40));
    }
    nodes.push(...lib.catchTo('caught'));
    await red.deploy(nodes);
    await lib.waitConnected(red, slots.map((s) => `dev-${s}`), 30000);

    const waiting = new Map(); // "slot/pin/kind" -> tSend
    const latency = [];
    let unexpected = 0;
    let errors = 0;
    red.onSink('caught', () => errors++);
    for (const slot of slots) {
      red.onSink(`sink-${slot}`, (msg) => {
        const t = performance.now();
        const pin = Number(String(msg.topic).split('/')[1]);
        for (const kind of msg.alerts || []) {
          const key = `${slot}/${pin}/${kind}`;
          if (!waiting.has(key)) {
            unexpected++;
            continue;
          }
          latency.push(t - waiting.get(key));
          waiting.delete(key);
        }
      });
    }
    // Warm up: every poller running, sockets open, JIT warm.
    await lib.sleep(3000);
    unexpected = 0;
    errors = 0;
    await sim.call('DELETE', '/sim/log');

    // The machine's own noise: an idle Node process measuring its event-loop delay alongside.
    const idle = lib.idleLoopDelay(opt.seconds * 1000);
    const loop = monitorEventLoopDelay({ resolution: lib.LOOP_RESOLUTION_MS });
    const cpu0 = process.cpuUsage();
    const simCpu0 = sim.cpuMs();
    const t0 = performance.now();
    loop.enable();
    let raised = 0;
    const end = t0 + opt.seconds * 1000;
    const meanGap = 1000 / opt.alertsPerSecond;
    while (performance.now() < end) {
      await lib.sleep(Math.random() * 2 * meanGap);
      const slot = Math.floor(Math.random() * opt.modules);
      const pin = 1 + Math.floor(Math.random() * 6);
      const kind = KINDS[Math.floor(Math.random() * KINDS.length)];
      const key = `${slot}/${pin}/${kind}`;
      if (waiting.has(key)) continue; // it would coalesce with the one waiting (one flag per pin and kind)
      waiting.set(key, performance.now());
      const answer = await sim.call('POST', `/sim/io/${slot}/pins/${pin}/alert`, { alert: kind });
      if (answer.status !== 200) throw new Error(`alert: ${answer.status} ${JSON.stringify(answer.body)}`);
      raised++;
    }
    loop.disable();
    const elapsed = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const simCpu = sim.cpuMs() - simCpu0;
    const log = await sim.call('GET', '/sim/log?since=999999999999');
    await lib.sleep(1000 + opt.interval * 3);
    const polls = log.body.total;
    return {
      scenario: 'scale',
      api: opt.api || '0.9',
      modules: opt.modules,
      intervalMs: opt.interval,
      seconds: lib.round(elapsed / 1000, 1),
      cpuPercentOfOneCore: lib.round(((cpu.user + cpu.system) / 1000 / elapsed) * 100, 1),
      cpuUserPercent: lib.round((cpu.user / 1000 / elapsed) * 100, 1),
      cpuSystemPercent: lib.round((cpu.system / 1000 / elapsed) * 100, 1),
      eventLoopDelayMs: lib.loopDelay(loop),
      idleProcessEventLoopDelayMs: await idle,
      requestsPerSecond: Math.round((polls * 1000) / elapsed),
      cpuUsPerRequest: Math.round(((cpu.user + cpu.system) / polls) * 10) / 10,
      simulatorCpuPercent: lib.round((simCpu / elapsed) * 100, 1),
      alerts: raised,
      missed: waiting.size,
      unexpected,
      errors,
      alertLatencyMs: { p50: lib.round(lib.percentile(latency, 50), 1), p99: lib.round(lib.percentile(latency, 99), 1) },
      targets: { cpuPercent: 25, eventLoopP99Ms: 20 },
    };
  } finally {
    await red.stop().catch(() => {});
    await sim.stop();
  }
}

if (require.main === module) lib.main(main);
module.exports = { main };
