#!/usr/bin/env node
/**
 * Scenario 8: alarms (issue #40). 1,000 device-alarm nodes (one boolean condition each) in a
 * real Node-RED, their outputs wired to a sink, and a device-alarm-list listening (its list
 * to a sink): conditions are driven at 100 transitions per second (each msg flips one
 * alarm's condition, so each msg is one transition: normal → active-unack → rtn-unack →
 * active-unack ...) for `--seconds` (30), a bounded count. The journal starts with its ring
 * full (a plant's steady state), so every write is of the largest file the default bounds
 * give at this entry size.
 *
 * Measured in the Node-RED process: the event-loop delay (monitorEventLoopDelay, p99), the
 * journal's writes and bytes (`system.journal.stats()`: batched, far fewer writes than
 * transitions), the CPU per transition (process.cpuUsage), and the list node's cost: the
 * same drive again without the list node (the difference in CPU per transition), the lists
 * it sent and their size, and the time one list of 1,000 alarms takes to build. An idle
 * process alongside shows the machine's own event-loop noise.
 *
 *   node bench/alarms.js [--alarms 1000] [--rate 100] [--seconds 30]
 */
'use strict';
const { monitorEventLoopDelay } = require('perf_hooks');
const lib = require('./lib');

const { Journal, journalFile, JOURNAL_DEFAULTS } = lib.requireDist('nodes/alarms/journal.js');
const { alarmSystems } = lib.requireDist('nodes/alarms/alarm-system.js');
const { listPayload } = lib.requireDist('nodes/alarms/alarm-list.js');
const { alarmNode: deviceAlarm } = lib.requireDist('test/helpers/alarm-node.js');

function args() {
  return {
    alarms: Math.min(JOURNAL_DEFAULTS.maxStates, Number(lib.option('alarms', '1000'))),
    rate: Math.min(1000, Number(lib.option('rate', '100'))),
    seconds: Math.min(300, Number(lib.option('seconds', '30'))),
  };
}

const alarmId = (i) => `bench-${i}`;

/** Alarm `i`: the runtime tests' device-alarm (test/helpers/alarm-node.ts), on no module, wired to the sink. */
function alarmNode(i) {
  const settings = {
    alarmId: alarmId(i),
    priority: String(1 + (i % 4)),
    message: `Tank ${i} level high`,
    area: `area-${i % 10}`,
    device: '',
    clearAfter: '5000',
  };
  return { ...deviceAlarm(`alarm-${i}`, settings), z: lib.TAB, x: 300, y: 40 + i * 40, name: '', wires: [['transitions']] };
}

function flow(opt, withList) {
  const nodes = [lib.tab()];
  for (let i = 0; i < opt.alarms; i++) nodes.push(alarmNode(i));
  nodes.push(lib.sinkNode('transitions'));
  if (withList) {
    nodes.push({
      id: 'list',
      type: 'device-alarm-list',
      z: lib.TAB,
      x: 300,
      y: 20,
      name: '',
      area: '',
      journal: '50',
      shelveFor: '3600000',
      wires: [['lists']],
    });
    nodes.push(lib.sinkNode('lists', 20));
  }
  nodes.push(...lib.catchTo('caught'));
  return nodes;
}

/** A transition as the alarm system journals it (alarm-record.ts), for the ring's prefill. */
function record(i, alarms, time) {
  const states = ['normal', 'active-unack', 'rtn-unack'];
  return {
    alarm: alarmId(i % alarms),
    from: states[i % 3],
    to: states[(i + 1) % 3],
    value: i % 2 === 0,
    active: i % 2 === 0,
    time,
    cause: 'condition',
    priority: 1 + (i % 4),
    message: `Tank ${i % alarms} level high`,
    area: `area-${i % 10}`,
    where: {},
  };
}

/** The journal's file with its ring full, written before any alarm node starts (the system reads it then). */
async function prefill(userDir, alarms) {
  const journal = new Journal({ file: journalFile(userDir) });
  const t0 = Date.now() - JOURNAL_DEFAULTS.maxEntries * 10;
  for (let i = 0; i < JOURNAL_DEFAULTS.maxEntries; i++) journal.append(record(i, alarms, t0 + i * 10));
  await journal.close();
}

/**
 * Drives `total` transitions at `rate` per second: each a msg flipping one alarm's condition,
 * in order through the alarms. Paced by elapsed time (a late timer catches up), in 10 ms ticks.
 */
function drive(red, opt, conditions, total) {
  const nodes = Array.from({ length: opt.alarms }, (_, i) => red.getNode(`alarm-${i}`));
  let sent = 0;
  const t0 = performance.now();
  return new Promise((resolve) => {
    const tick = setInterval(() => {
      const due = Math.min(total, Math.floor(((performance.now() - t0) * opt.rate) / 1000));
      for (; sent < due; sent++) {
        const i = conditions.next++ % opt.alarms;
        conditions.value[i] = !conditions.value[i];
        nodes[i].receive({ payload: conditions.value[i] });
      }
      if (sent >= total) {
        clearInterval(tick);
        resolve();
      }
    }, 10);
  });
}

