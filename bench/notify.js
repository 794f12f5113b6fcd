/**
 * Scenario 3: notification latency. notification-poll on one io module, polling every 20,
 * 50 and 100 ms (one deployment each); 500 alerts per interval raised through the
 * simulator's control API (`POST /sim/io/<slot>/pins/<pin>/alert`) at random moments.
 *
 * Latency: from just before the control request is sent (an upper bound on the moment the
 * device set the flag) to the msg reaching a sink node wired to notification-poll (the msg
 * leaving the node plus Node-RED's delivery). Also given from the control request's answer
 * (a lower bound).
 *
 * The device keeps one flag per pin and kind, cleared by the read: two alerts of one kind
 * on one pin before a read would give one msg. So an alert is raised only on a (pin, kind)
 * with no alert waiting for its msg; a msg settles every waiting alert it names. Missed =
 * alerts with no msg within a second after the last one; unexpected = named (pin, kind)
 * with no alert waiting (must be 0 too).
 *
 *   node bench/notify.js [--alerts 500] [--intervals 20,50,100] [--gap 30]
 */
'use strict';
const { monitorEventLoopDelay } = require('perf_hooks');
const lib = require('./lib');

const SLOT = 3;
const KINDS = ['under_voltage_alert', 'high_voltage_alert', 'high_current_alert', 'custom_voltage_alert'];

function args() {
  const get = lib.option;
  return {
    alerts: Number(get('alerts', process.env.BENCH_ALERTS || 500)),
    intervals: String(get('intervals', '20,50,100')).split(',').map(Number),
    /** Gaps between alerts are uniform in 0..gap ms. */
    gap: Number(get('gap', 30)),
  };
}

function flow(url, interval) {
  return [
    lib.tab(),
    lib.deviceNode('dev', url, SLOT),
    {
      id: 'poll',
      type: 'notification-poll',
      z: lib.TAB,
      x: 300,
      y: 100,
      name: '',
      device: 'dev',
      interval: String(interval),
      pins: '',
      alerts: '',
      combined: false,
      wires: [['poll-sink']],
    },
    lib.sinkNode('poll-sink'),
    ...lib.catchTo('caught'),
  ];
}

async function runInterval(red, sim, interval, count, gap) {
  await red.deploy(flow(sim.url, interval));
  await lib.waitConnected(red, ['dev']);
  const waiting = new Map(); // "pin/kind" -> {tSend, tAck}
  const fromSend = [];
  const fromAck = [];
  let unexpected = 0;
  let errors = 0;
  red.onSink('caught', () => errors++);
  red.onSink('poll-sink', (msg) => {
    const t = performance.now();
    const pin = Number(String(msg.topic).split('/')[1]);
    for (const kind of msg.alerts || []) {
      const key = `${pin}/${kind}`;
      const alert = waiting.get(key);
      if (!alert) {
        unexpected++;
        continue;
      }
      waiting.delete(key);
      fromSend.push(t - alert.tSend);
      alert.tOut = t;
      if (alert.tAck !== undefined) fromAck.push(t - alert.tAck);
    }
  });
  // Let a few rounds pass (and clear anything left from before).
  await lib.sleep(Math.max(300, interval * 3));
  unexpected = 0;

  // This process's event-loop delay, and an idle process's alongside (the machine's noise).
  const loop = monitorEventLoopDelay({ resolution: lib.LOOP_RESOLUTION_MS });
  loop.enable();
  const idle = lib.idleLoopDelay(count * (gap / 2) + 500);
  const keys = [];
  for (let pin = 1; pin <= 6; pin++) for (const kind of KINDS) keys.push({ pin, kind, key: `${pin}/${kind}` });
  let raised = 0;
  let skippedBusy = 0;
  while (raised < count) {
    await lib.sleep(Math.random() * gap);
    const free = keys.filter((k) => !waiting.has(k.key));
    if (!free.length) {
      skippedBusy++;
      continue;
    }
    const { pin, kind, key } = free[Math.floor(Math.random() * free.length)];
    const alert = { tSend: performance.now() };
    waiting.set(key, alert);
    const answer = await sim.call('POST', `/sim/io/${SLOT}/pins/${pin}/alert`, { alert: kind });
    if (answer.status !== 200) throw new Error(`alert: ${answer.status} ${JSON.stringify(answer.body)}`);
    alert.tAck = performance.now();
    if (alert.tOut !== undefined) fromAck.push(alert.tOut - alert.tAck); // the msg came before the answer
    raised++;
  }
  loop.disable();
  await lib.sleep(1000 + interval * 3);
  const missed = waiting.size;
  return {
    intervalMs: interval,
    alerts: raised,
    received: fromSend.length,
    missed,
    unexpected,
    errors,
    fromSendMs: { p50: lib.round(lib.percentile(fromSend, 50), 2), p99: lib.round(lib.percentile(fromSend, 99), 2), max: lib.round(Math.max(...fromSend), 2) },
    fromAnswerMs: { p50: lib.round(lib.percentile(fromAck, 50), 2), p99: lib.round(lib.percentile(fromAck, 99), 2) },
    targetP99Ms: interval + 10,
    met: missed === 0 && unexpected === 0 && lib.percentile(fromSend, 99) <= interval + 10,
    skippedBusy,
    eventLoopDelayMs: lib.loopDelay(loop),
    idleProcessEventLoopDelayMs: await idle,
  };
}

async function main() {
  const opt = args();
  lib.checkBuilt();
  const sim = await lib.startSim();
  const red = await lib.startRed();
  try {
    const results = [];
    for (const interval of opt.intervals) results.push(await runInterval(red, sim, interval, opt.alerts, opt.gap));
    return { scenario: 'notification latency', event: 'just before the control request is sent', gapMs: `uniform 0..${opt.gap}`, results };
  } finally {
    await red.stop().catch(() => {});
    await sim.stop();
  }
}

if (require.main === module) lib.main(main);
module.exports = { main };
