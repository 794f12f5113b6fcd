#!/usr/bin/env node
// `npm run screenshots`: the pictures of README.md and docs/ taken again from the real thing
// (Node-RED with the npm-packed package, the demo flows against the simulator, headless
// Chromium, `npm run fleet`'s overview), written to docs/images/. The work is in
// test/screenshots/take.ts, beside the browser tests whose helpers it uses; this runs its build.
'use strict';
const fs = require('fs');
const path = require('path');

const root = path.resolve(__dirname, '..');
const take = path.join(root, 'dist', 'test', 'screenshots', 'take.js');
if (!fs.existsSync(take)) {
  console.error('npm run screenshots: build first (npm run build)');
  process.exit(1);
}
require(take)
  .takeScreenshots()
  .then(() => process.exit(0))
  .catch((error) => {
    console.error(`npm run screenshots: ${error.stack || error.message}`);
    process.exit(1);
  });
