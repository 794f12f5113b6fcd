/**
 * io-read against the simulator: `input/values` or `input/values/current`, all pins or
 * one, as one record or one msg per pin; msg-triggered reads keep the msg's properties;
 * polling never overlaps (a latency fault longer than the interval) and reports an outage
 * once; "only on change" sends nothing while a value stays inside the deadband.
 *
 * Timing: the machine may be a loaded 2-core box. Waits poll for conditions with generous
 * timeouts; the only fixed wait-free bounds are counts taken from the simulator's log.
 */
import should from 'should';
import { device, expectCode, helper, sleep, waitFor, waitStatus } from '../helpers/node-red';
import { runtimeSuite } from '../helpers/runtime-suite';
import { wirePath, wireRequest } from '../helpers/api';
import { ActionDef, deviceCall, httpStatus, lastSeq, loadActionsQuiet, requestsTo, send, setPin, waitRequests, wire } from '../helpers/io-nodes';

const VALUES = '/api/io/0.9/2/input/values';
const CURRENT = '/api/io/0.9/2/input/values/current';

function reader(settings: Record<string, unknown> = {}): ActionDef {
  return { id: 'rd', type: 'io-read', source: 'values', pin: 'all', interval: '0', onlyOnChange: false, deadband: '0', output: 'record', ...settings };
}

const volts = (pin: number, value: number) => ({ pin, pin_type: 'voltage_mV', value });

