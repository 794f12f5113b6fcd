/**
 * power-limits against the simulator: the limits at their inclusive bounds are sent and
 * then shown by a stats read, one beyond each bound is refused with nothing sent, bare
 * msgs use the settings, msg.payload fields override them, a msg.operation the dialog does
 * not allow is refused ("from msg.operation" lets a msg choose), device errors reach Catch.
 */
import should from 'should';
import { apiPath, deviceErrorStatus, expectFailed, expectRefused, operationFixed, sendOk, sendOne, simModule, wireSince } from '../helpers/bmc-power';
import { loadActionsQuiet } from '../helpers/io-nodes';
import { expectCode, waitStatus } from '../helpers/node-red';
import { runtimeSuite } from '../helpers/runtime-suite';
import { wirePath, wireRequest } from '../helpers/api';

const LIMITS = apiPath('power', 'limits');
const STATS = apiPath('power', 'stats');

describe('power-limits (runtime, simulator)', function () {
  this.timeout(20000);
  const { ctl } = runtimeSuite({ server: true });

  const limits = (settings: Record<string, unknown> = {}) => ({
    id: 'lim',
    type: 'power-limits',
    operation: 'set',
    limit_3v3: '3000',
    limit_5v0: '2500',
    limit_12v: '1200',
    ...settings,
  });

  it('the bounds both APIs accept (1001/5950, 1001/4950, 101/2400) are sent, and a stats read shows them', async () => {
    const outcomes = await loadActionsQuiet(ctl, [limits(), limits({ id: 'stats', operation: 'read' })], { service: 'power' });
    const low = { limit_3v3: 1001, limit_5v0: 1001, limit_12v: 101 };
    const high = { limit_3v3: 5950, limit_5v0: 4950, limit_12v: 2400 };
    for (const set of [low, high]) {
      const out = await sendOne(outcomes, 'lim', { payload: set, topic: 'limits' });
      out.payload!.should.eql({ status: 'success' });
      out.request!.should.eql(wireRequest({ method: 'POST', path: LIMITS, body: set }));
      should(out.topic).equal('limits');
      await waitStatus('lim', 'green', 'dot', `3V3 ${set.limit_3v3} mA, 5V0 ${set.limit_5v0} mA, 12V ${set.limit_12v} mA`);
      const stats = await sendOne(outcomes, 'stats', { operation: 'read' });
      (stats.payload as Record<string, number>).should.containEql(set);
      Object.keys(stats.payload as object)
        .sort()
        .should.eql(['current_12v', 'current_3v3', 'current_5v0', 'limit_12v', 'limit_3v3', 'limit_5v0', 'voltage_12v', 'voltage_3v3', 'voltage_5v0']);
    }
    (await wireSince(ctl)).should.eql([
      ['POST', LIMITS, low],
      ['GET', STATS, null],
      ['POST', LIMITS, high],
      ['GET', STATS, null],
    ]);
    (await simModule(ctl, 'power')).limitMa.should.eql({ '3v3': 5950, '5v0': 4950, '12v': 2400 });
    outcomes.caught.should.have.length(0);
  });

  it('one beyond each bound is refused with nothing sent', async () => {
    const outcomes = await loadActionsQuiet(ctl, [limits()], { service: 'power' });
    const ok = { limit_3v3: 3000, limit_5v0: 2500, limit_12v: 1200 };
    const cases: Array<[Record<string, number>, string]> = [
      [{ limit_3v3: 1000 }, '3.3 V rail (limit_3v3) must be an integer from 1001 to 5950 mA, got 1000'],
      [{ limit_3v3: 5951 }, '3.3 V rail (limit_3v3) must be an integer from 1001 to 5950 mA, got 5951'],
      [{ limit_5v0: 1000 }, '5 V rail (limit_5v0) must be an integer from 1001 to 4950 mA, got 1000'],
      [{ limit_5v0: 4951 }, '5 V rail (limit_5v0) must be an integer from 1001 to 4950 mA, got 4951'],
      [{ limit_12v: 100 }, '12 V rail (limit_12v) must be an integer from 101 to 2400 mA, got 100'],
      [{ limit_12v: 2401 }, '12 V rail (limit_12v) must be an integer from 101 to 2400 mA, got 2401'],
    ];
    for (const [change, message] of cases) await expectRefused(ctl, outcomes, 'lim', { payload: { ...ok, ...change } }, message);
    await expectRefused(
      ctl,
      outcomes,
      'lim',
      { payload: { ...ok, limit_5v0: '2500' } },
      '5 V rail (limit_5v0) must be an integer from 1001 to 4950 mA, got "2500"',
    );
    await waitStatus('lim', 'red', 'ring', '5 V rail (limit_5v0) must be an integer');
    outcomes.caught.should.have.length(7);
    (await simModule(ctl, 'power')).limitMa.should.eql({ '3v3': 5950, '5v0': 4950, '12v': 2400 }, 'factory limits untouched');
  });

  it('bare msgs use the settings; payload fields override single rails; a read node reads stats', async () => {
    const outcomes = await loadActionsQuiet(ctl, [limits(), limits({ id: 'read', operation: 'read', limit_3v3: '', limit_5v0: '', limit_12v: '' })], {
      service: 'power',
    });
    await sendOk(outcomes, 'lim', { payload: 1732170000000 });
    await sendOk(outcomes, 'lim', { payload: { limit_12v: 500 } });
    const stats = await sendOne(outcomes, 'read', { payload: true });
    (stats.payload as Record<string, number>).should.containEql({ limit_3v3: 3000, limit_5v0: 2500, limit_12v: 500 });
    (await wireSince(ctl)).should.eql([
      ['POST', LIMITS, { limit_3v3: 3000, limit_5v0: 2500, limit_12v: 1200 }],
      ['POST', LIMITS, { limit_3v3: 3000, limit_5v0: 2500, limit_12v: 500 }],
      ['GET', STATS, null],
    ]);
  });

  it('a set node without limits refuses a bare msg, yet takes complete limits from msg.payload', async () => {
    const outcomes = await loadActionsQuiet(ctl, [limits({ limit_3v3: '', limit_5v0: '', limit_12v: '' })], { service: 'power' });
    await expectRefused(ctl, outcomes, 'lim', { payload: true }, '3.3 V rail (limit_3v3) must be an integer from 1001 to 5950 mA, got nothing');
    await sendOk(outcomes, 'lim', { payload: { limit_3v3: 2000, limit_5v0: 2000, limit_12v: 2000 } });
    (await wireSince(ctl)).should.eql([['POST', LIMITS, { limit_3v3: 2000, limit_5v0: 2000, limit_12v: 2000 }]]);
  });

  it("a msg.operation other than the dialog's is refused, not replaced by the node's operation: nothing sent", async () => {
    const outcomes = await loadActionsQuiet(ctl, [limits({ operation: 'read' })], { service: 'power' });
    await expectRefused(
      ctl,
      outcomes,
      'lim',
      { operation: 'set', payload: { limit_3v3: 1000, limit_5v0: 1000, limit_12v: 100 } },
      operationFixed('power-limits', '"set"', 'read'),
    );
    await expectRefused(ctl, outcomes, 'lim', { operation: 'reed' }, operationFixed('power-limits', '"reed"', 'read'));
    await waitStatus('lim', 'red', 'ring', 'msg.operation "reed" refused');
    (await simModule(ctl, 'power')).limitMa.should.eql({ '3v3': 5950, '5v0': 4950, '12v': 2400 }, 'factory limits untouched');
    await sendOk(outcomes, 'lim', { operation: 'read' });
    (await wireSince(ctl)).should.eql([['GET', STATS, null]]);
  });

  it('"from msg.operation": a msg chooses set or read; msg.operation is required and must be one of them', async () => {
    const outcomes = await loadActionsQuiet(ctl, [limits({ operation: 'msg' })], { service: 'power' });
    await expectRefused(ctl, outcomes, 'lim', { payload: { limit_12v: 500 } }, 'Operation (msg.operation) must be one of set, read, module_reset, got nothing');
    await expectRefused(ctl, outcomes, 'lim', { operation: 'stats' }, 'Operation (msg.operation) must be one of set, read, module_reset, got "stats"');
    await sendOk(outcomes, 'lim', { operation: 'set', payload: { limit_12v: 500 } });
    const stats = await sendOne(outcomes, 'lim', { operation: 'read' });
    (stats.payload as Record<string, number>).should.containEql({ limit_3v3: 3000, limit_5v0: 2500, limit_12v: 500 });
    (await wireSince(ctl)).should.eql([
      ['POST', LIMITS, { limit_3v3: 3000, limit_5v0: 2500, limit_12v: 500 }],
      ['GET', STATS, null],
    ]);
  });

  it('device errors: 400 "Failed setting current limit", 502 with the service down', async () => {
    const outcomes = await loadActionsQuiet(ctl, [limits(), limits({ id: 'stats', operation: 'read' })], { service: 'power' });
    await ctl.fault({ path: LIMITS, status: 400, message: 'Failed setting current limit', count: 1 });
    const failed = await expectFailed(outcomes, 'lim', { payload: true });
    expectCode(failed.error, 'DEVICE_ERROR');
    failed.error.cause!.should.containEql({ statusCode: 400, deviceMessage: 'Failed setting current limit', method: 'POST', path: wirePath(LIMITS) });
    await waitStatus('lim', 'red', 'ring', deviceErrorStatus(400, 'Failed setting cu'));
    await ctl.serviceDown('power');
    const down = await expectFailed(outcomes, 'stats', { operation: 'read' });
    down.error.cause!.should.containEql({ statusCode: 502, method: 'GET', path: wirePath(STATS) });
    outcomes.caught.should.have.length(2);
  });
});
