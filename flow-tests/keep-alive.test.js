// The keep-alive flow (examples/watchdog-keep-alive.json) under test. Runs with mocha
// (npx mocha --timeout 30000 flow-tests) or node's own runner (node --test flow-tests).
'use strict';
const assert = require('node:assert');
const path = require('node:path');
const { describe, it, afterEach } = globalThis.describe ? globalThis : require('node:test');
const { startFlows, runScenario, formatReport } = require('@modular-device/node-red/testing');

const FLOWS = path.join(__dirname, '..', 'examples', 'watchdog-keep-alive.json');
const API = process.env.MD_API || '0.9';
/** As `npm start` runs the simulator (scripts/start.js): a watchdog reset keeps the device down 3 s. */
const REBOOT_MS = 3000;
/** Long enough for the reboot and the connection's backoff (1, 2, 4 s) on a loaded machine. */
const BACK_MS = 30000;

/** Variant B of the example: the built-in keep-alive enabled, steps 1 and 2 disabled. */
function variantB() {
  const flows = require(FLOWS).map((n) => ({ ...n }));
  for (const n of flows) {
    if (n.id === 'wdgkeep0builtin') delete n.d;
    if (n.id === 'wdgkeep0i1' || n.id === 'wdgkeep0i2') n.d = true;
  }
  return flows;
}

