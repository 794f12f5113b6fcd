/**
 * Preloaded (`node -r`) into the Node-RED processes of bench/footprint.js: asked over IPC,
 * it runs two full collections (the process runs with --expose-gc) and answers the memory
 * figures, so that what the process keeps is compared, not when V8 last collected.
 */
'use strict';
process.on('message', (m) => {
  if (!m || m.footprint !== 'measure') return;
  const before = process.memoryUsage();
  global.gc();
  global.gc();
  // The pages the collection freed go back to the system with the next tick of V8's memory reducer.
  const mb = (bytes) => Math.round(bytes / 1e5) / 10;
  const spaces = () =>
    Object.fromEntries(
      require('v8')
        .getHeapSpaceStatistics()
        .filter((s) => s.physical_space_size > 0)
        .map((s) => [s.space_name, { usedMB: mb(s.space_used_size), physicalMB: mb(s.physical_space_size) }]),
    );
  setTimeout(() => process.send({ footprint: { before, after: process.memoryUsage(), spaces: spaces() } }), 500);
});
