#!/usr/bin/env node
/**
 * The alarms' journal under the load issue #40 names: 1,000 alarms, 100 transitions per
 * second, each an entry appended and the alarm's state set, for `--seconds` (10). The journal
 * starts full (its ring at maxEntries, every entry with a comment), so every write is of the
 * largest file the default bounds give at that entry size. Prints writes per second, bytes
 * written, the event-loop delay (monitorEventLoopDelay) and how long a restart takes to read
 * the file back. A benchmark, not a test: no assertions; exits 0.
 *
 *   node bench/journal.js [--seconds 10] [--rate 100] [--alarms 1000]
 */
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { monitorEventLoopDelay } = require('perf_hooks');
const lib = require('./lib');

const { Journal, journalFile, JOURNAL_DEFAULTS } = lib.requireDist('nodes/alarms/journal.js');

const seconds = Math.min(120, Number(lib.option('seconds', '10')));
const rate = Math.min(10_000, Number(lib.option('rate', '100')));
const alarms = Math.min(JOURNAL_DEFAULTS.maxStates, Number(lib.option('alarms', '1000')));
const STATES = ['normal', 'unack', 'ack', 'rtn-unack'];

function transition(i) {
  const alarm = `device-1/io/2/pin-${i % alarms}/high-current`;
  return {
    entry: {
      alarm,
      from: STATES[i % 4],
      to: STATES[(i + 1) % 4],
      value: 1.25 + (i % 100) / 100,
      time: Date.now(),
      user: 'operator',
      comment: 'fan replaced, checked on site',
    },
    alarm,
    state: { state: STATES[(i + 1) % 4], since: Date.now(), shelvedUntil: null, priority: 1 + (i % 4) },
  };
}

async function main() {
  lib.checkBuilt();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'md-journal-bench-'));
  const file = journalFile(dir);
  const problems = [];
  try {
    let journal = new Journal({ file, onProblem: (p) => problems.push(p) });
    let i = 0;
    for (; i < JOURNAL_DEFAULTS.maxEntries; i++) {
      const t = transition(i);
      journal.append(t.entry);
      journal.setState(t.alarm, t.state);
    }
    await journal.flush();
    const before = journal.stats();

    const loop = monitorEventLoopDelay({ resolution: lib.LOOP_RESOLUTION_MS });
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    loop.enable();
    // Transitions in 10 ms ticks, as a busy plant's would arrive: rate/100 per tick.
    const total = Math.round(seconds * rate);
    await new Promise((resolve) => {
      let due = 0;
      const tick = setInterval(() => {
        due += rate / 100;
        for (; due >= 1 && i - JOURNAL_DEFAULTS.maxEntries < total; due--, i++) {
          const t = transition(i);
          journal.append(t.entry);
          journal.setState(t.alarm, t.state);
        }
        if (i - JOURNAL_DEFAULTS.maxEntries >= total) {
          clearInterval(tick);
          resolve();
        }
      }, 10);
    });
    loop.disable();
    const elapsedS = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    await journal.close();
    const after = journal.stats();
    const writes = after.writes - before.writes;
    const bytes = after.bytesWritten - before.bytesWritten;

    const r0 = performance.now();
    journal = new Journal({ file, onProblem: (p) => problems.push(p) });
    const loadMs = performance.now() - r0;

    const result = {
      alarms,
      transitionsPerSecond: lib.round(total / elapsedS, 1),
      transitions: total,
      seconds: lib.round(elapsedS, 1),
      writes,
      writesPerSecond: lib.round(writes / elapsedS, 2),
      bytesWritten: bytes,
      bytesPerWrite: writes ? Math.round(bytes / writes) : 0,
      fileBytes: fs.statSync(file).size,
      cpuPercent: lib.round(((cpu.user + cpu.system) / 1000 / (elapsedS * 1000)) * 100, 1),
      loopDelayMs: lib.loopDelay(loop),
      restartLoadMs: lib.round(loadMs, 1),
      restored: { entries: journal.stats().entries, states: journal.states().size, dropped: journal.stats().dropped },
      problems: problems.length,
    };
    console.log(JSON.stringify(result, null, 2));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
