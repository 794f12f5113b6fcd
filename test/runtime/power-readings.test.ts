/**
 * power-readings against the simulator: record selection on the wire, the merged record
 * and per-field msgs of plain numbers, `protection_changed` (true after a protection event,
 * false on the next read), "only on change" with a deadband above the simulator's drift,
 * settings refused at deploy and device errors.
 */
import should from 'should';
import { apiPath, SERVICE_DOWN_STATUS, expectFailed, expectRefused, protectionEvent, sendOk, sendOne, setPowerWorld, wireSince } from '../helpers/bmc-power';
import { lastSeq, loadActions, loadActionsQuiet, requestsTo, waitRequests } from '../helpers/io-nodes';
import { expectCode, waitFor, waitStatus } from '../helpers/node-red';
import { runtimeSuite } from '../helpers/runtime-suite';
import { wirePath } from '../helpers/api';

const SOURCE_FIELDS = ['source_3v3', 'source_5v0', 'source_12v', 'source_total', 'efficiency_factor_3v3', 'efficiency_factor_5v0', 'efficiency_factor_12v'];
const PROTECTION_FIELDS = [
  'opp_protection_cnt',
  'ovp_cnt_3v3',
  'uvp_cnt_3v3',
  'ovp_cnt_5v0',
  'uvp_cnt_5v0',
  'ovp_cnt_12v',
  'uvp_cnt_12v',
  'ocp_cnt_3v3',
  'ocp_cnt_5v0',
  'ocp_cnt_12v',
  'pmc_temperature',
  'total_power_overload',
];
const STATS_FIELDS = ['voltage_3v3', 'voltage_5v0', 'voltage_12v', 'current_3v3', 'current_5v0', 'current_12v', 'limit_3v3', 'limit_5v0', 'limit_12v'];
const TEMPERATURE_FIELDS = ['on_board_temp', 'pmc_temp'];

