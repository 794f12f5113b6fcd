/**
 * Scenario 4: scale. 100 io modules (one simulator, in its own process, with io modules in
 * slots 0..99), 100 modular-device config nodes in one Node-RED process, each polled by a
 * notification-poll node at 10 Hz (100 ms) for 30 s. Measured on the Node-RED process only:
 * CPU (process.cpuUsage, % of one core), event-loop delay (perf_hooks.monitorEventLoopDelay,
 * p99), and alerts missed out of ~10 per second raised at random on random modules, watched
 * pins and kinds (the control requests are sent from this process; they cost ~0.1 % CPU).
 *
 * In the same run, the physical limit: plain `http.request` pollers (bench/plain-poller.js)
 * making the same requests at the same pace against the same simulator process, while our
 * pollers are paused ("stop"). The two take turns in segments (rotated order), so the CPU
 * ratio ours / plain is one that a busy machine does not distort: a noisy neighbour hits
 * both contestants of a segment alike.
 *
 *   node bench/scale.js [--modules 100] [--seconds 30] [--segments 5] [--interval 100] [--api 1.0] [--pins 1,2]
 *
 * --seconds: measured time of each contestant, split in --segments turns.
 * --pins: the pins every notification-poll watches (its `pins` setting; default: its own
 * default, all six); alerts are raised on these pins only, and on API 1.0 the plain poller
 * reads only these.
 */
'use strict';
const { monitorEventLoopDelay } = require('perf_hooks');
const lib = require('./lib');
const { startPlainPoller } = require('./plain-poller');

const KINDS = ['under_voltage_alert', 'high_voltage_alert', 'high_current_alert', 'custom_voltage_alert'];
const ALL_PINS = [1, 2, 3, 4, 5, 6];

function args() {
  const get = lib.option;
  return {
    modules: Number(get('modules', 100)),
    seconds: Number(get('seconds', process.env.BENCH_SCALE_SECONDS || 30)),
    segments: Number(get('segments', 5)),
    interval: Number(get('interval', 100)),
    alertsPerSecond: Number(get('alerts-per-second', 10)),
    /** The device's API version (the simulator's --api); default 0.9. */
    api: get('api', undefined),
    /** Watched pins; empty: the node's default (all six). */
    pins: String(get('pins', '')).split(',').filter(Boolean).map(Number),
  };
}

function pollNode(slot, opt) {
  return {
    id: `poll-${slot}`,
    type: 'notification-poll',
    z: lib.TAB,
    x: 300,
    y: 40 + slot * 40,
    name: '',
    device: `dev-${slot}`,
    interval: String(opt.interval),
    pins: opt.pins.join(','),
    alerts: '',
    combined: false,
    wires: [[`sink-${slot}`]],
  };
}

const { sum, turnsDelay } = lib;

