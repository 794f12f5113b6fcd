// The alarm flow (examples/alarm-on-notification.json) under test. Runs with mocha
// (npx mocha --timeout 30000 flow-tests) or node's own runner (node --test flow-tests).
'use strict';
const assert = require('node:assert');
const path = require('node:path');
const { describe, it, afterEach } = globalThis.describe ? globalThis : require('node:test');
const { startFlows, runScenario, formatReport } = require('@modular-device/node-red/testing');

const FLOWS = path.join(__dirname, '..', 'examples', 'alarm-on-notification.json');
const API = process.env.MD_API || '0.9';

describe(`alarm on notification (API ${API})`, () => {
  let t;
  afterEach(() => t && t.stop());

  /** The flow arms pin 3's threshold itself when the module connects: wait until the device shows it. */
  async function armed() {
    t = await startFlows({ flows: FLOWS, api: API });
    await t.until(async () => (await t.device.module(2)).pins[2].threshold !== null, { what: 'the flow to arm the threshold of pin 3' });
    t.mark();
  }

  it('raises an alarm when pin 3 rises past its threshold', async () => {
    await armed();
    await t.device.pin(2, 3, { voltage_mV: 4000 });
    const msg = await t.nextMsg('ALARM', { where: { topic: 'pin/3' } });
    assert.strictEqual(msg.payload, 'ALARM pin 3: custom_voltage_alert');
  });

  it('raises an alarm on a short on pin 5, and reports no error', async () => {
    await armed();
    await t.device.short(2, 5);
    const msg = await t.nextMsg('ALARM', { where: { topic: 'pin/5' } });
    assert.deepStrictEqual(msg.alerts, ['high_current_alert']);
    assert.deepStrictEqual(t.caught(), []);
  });

  it('passes its scenario', async () => {
    const report = await runScenario({ flows: FLOWS, scenario: path.join(__dirname, 'alarm.scenario.yaml'), api: API });
    assert.ok(report.ok, formatReport(report));
  });
});
