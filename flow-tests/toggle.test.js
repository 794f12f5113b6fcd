// The toggle flow (examples/io-output.json) under test. Runs with mocha
// (npx mocha --timeout 30000 flow-tests) or node's own runner (node --test flow-tests).
'use strict';
const assert = require('node:assert');
const path = require('node:path');
const { describe, it, afterEach } = globalThis.describe ? globalThis : require('node:test');
const { startFlows, runScenario, formatReport } = require('@modular-device/node-red/testing');

const FLOWS = path.join(__dirname, '..', 'examples', 'io-output.json');
const API = process.env.MD_API || '0.9';

describe(`toggle output (API ${API})`, () => {
  let t;
  afterEach(() => t && t.stop());

  it('toggles pin 1 and recovers after the device reboots', async () => {
    t = await startFlows({ flows: FLOWS, api: API });
    const first = await t.nextMsg('sent');
    assert.strictEqual(first.request.body.pin, 1);

    await t.device.reboot();
    t.mark();
    // The package notices the reset and restores what it set: power management and pin 2's PWM.
    await t.until(async () => (await t.device.module(2)).pins[1].mode === 'pwm', { what: 'pin 2 back in PWM mode' });
    const next = await t.nextMsg('sent');
    const pin1 = (await t.device.module(2)).pins[0];
    assert.strictEqual(pin1.mode, 'output');
    assert.ok(next.payload !== undefined);
  });

  it('passes its scenario', async () => {
    const report = await runScenario({ flows: FLOWS, scenario: path.join(__dirname, 'toggle.scenario.yaml'), api: API });
    assert.ok(report.ok, formatReport(report));
  });
});
