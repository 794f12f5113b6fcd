/**
 * bmc-readings against the simulator: voltage and/or temperature selection on the wire
 * and in the output (one merged record, or one msg per field), settings refused at deploy
 * (nothing sent, every msg fails), polling without overlap under a latency fault, "only
 * on change" with a deadband, device errors, and one Catch msg per polling outage.
 */
import should from 'should';
import { apiPath, deviceErrorStatus, SERVICE_DOWN_STATUS, expectFailed, expectRefused, sendOk, sendOne, setBmcWorld, wireSince } from '../helpers/bmc-power';
import { lastSeq, loadActions, loadActionsQuiet, requestsTo, waitRequests } from '../helpers/io-nodes';
import { expectCode, waitFor, waitStatus } from '../helpers/node-red';
import { runtimeSuite } from '../helpers/runtime-suite';
import { wirePath } from '../helpers/api';

const VOLTAGE = apiPath('bmc', 'voltage');
const TEMPERATURE = apiPath('bmc', 'temperature');

describe('bmc-readings (runtime, simulator)', function () {
  this.timeout(20000);
  const { ctl } = runtimeSuite({ server: true });

  const readings = (settings: Record<string, unknown> = {}) => ({
    id: 'rd',
    type: 'bmc-readings',
    voltage: true,
    temperature: true,
    interval: '0',
    onlyOnChange: false,
    deadband: '0',
    output: 'record',
    ...settings,
  });

  describe('on a msg', () => {
    it('both records: GET voltage then temperature, one merged record of numbers, msg properties kept', async () => {
      await setBmcWorld(ctl, { voltage_1v8: 1750, voltage_rtc: 2950, ntc_0: 61.5, ntc_1: 24 });
      const outcomes = await loadActionsQuiet(ctl, [readings()], { service: 'bmc' });
      const out = await sendOne(outcomes, 'rd', { payload: 'tick', topic: 'board', keep: { a: 1 } });
      const record = out.payload as Record<string, number>;
      Object.keys(record).should.eql(['voltage_1v8', 'voltage_rtc', 'ntc_0', 'ntc_1']);
      // The simulator drifts a few mV / tenths of a degree around the values set.
      record.voltage_1v8.should.be.within(1746, 1754);
      record.voltage_rtc.should.be.within(2944, 2956);
      record.ntc_0.should.be.within(61.1, 61.9);
      record.ntc_1.should.be.within(23.8, 24.2);
      should(out.topic).equal('board');
      should(out.keep).eql({ a: 1 });
      (await wireSince(ctl)).should.eql([
        ['GET', VOLTAGE, null],
        ['GET', TEMPERATURE, null],
      ]);
      // Both calls named, as a list: never one joined path.
      should(out.request).eql([
        { method: 'GET', path: wirePath(VOLTAGE) },
        { method: 'GET', path: wirePath(TEMPERATURE) },
      ]);
      await waitStatus('rd', 'green', 'dot', /^1V8 17\d\d mV, SoC 61(\.\d+)? °C$/);
    });

    it('voltage only: only GET voltage, only its fields', async () => {
      const outcomes = await loadActionsQuiet(ctl, [readings({ temperature: false })], { service: 'bmc' });
      const out = await sendOne(outcomes, 'rd', { payload: true });
      Object.keys(out.payload as object).should.eql(['voltage_1v8', 'voltage_rtc']);
      (await wireSince(ctl)).should.eql([['GET', VOLTAGE, null]]);
      // One call: the object itself.
      should(out.request).eql({ method: 'GET', path: wirePath(VOLTAGE) });
    });

    it('temperature only, per field: one msg per field, topic = field, payload a number', async () => {
      const outcomes = await loadActionsQuiet(ctl, [readings({ voltage: false, output: 'per-field' })], { service: 'bmc' });
      const out = await sendOk(outcomes, 'rd', { payload: true, keep: 7 });
      out.map((m) => m.topic).should.eql(['ntc_0', 'ntc_1']);
      out.forEach((m) => {
        should(m.payload).be.a.Number();
        should(m.keep).equal(7);
      });
      (out[0].payload as number).should.be.within(48, 49);
      (out[1].payload as number).should.be.within(31, 31.5);
      (await wireSince(ctl)).should.eql([['GET', TEMPERATURE, null]]);
    });
  });

  describe('settings refused at deploy (status red, every msg fails, nothing sent)', () => {
    it('neither voltage nor temperature', async () => {
      const outcomes = await loadActionsQuiet(ctl, [readings({ voltage: false, temperature: false })], { service: 'bmc' });
      await waitStatus('rd', 'red', 'ring', 'choose voltage, temperature or both');
      await expectRefused(ctl, outcomes, 'rd', { payload: true }, 'choose voltage, temperature or both');
    });

    it('an interval below 20 ms and a negative deadband', async () => {
      const outcomes = await loadActionsQuiet(ctl, [readings({ id: 'fast', interval: '10' }), readings({ id: 'band', interval: '0', deadband: '-1' })], {
        service: 'bmc',
      });
      const interval = 'Poll every (interval) must be 0 or an integer from 20 to 86400000 ms, got 10';
      await waitStatus('fast', 'red', 'ring', 'Poll every (interval) must be 0 or an integer from 20');
      await expectRefused(ctl, outcomes, 'fast', { payload: true }, interval);
      await expectRefused(ctl, outcomes, 'band', { payload: true }, 'Deadband (deadband) must be an integer from 0 to 100000, got -1');
      (await wireSince(ctl)).should.eql([], 'a refused interval never polls');
    });
  });

  describe('polling', () => {
    it('polls every interval without a msg and sends each round', async () => {
      const outcomes = await loadActions(ctl.url, [readings({ interval: '100' })], { service: 'bmc' });
      await waitFor(() => outcomes.sent('rd').length >= 4, '4 polled msgs', 5000);
      outcomes.sent('rd').forEach((m) => Object.keys(m.payload as object).should.eql(['voltage_1v8', 'voltage_rtc', 'ntc_0', 'ntc_1']));
      (await requestsTo(ctl, '/voltage')).length.should.be.aboveOrEqual(4);
      outcomes.caught.should.have.length(0);
    });

    it('never overlaps: with a voltage latency (600 ms) above the interval (100 ms) one round waits for the other', async () => {
      const LATENCY = 600;
      await ctl.fault({ path: VOLTAGE, latency_ms: LATENCY });
      const outcomes = await loadActions(ctl.url, [readings({ interval: '100' })], { service: 'bmc' });
      const since = await lastSeq(ctl);
      const start = Date.now();
      await waitRequests(ctl, '/voltage', 3, since, 8000);
      const elapsed = Date.now() - start;
      const log = (await ctl.log(since)).filter((e) => e.path === VOLTAGE || e.path === TEMPERATURE);
      const voltage = log.filter((e) => e.path === VOLTAGE);
      // Receipt times: each round starts only after the previous one answered.
      for (let i = 1; i < voltage.length; i++) (voltage[i].time - voltage[i - 1].time).should.be.aboveOrEqual(LATENCY + 100 - 5);
      // At most one round in flight: never more voltage requests than the time allows.
      voltage.length.should.be.belowOrEqual(Math.floor(elapsed / LATENCY) + 2);
      // Requests alternate: voltage, temperature, voltage, ... (the log is in answer order).
      log
        .slice(0, 4)
        .map((e) => e.path)
        .should.eql([VOLTAGE, TEMPERATURE, VOLTAGE, TEMPERATURE]);
      outcomes.caught.should.have.length(0);
    });

    it('"only on change" with a deadband above the drift sends nothing while steady, then the change', async () => {
      // The simulator drifts voltages by at most ±6 mV and temperatures by ±0.4 °C: a deadband
      // of 20 is above every field's whole swing, so a steady board never passes it.
      const outcomes = await loadActions(ctl.url, [readings({ interval: '50', onlyOnChange: true, deadband: '20' })], { service: 'bmc' });
      await waitFor(() => outcomes.sent('rd').length >= 1, 'the first reading', 5000);
      let since = await lastSeq(ctl);
      await waitRequests(ctl, '/voltage', 10, since, 8000);
      outcomes.sent('rd').should.have.length(1, 'nothing while steady');

      await setBmcWorld(ctl, { voltage_1v8: 1700 });
      await waitFor(() => outcomes.sent('rd').length >= 2, 'the changed reading', 5000);
      const changed = outcomes.sent('rd')[1].payload as Record<string, number>;
      changed.voltage_1v8.should.be.within(1696, 1704);
      Object.keys(changed).should.eql(['voltage_1v8', 'voltage_rtc', 'ntc_0', 'ntc_1']);
      since = await lastSeq(ctl);
      await waitRequests(ctl, '/voltage', 10, since, 8000);
      outcomes.sent('rd').should.have.length(2, 'steady again');
      outcomes.caught.should.have.length(0);
    });

    it('per field with "only on change": only the field that moved past the deadband is sent', async () => {
      const outcomes = await loadActions(ctl.url, [readings({ interval: '50', onlyOnChange: true, deadband: '20', output: 'per-field' })], { service: 'bmc' });
      await waitFor(() => outcomes.sent('rd').length >= 4, 'the first round (4 fields)', 5000);
      await waitRequests(ctl, '/voltage', 10, await lastSeq(ctl), 8000);
      outcomes
        .sent('rd')
        .map((m) => m.topic)
        .should.eql(['voltage_1v8', 'voltage_rtc', 'ntc_0', 'ntc_1']);
      // One deadband for every field (mV and °C alike): the ambient must move by more than 20 °C.
      await setBmcWorld(ctl, { ntc_1: 60 });
      await waitFor(() => outcomes.sent('rd').length >= 5, 'the changed field', 5000);
      await waitRequests(ctl, '/voltage', 10, await lastSeq(ctl), 8000);
      outcomes
        .sent('rd')
        .slice(4)
        .map((m) => m.topic)
        .should.eql(['ntc_1']);
      (outcomes.sent('rd')[4].payload as number).should.be.within(59.8, 60.2);
    });

    it('a polling outage gives one Catch msg, and polling recovers', async () => {
      const outcomes = await loadActions(ctl.url, [readings({ interval: '50' })], { service: 'bmc' });
      await waitFor(() => outcomes.sent('rd').length >= 1, 'a first reading', 5000);
      const since = await lastSeq(ctl);
      await ctl.serviceDown('bmc');
      await waitFor(() => outcomes.caught.length >= 1, 'the outage at Catch', 5000);
      await waitFor(async () => (await requestsTo(ctl, '/voltage', since)).filter((e) => e.status === 502).length >= 3, '3 failed rounds', 10000, 20);
      outcomes.caught.should.have.length(1);
      outcomes.caught[0].error.source.id.should.equal('rd');
      // The round the outage met: on its voltage read, or (the service went down between
      // the two) its temperature read.
      outcomes.caught[0].error.cause!.should.containEql({ statusCode: 502 });
      [wirePath(VOLTAGE), wirePath(TEMPERATURE)].should.containEql(outcomes.caught[0].error.cause!.path);
      await waitStatus('rd', 'red', 'ring', SERVICE_DOWN_STATUS);
      const before = outcomes.sent('rd').length;
      await ctl.serviceUp('bmc');
      await waitFor(() => outcomes.sent('rd').length > before, 'readings again', 10000);
      await waitStatus('rd', 'green', 'dot', '1V8');
      outcomes.caught.should.have.length(1);
    });
  });

  describe('device errors', () => {
    it('bmc down: DEVICE_ERROR 502 for the msg; a 500 on temperature fails the whole msg', async () => {
      const outcomes = await loadActionsQuiet(ctl, [readings()], { service: 'bmc' });
      await ctl.serviceDown('bmc');
      const down = await expectFailed(outcomes, 'rd', { payload: true });
      expectCode(down.error, 'DEVICE_ERROR');
      down.error.cause!.should.containEql({ statusCode: 502, method: 'GET', path: wirePath(VOLTAGE) });
      await ctl.serviceUp('bmc');
      await ctl.fault({ path: TEMPERATURE, status: 500, message: 'Internal driver communication failed: failed', count: 1 });
      const partial = await expectFailed(outcomes, 'rd', { payload: true });
      partial.error.cause!.should.containEql({ statusCode: 500, deviceMessage: 'Internal driver communication failed: failed', path: wirePath(TEMPERATURE) });
      await waitStatus('rd', 'red', 'ring', deviceErrorStatus(500, 'Internal driver'));
      outcomes.caught.should.have.length(2);
    });
  });
});