describe(`watchdog keep-alive (API ${API})`, () => {
  let t;
  afterEach(() => t && t.stop());

  async function watchdogSet(options = {}) {
    t = await startFlows({ flows: FLOWS, api: API, ...options });
    await t.until(async () => (await t.device.module(0)).watchdog.timeoutMs === 10000, { what: 'the flow to set the watchdog to 10 s' });
    return t.mark();
  }
  /** What the device-status node told since `since`: [kind, state or cause]. */
  const told = (since) => t.received('device events', since).map((m) => m.payload);
  const kinds = (since, kind) => told(since).filter((e) => e.kind === kind);
  /** The device's POSTs to the watchdog since `seq` (the package's or the flow's). */
  const watchdogPosts = async (seq) => (await t.device.log(seq)).filter((e) => e.method === 'POST' && /\/watchdog$/.test(e.path));
  const lastSeq = async () => (await t.device.log()).slice(-1)[0]?.seq ?? 0;
  /** Alives the device took since `seq`. */
  const alives = async (seq) => (await t.device.log(seq)).filter((e) => /\/watchdog\/alive$/.test(e.path) && e.status === 200).length;
  /** Device state, or undefined while the board reboots (its control API is down with it). */
  const state = () => t.device.state().catch(() => undefined);

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

  it('after the keep-alive stops, the watchdog resets the device: the connection lost and back, then one reset; resume arms it again', async () => {
    const since = await watchdogSet({ rebootMs: REBOOT_MS });
    await t.inject('stop keep-alive');
    await t.device.watchdogReset(0);
    await t.until(() => kinds(since, 'reset').length === 1, { what: 'a reset event', timeoutMs: BACK_MS });
    const events = told(since);
    const states = events.filter((e) => e.kind === 'connection').map((e) => e.detail.state);
    assert.deepStrictEqual(states.slice(-2), ['unreachable', 'connected']);
    const reset = events.find((e) => e.kind === 'reset');
    assert.ok(events.indexOf(reset) > events.findIndex((e) => e.detail?.state === 'connected'), 'the reset told after the connection is back');
    assert.match(
      reset.cause,
      API === '1.0'
        ? /^driver_session and device_session changed/
        : /^the module forgot its settings during the outage: the watchdog timeout reads 0 ms, 10000 ms was set$/,
    );
    const device = await state();
    assert.strictEqual(device.resets, 1);
    assert.strictEqual(device.lastReset.cause, 'watchdog expired');
    // The timeout a msg set is not put back (it would arm the next reset): off until resume.
    assert.strictEqual((await t.device.module(0)).watchdog.timeoutMs, 0);
    const seq = await lastSeq();
    await t.inject('resume keep-alive');
    await t.until(async () => (await t.device.module(0)).watchdog.timeoutMs === 10000, { what: 'resume to arm the watchdog again' });
    await t.until(async () => (await alives(seq)) >= 2, { what: 'the alives again' });
    assert.strictEqual((await watchdogPosts(seq)).length, 1, 'only the flow arms the watchdog');
    assert.strictEqual(kinds(since, 'reset').length, 1);
    assert.strictEqual(kinds(since, 'reapplied').length, 0, 'nothing of the package to put back');
  });

  it('a network outage shorter than the timeout: connection lost and back, no reset, nothing sent again', async () => {
    const since = await watchdogSet();
    const seq = await lastSeq();
    await t.simulator.pause();
    await t.until(() => told(since).some((e) => e.detail?.state === 'unreachable'), { what: 'the bmc unreachable' });
    await t.simulator.resume();
    await t.until(() => told(since).some((e) => e.detail?.state === 'connected'), { what: 'the bmc back' });
    // The alives through again (the read-backs on 0.9 came first), then: nothing happened to the module.
    const back = await lastSeq();
    await t.until(async () => (await alives(back)) >= 2, { what: 'two alives after the outage' });
    const armed = await t.device.module(0);
    assert.strictEqual(armed.watchdog.timeoutMs, 10000);
    assert.strictEqual((await state()).resets, 0);
    assert.deepStrictEqual(kinds(since, 'reset'), []);
    assert.deepStrictEqual(kinds(since, 'reapplied'), []);
    assert.deepStrictEqual(await watchdogPosts(seq), []);
  });

  it('a bmc service outage: connection down and back, the module kept its watchdog, no reset, nothing sent again', async () => {
    // A 502 is an answer: the flow's next alive (or the health check) finds the service down at once.
    const since = await watchdogSet();
    const seq = await lastSeq();
    await t.device.unplug('bmc');
    await t.until(() => told(since).some((e) => e.detail?.state === 'down'), { what: 'the bmc service down' });
    await t.device.plug('bmc');
    await t.until(() => told(since).some((e) => e.detail?.state === 'connected'), { what: 'the bmc back' });
    const back = await lastSeq();
    await t.until(async () => (await alives(back)) >= 2, { what: 'two alives after the outage' });
    assert.strictEqual((await t.device.module(0)).watchdog.timeoutMs, 10000);
    assert.deepStrictEqual(kinds(since, 'reset'), []);
    assert.deepStrictEqual(kinds(since, 'reapplied'), []);
    assert.deepStrictEqual(await watchdogPosts(seq), []);
    if (API === '1.0') assert.match(kinds(since, 'connection').slice(-1)[0].cause, /service restarted/);
  });

  it('a bmc service outage the watchdog outlasts: the device resets, then one reset is told', async () => {
    const since = await watchdogSet({ rebootMs: REBOOT_MS });
    await t.device.unplug('bmc');
    await t.until(() => told(since).some((e) => e.detail?.state === 'down'), { what: 'the bmc service down' });
    await t.device.watchdogReset(0);
    await t.until(async () => (await state())?.resets === 1, { what: 'the device to reset', timeoutMs: BACK_MS });
    await t.device.plug('bmc');
    await t.until(() => kinds(since, 'reset').length === 1, { what: 'a reset event', timeoutMs: BACK_MS });
    assert.match(kinds(since, 'reset')[0].cause, API === '1.0' ? /device_session changed/ : /the watchdog timeout reads 0 ms, 10000 ms was set$/);
  });

  it('variant B, the built-in keep-alive: a watchdog expiry gives one reset, the timeout back, one reapplied', async () => {
    t = await startFlows({ flows: variantB(), api: API, rebootMs: REBOOT_MS });
    await t.until(async () => (await t.device.module(0)).watchdog.timeoutMs === 10000, { what: 'the keep-alive to set the watchdog' });
    const since = t.mark();
    await t.device.watchdogReset(0);
    await t.until(() => kinds(since, 'reapplied').length === 1, { what: 'the settings put back', timeoutMs: BACK_MS });
    await t.until(async () => (await t.device.module(0)).watchdog.timeoutMs === 10000, { what: 'the watchdog armed again' });
    assert.strictEqual(kinds(since, 'reset').length, 1);
    assert.deepStrictEqual(kinds(since, 'reapplied')[0].detail, { settings: 1, failed: 0 });
    assert.strictEqual((await state()).lastReset.cause, 'watchdog expired');
  });

  it('passes its scenario', async () => {
    const report = await runScenario({ flows: FLOWS, scenario: path.join(__dirname, 'keep-alive.scenario.yaml'), api: API });
    assert.ok(report.ok, formatReport(report));
  });

  it('passes its reset scenario', async () => {
    const report = await runScenario({ flows: FLOWS, scenario: path.join(__dirname, 'keep-alive-reset.scenario.yaml'), api: API });
    assert.ok(report.ok, formatReport(report));
  });
});
