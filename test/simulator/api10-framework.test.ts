/**
 * The simulator's API 1.0 against what the released services' framework does
 * (the released services' behaviour (API 1.0) §2, §4): request bodies read serde's way (front to
 * back, 400 for bad syntax, 422 for bad data, arrays for structs), the error envelope and
 * the success bodies as the services write them, Rocket's default catcher for 413, and a
 * driver_session per REST service that a service restart renews.
 */
import 'should';
import { shouldFail, shouldSucceed, useSimulator } from './setup';

const IO = '/api/io/1.0/2';
const BMC = '/api/bmc/1.0/0';
const POWER = '/api/power/1.0/1';
const UNPROCESSABLE = 'Unprocessable Entity';
const BAD = 'Bad Request';
const NO_ALERTS = { under_voltage_alert: false, high_voltage_alert: false, high_current_alert: false, custom_voltage_alert: false };

describe("simulator API 1.0: the released services' framework", function () {
  const f = useSimulator({ api: '1.0' });
  const raw = (path: string, text: string | Buffer, headers: Record<string, string> = {}) => f.api.post(path, undefined, { raw: text, headers });
  const pinType = async (pin: number) => (await f.api.get(`${IO}/input/values`)).body.pins[pin - 1].pin_type;

  describe("request bodies, read serde's way (§2)", function () {
    const MODE = `${IO}/input/mode`;

    it('a float for an integer is 422 even when its value is whole: 1.0, 1e0, -0', async function () {
      for (const pin of ['1.0', '1e0', '0.1e1', '-0']) shouldFail(await raw(MODE, `{"pin":${pin},"mode":"digital"}`), 422, UNPROCESSABLE);
      shouldSucceed(await raw(MODE, '{"pin":1,"mode":"digital"}'));
    });

    it('a duplicate field is 422 (JSON.parse would keep the last one)', async function () {
      shouldFail(await raw(MODE, '{"pin":1,"mode":"analog","pin":2}'), 422, UNPROCESSABLE);
      shouldFail(await raw(`${BMC}/watchdog`, '{"timeout":0,"timeout":0}'), 422, UNPROCESSABLE);
      (await pinType(2)).should.equal('voltage_millivolt', 'nothing applied');
    });

    it('reading stops at the first problem: a wrong type or an unknown field before bad syntax is 422', async function () {
      shouldFail(await raw(MODE, '{"pin":"1","mode":"analog"} trailing'), 422, UNPROCESSABLE);
      shouldFail(await raw(MODE, '{"pin":1,"colour":'), 422, UNPROCESSABLE);
      shouldFail(await raw(MODE, '{"pin":1,"mode":"analog"} trailing'), 400, BAD);
      shouldFail(await raw(MODE, '{"pin":1,"mode":"analog",}'), 400, BAD);
      shouldFail(await raw(MODE, '{"pin":01,"mode":"analog"}'), 400, BAD);
      shouldFail(await raw(MODE, '{"pin":1.,"mode":"analog"}'), 400, BAD);
      shouldFail(await raw(MODE, '{"pin":1,"mode":"\\x"}'), 400, BAD);
      shouldFail(await raw(MODE, '{"pin":1,"mode":"\\ud800"}'), 400, BAD);
      shouldFail(await raw(MODE, '{"pin":1e400,"mode":"analog"}'), 400, BAD);
    });

    it('bytes that are not UTF-8 and a byte order mark are 400', async function () {
      shouldFail(await raw(MODE, Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d])), 400, BAD);
      shouldFail(await raw(MODE, `\ufeff{"pin":1,"mode":"analog"}`), 400, BAD);
    });

    it('a struct may come as a JSON array of its fields in order; too few is 422, too many 400', async function () {
      shouldSucceed(await raw(MODE, '[3, "digital"]'));
      (await pinType(3)).should.equal('digital_input');
      shouldFail(await raw(MODE, '[3]'), 422, UNPROCESSABLE);
      shouldFail(await raw(MODE, '[]'), 422, UNPROCESSABLE);
      shouldFail(await raw(MODE, '["digital", 3]'), 422, UNPROCESSABLE);
      shouldFail(await raw(MODE, '[3, "digital", 1]'), 400, BAD);
      // Range checks run on the array form as on the object.
      shouldFail(await raw(MODE, '[7, "digital"]'), 400, 'Parameter validation failed');
      // Optional fields are positions too: present, or null.
      shouldSucceed(await raw(`${POWER}/fan`, '[false, null]'));
      shouldSucceed(await raw(`${POWER}/fan`, '[true, 40]'));
      shouldFail(await raw(`${POWER}/fan`, '[false]'), 422, UNPROCESSABLE);
    });

    it('nested structs too: power-management entries as [rail, current_milliampere]', async function () {
      const res = await raw(`${IO}/power-management`, JSON.stringify({ config: Array(6).fill(['5_volt', 100]) }));
      res.status.should.equal(200, res.text);
      res.body.status.should.equal('success');
      shouldSucceed(await raw(`${IO}/output/state`, '[1, "high"]'));
      const floatInside = { config: Array(6).fill({ rail: '5_volt', current_milliampere: 100 }) };
      shouldFail(await raw(`${IO}/power-management`, JSON.stringify(floatInside).replace('100', '100.0')), 422, UNPROCESSABLE);
    });
  });

  describe('answers written as the services write them (§2, §3, §4)', function () {
    it('errors: the envelope pretty-printed with a 1-space indent', async function () {
      const res = await f.api.post(`${IO}/input/mode`, { pin: 9, mode: 'analog' });
      res.text.should.equal('{\n "status": "error",\n "code": 400,\n "message": "Parameter validation failed"\n}');
      (await f.api.get(`${IO}/nothing`)).text.should.equal('{\n "status": "error",\n "code": 404,\n "message": "Not Found"\n}');
    });

    it('success: the literal { "status": "success" } in io and power, pretty-printed in bmc', async function () {
      (await f.api.post(`${IO}/input/mode`, { pin: 1, mode: 'analog' })).text.should.equal('{ "status": "success" }');
      (await f.api.post(`${POWER}/fan/rpm`, { measurement_enabled: true })).text.should.equal('{ "status": "success" }');
      (await f.api.post(`${BMC}/buzzer`, { mode: 1, duration: 1 })).text.should.equal('{\n  "status": "success"\n}');
    });

    it('records pretty-printed with a 2-space indent', async function () {
      const res = await f.api.get(`${BMC}/watchdog`);
      res.text.should.equal(JSON.stringify(res.body, null, 2));
      res.text.should.startWith('{\n  "timeout": 0,');
    });

    it("a body over 1 MiB: 413 from Rocket's default catcher, HTML or (Accept: JSON) its JSON, not the envelope", async function () {
      const big = JSON.stringify({ pin: 1, mode: 'x'.repeat(1024 * 1024) });
      const html = await f.api.post(`${IO}/input/mode`, undefined, { raw: big, headers: { Accept: 'text/html,*/*;q=0.8' } });
      html.status.should.equal(413);
      String(html.headers['content-type']).should.match(/^text\/html/);
      html.text.should.match(/<title>413 Payload Too Large<\/title>/);
      const json = await f.api.post(`${IO}/input/mode`, undefined, { raw: big, headers: { Accept: 'application/json' } });
      json.status.should.equal(413);
      String(json.headers['content-type']).should.match(/^application\/json/);
      json.body.should.eql({
        error: { code: 413, reason: 'Payload Too Large', description: 'The request is larger than the server is willing or able to process.' },
      });
      (await f.api.get(`${IO}/input/values`)).status.should.equal(200);
    });
  });

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
      (await f.api.get('/api/io/1.0')).body.devices.should.eql(devices, "device_session is the driver's: unchanged");
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
