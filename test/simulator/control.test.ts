import { request } from '../helpers/http';
import { shouldFail, shouldSucceed, sleep, useSimulator } from './setup';

const VALUES = '/api/io/0.9/2/input/values';

describe('simulator control API (/sim)', function () {
  const f = useSimulator();

  describe('request log', function () {
    it('records device requests (method, path, body, time, status), not /sim ones; since and clear', async function () {
      shouldSucceed(await f.api.del('/sim/log'));
      const t0 = Date.now();
      await f.api.get(`${VALUES}?x=1`);
      await f.api.post('/api/io/0.9/2/input/mode', { pin: 9, mode: 'analog' });
      await f.api.post('/api/io/0.9/2/input/mode', undefined, { raw: 'nope' });
      await f.api.get('/sim/state');
      const log = (await f.api.get('/sim/log')).body;
      log.total.should.equal(3);
      log.entries.should.have.length(3);
      const [a, b, c] = log.entries;
      a.should.containEql({ method: 'GET', path: VALUES, body: null, status: 200 });
      a.time.should.be.within(t0 - 5, Date.now() + 5);
      b.should.containEql({ method: 'POST', path: '/api/io/0.9/2/input/mode', body: { pin: 9, mode: 'analog' }, status: 400 });
      c.should.containEql({ body: null, status: 400 });
      (b.seq - a.seq).should.equal(1);
      const since = (await f.api.get(`/sim/log?since=${a.seq}`)).body;
      since.entries.map((e: { seq: number }) => e.seq).should.eql([b.seq, c.seq]);
      shouldSucceed(await f.api.del('/sim/log'));
      (await f.api.get('/sim/log')).body.should.eql({ total: 0, entries: [] });
      await f.api.get(VALUES);
      (await f.api.get('/sim/log')).body.entries[0].seq.should.be.above(c.seq); // seq never reused
      shouldFail(await f.api.get('/sim/log?since=-1'), 400);
    });
    it('is bounded by logCapacity and readable through sim.log', async function () {
      f.sim.log.clear();
      for (let i = 0; i < 3; i++) await f.api.get(VALUES);
      f.sim.log.entries().should.have.length(3);
      f.sim.log.total.should.equal(3);
    });
  });

  it('GET /sim/state shows every module', async function () {
    const s = (await f.api.get('/sim/state')).body;
    s.modules.map((m: { slot: number; service: string }) => `${m.service}:${m.slot}`).should.eql(['bmc:0', 'power:1', 'io:2', 'io:3']);
    s.resets.should.equal(0);
    s.modules[2].pins.should.have.length(6);
    s.modules[2].pins[0].should.containEql({ pin: 1, mode: 'analog' });
    s.should.have.properties('sessions', 'fanApplyDelayMs', 'servicesDown', 'log', 'faults');
  });

  describe('stimuli', function () {
    it('validates pins, levels, slots and bodies', async function () {
      shouldFail(await f.api.post('/sim/io/2/pins/7', { voltage_mV: 1 }), 400, 'pin must be an integer from 1 to 6, got 7');
      shouldFail(await f.api.post('/sim/io/2/pins/1', { level: 2 }), 400, 'level must be 0 or 1');
      shouldFail(await f.api.post('/sim/io/2/pins/1', { volts: 2 }), 400, 'body: unknown field volts');
      shouldFail(await f.api.post('/sim/io/2/pins/1', {}), 400);
      shouldFail(await f.api.post('/sim/io/2/pins/1', undefined, { raw: '{' }), 400, 'body must be a JSON object');
      shouldFail(await f.api.post('/sim/io/0/pins/1', { level: 1 }), 404, 'no io module in slot 0');
      shouldFail(await f.api.post('/sim/io/2/pins/1/alert', { alert: 'fire' }), 400);
      shouldFail(await f.api.post('/sim/bmc/0', { ntc_0: 'hot' }), 400);
      shouldFail(await f.api.post('/sim/power/1', { pmc_temp: 1000 }), 400, 'pmc_temp must be a number from -100 to 300 °C');
      shouldFail(await f.api.post('/sim/power/2', { pmc_temp: 10 }), 404);
      shouldFail(await f.api.get('/sim/unknown'), 404);
      shouldFail(await f.api.post('/sim/config', { fan_apply_delay_ms: 10001 }), 400, 'fan apply delay must be an integer from 0 to 10000 ms, got 10001');
    });
  });

  describe('faults', function () {
    it('latency delays the answer', async function () {
      const { id } = (await f.api.post('/sim/faults', { path: 'input/values', latency_ms: 300 })).body;
      id.should.be.a.String();
      const start = Date.now();
      (await f.api.get(VALUES)).status.should.equal(200);
      (Date.now() - start).should.be.aboveOrEqual(280);
    });
    it('status answers the envelope with that code and message, without reaching the device', async function () {
      (await f.api.post('/sim/faults', { path: 'input/mode', status: 503, message: 'busy' })).status.should.equal(200);
      shouldFail(await f.api.post('/api/io/0.9/2/input/mode', { pin: 1, mode: 'digital' }), 503, 'busy');
      (await f.api.get(VALUES)).body.pins[0].pin_type.should.equal('voltage_mV');
      (await f.api.post('/sim/faults', { path: '*', method: 'get', status: 500 })).status.should.equal(200);
      shouldFail(await f.api.get('/api/bmc/0.9/0/voltage'), 500, 'Internal Server Error');
    });
    it('count limits the hits; GET lists, DELETE removes one or all', async function () {
      (await f.api.post('/sim/faults', { path: 'voltage', status: 500, count: 1 })).status.should.equal(200);
      (await f.api.get('/api/bmc/0.9/0/voltage')).status.should.equal(500);
      (await f.api.get('/api/bmc/0.9/0/voltage')).status.should.equal(200);
      const a = (await f.api.post('/sim/faults', { path: 'temperature', status: 500 })).body.id;
      (await f.api.post('/sim/faults', { path: 'watchdog', status: 500 })).status.should.equal(200);
      (await f.api.get('/sim/faults')).body.faults.should.have.length(2);
      shouldSucceed(await f.api.del(`/sim/faults/${a}`));
      (await f.api.get('/api/bmc/0.9/0/temperature')).status.should.equal(200);
      (await f.api.get('/api/bmc/0.9/0/watchdog')).status.should.equal(500);
      shouldFail(await f.api.del(`/sim/faults/${a}`), 404);
      shouldSucceed(await f.api.del('/sim/faults'));
      (await f.api.get('/api/bmc/0.9/0/watchdog')).status.should.equal(200);
    });
    it('reset destroys the connection without an answer', async function () {
      (await f.api.post('/sim/faults', { path: VALUES, reset: true, count: 1 })).status.should.equal(200);
      await f.api.get(VALUES).should.be.rejected();
      (await f.api.get(VALUES)).status.should.equal(200);
      const entries = (await f.api.get('/sim/log')).body.entries;
      entries[entries.length - 2].status.should.equal(0);
    });
    it('truncated, nonjson and empty bodies', async function () {
      (await f.api.post('/sim/faults', { path: VALUES, body: 'truncated', count: 1 })).status.should.equal(200);
      let res = await f.api.get(VALUES);
      res.status.should.equal(200);
      res.body.should.be.a.String();
      (() => JSON.parse(res.text)).should.throw();
      res.text.startsWith('{"pins":[').should.be.true();
      (await f.api.post('/sim/faults', { path: VALUES, body: 'nonjson', count: 1 })).status.should.equal(200);
      res = await f.api.get(VALUES);
      (() => JSON.parse(res.text)).should.throw();
      (await f.api.post('/sim/faults', { path: VALUES, body: 'empty', count: 1 })).status.should.equal(200);
      res = await f.api.get(VALUES);
      res.text.should.equal('');
      (await f.api.get(VALUES)).body.pins.should.have.length(6);
    });
    it('refuses bad fault bodies', async function () {
      shouldFail(await f.api.post('/sim/faults', { path: 'x' }), 400, 'a fault needs latency_ms, answer_delay_ms, status, reset, body, drop_answer or hang');
      shouldFail(await f.api.post('/sim/faults', { path: 'x', body: 'weird' }), 400, 'body must be one of truncated, nonjson, empty');
      shouldFail(await f.api.post('/sim/faults', { path: 'x', status: 700 }), 400);
      shouldFail(await f.api.post('/sim/faults', { path: 'x', status: 500, reset: true }), 400);
      shouldFail(await f.api.post('/sim/faults', { status: 500 }), 400, 'body: field path is required');
      shouldFail(await f.api.post('/sim/faults', { path: 'x', status: 500, colour: 'red' }), 400);
    });
  });

  describe('services down and up', function () {
    it('a down service answers 502 with nginx HTML; the others keep working', async function () {
      shouldSucceed(await f.api.post('/sim/services/io/down'));
      const res = await f.api.get(VALUES);
      res.status.should.equal(502);
      String(res.headers['content-type']).should.match(/^text\/html/);
      res.text.should.match(/502 Bad Gateway/);
      (await f.api.get('/api/io/0.9')).status.should.equal(502);
      (await f.api.get('/api/bmc/0.9/0/voltage')).status.should.equal(200);
      (await f.api.get('/sim/state')).body.servicesDown.should.eql(['io']);
      shouldSucceed(await f.api.post('/sim/services/io/up'));
      (await f.api.get(VALUES)).status.should.equal(200);
      shouldFail(await f.api.post('/sim/services/disk/down'), 404);
    });
  });

  describe('restart', function () {
    it('POST /sim/restart and sim.restart() return the device to factory state', async function () {
      shouldSucceed(await f.api.post('/api/io/0.9/2/input/mode', { pin: 1, mode: 'digital' }));
      shouldSucceed(await f.api.post('/api/bmc/0.9/0/watchdog/sw_shutdown_timeout', { timeout: 50000 }));
      shouldSucceed(await f.api.post('/sim/io/2/pins/2', { voltage_mV: 500 }));
      const before = (await f.api.get('/sim/state')).body.sessions;
      shouldSucceed(await f.api.post('/sim/restart'));
      const s = (await f.api.get('/sim/state')).body;
      for (const service of ['io', 'bmc', 'power']) s.sessions[service].should.not.equal(before[service]);
      (await f.api.get(VALUES)).body.pins.slice(0, 2).should.eql([
        { pin: 1, pin_type: 'voltage_mV', value: 0 },
        { pin: 2, pin_type: 'voltage_mV', value: 0 },
      ]);
      (await f.api.get('/api/bmc/0.9/0/watchdog')).body.shutdown_timeout.should.equal(30000);
      shouldSucceed(await f.api.post('/api/io/0.9/2/input/mode', { pin: 1, mode: 'digital' }));
      f.sim.restart();
      (await f.api.get(VALUES)).body.pins[0].pin_type.should.equal('voltage_mV');
    });
  });

  it('advance moves the device clock forward and fires due deadlines', async function () {
    shouldSucceed(await f.api.post('/api/bmc/0.9/0/watchdog', { timeout: 600000 }));
    const res = await f.api.post('/sim/advance', { ms: 600000 });
    res.status.should.equal(200);
    res.body.clock_offset_ms.should.be.aboveOrEqual(600000);
    (await f.api.get('/sim/state')).body.resets.should.equal(1);
    shouldFail(await f.api.post('/sim/advance', { ms: -1 }), 400);
  });

  it('latency timers do not outlive close()', async function () {
    (await f.api.post('/sim/faults', { path: VALUES, latency_ms: 60000, count: 1 })).status.should.equal(200);
    const pending = request(f.sim.url, 'GET', VALUES, undefined, { agent: false }).then(
      () => 'answered',
      () => 'dropped',
    );
    await sleep(100);
    await f.sim.pause(); // destroys the socket and clears the timer
    (await pending).should.equal('dropped');
    await f.sim.resume();
    (await f.api.get(VALUES, { agent: false })).status.should.equal(200);
  });
});
