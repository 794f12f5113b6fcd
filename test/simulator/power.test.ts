import { checkPostViolations, FAN_DELAY_MS, shouldFail, shouldSucceed, sleep, useSimulator } from './setup';

const POWER = '/api/power/0.9/1';

describe('simulator power service (API 0.9)', function () {
  const f = useSimulator();
  const post = (tail: string, body: unknown) => f.api.post(`${POWER}/${tail}`, body);
  const get = async (tail: string) => (await f.api.get(`${POWER}/${tail}`)).body;
  const setWorld = async (body: object) => shouldSucceed(await f.api.post('/sim/power/1', body));

  it('GET source: capacities in mW and efficiency factors', async function () {
    (await get('source')).should.eql({
      source_3v3: 19635,
      source_5v0: 24750,
      source_12v: 28800,
      source_total: 60000,
      efficiency_factor_3v3: 90,
      efficiency_factor_5v0: 92,
      efficiency_factor_12v: 94,
    });
    shouldFail(await f.api.get('/api/power/0.9/0/source'), 404, 'Slot not found');
  });

  describe('GET stats and POST limits', function () {
    it('voltages inside the rail windows, currents follow the loads, limits default to the maximum', async function () {
      await setWorld({ load_3v3: 1500, load_5v0: 0, load_12v: 700 });
      const s = await get('stats');
      s.voltage_3v3.should.be.within(3240, 3440);
      s.voltage_5v0.should.be.within(4608, 5202);
      s.voltage_12v.should.be.within(11300, 12770);
      s.current_3v3.should.be.within(1490, 1510);
      s.current_5v0.should.equal(0);
      s.current_12v.should.be.within(690, 710);
      s.should.containEql({ limit_3v3: 5950, limit_5v0: 4950, limit_12v: 2400 });
    });
    it('limits echo what was set, bounds included', async function () {
      shouldSucceed(await post('limits', { limit_3v3: 1000, limit_5v0: 4950, limit_12v: 100 }));
      (await get('stats')).should.containEql({ limit_3v3: 1000, limit_5v0: 4950, limit_12v: 100 });
    });
    it('a load above a limit is clamped and counts one over-current event', async function () {
      shouldSucceed(await post('limits', { limit_3v3: 1000, limit_5v0: 4950, limit_12v: 2400 }));
      (await get('protectionlog')).ocp_cnt_3v3.should.equal(0); // default load 800 mA is below
      await setWorld({ load_3v3: 1200 });
      await setWorld({ load_3v3: 1300 }); // still over: same event
      (await get('stats')).current_3v3.should.be.within(990, 1010);
      const log = await get('protectionlog');
      log.ocp_cnt_3v3.should.equal(1);
      log.opp_protection_cnt.should.equal(1);
    });
    it('limits messages and bad bodies', async function () {
      const good = { limit_3v3: 3000, limit_5v0: 3000, limit_12v: 1000 };
      shouldFail(await post('limits', { ...good, limit_3v3: 999 }), 400, 'Invalid limit_3v3: 999 (allowed: 1000..5950 mA)');
      shouldFail(await post('limits', { ...good, limit_5v0: 4951 }), 400, 'Invalid limit_5v0: 4951 (allowed: 1000..4950 mA)');
      shouldFail(await post('limits', { ...good, limit_12v: 2401 }), 400, 'Invalid limit_12v: 2401 (allowed: 100..2400 mA)');
      await checkPostViolations(f.api, POWER, 'limits', good, { limit_12v: 10.5 });
    });
  });

  describe('GET protectionlog', function () {
    it('counts protection events, their sum, pmc over-temperature; survives a device reset', async function () {
      const zero = await get('protectionlog');
      Object.keys(zero).should.eql([
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
      ]);
      Object.values(zero)
        .every((v) => v === 0)
        .should.be.true();
      shouldSucceed(await f.api.post('/sim/power/1/protection', { event: 'ovp_5v0' }));
      shouldSucceed(await f.api.post('/sim/power/1/protection', { event: 'uvp_12v' }));
      await setWorld({ pmc_temp: 130 });
      await setWorld({ load_3v3: 5900, load_5v0: 4900, load_12v: 2300 }); // > 60 W total
      shouldSucceed(await f.api.post('/api/bmc/0.9/0/hard_reset', { reset: 'yes' }));
      const log = await get('protectionlog');
      log.should.containEql({ ovp_cnt_5v0: 1, uvp_cnt_12v: 1, pmc_temperature: 1, total_power_overload: 1 });
      log.opp_protection_cnt.should.equal(4);
      shouldFail(await f.api.post('/sim/power/1/protection', { event: 'ovp_9v' }), 400);
    });
  });

  it('GET temperature follows the set values with a little drift', async function () {
    const t = await get('temperature');
    t.should.have.only.keys('on_board_temp', 'pmc_temp');
    t.on_board_temp.should.be.within(38, 39);
    t.pmc_temp.should.be.within(51.4, 52.6);
    await setWorld({ on_board_temp: 45.25, pmc_temp: 80 });
    const u = await get('temperature');
    u.on_board_temp.should.be.within(44.9, 45.6);
    u.pmc_temp.should.be.within(79.4, 80.6);
  });

  describe('fan', function () {
    it('automatic by default; a forced mode is reached only after the apply delay', async function () {
      (await get('fan')).should.eql({ fan_forced: false, fan_current_mode: 60, fan_setting_mode: 0 });
      shouldSucceed(await post('fan', { fan_forced: true, fan_mode: 100 }));
      (await get('fan')).should.eql({ fan_forced: true, fan_current_mode: 60, fan_setting_mode: 100 });
      await sleep(FAN_DELAY_MS + 300);
      (await get('fan')).should.eql({ fan_forced: true, fan_current_mode: 100, fan_setting_mode: 100 });
    });
    it('back to automatic: the mode follows the temperature after the delay', async function () {
      (await f.api.post('/sim/config', { fan_apply_delay_ms: 50 })).status.should.equal(200);
      shouldSucceed(await post('fan', { fan_forced: true, fan_mode: 0 }));
      await sleep(200);
      (await get('fan')).fan_current_mode.should.equal(0);
      shouldSucceed(await post('fan', { fan_forced: false }));
      await sleep(200);
      (await get('fan')).should.eql({ fan_forced: false, fan_current_mode: 60, fan_setting_mode: 0 });
      await setWorld({ pmc_temp: 75 });
      await sleep(200);
      (await get('fan')).fan_current_mode.should.equal(100);
      (await f.api.post('/sim/config', { fan_apply_delay_ms: FAN_DELAY_MS })).status.should.equal(200);
    });
    it('fan_mode optional when not forced (also null); limits messages and bad bodies', async function () {
      shouldSucceed(await post('fan', { fan_forced: false, fan_mode: null }));
      shouldFail(await post('fan', { fan_forced: true }), 400, 'fan_mode is required when fan_forced is true');
      shouldFail(await post('fan', { fan_forced: true, fan_mode: 50 }), 400, 'Invalid fan_mode: 50 (allowed: 0, 20, 40, 60, 80, 100 %)');
      shouldFail(await post('fan', { fan_forced: false, fan_mode: 50 }), 400, 'Invalid fan_mode: 50 (allowed: 0, 20, 40, 60, 80, 100 %)');
      shouldFail(await post('fan', { fan_forced: true, fan_mode: 300 }), 422);
      shouldFail(await post('fan', { fan_mode: 20 }), 422);
      await checkPostViolations(f.api, POWER, 'fan', { fan_forced: true, fan_mode: 20 }, { fan_forced: 'true' });
    });
  });

  describe('fan/rpm', function () {
    it('0 while measurement is off; follows the current mode when on', async function () {
      (await get('fan/rpm')).should.eql({ enabled: false, rpm: 0 });
      shouldSucceed(await post('fan/rpm', { measurement_enabled: true }));
      const r = await get('fan/rpm');
      r.enabled.should.be.true();
      r.rpm.should.be.within(2970, 3030); // 60 % of 5000 ± 1 %
      (await f.api.post('/sim/config', { fan_apply_delay_ms: 0 })).status.should.equal(200);
      shouldSucceed(await post('fan', { fan_forced: true, fan_mode: 0 }));
      (await get('fan/rpm')).rpm.should.equal(0);
      shouldSucceed(await post('fan/rpm', { measurement_enabled: false }));
      (await get('fan/rpm')).should.eql({ enabled: false, rpm: 0 });
      (await f.api.post('/sim/config', { fan_apply_delay_ms: FAN_DELAY_MS })).status.should.equal(200);
    });
    it('bad bodies', async function () {
      await checkPostViolations(f.api, POWER, 'fan/rpm', { measurement_enabled: true }, { measurement_enabled: 1 });
    });
  });

  it('descriptor and version record list only power modules', async function () {
    const d = (await f.api.get(`${POWER}/descriptor`)).body;
    d.slot_number.should.equal(1);
    d.product_name.should.equal('Power Supply Module 75W');
    d.serial_code.should.equal('SIM-POWER-0001');
    (await f.api.get('/api/power/0.9')).body.devices.map((d: { slot_number: number }) => d.slot_number).should.eql([1]);
    shouldFail(await f.api.get('/api/power/0.9/5/descriptor'), 404, 'Could not find device on this slot');
  });
});