async function main() {
  const opt = args();
  lib.checkBuilt();
  const api = opt.api || '0.9';
  const watched = opt.pins.length ? opt.pins : ALL_PINS;
  const slots = Array.from({ length: opt.modules }, (_, i) => i);
  const sim = await lib.startSim({ modules: slots.map((slot) => ({ service: 'io', slot })), api: opt.api });
  const red = await lib.startRed();
  let plain;
  try {
    const nodes = [lib.tab()];
    for (const slot of slots) nodes.push(lib.deviceNode(`dev-${slot}`, sim.url, slot), pollNode(slot, opt), lib.sinkNode(`sink-${slot}`, 40 + slot * 40));
    nodes.push(...lib.catchTo('caught'));
    await red.deploy(nodes);
    await lib.waitConnected(
      red,
      slots.map((s) => `dev-${s}`),
      30000,
    );

    const waiting = new Map(); // "slot/pin/kind" -> { t: time raised, by: the contestant polling then }
    const latency = { ours: [], plain: [] };
    let unexpected = 0;
    let errors = 0;
    const settle = (who, slot, pin, kinds) => {
      const t = performance.now();
      for (const kind of kinds) {
        const key = `${slot}/${pin}/${kind}`;
        if (!waiting.has(key)) {
          unexpected++;
          continue;
        }
        latency[who].push(t - waiting.get(key).t);
        waiting.delete(key);
      }
    };
    red.onSink('caught', () => errors++);
    for (const slot of slots) red.onSink(`sink-${slot}`, (msg) => settle('ours', slot, Number(String(msg.topic).split('/')[1]), msg.alerts || []));
    // Warm up: every poller running, sockets open, JIT warm. After 3 s ours' first turn still
    // cost a third more per request than its later ones (the turns are in results.json).
    await lib.sleep(8000);

    /** Raises alerts at random for `ms`; resolves how many. */
    const raiseFor = async (ms, by) => {
      let raised = 0;
      const end = performance.now() + ms;
      const meanGap = 1000 / opt.alertsPerSecond;
      while (performance.now() < end) {
        await lib.sleep(Math.random() * 2 * meanGap);
        const slot = Math.floor(Math.random() * opt.modules);
        const pin = watched[Math.floor(Math.random() * watched.length)];
        const kind = KINDS[Math.floor(Math.random() * KINDS.length)];
        const key = `${slot}/${pin}/${kind}`;
        if (waiting.has(key)) continue; // it would coalesce with the one waiting (one flag per pin and kind)
        waiting.set(key, { t: performance.now(), by });
        const answer = await sim.call('POST', `/sim/io/${slot}/pins/${pin}/alert`, { alert: kind });
        if (answer.status !== 200) throw new Error(`alert: ${answer.status} ${JSON.stringify(answer.body)}`);
        raised++;
      }
      return raised;
    };

    const pauseOurs = (payload) => slots.forEach((slot) => red.getNode(`poll-${slot}`).receive({ payload }));
    const onRecord = (slot, pin, record) =>
      settle(
        'plain',
        slot,
        pin,
        KINDS.filter((kind) => record[kind] === true),
      );
    const contestants = {
      ours: { start: () => pauseOurs('start'), stop: async () => pauseOurs('stop') },
      plain: {
        start: () => (plain = startPlainPoller({ url: sim.url, api, slots, pins: watched, intervalMs: opt.interval, onRecord })),
        stop: async () => {
          const p = plain;
          plain = undefined;
          await p.stop();
        },
      },
    };
    const turns = { ours: [], plain: [] };
    const turnMs = (opt.seconds * 1000) / opt.segments;
    /** One turn of `who` (running already): its CPU, requests, alerts and loop delay. */
    const measureTurn = async (who, ms) => {
      await sim.call('DELETE', '/sim/log');
      // The machine's own noise alongside, in both contestants' turns: the idle process wakes
      // every millisecond on a machine of two cores, and a turn with it is not like one without.
      const idle = lib.idleLoopDelay(ms);
      const cpu0 = process.cpuUsage();
      const simCpu0 = sim.cpuMs();
      const t0 = performance.now();
      const loop = monitorEventLoopDelay({ resolution: lib.LOOP_RESOLUTION_MS });
      loop.enable();
      const raised = await raiseFor(ms, who);
      loop.disable();
      const elapsedMs = performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      const simCpuMs = sim.cpuMs() - simCpu0;
      const log = await sim.call('GET', '/sim/log?since=999999999999');
      return { elapsedMs, user: cpu.user, system: cpu.system, simCpuMs, requests: log.body.total, raised, loop: lib.loopDelay(loop), idle: await idle };
    };
    // The turn itself warmed up too, not only the pollers (the idle process, the alerts, the
    // log): one turn of ours is measured and thrown away. Then ours stops, so that every
    // measured turn of either contestant begins alike: a start (every module's
    // first round at once) and a second into its pace. Ours' first turn used to run on from
    // the warm-up instead, and cost 100-170 µs per request where its later turns cost 112-175.
    const discarded = await measureTurn('ours', Math.min(turnMs, 3000));
    await lib.sleep(opt.interval * 3); // its alerts read
    await contestants.ours.stop();
    await lib.sleep(opt.interval * 2);
    unexpected = 0;
    errors = 0;
    latency.ours.length = 0;
    let running;
    for (let segment = 0; segment < opt.segments; segment++) {
      for (const who of segment % 2 ? ['plain', 'ours'] : ['ours', 'plain']) {
        if (running !== who) {
          // No forced collection before a turn (as throughput.js says why): V8 throws away
          // the optimized code that holds objects a full collection finds dead, and the turn
          // after one measured the recompiling more than the pollers.
          contestants[who].start();
          running = who;
          await lib.sleep(1000); // into its pace: the first round of every module goes out at once
        }
        turns[who].push(await measureTurn(who, turnMs));
        // Drain: the alerts of this turn are read by the poller that was running when raised.
        await lib.sleep(1000 + opt.interval * 3);
        await contestants[who].stop();
        running = undefined;
        await lib.sleep(opt.interval * 2); // a round of ours on the wire when paused still ends
      }
    }

    const figures = (who) => {
      const list = turns[who];
      const ms = sum(list, (x) => x.elapsedMs);
      const cpuUs = sum(list, (x) => x.user + x.system);
      const requests = sum(list, (x) => x.requests);
      return {
        seconds: lib.round(ms / 1000, 1),
        cpuPercentOfOneCore: lib.round((cpuUs / 1000 / ms) * 100, 1),
        cpuUserPercent: lib.round((sum(list, (x) => x.user) / 1000 / ms) * 100, 1),
        cpuSystemPercent: lib.round((sum(list, (x) => x.system) / 1000 / ms) * 100, 1),
        eventLoopDelayMs: turnsDelay(list.map((x) => x.loop)),
        requestsPerSecond: Math.round((requests * 1000) / ms),
        cpuUsPerRequest: Math.round((cpuUs / requests) * 10) / 10,
        /** Turn by turn: the first turns of a contestant may still be warming up (JIT). */
        cpuUsPerRequestByTurn: list.map((x) => Math.round(((x.user + x.system) / x.requests) * 10) / 10),
        simulatorCpuPercent: lib.round((sum(list, (x) => x.simCpuMs) / ms) * 100, 1),
        alerts: sum(list, (x) => x.raised),
        missed: [...waiting.values()].filter((w) => w.by === who).length,
        alertLatencyMs: { p50: lib.round(lib.percentile(latency[who], 50), 1), p99: lib.round(lib.percentile(latency[who], 99), 1) },
      };
    };
    // Ours / plain per segment (the two turns of a segment ran seconds apart), then the median.
    const ratio = (f) => lib.round(lib.median(turns.ours.map((o, k) => f(o) / f(turns.plain[k]))), 2);
    const cpuShare = (x) => (x.user + x.system) / x.elapsedMs;
    return {
      scenario: 'scale',
      api,
      modules: opt.modules,
      intervalMs: opt.interval,
      pins: opt.pins.length ? opt.pins.join(',') : 'all six (the node default)',
      segments: opt.segments,
      ...figures('ours'),
      /** The turn of ours measured and thrown away before the first (see measureTurn). */
      discardedTurnCpuUsPerRequest: Math.round(((discarded.user + discarded.system) / discarded.requests) * 10) / 10,
      idleProcessEventLoopDelayMs: turnsDelay(turns.ours.map((x) => x.idle).filter(Boolean)),
      unexpected,
      errors,
      plain: figures('plain'),
      ratios: {
        cpuToPlain: ratio(cpuShare),
        cpuPerRequestToPlain: ratio((x) => (x.user + x.system) / x.requests),
      },
      targets: { cpuPercent: 25, eventLoopP99Ms: 20 },
    };
  } finally {
    if (plain) await plain.stop().catch(() => {});
    await red.stop().catch(() => {});
    await sim.stop();
  }
}

if (require.main === module) lib.main(main);
module.exports = { main };
