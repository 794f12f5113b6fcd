// The keep-alive flow (examples/watchdog-keep-alive.json) under test. Runs with mocha
// (npx mocha --timeout 30000 flow-tests) or node's own runner (node --test flow-tests).
'use strict';
const assert = require('node:assert');
const path = require('node:path');
const { describe, it, afterEach } = globalThis.describe ? globalThis : require('node:test');
const { startFlows, runScenario, formatReport } = require('@modular-device/node-red/testing');

const FLOWS = path.join(__dirname, '..', 'examples', 'watchdog-keep-alive.json');
const API = process.env.MD_API || '0.9';

describe(`watchdog keep-alive (API ${API})`, () => {
  let t;
  afterEach(() => t && t.stop());

  async function watchdogSet() {
    t = await startFlows({ flows: FLOWS, api: API });
    await t.until(async () => (await t.device.module(0)).watchdog.timeoutMs === 10000, { what: 'the flow to set the watchdog to 10 s' });
    t.mark();
  }

  it('keeps the watchdog armed while the bmc answers slowly', async () => {
    await watchdogSet();
    const since = t.mark();
    await t.device.slow('bmc', 2000, 4);
    // Two keep-alives through the slow bmc, then: still armed (a reset would have disarmed it), no error.
    await t.until(() => t.received('alive', since).length >= 2, { what: 'two keep-alives' });
    assert.strictEqual((await t.device.module(0)).watchdog.timeoutMs, 10000);
    assert.deepStrictEqual(t.caught(), []);
  });

  it('reports the failure at Catch when the bmc hangs', async () => {
    await watchdogSet();
    await t.device.hang('bmc');
    const caught = await t.nextError({ where: (msg) => msg.error.source.name === 'alive' || msg.error.source.name === 'read' });
    assert.match(caught.error.message, /no answer/);
  });

  it('passes its scenario', async () => {
    const report = await runScenario({ flows: FLOWS, scenario: path.join(__dirname, 'keep-alive.scenario.yaml'), api: API });
    assert.ok(report.ok, formatReport(report));
  });
});
