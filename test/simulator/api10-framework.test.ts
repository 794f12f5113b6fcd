/**
 * The simulator's API 1.0 against what the released services' framework does
 * (../shared/reference/real-service.md §4): a driver_session per REST service that a
 * service restart renews.
 */
import 'should';
import { shouldSucceed, useSimulator } from './setup';

const IO = '/api/io/1.0/2';
const NO_ALERTS = { under_voltage_alert: false, high_voltage_alert: false, high_current_alert: false, custom_voltage_alert: false };

describe('simulator API 1.0: the released services\' framework', function () {
  const f = useSimulator({ api: '1.0' });
  const pinType = async (pin: number) => (await f.api.get(`${IO}/input/values`)).body.pins[pin - 1].pin_type;

  describe('a driver_session per REST service (§4)', function () {
    const session = async (service: string) => (await f.api.get(`/api/${service}/1.0`)).body.driver_session as string;

    it('a service that comes back up has restarted: a new driver_session for it alone; its modules are untouched', async function () {
      shouldSucceed(await f.api.post(`${IO}/input/mode`, { pin: 4, mode: 'digital' }));
      const before = { io: await session('io'), bmc: await session('bmc'), power: await session('power') };
      const devices = (await f.api.get('/api/io/1.0')).body.devices;
      shouldSucceed(await f.api.post('/sim/services/io/down'));
      shouldSucceed(await f.api.post('/sim/services/io/up'));
      (await session('io')).should.not.equal(before.io);
      (await session('bmc')).should.equal(before.bmc);
      (await session('power')).should.equal(before.power);
      (await f.api.get('/api/io/1.0')).body.devices.should.eql(devices, 'device_session is the driver\'s: unchanged');
      (await pinType(4)).should.equal('digital_input', 'the module keeps its state');
      // "up" on a service that was not down is no restart.
      const now = await session('io');
      shouldSucceed(await f.api.post('/sim/services/io/up'));
      (await session('io')).should.equal(now);
    });

    it('the restarted io service has lost its notification cache', async function () {
      shouldSucceed(await f.api.post('/sim/io/2/pins/5/alert', { alert: 'high_voltage_alert' }));
      (await f.api.get(`${IO}/notification/1`)).body.should.eql(NO_ALERTS); // pulls pin 5's flag into the cache
      shouldSucceed(await f.api.post('/sim/services/io/down'));
      shouldSucceed(await f.api.post('/sim/services/io/up'));
      (await f.api.get(`${IO}/notification/5`)).body.should.eql(NO_ALERTS);
    });
  });
});