describe('io-read (runtime, simulator)', function () {
  this.timeout(15000);
  const { sim, ctl } = runtimeSuite();
  beforeEach(async () => {
    await setPin(ctl, 2, 2, { voltage_mV: 1234 });
    await setPin(ctl, 2, 5, { voltage_mV: 24000 });
  });

  describe('msg-triggered reads', () => {
    it('all pins as one record; every other msg property kept, msg.request set', async () => {
      const outcomes = await loadActionsQuiet(ctl, [reader()]);
      const msg = { payload: 'x', topic: 'plant/1', parts: { id: 'a', index: 0, count: 1 }, custom: { n: 1 } };
      should(await send(outcomes, 'rd', msg)).be.undefined();
      (await wire(ctl)).should.eql([['GET', VALUES, null]]);
      const [out] = outcomes.sent('rd');
      out.should.containEql({ topic: 'plant/1', parts: { id: 'a', index: 0, count: 1 }, custom: { n: 1 } });
      should(out.payload).eql({ pins: [volts(1, 0), volts(2, 1234), volts(3, 0), volts(4, 0), volts(5, 24000), volts(6, 0)] });
      should(out.request).eql(wireRequest({ method: 'GET', path: VALUES }));
      await waitStatus('rd', 'green', 'dot', '1: 0 mV 2: 1234 mV 3: 0 mV');
    });

    it('one pin as a record: the pin record itself', async () => {
      const outcomes = await loadActionsQuiet(ctl, [reader({ pin: '2' })]);
      await send(outcomes, 'rd', { payload: true });
      should(outcomes.sent('rd').map((m) => m.payload)).eql([volts(2, 1234)]);
      await waitStatus('rd', 'green', 'dot', /^2: 1234 mV$/);
    });

    it('per pin: one msg per pin, topic pin/N, payload the value, with unit and pin_type; msg properties kept', async () => {
      const outcomes = await loadActionsQuiet(ctl, [reader({ output: 'per-pin' })]);
      await send(outcomes, 'rd', { payload: 0, custom: 'kept' });
      const out = outcomes.sent('rd');
      out
        .map((m) => [m.topic, m.payload, m.unit, m.pin_type, m.custom])
        .should.eql([0, 1234, 0, 0, 24000, 0].map((v, i) => [`pin/${i + 1}`, v, 'mV', 'voltage_mV', 'kept']));
      (await wire(ctl)).should.eql([['GET', VALUES, null]]);
    });

    it('per pin, one pin: a single msg', async () => {
      const outcomes = await loadActionsQuiet(ctl, [reader({ output: 'per-pin', pin: '5' })]);
      await send(outcomes, 'rd', {});
      outcomes
        .sent('rd')
        .map((m) => [m.topic, m.payload])
        .should.eql([['pin/5', 24000]]);
    });

    it('currents from input/values/current (an output driving its load)', async () => {
      await ctl.powerConfig(2);
      await setPin(ctl, 2, 3, { load_mA: 80 });
      await deviceCall(ctl, 'POST', '/api/io/0.9/2/output/state', { pin: 3, state: 'high' });
      const outcomes = await loadActionsQuiet(ctl, [reader({ source: 'current', pin: '3' })]);
      await send(outcomes, 'rd', {});
      (await wire(ctl)).should.eql([['GET', CURRENT, null]]);
      should(outcomes.sent('rd')[0].payload).eql({ pin: 3, pin_type: 'current_mA', value: 80 });
      await waitStatus('rd', 'green', 'dot', /^3: 80 mA$/);
    });

    it('digital levels and frequencies come with their pin_type', async () => {
      await deviceCall(ctl, 'POST', '/api/io/0.9/2/input/mode', { pin: 1, mode: 'digital' });
      await deviceCall(ctl, 'POST', '/api/io/0.9/2/input/mode', { pin: 6, mode: 'digital' });
      await deviceCall(ctl, 'POST', '/api/io/0.9/2/input/digital/counter', { pin: 6, state: 'enabled' });
      await setPin(ctl, 2, 1, { level: 1 });
      await setPin(ctl, 2, 6, { frequency_hz: 440 });
      const outcomes = await loadActionsQuiet(ctl, [reader({ output: 'per-pin' })]);
      await send(outcomes, 'rd', {});
      const out = outcomes.sent('rd');
      [out[0], out[5]]
        .map((m) => [m.topic, m.payload, m.pin_type, m.unit])
        .should.eql([
          ['pin/1', 1, 'digital_input', ''],
          ['pin/6', 440, 'frequency_hz', 'Hz'],
        ]);
    });

    it('msg.payload {pin} picks one pin; {pin: 0} all six', async () => {
      const outcomes = await loadActionsQuiet(ctl, [reader({ pin: '1' })]);
      await send(outcomes, 'rd', { payload: { pin: 5 } });
      await send(outcomes, 'rd', { payload: { pin: 0 } });
      const out = outcomes.sent('rd');
      should(out[0].payload).eql(volts(5, 24000));
      should((out[1].payload as { pins: unknown[] }).pins).have.length(6);
    });
  });

  describe('validation and device errors', () => {
    it('a bad pin in the msg: one error in Catch, nothing sent', async () => {
      const outcomes = await loadActionsQuiet(ctl, [reader()]);
      for (const [pin, pattern] of [
        [7, /Pins \(pin\) must be an integer from 1 to 6, got 7/],
        [-1, /Pins \(pin\) must be an integer from 1 to 6, got -1/],
        ['2', /Pins \(pin\) must be an integer from 1 to 6, got "2"/],
      ] as Array<[unknown, RegExp]>) {
        const caught = await send(outcomes, 'rd', { payload: { pin } });
        expectCode(caught!.error, 'INVALID_INPUT');
        caught!.error.message.should.match(pattern);
      }
      outcomes.caught.should.have.length(3);
      outcomes.sent('rd').should.have.length(0);
      (await wire(ctl)).should.eql([]);
    });

    it('bad settings (interval below 20 ms, negative deadband) show at deploy and fail msgs; nothing is polled', async () => {
      const outcomes = await loadActionsQuiet(ctl, [reader({ id: 'i', interval: '10' }), reader({ id: 'd', deadband: '-1', interval: '50' })]);
      await waitStatus('i', 'red', 'ring', 'Poll every (interval) must be 0 or an integer from 20 to');
      await waitStatus('d', 'red', 'ring', 'Deadband (deadband) must be an integer from 0 to 100000');
      (await send(outcomes, 'i', {}))!.error.message.should.match(/Poll every \(interval\) must be 0 or an integer from 20 to 86400000 ms, got 10/);
      (await send(outcomes, 'd', {}))!.error.message.should.match(/Deadband \(deadband\) must be an integer from 0 to 100000, got -1/);
      (await wire(ctl)).should.eql([]);
    });

    it('a bad pin setting shows at deploy and is never polled', async () => {
      const outcomes = await loadActionsQuiet(ctl, [reader({ pin: '9', interval: '50' })]);
      await waitStatus('rd', 'red', 'ring', 'Pins (pin) must be an integer from 1 to 6, got 9');
      (await send(outcomes, 'rd', {}))!.error.message.should.match(/Pins \(pin\) must be an integer from 1 to 6, got 9/);
      (await wire(ctl)).should.eql([]);
    });

    it('a device error reaches Catch with status and message, the msg kept', async () => {
      const outcomes = await loadActionsQuiet(ctl, [reader()]);
      await ctl.fault({ path: '/input/values', status: 503, message: 'Service Unavailable', count: 1 });
      const caught = await send(outcomes, 'rd', { topic: 't' });
      caught!.topic!.should.equal('t');
      expectCode(caught!.error, 'DEVICE_ERROR');
      caught!.error.cause!.should.containEql({ statusCode: 503, deviceMessage: 'Service Unavailable', method: 'GET', path: wirePath(VALUES) });
      await waitStatus('rd', 'red', 'ring', httpStatus(503));
    });

    it('a truncated answer reaches Catch as BAD_RESPONSE', async () => {
      const outcomes = await loadActionsQuiet(ctl, [reader()]);
      await ctl.fault({ path: '/input/values', body: 'truncated', count: 1 });
      const caught = await send(outcomes, 'rd', {});
      expectCode(caught!.error, 'BAD_RESPONSE');
    });
  });

  describe('polling', () => {
    it('polls input/values every interval and sends each round', async () => {
      const outcomes = await loadActionsQuiet(ctl, [reader({ interval: '50', pin: '2' })]);
      await waitFor(() => outcomes.sent('rd').length >= 4, 'four polled msgs');
      outcomes
        .sent('rd')
        .slice(0, 4)
        .map((m) => m.payload)
        .should.eql([1, 2, 3, 4].map(() => volts(2, 1234)));
      (await requestsTo(ctl, '/input/values')).length.should.be.aboveOrEqual(3);
      (await ctl.requests()).every((e) => e.path === VALUES && e.method === 'GET').should.be.true();
      outcomes.caught.should.have.length(0);
    });

    it('never overlaps: with answers slower than the interval, the next round waits for the answer', async () => {
      const interval = 50;
      const latency = 300;
      const slow = 4;
      const outcomes = await loadActionsQuiet(ctl, [reader({ interval: String(interval), pin: '2' })]);
      const client = helper.getNode('dev').connection.client;
      await ctl.fault({ path: '/input/values', latency_ms: latency, count: slow });
      // While the slow answers last, no round may be waiting behind another in the queue.
      let maxQueued = 0;
      let slowDone = false;
      const sampler = (async () => {
        while (!slowDone) {
          maxQueued = Math.max(maxQueued, client.queued);
          await sleep(5);
        }
      })();
      const first = await lastSeq(ctl);
      await waitFor(async () => (await ctl.state()).faults.length === 0, 'the slow answers to be used up', 10000);
      // Then a few fast rounds: an overlapping poller would flush a backlog here.
      await waitRequests(ctl, '/input/values', slow + 4, first, 5000);
      slowDone = true;
      await sampler;
      maxQueued.should.equal(0);
      const times = (await requestsTo(ctl, '/input/values', first)).map((e) => e.time);
      const gaps = times.slice(1).map((t, i) => t - times[i]);
      // Receipt to receipt: never less than the interval (a few ms of slack for clock
      // granularity), so no backlog was flushed; and the slow answers held the next round back.
      gaps.every((gap) => gap >= interval - 5).should.be.true(`gaps ${gaps.join(', ')} ms`);
      gaps.filter((gap) => gap >= latency - 5).length.should.be.aboveOrEqual(slow - 1, `gaps ${gaps.join(', ')} ms`);
      // Every round answered is one msg: nothing doubled, nothing lost.
      await waitFor(() => outcomes.sent('rd').length >= times.length, 'one msg per round');
      outcomes.caught.should.have.length(0);
    });

    it('an outage is reported once; polling resumes by itself afterwards', async () => {
      const outcomes = await loadActionsQuiet(ctl, [reader({ interval: '50', pin: '2' })]);
      await waitFor(() => outcomes.sent('rd').length >= 1, 'a first round');
      const before = await lastSeq(ctl);
      await ctl.fault({ path: '/input/values', status: 500, message: 'driver gone', count: 3 });
      await waitRequests(ctl, '/input/values', 3, before, 8000);
      const sent = outcomes.sent('rd').length;
      // Recovered: rounds bring msgs again, without a redeploy.
      await waitFor(() => outcomes.sent('rd').length >= sent + 2, 'msgs after the outage', 8000);
      outcomes.caught.should.have.length(1);
      outcomes.caught[0].error.source.id.should.equal('rd');
      outcomes.caught[0].error.cause!.should.containEql({ statusCode: 500, deviceMessage: 'driver gone' });
      await waitStatus('rd', 'green', 'dot', '2: 1234 mV');
    });
    it('a poll that keeps failing keeps a red status across a reconnection; one error for the whole outage', async () => {
      const outcomes = await loadActionsQuiet(ctl, [reader({ interval: '50', pin: '2' })]);
      await waitFor(() => outcomes.sent('rd').length >= 1, 'a first round');
      const fault = await ctl.fault({ path: '/input/values', status: 500, message: 'driver gone' });
      await waitStatus('rd', 'red', 'ring', httpStatus(500));
      // The device goes away and comes back (the config node reconnects), the fault stays.
      await sim.pause();
      await waitFor(() => device().connection!.state.state === 'unreachable', 'the config node to see the outage');
      await sim.resume();
      await waitFor(() => device().connection!.state.state === 'connected', 'the config node to reconnect', 10000);
      const since = await lastSeq(ctl);
      await waitRequests(ctl, '/input/values', 2, since, 10000);
      // Still failing: the dot must not say "connected".
      await waitStatus('rd', 'red', 'ring', httpStatus(500));
      outcomes.caught.should.have.length(1);
      await deviceCall(ctl, 'DELETE', `/sim/faults/${fault.id}`);
      await waitStatus('rd', 'green', 'dot', '2: 1234 mV', 10000);
      outcomes.caught.should.have.length(1);
    });
  });

  describe('only on change', () => {
    /** Waits until `n` more polls were answered after `since`, so at least n-1 were handled. */
    async function polls(n: number): Promise<void> {
      await waitRequests(ctl, '/input/values', n, await lastSeq(ctl));
    }

    it('sends nothing while the value stays inside the deadband, then the value that leaves it', async () => {
      await setPin(ctl, 2, 1, { voltage_mV: 1000 });
      const outcomes = await loadActionsQuiet(ctl, [reader({ interval: '50', pin: '1', onlyOnChange: true, deadband: '50', output: 'per-pin' })]);
      await waitFor(() => outcomes.sent('rd').length >= 1, 'the first value');
      // Each value is within 50 of the last one sent (1000), though 1030 → 970 moves 60
      // between two reads: the reference is the last value sent, not the last one read.
      for (const mv of [1030, 970, 1050, 950, 1000]) {
        await setPin(ctl, 2, 1, { voltage_mV: mv });
        await polls(3);
      }
      outcomes
        .sent('rd')
        .map((m) => m.payload)
        .should.eql([1000]);
      await setPin(ctl, 2, 1, { voltage_mV: 1051 });
      await waitFor(() => outcomes.sent('rd').length >= 2, 'the value past the deadband');
      // Now the reference is 1051: 1010 and 1020 stay inside, 1000 leaves.
      await setPin(ctl, 2, 1, { voltage_mV: 1010 });
      await polls(3);
      await setPin(ctl, 2, 1, { voltage_mV: 1020 });
      await polls(3);
      outcomes
        .sent('rd')
        .map((m) => m.payload)
        .should.eql([1000, 1051]);
      await setPin(ctl, 2, 1, { voltage_mV: 1000 });
      await waitFor(() => outcomes.sent('rd').length >= 3, 'the next value past the deadband');
      outcomes
        .sent('rd')
        .map((m) => m.payload)
        .should.eql([1000, 1051, 1000]);
      outcomes.caught.should.have.length(0);
    });

    it('all pins as a record: nothing while every pin stays inside, the whole record when one leaves', async () => {
      const outcomes = await loadActionsQuiet(ctl, [reader({ interval: '50', onlyOnChange: true, deadband: '100' })]);
      await waitFor(() => outcomes.sent('rd').length >= 1, 'the first record');
      await setPin(ctl, 2, 3, { voltage_mV: 100 });
      await setPin(ctl, 2, 4, { voltage_mV: 99 });
      await polls(3);
      outcomes.sent('rd').should.have.length(1);
      await setPin(ctl, 2, 6, { voltage_mV: 101 });
      await waitFor(() => outcomes.sent('rd').length >= 2, 'the record after pin 6 moved');
      should(outcomes.sent('rd')[1].payload).eql({ pins: [volts(1, 0), volts(2, 1234), volts(3, 100), volts(4, 99), volts(5, 24000), volts(6, 101)] });
    });

    it('a digital level is sent on any change, whatever the deadband', async () => {
      await deviceCall(ctl, 'POST', '/api/io/0.9/2/input/mode', { pin: 3, mode: 'digital' });
      const outcomes = await loadActionsQuiet(ctl, [reader({ interval: '50', pin: '3', onlyOnChange: true, deadband: '1000', output: 'per-pin' })]);
      await waitFor(() => outcomes.sent('rd').length >= 1, 'the first level');
      await polls(2);
      await setPin(ctl, 2, 3, { level: 1 });
      await waitFor(() => outcomes.sent('rd').length >= 2, 'the new level');
      outcomes
        .sent('rd')
        .map((m) => [m.payload, m.pin_type])
        .should.eql([
          [0, 'digital_input'],
          [1, 'digital_input'],
        ]);
    });

    it('msg-triggered reads obey it too: an unchanged value sends nothing, the msg still completes', async () => {
      const outcomes = await loadActionsQuiet(ctl, [reader({ pin: '2', onlyOnChange: true, deadband: '5' })]);
      await send(outcomes, 'rd', { topic: 'a' });
      await send(outcomes, 'rd', { topic: 'b' });
      await setPin(ctl, 2, 2, { voltage_mV: 1240 });
      await send(outcomes, 'rd', { topic: 'c' });
      outcomes
        .sent('rd')
        .map((m) => [m.topic, m.payload])
        .should.eql([
          ['a', volts(2, 1234)],
          ['c', volts(2, 1240)],
        ]);
      (await requestsTo(ctl, '/input/values')).should.have.length(3);
      outcomes.caught.should.have.length(0);
    });
  });
});
