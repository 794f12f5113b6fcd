/**
 * Preloaded (`node -r`) into the Node-RED processes of bench/footprint.js: asked over IPC,
 * it waits for V8 to give back the young generation it grew during the start (below), runs
 * two full collections (the process runs with --expose-gc) and answers the memory figures,
 * so that what the process keeps is compared, not when V8 last collected.
 *
 * Why the wait: every Node-RED start here, with the package or without, grows V8's young
 * generation to its ceiling (two semispaces of 16 MB) while modules and flows load. V8 gives
 * it back when its memory reducer finds the allocation rate low: within seconds in an idle
 * process, 15-45 s after the start in one whose flows run (the demos poll 10 times a
 * second). A full collection does not give it back. Measured at a fixed time, a process
 * with running flows was in one of two modes 35 MB apart (issue #45, runs 3-6), depending
 * only on whether the reducer had run yet.
 */
'use strict';
const v8 = require('v8');

/** The young generation is back when its physical size is under this (grown: 32-34 MB; back: 1-4 MB). */
const YOUNG_BACK_MB = 8;
const mb = (bytes) => Math.round(bytes / 1e5) / 10;
const youngMB = () => mb(v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').physical_space_size);

process.on('message', (m) => {
  if (!m || m.footprint !== 'measure') return;
  const before = process.memoryUsage();
  const grownAtSettle = youngMB() >= YOUNG_BACK_MB;
  const waitMs = Number(m.youngWaitMs) || 0;
  const t0 = Date.now();
  // Polled without collecting: a forced collection restarts the memory reducer's timer.
  const wait = setInterval(() => {
    if (youngMB() >= YOUNG_BACK_MB && Date.now() - t0 < waitMs) return;
    clearInterval(wait);
    measure({ before, grownAtSettle, youngWaitedMs: Date.now() - t0, youngBack: youngMB() < YOUNG_BACK_MB });
  }, 250);
});

function measure(waited) {
  global.gc();
  global.gc();
  const spaces = () =>
    Object.fromEntries(
      v8
        .getHeapSpaceStatistics()
        .filter((s) => s.physical_space_size > 0)
        .map((s) => [s.space_name, { usedMB: mb(s.space_used_size), physicalMB: mb(s.physical_space_size) }]),
    );
  // The pages the collection freed go back to the system with the next tick of V8's memory reducer.
  setTimeout(() => process.send({ footprint: { ...waited, after: process.memoryUsage(), spaces: spaces() } }), 500);
}