/** One measured phase: `total` transitions; the figures of the Node-RED process over it. */
async function phase(red, opt, conditions, counts, withIdle) {
  const system = alarmSystems().find((s) => s.journal.file === journalFile(red.userDir));
  if (!system) throw new Error('no alarm system for the runtime userDir: did the device-alarm nodes start?');
  const total = Math.round(opt.seconds * opt.rate);
  const before = { journal: system.journal.stats(), transitions: counts.transitions, lists: counts.lists };
  const idle = withIdle ? lib.idleLoopDelay(opt.seconds * 1000) : Promise.resolve(null);
  const loop = monitorEventLoopDelay({ resolution: lib.LOOP_RESOLUTION_MS });
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  loop.enable();
  await drive(red, opt, conditions, total);
  // The last transitions' msgs and list reach their sinks on the next turns.
  await lib.sleep(50);
  loop.disable();
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const cpuUs = cpu.user + cpu.system;
  const after = system.journal.stats();
  const writes = after.writes - before.journal.writes;
  const bytes = after.bytesWritten - before.journal.bytesWritten;
  const lists = counts.lists - before.lists;
  return {
    transitions: total,
    seconds: lib.round(seconds, 1),
    transitionsPerSecond: lib.round(total / seconds, 1),
    transitionMsgs: counts.transitions - before.transitions,
    eventLoopDelayMs: lib.loopDelay(loop),
    idleProcessEventLoopDelayMs: await idle,
    cpuPercentOfOneCore: lib.round((cpuUs / 1000 / (seconds * 1000)) * 100, 1),
    cpuUsPerTransition: lib.round(cpuUs / total, 0),
    journal: {
      writes,
      writesPerSecond: lib.round(writes / seconds, 2),
      transitionsPerWrite: writes ? lib.round(total / writes, 0) : null,
      bytesWritten: bytes,
      bytesPerSecond: Math.round(bytes / seconds),
      bytesPerWrite: writes ? Math.round(bytes / writes) : 0,
      failedWrites: after.failedWrites - before.journal.failedWrites,
      entries: after.entries,
    },
    lists,
  };
}

/** One list as the list node builds it (1,000 alarms, 50 journal entries): mean ms to build, and its JSON size. */
function oneList(red) {
  const system = alarmSystems().find((s) => s.journal.file === journalFile(red.userDir));
  for (let i = 0; i < 20; i++) listPayload(system, { journal: 50 });
  const n = 200;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) listPayload(system, { journal: 50 });
  const buildMs = (performance.now() - t0) / n;
  return { buildMs: lib.round(buildMs, 3), bytes: JSON.stringify(listPayload(system, { journal: 50 })).length };
}

async function main() {
  const opt = args();
  lib.checkBuilt();
  const red = await lib.startRed();
  try {
    await prefill(red.userDir, opt.alarms);
    const counts = { transitions: 0, lists: 0, caught: [] };
    const sinks = () => {
      red.onSink('transitions', () => counts.transitions++);
      red.onSink('lists', () => counts.lists++);
      red.onSink('caught', (msg) => counts.caught.push(msg.error && msg.error.message));
    };
    const conditions = { next: 0, value: new Array(opt.alarms).fill(false) };
    const deployStarted = performance.now();
    await red.deploy(flow(opt, true));
    const deployMs = performance.now() - deployStarted;
    sinks();
    // Warm-up (JIT, Node-RED's lazy structures): a few seconds of the same drive, not measured.
    await phase(red, { ...opt, seconds: Math.min(3, opt.seconds) }, conditions, counts, false);
    const withList = await phase(red, opt, conditions, counts, true);
    const built = oneList(red);
    await red.deploy(flow(opt, false));
    sinks();
    const alone = await phase(red, opt, conditions, counts, true);
    if (counts.caught.length) throw new Error(`Catch: ${counts.caught.length} errors, e.g. ${counts.caught[0]}`);
    return {
      scenario: 'alarms',
      alarms: opt.alarms,
      rate: opt.rate,
      seconds: opt.seconds,
      deployMs: lib.round(deployMs, 0),
      withList,
      alone,
      list: {
        sent: withList.lists,
        perSecond: lib.round(withList.lists / withList.seconds, 1),
        bytes: built.bytes,
        buildMs: built.buildMs,
        cpuUsPerTransition: withList.cpuUsPerTransition - alone.cpuUsPerTransition,
      },
      journalBounds: {
        intervalMs: JOURNAL_DEFAULTS.intervalMs,
        writeBytesPerSecond: JOURNAL_DEFAULTS.writeBytesPerSecond,
        maxEntries: JOURNAL_DEFAULTS.maxEntries,
      },
    };
  } finally {
    await red.stop().catch(() => {});
  }
}

if (require.main === module) lib.main(main);
module.exports = { main };
