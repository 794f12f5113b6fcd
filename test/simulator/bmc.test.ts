import { checkPostViolations, shouldFail, shouldSucceed, sleep, useSimulator } from './setup';

const BMC = '/api/bmc/0.9/0';

describe('simulator bmc service (API 0.9)', function () {
  const f = useSimulator();
  const post = (tail: string, body: unknown) => f.api.post(`${BMC}/${tail}`, body);
  const watchdog = async () => (await f.api.get(`${BMC}/watchdog`)).body;
  const state = async () => (await f.api.get('/sim/state')).body;
  const advance = async (ms: number) => (await f.api.post('/sim/advance', { ms })).status.should.equal(200);

  describe('GET voltage and temperature', function () {
    it('voltages are integers near 1.8 V and the RTC voltage; temperatures drift around the set value', async function () {
      const v = (await f.api.get(`${BMC}/voltage`)).body;
      v.should.have.only.keys('voltage_1v8', 'voltage_rtc');
      Number.isInteger(v.voltage_1v8).should.be.true();
      v.voltage_1v8.should.be.within(1790, 1810);
      v.voltage_rtc.should.be.within(2990, 3030);
      shouldSucceed(await f.api.post('/sim/bmc/0', { ntc_0: 70.5, voltage_1v8: 1700 }));
      const t = (await f.api.get(`${BMC}/temperature`)).body;
      t.should.have.only.keys('ntc_0', 'ntc_1');
      t.ntc_0.should.be.within(70, 71);
      t.ntc_1.should.be.within(30.5, 32);
      (await f.api.get(`${BMC}/voltage`)).body.voltage_1v8.should.be.within(1690, 1710);
    });
    it('404 for a slot without a bmc, 400 for a wrong version', async function () {
      shouldFail(await f.api.get('/api/bmc/0.9/2/voltage'), 404, 'Slot not found');
      shouldFail(await f.api.get('/api/bmc/2.0/0/temperature'), 400, 'Version not compatible');
    });
  });

  describe('watchdog', function () {
    it('is disabled by default', async function () {
      (await watchdog()).should.eql({ timeout: 0, timeout_left: 0, shutdown_timeout: 30000, emergency_mode: false });
    });
    it('counts down in real time; alive restarts the count', async function () {
      shouldSucceed(await post('watchdog', { timeout: 5000 }));
      const first = await watchdog();
      first.timeout.should.equal(5000);
      first.timeout_left.should.be.within(4000, 5000);
      await sleep(300);
      const later = await watchdog();
      later.timeout_left.should.be.below(first.timeout_left - 200);
      shouldSucceed(await f.api.get(`${BMC}/watchdog/alive`));
      (await watchdog()).timeout_left.should.be.above(later.timeout_left + 200);
      shouldSucceed(await post('watchdog', { timeout: 0 }));
      (await watchdog()).should.containEql({ timeout: 0, timeout_left: 0 });
    });
    it('expiry hard-resets the device; the timeout is disabled again unless saved', async function () {
      shouldSucceed(await f.api.post('/api/io/0.9/2/input/mode', { pin: 1, mode: 'digital' }));
      shouldSucceed(await post('watchdog', { timeout: 1000 }));
      await sleep(1300);
      (await watchdog()).timeout.should.equal(0);
      const s = await state();
      s.resets.should.equal(1);
      s.lastReset.cause.should.equal('watchdog expired');
      (await f.api.get('/api/io/0.9/2/input/values')).body.pins[0].pin_type.should.equal('voltage_mV');
    });
    it('a saved timeout survives the reset and the watchdog runs again', async function () {
      shouldSucceed(await post('watchdog', { timeout: 1000 }));
      shouldSucceed(await f.api.get(`${BMC}/watchdog/save`));
      await sleep(1300);
      const w = await watchdog();
      w.timeout.should.equal(1000);
      w.timeout_left.should.be.within(1, 1000);
      (await state()).resets.should.be.aboveOrEqual(1);
      shouldSucceed(await post('watchdog', { timeout: 0 }));
      shouldSucceed(await f.api.get(`${BMC}/watchdog/save`));
    });
    it('alive while disabled is a 500 driver error', async function () {
      shouldFail(await f.api.get(`${BMC}/watchdog/alive`), 500, 'Internal driver communication failed: watchdog timeout not enabled');
    });
    it('limits messages and bad bodies', async function () {
      shouldFail(await post('watchdog', { timeout: 999 }), 400, 'Invalid timeout: 999 (allowed: 0 or 1000..600000 ms)');
      shouldFail(await post('watchdog', { timeout: 600001 }), 400, 'Invalid timeout: 600001 (allowed: 0 or 1000..600000 ms)');
      await checkPostViolations(f.api, BMC, 'watchdog', { timeout: 0 }, { timeout: '1000' });
    });
  });

  describe('watchdog/sw_shutdown_timeout and watchdog/shutdown', function () {
    it('the shutdown timeout is stored persistently (survives a hard reset)', async function () {
      shouldSucceed(await post('watchdog/sw_shutdown_timeout', { timeout: 12000 }));
      (await watchdog()).shutdown_timeout.should.equal(12000);
      shouldSucceed(await post('hard_reset', { reset: 'yes' }));
      (await watchdog()).shutdown_timeout.should.equal(12000);
    });
    it('shutdown start resets the device after shutdown_timeout', async function () {
      shouldSucceed(await post('watchdog/sw_shutdown_timeout', { timeout: 10000 }));
      shouldSucceed(await post('watchdog/shutdown', { shutdown: 'start' }));
      const running = (await state()).modules[0].shutdown;
      running.leftMs.should.be.within(9000, 10000);
      (await state()).resets.should.equal(0);
      await advance(10000);
      const s = await state();
      s.resets.should.equal(1);
      s.lastReset.cause.should.equal('shutdown');
      (s.modules[0].shutdown.at === null).should.be.true();
    });
    it('limits messages and bad bodies', async function () {
      shouldFail(await post('watchdog/sw_shutdown_timeout', { timeout: 9999 }), 400, 'Invalid timeout: 9999 (allowed: 10000..600000 ms)');
      await checkPostViolations(f.api, BMC, 'watchdog/sw_shutdown_timeout', { timeout: 10000 }, { timeout: -1 });
      shouldFail(await post('watchdog/shutdown', { shutdown: 'stop' }), 400, 'Invalid shutdown: "stop" (allowed: start)');
      await checkPostViolations(f.api, BMC, 'watchdog/shutdown', { shutdown: 'start' }, { shutdown: 1 });
    });
  });

  describe('usbhub', function () {
    it('shows the applied state; port 8 is not available', async function () {
      (await f.api.get(`${BMC}/usbhub`)).body.should.eql({
        hub_state: 'enabled',
        port_slot_2: 'enabled',
        port_slot_3: 'enabled',
        port_slot_4: 'enabled',
        port_slot_5: 'enabled',
        port_slot_6: 'enabled',
        port_slot_7: 'enabled',
        port_slot_8: 'not available',
      });
    });
    it('settings are stored and only applied by usbhub/reset', async function () {
      shouldSucceed(await post('usbhub', { state: false }));
      shouldSucceed(await post('usbhub/port/3', { state: false }));
      shouldSucceed(await post('usbhub/port/8', { state: true }));
      let hub = (await f.api.get(`${BMC}/usbhub`)).body;
      hub.hub_state.should.equal('enabled');
      hub.port_slot_3.should.equal('enabled');
      (await state()).modules[0].usbhub.pending.should.eql({ hub: false, ports: { 3: false, 8: true } });
      shouldSucceed(await post('usbhub/reset', { reset: 'yes' }));
      hub = (await f.api.get(`${BMC}/usbhub`)).body;
      hub.hub_state.should.equal('disabled');
      hub.port_slot_3.should.equal('disabled');
      hub.port_slot_4.should.equal('enabled');
      hub.port_slot_8.should.equal('not available');
      shouldSucceed(await post('usbhub', { state: true }));
      shouldSucceed(await post('usbhub/reset', { reset: 'yes' }));
      (await f.api.get(`${BMC}/usbhub`)).body.hub_state.should.equal('enabled');
    });
    it('limits messages and bad bodies', async function () {
      await checkPostViolations(f.api, BMC, 'usbhub', { state: true }, { state: 'true' });
      shouldFail(await post('usbhub/port/9', { state: true }), 400, 'Invalid port: 9 (allowed: 2..8)');
      shouldFail(await post('usbhub/port/1', { state: true }), 400, 'Invalid port: 1 (allowed: 2..8)');
      shouldFail(await post('usbhub/port/abc', { state: true }), 404, 'Not Found');
      shouldFail(await post('usbhub/port/256', { state: true }), 404, 'Not Found');
      await checkPostViolations(f.api, BMC, 'usbhub/port/2', { state: true }, { state: 0 });
      shouldFail(await post('usbhub/reset', { reset: 'no' }), 400, 'Invalid reset: "no" (allowed: yes)');
      await checkPostViolations(f.api, BMC, 'usbhub/reset', { reset: 'yes' }, { reset: true });
    });
  });

  describe('usb_bootloader', function () {
    const bootloaderState = async () => (await f.api.get(`${BMC}/descriptor`)).body.bootloader_state;
    it('enabled: active after the next reset; without a host the device resets to normal after 90 s', async function () {
      shouldSucceed(await post('usb_bootloader', { enabled: true, timeout: 0 }));
      (await bootloaderState()).should.equal('supported');
      shouldSucceed(await post('hard_reset', { reset: 'yes' }));
      (await bootloaderState()).should.equal('in bootloader mode');
      await advance(89000);
      (await bootloaderState()).should.equal('in bootloader mode');
      await advance(1000);
      (await bootloaderState()).should.equal('supported');
      const s = await state();
      s.resets.should.equal(2);
      s.lastReset.cause.should.equal('bootloader window expired');
    });
    it('a timeout shortens the window (real time); enabled false returns to normal', async function () {
      shouldSucceed(await post('usb_bootloader', { enabled: true, timeout: 300 }));
      shouldSucceed(await post('hard_reset', { reset: 'yes' }));
      (await bootloaderState()).should.equal('in bootloader mode');
      await sleep(500);
      (await bootloaderState()).should.equal('supported');
      shouldSucceed(await post('usb_bootloader', { enabled: true, timeout: 0 }));
      shouldSucceed(await post('hard_reset', { reset: 'yes' }));
      shouldSucceed(await post('usb_bootloader', { enabled: false, timeout: 0 }));
      (await bootloaderState()).should.equal('supported');
    });
    it('limits messages and bad bodies', async function () {
      shouldFail(await post('usb_bootloader', { enabled: true, timeout: 3600001 }), 400, 'Invalid timeout: 3600001 (allowed: 0..3600000 ms)');
      await checkPostViolations(f.api, BMC, 'usb_bootloader', { enabled: true, timeout: 1000 }, { enabled: 'yes' });
    });
  });

  describe('hard_reset', function () {
    it('resets every module to defaults; persistent settings stay', async function () {
      shouldSucceed(await post('watchdog/sw_shutdown_timeout', { timeout: 20000 }));
      shouldSucceed(await f.api.post('/api/io/0.9/3/input/mode', { pin: 2, mode: 'digital' }));
      shouldSucceed(await f.api.post('/api/power/0.9/1/limits', { limit_3v3: 2000, limit_5v0: 2000, limit_12v: 200 }));
      shouldSucceed(await post('hard_reset', { reset: 'yes' }));
      const s = await state();
      s.resets.should.equal(1);
      s.lastReset.cause.should.equal('hard_reset');
      (await f.api.get('/api/io/0.9/3/input/values')).body.pins[1].pin_type.should.equal('voltage_mV');
      (await f.api.get('/api/power/0.9/1/stats')).body.limit_3v3.should.equal(5950);
      (await watchdog()).shutdown_timeout.should.equal(20000);
    });
    it('limits messages and bad bodies', async function () {
      shouldFail(await post('hard_reset', { reset: 'YES' }), 400, 'Invalid reset: "YES" (allowed: yes)');
      await checkPostViolations(f.api, BMC, 'hard_reset', { reset: 'yes' }, { reset: 1 });
      (await state()).resets.should.equal(0);
    });
  });

  describe('buzzer', function () {
    it('modes 0/1 switch internal sounds, 2..5 play a sound', async function () {
      shouldSucceed(await post('buzzer', { mode: 0, duration: 1 }));
      shouldSucceed(await post('buzzer', { mode: 3, duration: 250 }));
      const b = (await state()).modules[0].buzzer;
      b.soundsEnabled.should.be.false();
      b.lastSound.should.containEql({ mode: 3, durationMs: 250 });
    });
    it('both fields required for every mode; limits messages', async function () {
      shouldFail(await post('buzzer', { mode: 6, duration: 100 }), 400, 'Invalid mode: 6 (allowed: 0..5)');
      shouldFail(await post('buzzer', { mode: 1, duration: 0 }), 400, 'Invalid duration: 0 (allowed: 1..1000 ms)');
      shouldFail(await post('buzzer', { mode: 0 }), 422, 'Unprocessable Entity');
      await checkPostViolations(f.api, BMC, 'buzzer', { mode: 2, duration: 100 }, { mode: 'two' });
    });
  });

  describe('descriptor and version record', function () {
    it('the version record lists only bmc slots', async function () {
      const res = await f.api.get('/api/bmc/0.9');
      res.body.version.api.should.eql({ major: 0, minor: 9, patch: 0 });
      res.body.devices.should.eql([{ slot_number: 0, sdbp_version: { major: 1, minor: 0, patch: 0 } }]);
    });
  });
});
