/**
 * io-power against the simulator: the six-row power-management configuration sent in pin
 * order with only the checked fields, from the settings or a msg override `{config}`;
 * per-rail current caps (5_volt ≤ 300 mA, 12_volt ≤ 500 mA) refused before the wire;
 * applied when the module connects: on deploy and again after the device was away.
 */
import should from 'should';
import { device, expectCode, waitFor, waitStatus } from '../helpers/node-red';
import { runtimeSuite } from '../helpers/runtime-suite';
import { IS_API10, withinSimBudget, wirePath, wireRequest } from '../helpers/api';
import { ActionDef, CaughtMsg, deviceCall, httpStatus, ioModule, loadActions, loadActionsQuiet, send, wire } from '../helpers/io-nodes';

const PM = '/api/io/0.9/2/power-management';

type Row = { rail: string; current: string };
const ROWS: Row[] = [
  { rail: '5_volt', current: '100' },
  { rail: '12_volt', current: '500' },
  { rail: '5_volt', current: '0' },
  { rail: '12_volt', current: '250' },
  { rail: '5_volt', current: '300' },
  { rail: '5_volt', current: '20' },
];
/** What ROWS become on the wire. */
const CONFIG = ROWS.map((r, i) => ({ pin: i + 1, rail: r.rail, current: Number(r.current) }));
const MODEL = CONFIG.map((e) => ({ pin: e.pin, rail: e.rail, currentMa: e.current }));

/** The answer to an accepted configuration: API 1.0 adds the milliwatts over budget (none). */
const SUCCESS = IS_API10
  ? { status: 'success', too_much_power: { rail_3v3_milliwatt: 0, rail_5v0_milliwatt: 0, rail_12v_milliwatt: 0 } }
  : { status: 'success' };

function power(settings: Record<string, unknown> = {}): ActionDef {
  return { id: 'pw', type: 'io-power', pins: ROWS, applyOnConnect: false, ...settings };
}

