/**
 * The simulator speaking API 1.0 (`startSimulator({api: '1.0'})`, `--api 1.0`) against
 * the released services' behaviour (API 1.0): every released route of §3 with a happy path and its
 * refusals with the exact status and message, the version record with its sessions (§4),
 * the notification cache (§5), and the version segment (0.9 on a 1.0 device and back).
 */
import 'should';
import { shouldFail, shouldSucceed, useSimulator } from './setup';
import type { HttpClient } from '../helpers/http';

const IO = '/api/io/1.0/2';
const BMC = '/api/bmc/1.0/0';
const POWER = '/api/power/1.0/1';
const PVF = 'Parameter validation failed';
const SESSION = /^[A-Z0-9]{64}$/;
const NO_ALERTS = { under_voltage_alert: false, high_voltage_alert: false, high_current_alert: false, custom_voltage_alert: false };
const ZERO_MW = { rail_3v3_milliwatt: 0, rail_5v0_milliwatt: 0, rail_12v_milliwatt: 0 };

/** Six power-management entries of the released form (no pin: the position is the pin). */
const six = (rail = '5_volt', current = 100) => ({ config: [1, 2, 3, 4, 5, 6].map(() => ({ rail, current_milliampere: current })) });

async function versionRecord(api: HttpClient, service: string): Promise<any> {
  const res = await api.get(`/api/${service}/1.0`);
  res.status.should.equal(200, res.text);
  return res.body;
}