describe('power-readings (runtime, simulator)', function () {
  this.timeout(20000);
  const { ctl } = runtimeSuite({ server: true });

  const readings = (settings: Record<string, unknown> = {}) => ({
    id: 'pr',
    type: 'power-readings',
    source: false,
    protectionlog: false,
    stats: true,
    temperature: false,
    interval: '0',
    onlyOnChange: false,
    deadband: '0',
    output: 'record',
    ...settings,
  });

  it('stats by default: GET stats, a record of numbers following the simulated loads and limits', async () => {
    await setPowerWorld(ctl, { load_3v3: 1500, load_5v0: 2000, load_12v: 300 });
    const outcomes = await loadActionsQuiet(ctl, [readings({ stats: '' })], { service: 'power' });
    const out = await sendOne(outcomes, 'pr', { payload: true, topic: 'psu' });
    const r = out.payload as Record<string, number>;
    Object.keys(r).should.eql(STATS_FIELDS);
    r.current_3v3.should.be.within(1497, 1503);
    r.current_5v0.should.be.within(1997, 2003);
    r.current_12v.should.be.within(297, 303);
    r.should.containEql({ limit_3v3: 5950, limit_5v0: 4950, limit_12v: 2400 });
    r.voltage_3v3.should.be.within(3240, 3440);
    r.voltage_5v0.should.be.within(4608, 5202);
    r.voltage_12v.should.be.within(11300, 12770);
    should(out.topic).equal('psu');
    out.protection_changed!.should.equal(false);
    (await wireSince(ctl)).should.eql([['GET', apiPath('power', 'stats'), null]]);
    await waitStatus('pr', 'green', 'dot', /^5V0 \d+ mA$/);
  });

  it('all four records per field: one msg per field with a number, in record order', async () => {
    const outcomes = await loadActionsQuiet(ctl, [readings({ source: true, protectionlog: true, temperature: true, output: 'per-field' })], {
      service: 'power',
    });
    const out = await sendOk(outcomes, 'pr', { payload: true, keep: 'me' });
    out.map((m) => m.topic).should.eql([...SOURCE_FIELDS, ...PROTECTION_FIELDS, ...STATS_FIELDS, ...TEMPERATURE_FIELDS]);
    out.forEach((m) => {
      should(m.payload).be.a.Number();
      Number.isFinite(m.payload as number).should.be.true();
      should(m.keep).equal('me');
      should(m.protection_changed).equal(false);
    });
    out.find((m) => m.topic === 'source_total')!.payload!.should.equal(60000);
    out.find((m) => m.topic === 'pmc_temp')!.payload!.should.be.within(51.5, 52.5);
    (await wireSince(ctl)).should.eql(['source', 'protectionlog', 'stats', 'temperature'].map((r) => ['GET', apiPath('power', r), null]));
    await waitStatus('pr', 'green', 'dot', /^5V0 \d+ mA, PMC [\d.]+ °C, protections 0$/);
  });

  it('protection_changed is true after a protection event and false again on the next read', async () => {
    const outcomes = await loadActionsQuiet(ctl, [readings({ protectionlog: true, stats: false })], { service: 'power' });
    const first = await sendOne(outcomes, 'pr', { payload: 1 });
    first.protection_changed!.should.equal(false);
    (first.payload as Record<string, number>).opp_protection_cnt.should.equal(0);

    await protectionEvent(ctl, 'ovp_3v3');
    const second = await sendOne(outcomes, 'pr', { payload: 2 });
    second.protection_changed!.should.equal(true);
    (second.payload as Record<string, number>).should.containEql({ ovp_cnt_3v3: 1, opp_protection_cnt: 1 });

    const third = await sendOne(outcomes, 'pr', { payload: 3 });
    third.protection_changed!.should.equal(false);

    await protectionEvent(ctl, 'pmc_temperature');
    (await sendOne(outcomes, 'pr', { payload: 4 })).protection_changed!.should.equal(true);
    (await sendOne(outcomes, 'pr', { payload: 5 })).protection_changed!.should.equal(false);
    (await wireSince(ctl)).should.have.length(5);
    await waitStatus('pr', 'green', 'dot', 'protections 2');
  });

  it('"only on change" per field with a deadband above the drift: nothing while steady, then only the moved field', async () => {
    // The simulator drifts the 12 V rail by up to ±1 % (±120 mV) and currents by ±3 mA; a
    // deadband of 300 is above every field's whole swing, so steady rails never pass it.
    const outcomes = await loadActions(ctl.url, [readings({ interval: '50', onlyOnChange: true, deadband: '300', output: 'per-field' })], { service: 'power' });
    await waitFor(() => outcomes.sent('pr').length >= STATS_FIELDS.length, 'the first round', 5000);
    await waitRequests(ctl, '/stats', 10, await lastSeq(ctl), 8000);
    outcomes
      .sent('pr')
      .map((m) => m.topic)
      .should.eql(STATS_FIELDS, 'the first round only');

    await setPowerWorld(ctl, { load_5v0: 2500 });
    await waitFor(() => outcomes.sent('pr').length > STATS_FIELDS.length, 'the changed current', 5000);
    await waitRequests(ctl, '/stats', 10, await lastSeq(ctl), 8000);
    const later = outcomes.sent('pr').slice(STATS_FIELDS.length);
    later.map((m) => m.topic).should.eql(['current_5v0']);
    (later[0].payload as number).should.be.within(2497, 2503);
    outcomes.caught.should.have.length(0);
    (await requestsTo(ctl, '/stats')).every((e) => e.status === 200).should.be.true();
  });

  it('nothing selected, or a bad interval: refused at deploy, every msg fails, nothing sent', async () => {
    const outcomes = await loadActionsQuiet(ctl, [readings({ id: 'none', stats: false }), readings({ id: 'fast', interval: '5' })], { service: 'power' });
    await waitStatus('none', 'red', 'ring', 'choose at least one of source, protectionlog, stats');
    await expectRefused(ctl, outcomes, 'none', { payload: true }, 'choose at least one of source, protectionlog, stats, temperature');
    await expectRefused(ctl, outcomes, 'fast', { payload: true }, 'Poll every (interval) must be 0 or an integer from 20 to 86400000 ms, got 5');
    (await wireSince(ctl)).should.eql([]);
  });

  it('device errors: 500 on one record fails the msg; 502 with the service down', async () => {
    const outcomes = await loadActionsQuiet(ctl, [readings({ temperature: true })], { service: 'power' });
    await ctl.fault({ path: apiPath('power', 'temperature'), status: 500, message: 'Internal Server Error', count: 1 });
    const failed = await expectFailed(outcomes, 'pr', { payload: true });
    expectCode(failed.error, 'DEVICE_ERROR');
    failed.error.cause!.should.containEql({
      statusCode: 500,
      deviceMessage: 'Internal Server Error',
      method: 'GET',
      path: wirePath(apiPath('power', 'temperature')),
    });
    await ctl.serviceDown('power');
    const down = await expectFailed(outcomes, 'pr', { payload: true });
    down.error.cause!.should.containEql({ statusCode: 502, path: wirePath(apiPath('power', 'stats')) });
    await waitStatus('pr', 'red', 'ring', SERVICE_DOWN_STATUS);
    outcomes.caught.should.have.length(2);
  });
});