describe('io-power (runtime, simulator)', function () {
  this.timeout(20000);
  const { sim, ctl } = runtimeSuite();

  it('a msg sends the six configured rows in pin order, numbers as numbers; the answer goes out on the msg', async () => {
    const outcomes = await loadActionsQuiet(ctl, [power()]);
    should(await send(outcomes, 'pw', { payload: 'apply', topic: 'pm', keep: 1 })).be.undefined();
    (await wire(ctl)).should.eql([['POST', PM, { config: CONFIG }]]);
    should((await ioModule(ctl)).powerConfig).eql(MODEL);
    const [out] = outcomes.sent('pw');
    out.should.containEql({ payload: SUCCESS, topic: 'pm', keep: 1 });
    should(out.request).eql(wireRequest({ method: 'POST', path: PM, body: { config: CONFIG } }));
    await waitStatus('pw', 'green', 'dot', '6 pins, 1170 mA in all');
  });

  it('only the checked fields reach the wire: extra fields of the rows are dropped', async () => {
    const outcomes = await loadActionsQuiet(ctl, [power({ pins: ROWS.map((r) => ({ ...r, label: 'sensor', voltage: 5 })) })]);
    await send(outcomes, 'pw', {});
    (await wire(ctl)).should.eql([['POST', PM, { config: CONFIG }]]);
  });

  it('msg.payload {config} overrides the settings; sent sorted by pin, with only pin, rail and current', async () => {
    const outcomes = await loadActionsQuiet(ctl, [power()]);
    const override = [6, 5, 4, 3, 2, 1].map((pin) => ({ current: 10 * pin, rail: pin % 2 ? '12_volt' : '5_volt', pin, note: 'x' }));
    await send(outcomes, 'pw', { payload: { config: override, other: true } });
    outcomes.caught.should.have.length(0);
    const expected = [1, 2, 3, 4, 5, 6].map((pin) => ({ pin, rail: pin % 2 ? '12_volt' : '5_volt', current: 10 * pin }));
    (await wire(ctl)).should.eql([['POST', PM, { config: expected }]]);
    await waitStatus('pw', 'green', 'dot', '6 pins, 210 mA in all');
  });

  describe('validation: one error in Catch, nothing sent', () => {
    const row = (pin: number, rail = '5_volt', current: unknown = 100) => ({ pin, rail, current });
    const six = (change: (rows: Array<Record<string, unknown>>) => void) => {
      const rows: Array<Record<string, unknown>> = [1, 2, 3, 4, 5, 6].map((pin) => row(pin));
      change(rows);
      return rows;
    };
    const cases: Array<[string, unknown, RegExp]> = [
      ['5_volt above 300 mA', six((r) => (r[2].current = 301)), /Current of pin 3 \(config\[2\]\.current\) must be an integer from 0 to 300 mA, got 301/],
      [
        '12_volt above 500 mA',
        six((r) => Object.assign(r[5], { rail: '12_volt', current: 501 })),
        /Current of pin 6 \(config\[5\]\.current\) must be an integer from 0 to 500 mA, got 501/,
      ],
      ['5_volt at the 12_volt cap', six((r) => (r[0].current = 500)), /Current of pin 1 \(config\[0\]\.current\) must be an integer from 0 to 300 mA, got 500/],
      ['negative current', six((r) => (r[1].current = -1)), /Current of pin 2 \(config\[1\]\.current\) must be an integer from 0 to 300 mA, got -1/],
      ['current as text', six((r) => (r[1].current = '100')), /Current of pin 2 \(config\[1\]\.current\) must be an integer from 0 to 300 mA, got "100"/],
      ['unknown rail', six((r) => (r[3].rail = '3_volt')), /Rail of pin 4 \(config\[3\]\.rail\) must be one of 5_volt, 12_volt, got "3_volt"/],
      ['five rows', six((r) => r.pop()), /config must be an array of 6 entries \(one per pin\), got 5 entries/],
      ['seven rows', six((r) => r.push(row(6))), /config must be an array of 6 entries \(one per pin\), got 7 entries/],
      ['a pin twice', six((r) => (r[5].pin = 1)), /config\[5\]\.pin must name each pin once, got 1 twice/],
      ['pin 7', six((r) => (r[5].pin = 7)), /Pin of row 6 \(config\[5\]\.pin\) must be an integer from 1 to 6, got 7/],
      [
        'a row that is not an object',
        six((r) => (r[4] = null as unknown as Record<string, unknown>)),
        /config\[4\] must be an object \{pin, rail, current\}, got null/,
      ],
      ['config not an array', { a: 1 }, /config must be an array of 6 entries \(one per pin\), got an object/],
    ];

    it('every invalid override, including the per-rail caps', async () => {
      const outcomes = await loadActionsQuiet(ctl, [power()]);
      for (const [name, config, pattern] of cases) {
        const caught = await send(outcomes, 'pw', { payload: { config }, topic: name });
        should(caught).be.ok();
        expectCode(caught!.error, 'INVALID_INPUT', name);
        caught!.error.message.should.match(pattern, `${name}: ${caught!.error.message}`);
      }
      outcomes.caught.should.have.length(cases.length);
      outcomes.sent('pw').should.have.length(0);
      (await wire(ctl)).should.eql([]);
    });

    it('the caps themselves are accepted: 300 mA on 5_volt, 500 mA on 12_volt', async () => {
      const outcomes = await loadActionsQuiet(ctl, [power()]);
      // Within the 1.0 simulator's power budget as well (see the denied test below).
      const config = [1, 2, 3, 4, 5, 6].map((pin) => (pin <= 2 ? row(pin, '5_volt', 300) : row(pin, '12_volt', 500)));
      withinSimBudget(config as Array<{ rail: string; current: number }>).should.be.true();
      should(await send(outcomes, 'pw', { payload: { config } })).be.undefined();
      (await wire(ctl)).should.eql([['POST', PM, { config }]]);
    });

    it('a setting over its rail cap shows at deploy, is not applied on connect, and fails msgs', async () => {
      const rows = ROWS.map((r) => ({ ...r }));
      rows[1] = { rail: '12_volt', current: '501' };
      const outcomes = await loadActions(sim.url, [power({ pins: rows, applyOnConnect: true })]);
      await waitStatus('pw', 'red', 'ring', 'Current of pin 2 (config[1].current) must be');
      const caught = await send(outcomes, 'pw', {});
      caught!.error.message.should.match(/Current of pin 2 \(config\[1\]\.current\) must be an integer from 0 to 500 mA, got 501/);
      (await wire(ctl)).should.eql([]);
      should((await ioModule(ctl)).powerConfig).be.null();
    });

    it('fewer than six rows in the settings is refused', async () => {
      const outcomes = await loadActionsQuiet(ctl, [power({ pins: ROWS.slice(0, 4) })]);
      const caught = await send(outcomes, 'pw', {});
      caught!.error.message.should.match(/config must be an array of 6 entries \(one per pin\), got 4 entries/);
      (await wire(ctl)).should.eql([]);
    });
  });

  it('a device error reaches Catch with status and message', async () => {
    const outcomes = await loadActionsQuiet(ctl, [power()]);
    await ctl.fault({ path: '/power-management', status: 500, message: 'Internal driver communication failed', count: 1 });
    const caught = await send(outcomes, 'pw', {});
    expectCode(caught!.error, 'DEVICE_ERROR');
    caught!.error.cause!.should.containEql({ statusCode: 500, deviceMessage: 'Internal driver communication failed', method: 'POST', path: wirePath(PM) });
    await waitStatus('pw', 'red', 'ring', httpStatus(500));
  });

  describe('the power budget (API 1.0 answers "denied"; the spec has none)', () => {
    // Six pins at the 5 V cap: 6 × (300 mA × 5 V + 200) = 10200 mW, 4200 mW over the
    // simulator's 6000 mW budget of the 5 V rail (simulator/api10/io.ts).
    const OVER = [1, 2, 3, 4, 5, 6].map((pin) => ({ pin, rail: '5_volt', current: 300 }));

    if (IS_API10) {
      it('API 1.0: a configuration over the budget is a DEVICE_ERROR naming the mW over, nothing applied', async () => {
        withinSimBudget(OVER).should.be.false();
        const outcomes = await loadActionsQuiet(ctl, [power()]);
        const caught = await send(outcomes, 'pw', { payload: { config: OVER }, topic: 'too much' });
        should(caught).be.ok();
        caught!.topic!.should.equal('too much');
        const error = caught!.error as CaughtMsg['error'] & { cause: Record<string, unknown> };
        expectCode(error, 'DEVICE_ERROR');
        error.message.should.match(/denied/);
        error.message.should.match(/4200 mW/);
        should(error.cause.too_much_power).eql({ rail_3v3_milliwatt: 0, rail_5v0_milliwatt: 4200, rail_12v_milliwatt: 0 });
        outcomes.sent('pw').should.have.length(0);
        (await wire(ctl)).should.eql([['POST', PM, { config: OVER }]]);
        should((await ioModule(ctl)).powerConfig).be.null();
        await waitStatus('pw', 'red', 'ring', /denied/);
      });
    } else {
      it('API 0.9: the same configuration is accepted (no budget in the spec)', async () => {
        const outcomes = await loadActionsQuiet(ctl, [power()]);
        should(await send(outcomes, 'pw', { payload: { config: OVER } })).be.undefined();
        outcomes.sent('pw')[0].payload!.should.eql(SUCCESS);
      });
    }
  });

  describe('applied when the module connects', () => {
    it('on deploy, without a msg: outputs work afterwards', async () => {
      const outcomes = await loadActions(sim.url, [power({ applyOnConnect: true })]);
      await waitStatus('pw', 'green', 'dot', '6 pins, 1170 mA in all');
      (await wire(ctl)).should.eql([['POST', PM, { config: CONFIG }]]);
      should((await ioModule(ctl)).powerConfig).eql(MODEL);
      await deviceCall(ctl, 'POST', '/api/io/0.9/2/output/state', { pin: 1, state: 'high' });
      outcomes.caught.should.have.length(0);
    });

    it('again after the device was away and came back restarted (config node reconnects)', async () => {
      // io-read polls so that the config node learns of the outage (it probes on failures).
      const outcomes = await loadActions(sim.url, [
        power({ applyOnConnect: true }),
        { id: 'rd', type: 'io-read', source: 'values', pin: '1', interval: '50', output: 'record' },
      ]);
      await waitFor(async () => (await ioModule(ctl)).powerConfig !== null, 'the first power configuration');
      await sim.pause();
      await waitFor(() => device().connection!.state.state === 'unreachable', 'the config node to see the outage');
      sim.restart(); // the device reboots while away: power management is gone
      await sim.resume();
      should((await ioModule(ctl)).powerConfig).be.null();
      await waitFor(async () => (await ioModule(ctl)).powerConfig !== null, 'the configuration to be re-applied', 10000);
      should((await ioModule(ctl)).powerConfig).eql(MODEL);
      // Once on deploy, once on reconnection.
      (await ctl.requests())
        .filter((e) => e.path === PM)
        .map((e) => e.body)
        .should.eql([{ config: CONFIG }, { config: CONFIG }]);
      outcomes.caughtFrom('pw').should.have.length(0);
      await waitStatus('pw', 'green', 'dot', '6 pins, 1170 mA in all');
    });
    // A restart that drops no connection (POST /sim/restart): API 0.9's version record has no
    // session id, so nothing tells the config node; API 1.0's driver_session does (covered in
    // test/unit/dialects.test.ts, it takes a health interval of 10 s).
  });
});
