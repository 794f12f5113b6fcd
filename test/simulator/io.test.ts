import { checkPostViolations, shouldFail, shouldSucceed, sleep, useSimulator } from './setup';

const IO = '/api/io/0.9/2';
const PINS = [1, 2, 3, 4, 5, 6];
const powerConfig = (rail = '12_volt', current = 500) => ({ config: PINS.map((pin) => ({ pin, rail, current })) });

describe('simulator io service (API 0.9)', function () {
  const f = useSimulator();
  const pinSet = (pin: number, body: object, slot = 2) => f.api.post(`/sim/io/${slot}/pins/${pin}`, body);
  const values = async () => (await f.api.get(`${IO}/input/values`)).body.pins as Array<{ pin: number; pin_type: string; value: number }>;
  const notifications = async () => (await f.api.get(`${IO}/notification`)).body.notification as Array<Record<string, any>>;
  const alertsOf = async (pin: number) => (await notifications())[pin - 1];
  const post = (tail: string, body: unknown) => f.api.post(`${IO}/${tail}`, body);

  describe('GET input/values', function () {
    it('gives six voltage_mV records from the external signal', async function () {
      shouldSucceed(await pinSet(1, { voltage_mV: 3300 }));
      shouldSucceed(await pinSet(6, { voltage_mV: 24000 }));
      const pins = await values();
      pins.should.have.length(6);
      pins[0].should.eql({ pin: 1, pin_type: 'voltage_mV', value: 3300 });
      pins[1].should.eql({ pin: 2, pin_type: 'voltage_mV', value: 0 });
      pins[5].should.eql({ pin: 6, pin_type: 'voltage_mV', value: 24000 });
    });
    it('404 for an unknown slot, a slot of another service and an unknown path; 400 for a wrong version', async function () {
      shouldFail(await f.api.get('/api/io/0.9/9/input/values'), 404, 'Slot not found');
      shouldFail(await f.api.get('/api/io/0.9/0/input/values'), 404, 'Slot not found');
      shouldFail(await f.api.get(`${IO}/input/valuez`), 404, 'Not Found');
      shouldFail(await f.api.get('/api/io/1.0/2/input/values'), 400, 'Version not compatible');
    });
  });

  describe('GET input/values/current', function () {
    it('is 0 for inputs and the load of a driving output', async function () {
      let res = await f.api.get(`${IO}/input/values/current`);
      res.status.should.equal(200);
      res.body.pins.should.eql(PINS.map((pin) => ({ pin, pin_type: 'current_mA', value: 0 })));
      shouldSucceed(await post('power-management', powerConfig()));
      shouldSucceed(await pinSet(2, { load_mA: 150 }));
      shouldSucceed(await post('output/state', { pin: 2, state: 'high' }));
      res = await f.api.get(`${IO}/input/values/current`);
      res.body.pins[1].should.eql({ pin: 2, pin_type: 'current_mA', value: 150 });
      shouldSucceed(await post('output/state', { pin: 2, state: 'low' }));
      (await f.api.get(`${IO}/input/values/current`)).body.pins[1].value.should.equal(0);
    });
    it('404 for an unknown slot', async function () {
      shouldFail(await f.api.get('/api/io/0.9/4/input/values/current'), 404, 'Slot not found');
    });
  });

  describe('POST input/mode', function () {
    it('analog -> digital -> analog', async function () {
      shouldSucceed(await post('input/mode', { pin: 3, mode: 'digital' }));
      (await values())[2].should.eql({ pin: 3, pin_type: 'digital_input', value: 0 });
      shouldSucceed(await pinSet(3, { level: 1 }));
      (await values())[2].should.eql({ pin: 3, pin_type: 'digital_input', value: 1 });
      shouldSucceed(await pinSet(3, { voltage_mV: 1234 }));
      shouldSucceed(await post('input/mode', { pin: 3, mode: 'analog' }));
      (await values())[2].should.eql({ pin: 3, pin_type: 'voltage_mV', value: 1234 });
    });
    it('refuses out-of-range values with the limits message, and bad bodies', async function () {
      shouldFail(await post('input/mode', { pin: 0, mode: 'analog' }), 400, 'Invalid pin: 0 (allowed: 1..6)');
      shouldFail(await post('input/mode', { pin: 7, mode: 'analog' }), 400, 'Invalid pin: 7 (allowed: 1..6)');
      shouldFail(await post('input/mode', { pin: 1, mode: 'pwm' }), 400, 'Invalid mode: "pwm" (allowed: analog, digital)');
      shouldFail(await post('input/mode', { pin: 256, mode: 'analog' }), 422);
      shouldFail(await post('input/mode', { pin: -1, mode: 'analog' }), 422);
      shouldFail(await post('input/mode', { pin: 1.5, mode: 'analog' }), 422);
      shouldFail(await post('input/mode', [1, 'analog']), 422);
      await checkPostViolations(f.api, IO, 'input/mode', { pin: 1, mode: 'digital' }, { pin: '1' });
    });
  });

  describe('POST input/analog/threshold', function () {
    it('rising: a crossing from below sets custom_voltage_alert; reading clears it', async function () {
      shouldSucceed(await pinSet(1, { voltage_mV: 1000 }));
      shouldSucceed(await post('input/analog/threshold', { pin: 1, threshold_mV: 2500, trigger: 'rising' }));
      (await alertsOf(1)).custom_voltage_alert.should.be.false();
      shouldSucceed(await pinSet(1, { voltage_mV: 2400 }));
      (await alertsOf(1)).custom_voltage_alert.should.be.false();
      shouldSucceed(await pinSet(1, { voltage_mV: 2500 }));
      (await alertsOf(1)).should.eql({ pin: 1, under_voltage_alert: false, high_voltage_alert: false, high_current_alert: false, custom_voltage_alert: true });
      (await alertsOf(1)).custom_voltage_alert.should.be.false();
      shouldSucceed(await pinSet(1, { voltage_mV: 100 })); // falling does not trigger "rising"
      (await alertsOf(1)).custom_voltage_alert.should.be.false();
    });
    it('falling, then disabled', async function () {
      shouldSucceed(await pinSet(2, { voltage_mV: 5000 }));
      shouldSucceed(await post('input/analog/threshold', { pin: 2, threshold_mV: 3000, trigger: 'falling' }));
      shouldSucceed(await pinSet(2, { voltage_mV: 6000 }));
      (await alertsOf(2)).custom_voltage_alert.should.be.false();
      shouldSucceed(await pinSet(2, { voltage_mV: 2999 }));
      (await alertsOf(2)).custom_voltage_alert.should.be.true();
      shouldSucceed(await post('input/analog/threshold', { pin: 2, threshold_mV: 3000, trigger: 'disabled' }));
      shouldSucceed(await pinSet(2, { voltage_mV: 5000 }));
      shouldSucceed(await pinSet(2, { voltage_mV: 1000 }));
      (await alertsOf(2)).custom_voltage_alert.should.be.false();
    });
    it('works in output mode (analog implicitly active)', async function () {
      shouldSucceed(await post('power-management', powerConfig()));
      shouldSucceed(await post('output/state', { pin: 4, state: 'low' }));
      shouldSucceed(await post('input/analog/threshold', { pin: 4, threshold_mV: 6000, trigger: 'rising' }));
      shouldSucceed(await post('output/state', { pin: 4, state: 'high' }));
      (await alertsOf(4)).custom_voltage_alert.should.be.true();
    });
    it('400 Invalid mode in digital mode; limits messages; bad bodies', async function () {
      shouldSucceed(await post('input/mode', { pin: 1, mode: 'digital' }));
      shouldFail(await post('input/analog/threshold', { pin: 1, threshold_mV: 1000, trigger: 'rising' }), 400, 'Invalid mode');
      shouldFail(
        await post('input/analog/threshold', { pin: 2, threshold_mV: 25001, trigger: 'rising' }),
        400,
        'Invalid threshold_mV: 25001 (allowed: 50..25000 mV)',
      );
      shouldFail(
        await post('input/analog/threshold', { pin: 2, threshold_mV: 49, trigger: 'disabled' }),
        400,
        'Invalid threshold_mV: 49 (allowed: 50..25000 mV)',
      );
      shouldFail(
        await post('input/analog/threshold', { pin: 2, threshold_mV: 1000, trigger: 'up' }),
        400,
        'Invalid trigger: "up" (allowed: disabled, rising, falling)',
      );
      shouldFail(await post('input/analog/threshold', { pin: 2, threshold_mV: 70000, trigger: 'rising' }), 422);
      await checkPostViolations(f.api, IO, 'input/analog/threshold', { pin: 2, threshold_mV: 1000, trigger: 'rising' }, { threshold_mV: '1000' });
    });
  });

  describe('POST input/digital/interrupt', function () {
    const digital = async (pin: number) => shouldSucceed(await post('input/mode', { pin, mode: 'digital' }));
    it('rising edges set the notification, falling edges do not', async function () {
      await digital(5);
      shouldSucceed(await post('input/digital/interrupt', { pin: 5, debounce_time_ms: 0, trigger: 'rising' }));
      shouldSucceed(await pinSet(5, { level: 1 }));
      (await alertsOf(5)).custom_voltage_alert.should.be.true();
      shouldSucceed(await pinSet(5, { level: 0 }));
      (await alertsOf(5)).custom_voltage_alert.should.be.false();
    });
    it('falling and pulse (any edge)', async function () {
      await digital(1);
      await digital(2);
      shouldSucceed(await post('input/digital/interrupt', { pin: 1, debounce_time_ms: 0, trigger: 'falling' }));
      shouldSucceed(await post('input/digital/interrupt', { pin: 2, debounce_time_ms: 0, trigger: 'pulse' }));
      shouldSucceed(await pinSet(1, { level: 1 }));
      shouldSucceed(await pinSet(2, { level: 1 }));
      let n = await notifications();
      n[0].custom_voltage_alert.should.be.false();
      n[1].custom_voltage_alert.should.be.true();
      shouldSucceed(await pinSet(1, { level: 0 }));
      shouldSucceed(await pinSet(2, { level: 0 }));
      n = await notifications();
      n[0].custom_voltage_alert.should.be.true();
      n[1].custom_voltage_alert.should.be.true();
    });
    it('ignores events within the debounce time after a reported one', async function () {
      await digital(3);
      shouldSucceed(await post('input/digital/interrupt', { pin: 3, debounce_time_ms: 1000, trigger: 'rising' }));
      shouldSucceed(await pinSet(3, { level: 1 }));
      (await alertsOf(3)).custom_voltage_alert.should.be.true();
      shouldSucceed(await pinSet(3, { level: 0 }));
      shouldSucceed(await pinSet(3, { level: 1 })); // well within 1000 ms
      (await alertsOf(3)).custom_voltage_alert.should.be.false();
      shouldSucceed(await post('input/digital/interrupt', { pin: 3, debounce_time_ms: 50, trigger: 'rising' }));
      shouldSucceed(await pinSet(3, { level: 0 }));
      shouldSucceed(await pinSet(3, { level: 1 }));
      (await alertsOf(3)).custom_voltage_alert.should.be.true();
      await sleep(120);
      shouldSucceed(await pinSet(3, { level: 0 }));
      shouldSucceed(await pinSet(3, { level: 1 })); // after the debounce time: reported again
      (await alertsOf(3)).custom_voltage_alert.should.be.true();
    });
    it('disabled turns it off', async function () {
      await digital(4);
      shouldSucceed(await post('input/digital/interrupt', { pin: 4, debounce_time_ms: 0, trigger: 'rising' }));
      shouldSucceed(await post('input/digital/interrupt', { pin: 4, debounce_time_ms: 0, trigger: 'disabled' }));
      shouldSucceed(await pinSet(4, { level: 1 }));
      (await alertsOf(4)).custom_voltage_alert.should.be.false();
    });
    it('400 Invalid mode unless digital; limits messages; bad bodies', async function () {
      shouldFail(await post('input/digital/interrupt', { pin: 1, debounce_time_ms: 20, trigger: 'rising' }), 400, 'Invalid mode');
      shouldFail(
        await post('input/digital/interrupt', { pin: 1, debounce_time_ms: 1001, trigger: 'rising' }),
        400,
        'Invalid debounce_time_ms: 1001 (allowed: 0..1000 ms)',
      );
      shouldFail(
        await post('input/digital/interrupt', { pin: 1, debounce_time_ms: 20, trigger: 'both' }),
        400,
        'Invalid trigger: "both" (allowed: disabled, rising, falling, pulse)',
      );
      await checkPostViolations(f.api, IO, 'input/digital/interrupt', { pin: 1, debounce_time_ms: 20, trigger: 'disabled' }, { debounce_time_ms: true });
    });
  });

  describe('POST input/digital/counter', function () {
    it('enabled: input/values gives frequency_hz; disabled: digital_input again', async function () {
      shouldSucceed(await post('input/mode', { pin: 6, mode: 'digital' }));
      shouldSucceed(await pinSet(6, { frequency_hz: 1234, level: 1 }));
      shouldSucceed(await post('input/digital/counter', { pin: 6, state: 'enabled' }));
      (await values())[5].should.eql({ pin: 6, pin_type: 'frequency_hz', value: 1234 });
      shouldSucceed(await post('input/digital/counter', { pin: 6, state: 'disabled' }));
      (await values())[5].should.eql({ pin: 6, pin_type: 'digital_input', value: 1 });
    });
    it('400 Invalid mode unless digital; limits messages; bad bodies', async function () {
      shouldFail(await post('input/digital/counter', { pin: 6, state: 'enabled' }), 400, 'Invalid mode');
      shouldFail(await post('input/digital/counter', { pin: 6, state: 'on' }), 400, 'Invalid state: "on" (allowed: enabled, disabled)');
      await checkPostViolations(f.api, IO, 'input/digital/counter', { pin: 6, state: 'disabled' }, { state: 1 });
    });
  });

  describe('POST power-management', function () {
    it('accepts six entries, stored until reset', async function () {
      shouldSucceed(await post('power-management', powerConfig('5_volt', 300)));
      const state = (await f.api.get('/sim/state')).body;
      const io = state.modules.find((m: { slot: number }) => m.slot === 2);
      io.powerConfig.should.have.length(6);
      io.powerConfig[0].should.eql({ pin: 1, rail: '5_volt', currentMa: 300 });
    });
    it('refuses a wrong count, a repeated pin, a bad rail or current (400) and bad shapes (422)', async function () {
      const cfg = powerConfig().config;
      shouldFail(await post('power-management', { config: cfg.slice(0, 5) }), 400, 'Invalid config length: 5 (allowed: 6, one entry per pin)');
      shouldFail(
        await post('power-management', { config: [...cfg.slice(0, 5), { pin: 1, rail: '12_volt', current: 1 }] }),
        400,
        'Invalid config[5].pin: 1 (allowed: each pin once)',
      );
      const badRail = powerConfig().config;
      badRail[2].rail = '3_volt';
      shouldFail(await post('power-management', { config: badRail }), 400, 'Invalid config[2].rail: "3_volt" (allowed: 5_volt, 12_volt)');
      shouldFail(await post('power-management', powerConfig('5_volt', 301)), 400, 'Invalid config[0].current: 301 (allowed: 0..300 mA)');
      const extra = powerConfig().config.map((e) => ({ ...e, volts: 5 }));
      shouldFail(await post('power-management', { config: extra }), 422);
      await checkPostViolations(f.api, IO, 'power-management', powerConfig(), { config: 'all' });
    });
  });

  describe('POST output/state', function () {
    it('refused without power config, accepted after one; pin switches to output', async function () {
      shouldFail(await post('output/state', { pin: 1, state: 'high' }), 400, 'Power config missing');
      shouldSucceed(await post('power-management', powerConfig()));
      shouldSucceed(await post('input/mode', { pin: 1, mode: 'digital' }));
      shouldSucceed(await post('input/digital/counter', { pin: 1, state: 'enabled' }));
      shouldSucceed(await post('output/state', { pin: 1, state: 'high' }));
      (await values())[0].should.eql({ pin: 1, pin_type: 'voltage_mV', value: 12000 });
      shouldSucceed(await post('output/state', { pin: 1, state: 'low' }));
      (await values())[0].value.should.equal(0);
      const pin = (await f.api.get('/sim/state')).body.modules.find((m: { slot: number }) => m.slot === 2).pins[0];
      pin.mode.should.equal('output');
      pin.counter.should.be.false();
    });
    it('an output load above the pin budget sets high_current_alert', async function () {
      shouldSucceed(await post('power-management', powerConfig('5_volt', 100)));
      shouldSucceed(await pinSet(2, { load_mA: 250 }));
      shouldSucceed(await post('output/state', { pin: 2, state: 'high' }));
      // The module's protection switches the pin off: it reads as an analog input again.
      (await values())[1].should.eql({ pin: 2, pin_type: 'voltage_mV', value: 0 });
      (await alertsOf(2)).high_current_alert.should.be.true();
    });
    it('limits messages and bad bodies', async function () {
      shouldSucceed(await post('power-management', powerConfig()));
      shouldFail(await post('output/state', { pin: 1, state: 'on' }), 400, 'Invalid state: "on" (allowed: high, low)');
      await checkPostViolations(f.api, IO, 'output/state', { pin: 1, state: 'low' }, { state: false });
    });
  });

  describe('POST output/pwm', function () {
    const pwm = { pin: 3, prescaler: 47, time_on: 60, period: 100 };
    it('refused without power config; after one the pin is PWM at duty x rail', async function () {
      shouldFail(await post('output/pwm', pwm), 400, 'Power config missing');
      shouldSucceed(await post('power-management', powerConfig()));
      shouldSucceed(await pinSet(3, { load_mA: 200 }));
      shouldSucceed(await post('output/pwm', pwm));
      (await values())[2].should.eql({ pin: 3, pin_type: 'voltage_mV', value: 7200 });
      (await f.api.get(`${IO}/input/values/current`)).body.pins[2].value.should.equal(120);
    });
    it("the spec's bounds (16-bit timer, time_on < period), wider than API 1.0's; bad bodies", async function () {
      shouldSucceed(await post('power-management', powerConfig()));
      // The spec asks no more than this: 1.0 refuses all three (time_on ≤ period − 2, prescaler ≥ 1, ≤ 1 MHz).
      shouldSucceed(await post('output/pwm', { ...pwm, time_on: 99 }));
      shouldSucceed(await post('output/pwm', { ...pwm, prescaler: 0, time_on: 0 }));
      shouldSucceed(await post('output/pwm', { ...pwm, prescaler: 1, period: 4, time_on: 1 }));
      shouldFail(await post('output/pwm', { ...pwm, time_on: 100 }), 400, 'Invalid time_on: 100 (allowed: 0..99 ticks, below period)');
      shouldFail(await post('output/pwm', { ...pwm, period: 0, time_on: 0 }), 400, 'Invalid period: 0 (allowed: 1..65535 ticks)');
      shouldFail(await post('output/pwm', { ...pwm, period: 65536 }), 400, 'Invalid period: 65536 (allowed: 1..65535 ticks)');
      shouldFail(await post('output/pwm', { ...pwm, prescaler: 70000 }), 422);
      await checkPostViolations(f.api, IO, 'output/pwm', pwm, { period: '100' });
    });
  });

  describe('GET notification', function () {
    it('six records; short, under- and over-voltage set their flags; reading clears them', async function () {
      shouldSucceed(await f.api.post('/sim/io/2/pins/3/short'));
      shouldSucceed(await f.api.post('/sim/io/2/pins/1/alert', { alert: 'under_voltage_alert' }));
      shouldSucceed(await f.api.post('/sim/io/2/pins/6/alert', { alert: 'high_voltage_alert' }));
      const res = await f.api.get(`${IO}/notification`);
      res.status.should.equal(200);
      res.body.should.have.only.keys('notification');
      const n = res.body.notification;
      n.should.have.length(6);
      n.map((r: { pin: number }) => r.pin).should.eql(PINS);
      Object.keys(n[0]).should.eql(['pin', 'under_voltage_alert', 'high_voltage_alert', 'high_current_alert', 'custom_voltage_alert']);
      n[0].under_voltage_alert.should.be.true();
      n[2].high_current_alert.should.be.true();
      n[5].high_voltage_alert.should.be.true();
      n[1].should.eql({ pin: 2, under_voltage_alert: false, high_voltage_alert: false, high_current_alert: false, custom_voltage_alert: false });
      const again = await notifications();
      again.every((r) => !r.under_voltage_alert && !r.high_voltage_alert && !r.high_current_alert && !r.custom_voltage_alert).should.be.true();
    });
    it('a power-management suspends the module: flags raised before it are dropped, the pins stay', async function () {
      shouldSucceed(await post('power-management', powerConfig()));
      shouldSucceed(await post('output/state', { pin: 1, state: 'high' }));
      shouldSucceed(await f.api.post('/sim/io/2/pins/3/alert', { alert: 'custom_voltage_alert' }));
      shouldSucceed(await post('power-management', powerConfig()));
      (await alertsOf(3)).custom_voltage_alert.should.be.false();
      (await values())[0].value.should.equal(12000, 'the spec shows no re-enumeration: pin 1 still driven');
    });
    it('a short or a voltage alert disables the pin (analog input, nothing driven, functions gone); the custom voltage alert does not', async function () {
      shouldSucceed(await post('power-management', powerConfig()));
      shouldSucceed(await post('output/state', { pin: 5, state: 'high' }));
      shouldSucceed(await post('output/pwm', { pin: 6, prescaler: 47, time_on: 60, period: 100 }));
      shouldSucceed(await post('input/analog/threshold', { pin: 1, threshold_mV: 1000, trigger: 'rising' }));
      shouldSucceed(await post('input/mode', { pin: 2, mode: 'digital' }));
      shouldSucceed(await post('input/digital/counter', { pin: 2, state: 'enabled' }));
      shouldSucceed(await post('output/state', { pin: 4, state: 'high' }));
      shouldSucceed(await f.api.post('/sim/io/2/pins/5/short'));
      shouldSucceed(await f.api.post('/sim/io/2/pins/6/alert', { alert: 'high_current_alert' }));
      shouldSucceed(await f.api.post('/sim/io/2/pins/1/alert', { alert: 'high_voltage_alert' }));
      shouldSucceed(await f.api.post('/sim/io/2/pins/2/alert', { alert: 'under_voltage_alert' }));
      shouldSucceed(await f.api.post('/sim/io/2/pins/4/alert', { alert: 'custom_voltage_alert' }));
      const pins = await values();
      pins.map((p) => p.pin_type).should.eql(Array(6).fill('voltage_mV'));
      pins[4].value.should.equal(0, 'pin 5 not driven');
      pins[5].value.should.equal(0, 'pin 6 no PWM');
      pins[3].value.should.equal(12000, 'pin 4 still driven');
      const state = (await f.api.get('/sim/state')).body.modules.find((m: { slot: number; service: string }) => m.slot === 2 && m.service === 'io');
      for (const pin of [1, 2, 5, 6])
        state.pins[pin - 1].should.containEql({ mode: 'analog', threshold: null, interrupt: null, counter: false, pwm: null, output: 'low' });
      const n = await notifications();
      [n[4].high_current_alert, n[5].high_current_alert, n[0].high_voltage_alert, n[1].under_voltage_alert, n[3].custom_voltage_alert].should.eql([
        true,
        true,
        true,
        true,
        true,
      ]);
    });
    it('404 for an unknown slot; version 400', async function () {
      shouldFail(await f.api.get('/api/io/0.9/1/notification'), 404, 'Slot not found');
      shouldFail(await f.api.get('/api/io/0.8/2/notification'), 400, 'Version not compatible');
    });
  });

  describe('GET reset', function () {
    it('returns every pin to analog input and clears notifications and power config', async function () {
      shouldSucceed(await post('power-management', powerConfig()));
      shouldSucceed(await post('output/state', { pin: 1, state: 'high' }));
      shouldSucceed(await post('input/mode', { pin: 2, mode: 'digital' }));
      shouldSucceed(await pinSet(4, { voltage_mV: 900 }));
      shouldSucceed(await f.api.post('/sim/io/2/pins/5/short'));
      shouldSucceed(await f.api.get(`${IO}/reset`));
      const pins = await values();
      pins.map((p) => p.pin_type).should.eql(Array(6).fill('voltage_mV'));
      pins[0].value.should.equal(0);
      pins[3].value.should.equal(900); // the outside world stays
      (await alertsOf(5)).high_current_alert.should.be.false();
      shouldFail(await post('output/state', { pin: 1, state: 'high' }), 400, 'Power config missing');
    });
    it('only resets its own slot; 404 for an unknown slot', async function () {
      shouldSucceed(await f.api.post('/api/io/0.9/3/input/mode', { pin: 1, mode: 'digital' }));
      shouldSucceed(await f.api.get(`${IO}/reset`));
      (await f.api.get('/api/io/0.9/3/input/values')).body.pins[0].pin_type.should.equal('digital_input');
      shouldFail(await f.api.get('/api/io/0.9/12/reset'), 404, 'Slot not found');
      shouldFail(await f.api.post(`${IO}/reset`, {}), 404, 'Not Found'); // 0.9 reset is a GET
    });
  });
});