describe('simulator API 1.0 (the released services)', function () {
  const f = useSimulator({ api: '1.0' });
  const post = (path: string, body: unknown) => f.api.post(path, body);
  const alert = (pin: number, name: string) => f.api.post(`/sim/io/2/pins/${pin}/alert`, { alert: name });
  const notification = async (pin: number, slot = 2) => {
    const res = await f.api.get(`/api/io/1.0/${slot}/notification/${pin}`);
    res.status.should.equal(200, res.text);
    return res.body;
  };

  describe('version record and sessions (§4)', function () {
    it('every service: api and service 1.0.0, driver_session beside version, device_session per device', async function () {
      for (const [service, slots] of [
        ['io', [2, 3]],
        ['bmc', [0]],
        ['power', [1]],
      ] as Array<[string, number[]]>) {
        const record = await versionRecord(f.api, service);
        record.should.have.only.keys('driver_session', 'version', 'devices');
        record.driver_session.should.match(SESSION);
        record.version.should.have.only.keys('api', 'service', 'module_driver', 'kernel_driver');
        record.version.api.should.eql({ major: 1, minor: 0, patch: 0 });
        record.version.service.should.eql({ major: 1, minor: 0, patch: 0 });
        record.devices.map((d: { slot_number: number }) => d.slot_number).should.eql(slots);
        for (const d of record.devices) {
          d.should.have.only.keys('slot_number', 'sdbp_version', 'device_session');
          d.device_session.should.match(SESSION);
        }
      }
      // Three REST services, each started on its own: a driver_session each.
      const sessions = new Set<string>();
      for (const service of ['io', 'bmc', 'power']) sessions.add((await versionRecord(f.api, service)).driver_session);
      sessions.size.should.equal(3);
    });

    it('driver_session stays while a service runs and changes on POST /sim/restart (every service restarts)', async function () {
      const before: Record<string, string> = {};
      for (const service of ['io', 'bmc', 'power']) before[service] = (await versionRecord(f.api, service)).driver_session;
      for (const service of ['io', 'bmc', 'power']) (await versionRecord(f.api, service)).driver_session.should.equal(before[service]);
      shouldSucceed(await f.api.post('/sim/restart'));
      for (const service of ['io', 'bmc', 'power']) {
        const after = (await versionRecord(f.api, service)).driver_session;
        after.should.match(SESSION);
        after.should.not.equal(before[service]);
      }
    });

    it('device_session of an io module changes after a power-management (re-enumeration), others stay', async function () {
      const before = (await versionRecord(f.api, 'io')).devices;
      const res = await post(`${IO}/power-management`, six());
      res.status.should.equal(200, res.text);
      const after = (await versionRecord(f.api, 'io')).devices;
      after[0].device_session.should.not.equal(before[0].device_session);
      after[1].device_session.should.equal(before[1].device_session, 'slot 3 was not touched');
    });

    it('an accepted power-management re-enumerates the io module: pins anew (as a reset), the configuration and the notification cache kept', async function () {
      (await post(`${IO}/power-management`, six())).status.should.equal(200);
      shouldSucceed(await post(`${IO}/input/mode`, { pin: 4, mode: 'digital' }));
      shouldSucceed(await post(`${IO}/output/state`, { pin: 1, state: 'high' }));
      await alert(2, 'custom_voltage_alert');
      await notification(3); // the pending flags go into the service's cache
      (await post(`${IO}/power-management`, six())).body.status.should.equal('success');
      const pins = (await f.api.get(`${IO}/input/values`)).body.pins;
      pins[3].pin_type.should.equal('voltage_millivolt');
      pins[0].value.should.equal(0, 'pin 1 no longer driven high');
      shouldSucceed(await post(`${IO}/output/state`, { pin: 1, state: 'high' })); // the configuration is still there
      (await notification(2)).custom_voltage_alert.should.be.true();
    });

    it('a power-management suspends the module: the pending notification is dropped, the cached flags stay; a denied one suspends too', async function () {
      await alert(2, 'custom_voltage_alert');
      await notification(3); // pin 2's flag into the service's cache
      await alert(3, 'custom_voltage_alert'); // pending: held by the driver, not yet pulled
      (await post(`${IO}/power-management`, six())).body.status.should.equal('success');
      (await notification(3)).should.eql(NO_ALERTS, 'the pending notification went with the suspend');
      (await notification(2)).custom_voltage_alert.should.be.true('the cache stays');
      await alert(4, 'custom_voltage_alert');
      (await post(`${IO}/power-management`, six('5_volt', 300))).body.status.should.equal('denied');
      (await notification(4)).should.eql(NO_ALERTS, 'the driver suspended before the budget was asked');
    });

    it('a protection event (not the custom voltage alert) disables the pin: no output, no PWM, analog input, no threshold, interrupt or counter', async function () {
      (await post(`${IO}/power-management`, six('12_volt', 100))).body.status.should.equal('success');
      shouldSucceed(await post(`${IO}/output/state`, { pin: 5, state: 'high' }));
      shouldSucceed(await post(`${IO}/output/pwm`, { pin: 6, prescaler: 47, time_on: 60, period: 100 }));
      shouldSucceed(await post(`${IO}/input/analog/threshold`, { pin: 1, threshold_millivolt: 1000, trigger: 'rising' }));
      shouldSucceed(await post(`${IO}/input/mode`, { pin: 2, mode: 'digital' }));
      shouldSucceed(await post(`${IO}/input/digital/interrupt`, { pin: 2, debounce_time_milliseconds: 0, trigger: 'pulse' }));
      shouldSucceed(await post(`${IO}/input/digital/counter`, { pin: 2, state: 'enabled' }));
      shouldSucceed(await post(`${IO}/input/analog/threshold`, { pin: 3, threshold_millivolt: 1000, trigger: 'rising' }));
      shouldSucceed(await post('/sim/io/2/pins/5/short', {}));
      await alert(6, 'under_voltage_alert');
      await alert(1, 'high_voltage_alert');
      await alert(2, 'high_current_alert');
      await alert(3, 'custom_voltage_alert'); // changes nothing
      const pins = (await f.api.get(`${IO}/input/values`)).body.pins;
      pins.map((p: { pin_type: string }) => p.pin_type).should.eql(Array(6).fill('voltage_millivolt'));
      pins[4].value.should.equal(0, 'pin 5 no longer driven');
      pins[5].value.should.equal(0, 'pin 6 no PWM');
      const state = (await f.api.get('/sim/state')).body.modules.find((m: { slot: number; service: string }) => m.slot === 2 && m.service === 'io');
      for (const pin of [1, 2, 5, 6]) state.pins[pin - 1].should.containEql({ mode: 'analog', threshold: null, interrupt: null, counter: false, pwm: null });
      state.pins[2].threshold.should.eql({ mv: 1000, trigger: 'rising' });
      (await notification(5)).high_current_alert.should.be.true();
      (await notification(6)).under_voltage_alert.should.be.true();
      (await notification(1)).high_voltage_alert.should.be.true();
      (await notification(2)).high_current_alert.should.be.true();
      (await notification(3)).should.eql({ ...NO_ALERTS, custom_voltage_alert: true });
    });

    it('a re-plug (POST /sim/modules/<slot>/replug): a new device_session, the module at its defaults; 404 for an empty slot', async function () {
      const before = (await versionRecord(f.api, 'io')).devices;
      (await post(`${IO}/power-management`, six())).status.should.equal(200);
      const renewed = (await versionRecord(f.api, 'io')).devices[0].device_session;
      shouldSucceed(await post('/sim/modules/2/replug', {}));
      const after = (await versionRecord(f.api, 'io')).devices;
      after[0].device_session.should.not.equal(renewed);
      after[1].device_session.should.equal(before[1].device_session, 'slot 3 was not touched');
      shouldFail(await post(`${IO}/output/state`, { pin: 1, state: 'high' }), 400, 'Power config missing');
      shouldFail(await post('/sim/modules/9/replug', {}), 404);
    });

    it('the version root: HEAD is answered, POST is 404', async function () {
      (await f.api.request('HEAD', '/api/io/1.0')).status.should.equal(200);
      shouldFail(await f.api.post('/api/io/1.0', {}), 404, 'Not Found');
    });
  });

  describe('the version segment', function () {
    it('0.9 paths answer 400 "Version not compatible" on a 1.0 device', async function () {
      shouldFail(await f.api.get('/api/io/0.9'), 400, 'Version not compatible');
      shouldFail(await f.api.get('/api/io/0.9/2/input/values'), 400, 'Version not compatible');
      shouldFail(await f.api.get('/api/bmc/0.9/0/voltage'), 400, 'Version not compatible');
      shouldFail(await f.api.get('/api/power/0.9/1/stats'), 400, 'Version not compatible');
      shouldFail(await f.api.get('/api/io/1.1'), 400, 'Version not compatible');
      // Only routes of 1.0 exist: the 0.9-only paths are unknown whatever the version.
      shouldFail(await f.api.get('/api/io/0.9/2/notification'), 404, 'Not Found');
    });

    it('a version that does not parse is 404; leading zeros parse', async function () {
      shouldFail(await f.api.get('/api/io/1.0.0'), 404, 'Not Found');
      shouldFail(await f.api.get('/api/io/v1.0'), 404, 'Not Found');
      (await f.api.get('/api/io/01.00')).status.should.equal(200);
    });
  });

  describe('common routes (§3.1)', function () {
    it('descriptor below the slot only; 404 for a slot without a module', async function () {
      for (const [path, slot] of [
        [IO, 2],
        [BMC, 0],
        [POWER, 1],
      ] as Array<[string, number]>) {
        const res = await f.api.get(`${path}/descriptor`);
        res.status.should.equal(200, res.text);
        res.body.slot_number.should.equal(slot);
        res.body.should.have.keys('vendor_product_id', 'product_name', 'fw_version', 'bootloader_state', 'max_power_3v3', 'max_sclk_speed');
      }
      shouldFail(await f.api.get('/api/io/1.0/descriptor'), 404, 'Not Found');
      shouldFail(await f.api.get('/api/io/1.0/7/descriptor'), 404, 'Could not find device on this slot');
    });

    for (const [service, base] of [
      ['io', IO],
      ['bmc', BMC],
      ['power', POWER],
    ]) {
      it(`${service}: POST reset {"reset":"yes"}; another value is PVF; GET reset is 404`, async function () {
        shouldSucceed(await post(`${base}/reset`, { reset: 'yes' }));
        shouldFail(await post(`${base}/reset`, { reset: 'no' }), 400, PVF);
        shouldFail(await post(`${base}/reset`, { reset: 'YES' }), 400, PVF);
        shouldFail(await post(`${base}/reset`, { reset: true }), 422, 'Unprocessable Entity');
        shouldFail(await post(`${base}/reset`, {}), 422, 'Unprocessable Entity');
        shouldFail(await f.api.get(`${base}/reset`), 404, 'Not Found');
        shouldFail(await post(`/api/${service}/1.0/9/reset`, { reset: 'yes' }), 404, 'Slot not found');
      });
    }

    it('io reset: the module returns to its initial state', async function () {
      (await post(`${IO}/power-management`, six())).status.should.equal(200);
      shouldSucceed(await post(`${IO}/input/mode`, { pin: 4, mode: 'digital' }));
      shouldSucceed(await post(`${IO}/reset`, { reset: 'yes' }));
      shouldFail(await post(`${IO}/output/state`, { pin: 1, state: 'high' }), 400, 'Power config missing');
      const pins = (await f.api.get(`${IO}/input/values`)).body.pins;
      pins[3].pin_type.should.equal('voltage_millivolt');
    });

    it('power and bmc reset: volatile settings back to defaults, a new device_session; persistent ones stay', async function () {
      const sessionOf = async (service: string) => (await versionRecord(f.api, service)).devices[0].device_session;
      shouldSucceed(await post(`${POWER}/limits`, { limit_3v3: 2000, limit_5v0: 2000, limit_12v: 200 }));
      shouldSucceed(await post(`${POWER}/fan`, { fan_forced: true, fan_mode: 100 }));
      shouldSucceed(await post(`${POWER}/fan/rpm`, { measurement_enabled: true }));
      const power = await sessionOf('power');
      shouldSucceed(await post(`${POWER}/reset`, { reset: 'yes' }));
      (await f.api.get(`${POWER}/stats`)).body.should.containEql({ limit_3v3: 5950, limit_5v0: 4950, limit_12v: 2400 });
      (await f.api.get(`${POWER}/fan`)).body.fan_forced.should.equal(false);
      (await f.api.get(`${POWER}/fan/rpm`)).body.enabled.should.equal(false);
      (await sessionOf('power')).should.not.equal(power);

      shouldSucceed(await post(`${BMC}/watchdog`, { timeout: 5000 }));
      shouldSucceed(await post(`${BMC}/watchdog/sw_shutdown_timeout`, { timeout: 20000 }));
      shouldSucceed(await post(`${BMC}/usb_bootloader`, { enabled: true, timeout: 0 }));
      shouldSucceed(await post(`${BMC}/reset`, { reset: 'yes' }));
      (await f.api.get(`${BMC}/watchdog`)).body.should.containEql({ timeout: 0, timeout_left: 0, shutdown_timeout: 20000 });
      // The bootloader stays armed for the next device reset: a module restart is not one.
      const bmc = (await f.api.get('/sim/state')).body.modules.find((m: { slot: number }) => m.slot === 0);
      bmc.bootloader.should.eql({ armed: true, activeUntil: null });
    });
  });

  describe('io (§3.2)', function () {
    it('input/values: voltage_millivolt, digital_input, frequency_hertz', async function () {
      shouldSucceed(await f.api.post('/sim/io/2/pins/1', { voltage_mV: 3300 }));
      shouldSucceed(await post(`${IO}/input/mode`, { pin: 2, mode: 'digital' }));
      shouldSucceed(await post(`${IO}/input/mode`, { pin: 3, mode: 'digital' }));
      shouldSucceed(await post(`${IO}/input/digital/counter`, { pin: 3, state: 'enabled' }));
      shouldSucceed(await f.api.post('/sim/io/2/pins/3', { frequency_hz: 440 }));
      const res = await f.api.get(`${IO}/input/values`);
      res.status.should.equal(200);
      res.body.pins.should.have.length(6);
      res.body.pins[0].should.eql({ pin: 1, pin_type: 'voltage_millivolt', value: 3300 });
      res.body.pins[1].should.eql({ pin: 2, pin_type: 'digital_input', value: 0 });
      res.body.pins[2].should.eql({ pin: 3, pin_type: 'frequency_hertz', value: 440 });
    });

    it('input/values/current: current_milliampere', async function () {
      const res = await f.api.get(`${IO}/input/values/current`);
      res.status.should.equal(200);
      res.body.pins.should.eql([1, 2, 3, 4, 5, 6].map((pin) => ({ pin, pin_type: 'current_milliampere', value: 0 })));
    });

    it('input/mode: analog/digital, pin 1..6, else PVF', async function () {
      shouldSucceed(await post(`${IO}/input/mode`, { pin: 6, mode: 'digital' }));
      shouldSucceed(await post(`${IO}/input/mode`, { pin: 6, mode: 'analog' }));
      shouldFail(await post(`${IO}/input/mode`, { pin: 7, mode: 'analog' }), 400, PVF);
      shouldFail(await post(`${IO}/input/mode`, { pin: 0, mode: 'analog' }), 400, PVF);
      shouldFail(await post(`${IO}/input/mode`, { pin: 1, mode: 'pwm' }), 400, PVF);
    });

    it('input/analog/threshold: threshold_millivolt; trigger first, then 50..25000 (also when disabled)', async function () {
      const path = `${IO}/input/analog/threshold`;
      shouldSucceed(await post(path, { pin: 1, threshold_millivolt: 50, trigger: 'rising' }));
      shouldSucceed(await post(path, { pin: 1, threshold_millivolt: 25000, trigger: 'falling' }));
      shouldSucceed(await post(path, { pin: 1, threshold_millivolt: 2000, trigger: 'disabled' }));
      shouldFail(await post(path, { pin: 1, threshold_millivolt: 49, trigger: 'rising' }), 400, 'Invalid threshold_mv value (50-25000)');
      shouldFail(await post(path, { pin: 1, threshold_millivolt: 25001, trigger: 'disabled' }), 400, 'Invalid threshold_mv value (50-25000)');
      shouldFail(await post(path, { pin: 1, threshold_millivolt: 0, trigger: 'sideways' }), 400, 'Invalid trigger');
      // The spec's field name is unknown to the released service.
      shouldFail(await post(path, { pin: 1, threshold_mV: 2000, trigger: 'rising' }), 422, 'Unprocessable Entity');
      // The service does not check the pin: the device does.
      shouldFail(await post(path, { pin: 7, threshold_millivolt: 2000, trigger: 'rising' }), 400, 'Invalid pin');
    });

    it('input/digital/interrupt: debounce_time_milliseconds 0..1000 with the released typo', async function () {
      const path = `${IO}/input/digital/interrupt`;
      shouldSucceed(await post(`${IO}/input/mode`, { pin: 2, mode: 'digital' }));
      shouldSucceed(await post(path, { pin: 2, debounce_time_milliseconds: 0, trigger: 'pulse' }));
      shouldSucceed(await post(path, { pin: 2, debounce_time_milliseconds: 1000, trigger: 'rising' }));
      shouldFail(await post(path, { pin: 2, debounce_time_milliseconds: 1001, trigger: 'rising' }), 400, 'Invalid debunce_time_ms value (0-1000)');
      shouldFail(await post(path, { pin: 2, debounce_time_milliseconds: 10, trigger: 'both' }), 400, 'Invalid trigger');
      shouldFail(await post(path, { pin: 2, debounce_time_ms: 10, trigger: 'rising' }), 422, 'Unprocessable Entity');
    });

    it('input/digital/counter: enabled/disabled, else "Invalid state"', async function () {
      const path = `${IO}/input/digital/counter`;
      shouldSucceed(await post(`${IO}/input/mode`, { pin: 2, mode: 'digital' }));
      shouldSucceed(await post(path, { pin: 2, state: 'enabled' }));
      shouldSucceed(await post(path, { pin: 2, state: 'disabled' }));
      shouldFail(await post(path, { pin: 2, state: 'on' }), 400, 'Invalid state');
    });

    it('output/state and output/pwm: PVF, "Power config missing", prescaler 65535 is 500', async function () {
      shouldFail(await post(`${IO}/output/state`, { pin: 1, state: 'high' }), 400, 'Power config missing');
      (await post(`${IO}/power-management`, six())).status.should.equal(200);
      shouldSucceed(await post(`${IO}/output/state`, { pin: 1, state: 'high' }));
      shouldFail(await post(`${IO}/output/state`, { pin: 1, state: 'on' }), 400, PVF);
      shouldFail(await post(`${IO}/output/state`, { pin: 7, state: 'low' }), 400, PVF);
      shouldSucceed(await post(`${IO}/output/pwm`, { pin: 2, prescaler: 47, time_on: 500, period: 1000 }));
      shouldFail(await post(`${IO}/output/pwm`, { pin: 2, prescaler: 47, time_on: 999, period: 1000 }), 400, PVF);
      shouldFail(await post(`${IO}/output/pwm`, { pin: 2, prescaler: 0, time_on: 500, period: 1000 }), 400, PVF);
      shouldFail(await post(`${IO}/output/pwm`, { pin: 2, prescaler: 65535, time_on: 500, period: 1000 }), 500, 'Internal Server Error');
    });

    describe('power-management', function () {
      const path = `${IO}/power-management`;

      it('six {rail, current_milliampere}: success with too_much_power all 0', async function () {
        const res = await post(path, six('12_volt', 300));
        res.status.should.equal(200, res.text);
        res.body.should.eql({ status: 'success', too_much_power: ZERO_MW });
      });

      it('an entry with a pin field is 422; not six entries or an unknown rail is PVF', async function () {
        shouldFail(
          await post(path, { config: [1, 2, 3, 4, 5, 6].map((pin) => ({ pin, rail: '5_volt', current_milliampere: 100 })) }),
          422,
          'Unprocessable Entity',
        );
        shouldFail(await post(path, { config: six().config.slice(1) }), 400, PVF);
        shouldFail(await post(path, { config: [...six().config, six().config[0]] }), 400, PVF);
        const bad = six();
        bad.config[3].rail = '3_volt';
        shouldFail(await post(path, bad), 400, PVF);
        // The spec's field name is unknown here.
        shouldFail(await post(path, { config: six().config.map((e) => ({ rail: e.rail, current: 100 })) }), 422, 'Unprocessable Entity');
      });

      it('per-pin caps (5_volt ≤300, 12_volt ≤500 mA): 400 "Invalid current limit for pin: <0-based>"', async function () {
        const first = six('5_volt', 100);
        first.config[0].current_milliampere = 301;
        shouldFail(await post(path, first), 400, 'Invalid current limit for pin: 0');
        const last = six('12_volt', 100);
        last.config[5].current_milliampere = 501;
        shouldFail(await post(path, last), 400, 'Invalid current limit for pin: 5');
        // Checked after the slot.
        shouldFail(await post('/api/io/1.0/9/power-management', first), 404, 'Slot not found');
      });

      it('over the budget: 200 denied with the mW over per rail, nothing applied', async function () {
        // 6 × (300 mA × 5 + 200) = 10200 mW on the 5 V rail; the simulator's budget is 6000.
        const res = await post(path, six('5_volt', 300));
        res.status.should.equal(200, res.text);
        res.body.should.eql({ status: 'denied', too_much_power: { rail_3v3_milliwatt: 0, rail_5v0_milliwatt: 4200, rail_12v_milliwatt: 0 } });
        shouldFail(await post(`${IO}/output/state`, { pin: 1, state: 'high' }), 400, 'Power config missing');
        // 12 V: 6 × 500 mA × 12 = 36000 mW, 12000 over the 24000 budget; its 5 V share, 6 × 400, is within.
        const twelve = await post(path, six('12_volt', 500));
        twelve.body.should.eql({ status: 'denied', too_much_power: { rail_3v3_milliwatt: 0, rail_5v0_milliwatt: 0, rail_12v_milliwatt: 12000 } });
      });
    });

    describe('notifications (§5)', function () {
      it('one flat record per pin, no pin field; pin outside 1..6 is 404 "Pin out of range" after the slot', async function () {
        (await notification(1)).should.eql(NO_ALERTS);
        shouldFail(await f.api.get(`${IO}/notification/0`), 404, 'Pin out of range');
        shouldFail(await f.api.get(`${IO}/notification/7`), 404, 'Pin out of range');
        shouldFail(await f.api.get('/api/io/1.0/9/notification/7'), 404, 'Slot not found');
        shouldFail(await f.api.get(`${IO}/notification/256`), 404, 'Not Found');
        shouldFail(await f.api.get(`${IO}/notification`), 404, 'Not Found');
      });

      it('reading a pin clears only that pin; the others keep their flags until read', async function () {
        shouldSucceed(await alert(1, 'under_voltage_alert'));
        shouldSucceed(await alert(2, 'high_current_alert'));
        shouldSucceed(await alert(2, 'custom_voltage_alert'));
        (await notification(1)).should.eql({ ...NO_ALERTS, under_voltage_alert: true });
        (await notification(1)).should.eql(NO_ALERTS, 'read once, cleared');
        // Pin 2's flags were pulled from the device with pin 1's read and stay cached.
        shouldSucceed(await alert(5, 'high_voltage_alert'));
        (await notification(2)).should.eql({ ...NO_ALERTS, high_current_alert: true, custom_voltage_alert: true });
        (await notification(2)).should.eql(NO_ALERTS);
        (await notification(5)).should.eql({ ...NO_ALERTS, high_voltage_alert: true });
        for (const pin of [1, 2, 3, 4, 5, 6]) (await notification(pin)).should.eql(NO_ALERTS);
      });

      it('bursts coalesce: only "triggered" is kept, no count', async function () {
        for (let i = 0; i < 3; i++) shouldSucceed(await alert(3, 'custom_voltage_alert'));
        (await notification(4)).should.eql(NO_ALERTS);
        shouldSucceed(await alert(3, 'custom_voltage_alert'));
        (await notification(3)).should.eql({ ...NO_ALERTS, custom_voltage_alert: true });
        (await notification(3)).should.eql(NO_ALERTS);
      });

      it('a module reset clears the cache of that slot', async function () {
        shouldSucceed(await alert(4, 'high_voltage_alert'));
        (await notification(1)).should.eql(NO_ALERTS); // pulls pin 4 into the cache
        shouldSucceed(await post(`${IO}/reset`, { reset: 'yes' }));
        (await notification(4)).should.eql(NO_ALERTS);
      });

      it('the cache is per slot', async function () {
        shouldSucceed(await alert(6, 'under_voltage_alert'));
        (await notification(6, 3)).should.eql(NO_ALERTS);
        (await notification(6, 2)).should.eql({ ...NO_ALERTS, under_voltage_alert: true });
      });
    });
  });

  describe('bmc (§3.3)', function () {
    it('GET voltage, temperature, watchdog', async function () {
      (await f.api.get(`${BMC}/voltage`)).body.should.have.only.keys('voltage_1v8', 'voltage_rtc');
      (await f.api.get(`${BMC}/temperature`)).body.should.have.only.keys('ntc_0', 'ntc_1');
      (await f.api.get(`${BMC}/watchdog`)).body.should.have.only.keys('timeout', 'timeout_left', 'shutdown_timeout', 'emergency_mode');
    });

    it('watchdog: 0 or 1000..600000, else 422 "timeout out of range"; alive, save', async function () {
      shouldFail(await f.api.get(`${BMC}/watchdog/alive`), 500, 'Internal driver communication failed: watchdog timeout not enabled');
      shouldSucceed(await post(`${BMC}/watchdog`, { timeout: 1000 }));
      shouldSucceed(await post(`${BMC}/watchdog`, { timeout: 600000 }));
      shouldSucceed(await f.api.get(`${BMC}/watchdog/alive`));
      shouldSucceed(await f.api.get(`${BMC}/watchdog/save`));
      shouldSucceed(await post(`${BMC}/watchdog`, { timeout: 0 }));
      shouldFail(await post(`${BMC}/watchdog`, { timeout: 999 }), 422, 'timeout out of range');
      shouldFail(await post(`${BMC}/watchdog`, { timeout: 600001 }), 422, 'timeout out of range');
      shouldFail(await post('/api/bmc/1.0/9/watchdog', { timeout: 999 }), 404, 'Slot not found');
    });

    it('watchdog/sw_shutdown_timeout: 10000..600000, else 422', async function () {
      shouldSucceed(await post(`${BMC}/watchdog/sw_shutdown_timeout`, { timeout: 10000 }));
      shouldFail(await post(`${BMC}/watchdog/sw_shutdown_timeout`, { timeout: 9999 }), 422, 'timeout out of range');
    });

    it("watchdog/shutdown: only 'start', else 400 \"value must be 'start'\"", async function () {
      shouldFail(await post(`${BMC}/watchdog/shutdown`, { shutdown: 'stop' }), 400, "value must be 'start'");
      shouldSucceed(await post(`${BMC}/watchdog/shutdown`, { shutdown: 'start' }));
    });

    it('usbhub: hub_state and port_slot_0..port_slot_7', async function () {
      const res = await f.api.get(`${BMC}/usbhub`);
      res.status.should.equal(200);
      res.body.should.have.only.keys('hub_state', ...[0, 1, 2, 3, 4, 5, 6, 7].map((n) => `port_slot_${n}`));
      for (const value of Object.values(res.body)) ['enabled', 'disabled', 'not available'].should.containEql(value);
      shouldSucceed(await post(`${BMC}/usbhub`, { state: false }));
    });

    it('usbhub/slot/<2..7>; other numbers 400 "Slot is out of range" (after the slot); usbhub/port is unknown', async function () {
      for (const n of [2, 3, 4, 5, 6, 7]) shouldSucceed(await post(`${BMC}/usbhub/slot/${n}`, { state: false }));
      for (const n of [0, 1, 8, 255]) shouldFail(await post(`${BMC}/usbhub/slot/${n}`, { state: true }), 400, 'Slot is out of range');
      shouldFail(await post(`${BMC}/usbhub/slot/256`, { state: true }), 404, 'Not Found');
      shouldFail(await post('/api/bmc/1.0/9/usbhub/slot/8', { state: true }), 404, 'Slot not found');
      shouldFail(await post(`${BMC}/usbhub/port/3`, { state: true }), 404, 'Not Found');
    });

    it("usbhub/reset and hard_reset: 'yes', else 422 \"value must be 'yes'\"", async function () {
      shouldSucceed(await post(`${BMC}/usbhub/slot/3`, { state: false }));
      shouldFail(await post(`${BMC}/usbhub/reset`, { reset: 'no' }), 422, "value must be 'yes'");
      shouldSucceed(await post(`${BMC}/usbhub/reset`, { reset: 'yes' }));
      (await f.api.get(`${BMC}/usbhub`)).body.port_slot_3.should.equal('disabled');
      shouldFail(await post(`${BMC}/hard_reset`, { reset: 'now' }), 422, "value must be 'yes'");
      shouldSucceed(await post(`${BMC}/hard_reset`, { reset: 'yes' }));
    });

    it('usbhub/devices: the USB devices of enabled ports, disabled ports left out', async function () {
      const all = (await f.api.get(`${BMC}/usbhub/devices`)).body.devices as Array<Record<string, unknown>>;
      all.length.should.be.above(0);
      for (const d of all) d.should.have.only.keys('slot', 'usb_port', 'manufacturer', 'product', 'serial_code', 'system_path');
      const slot = all[0].slot as number;
      shouldSucceed(await post(`${BMC}/usbhub/slot/${slot}`, { state: false }));
      shouldSucceed(await post(`${BMC}/usbhub/reset`, { reset: 'yes' }));
      const after = (await f.api.get(`${BMC}/usbhub/devices`)).body.devices as Array<Record<string, unknown>>;
      after.map((d) => d.slot).should.not.containEql(slot);
      after.should.have.length(all.length - 1);
    });

    it('usb_bootloader: timeout ≤3600000 (0 allowed), else 422', async function () {
      shouldSucceed(await post(`${BMC}/usb_bootloader`, { enabled: false, timeout: 0 }));
      shouldSucceed(await post(`${BMC}/usb_bootloader`, { enabled: false, timeout: 3600000 }));
      shouldFail(await post(`${BMC}/usb_bootloader`, { enabled: false, timeout: 3600001 }), 422, 'timeout out of range');
    });

    it('buzzer: mode ≤5 first ("mode out of range"), then duration 1..1000 for every mode; both required', async function () {
      shouldSucceed(await post(`${BMC}/buzzer`, { mode: 2, duration: 1000 }));
      shouldSucceed(await post(`${BMC}/buzzer`, { mode: 0, duration: 1 }));
      shouldFail(await post(`${BMC}/buzzer`, { mode: 6, duration: 0 }), 422, 'mode out of range');
      shouldFail(await post(`${BMC}/buzzer`, { mode: 0, duration: 0 }), 422, 'duration out of range');
      shouldFail(await post(`${BMC}/buzzer`, { mode: 1, duration: 1001 }), 422, 'duration out of range');
      shouldFail(await post(`${BMC}/buzzer`, { mode: 1 }), 422, 'Unprocessable Entity');
    });
  });

  describe('power (§3.4)', function () {
    it('GET source, stats, protectionlog, temperature, fan, fan/rpm', async function () {
      const keys: Record<string, string[]> = {
        source: ['source_3v3', 'source_5v0', 'source_12v', 'source_total', 'efficiency_factor_3v3', 'efficiency_factor_5v0', 'efficiency_factor_12v'],
        stats: ['voltage_3v3', 'voltage_5v0', 'voltage_12v', 'current_3v3', 'current_5v0', 'current_12v', 'limit_3v3', 'limit_5v0', 'limit_12v'],
        temperature: ['on_board_temp', 'pmc_temp'],
        fan: ['fan_forced', 'fan_current_mode', 'fan_setting_mode'],
        'fan/rpm': ['enabled', 'rpm'],
      };
      for (const [route, fields] of Object.entries(keys)) {
        const res = await f.api.get(`${POWER}/${route}`);
        res.status.should.equal(200, route);
        res.body.should.have.only.keys(...fields);
      }
      (await f.api.get(`${POWER}/protectionlog`)).body.should.have.property('opp_protection_cnt');
    });

    it('limits: inclusive bounds; 422 per rail in order, the 12 V message with its trailing space', async function () {
      shouldSucceed(await post(`${POWER}/limits`, { limit_3v3: 1000, limit_5v0: 1000, limit_12v: 100 }));
      shouldSucceed(await post(`${POWER}/limits`, { limit_3v3: 5950, limit_5v0: 4950, limit_12v: 2400 }));
      shouldFail(await post(`${POWER}/limits`, { limit_3v3: 5951, limit_5v0: 999, limit_12v: 0 }), 422, 'Valid limit_3v3 range 1000 - 5950');
      shouldFail(await post(`${POWER}/limits`, { limit_3v3: 1000, limit_5v0: 999, limit_12v: 0 }), 422, 'Valid limit_5v0 range 1000 - 4950');
      shouldFail(await post(`${POWER}/limits`, { limit_3v3: 1000, limit_5v0: 1000, limit_12v: 2401 }), 422, 'Valid limit_12v range 100 - 2400 ');
      shouldFail(await post(`${POWER}/limits`, { limit_3v3: 1000, limit_5v0: 1000, limit_12v: 99 }), 422, 'Valid limit_12v range 100 - 2400 ');
    });

    it('fan: forced without a mode is PVF; a mode outside the list is 422 even when not forced', async function () {
      shouldSucceed(await post(`${POWER}/fan`, { fan_forced: true, fan_mode: 60 }));
      shouldSucceed(await post(`${POWER}/fan`, { fan_forced: false }));
      shouldSucceed(await post(`${POWER}/fan`, { fan_forced: false, fan_mode: null }));
      shouldFail(await post(`${POWER}/fan`, { fan_forced: true }), 400, PVF);
      shouldFail(await post(`${POWER}/fan`, { fan_forced: true, fan_mode: null }), 400, PVF);
      shouldFail(await post(`${POWER}/fan`, { fan_forced: false, fan_mode: 30 }), 422, 'Fan mode must be 0, 20, 40, 60, 80, 100');
      shouldFail(await post(`${POWER}/fan`, { fan_forced: true, fan_mode: 101 }), 422, 'Fan mode must be 0, 20, 40, 60, 80, 100');
    });

    it('fan/rpm: measurement_enabled', async function () {
      shouldSucceed(await post(`${POWER}/fan/rpm`, { measurement_enabled: true }));
      (await f.api.get(`${POWER}/fan/rpm`)).body.enabled.should.be.true();
    });
  });
});

describe('simulator API 0.9 refuses the 1.0 version segment', function () {
  const f = useSimulator({ api: '0.9' });

  it('1.0 paths answer 400 "Version not compatible"; 1.0-only routes are unknown', async function () {
    shouldFail(await f.api.get('/api/io/1.0'), 400, 'Version not compatible');
    shouldFail(await f.api.get('/api/io/1.0/2/input/values'), 400, 'Version not compatible');
    shouldFail(await f.api.get('/api/bmc/1.0/0/voltage'), 400, 'Version not compatible');
    shouldFail(await f.api.get('/api/power/1.0/1/stats'), 400, 'Version not compatible');
    shouldFail(await f.api.get('/api/io/1.0/2/notification/1'), 404, 'Not Found');
    shouldFail(await f.api.get('/api/bmc/0.9/0/usbhub/devices'), 404, 'Not Found');
    const record = (await f.api.get('/api/io/0.9')).body;
    record.should.have.only.keys('version', 'devices');
    record.devices[0].should.have.only.keys('slot_number', 'sdbp_version');
  });
});
