/**
 * The device reboots like a board: a hard reset or an expired watchdog takes it
 * down for reboot_ms, refusing connections, then every module is back at its defaults with
 * new sessions (API 1.0). reboot_ms 0 keeps the instant reset. Over loopback, no timed
 * assertions: an outage is either long (600 s, ended with sim.boot()) or waited out.
 */
import 'should';
import { shouldFail, shouldSucceed, sleep, useSimulator } from './setup';
import { HttpClient, request } from '../helpers/http';

const IO = '/api/io/1.0/2';
const BMC = '/api/bmc/1.0/0';
const LONG_MS = 600_000;
const six = () => ({ config: [1, 2, 3, 4, 5, 6].map(() => ({ rail: '5_volt', current_milliampere: 100 })) });

/** The error a request gets on a fresh connection (no pooled socket to mislead it). */
async function failure(url: string, path: string): Promise<string> {
  try {
    const res = await request(url, 'GET', path, undefined, { agent: false });
    return `answered ${res.status}`;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? String(error);
  }
}

/** Every service's driver_session and each device's device_session, by service. */
async function sessions(api: HttpClient): Promise<Record<string, { driver: string; devices: string[] }>> {
  const out: Record<string, { driver: string; devices: string[] }> = {};
  for (const service of ['io', 'bmc', 'power']) {
    const res = await api.get(`/api/${service}/1.0`);
    res.status.should.equal(200, res.text);
    out[service] = { driver: res.body.driver_session, devices: res.body.devices.map((d: { device_session: string }) => d.device_session) };
  }
  return out;
}

function allNew(before: Record<string, { driver: string; devices: string[] }>, after: typeof before): void {
  for (const service of Object.keys(before)) {
    after[service].driver.should.not.equal(before[service].driver, `${service} driver_session`);
    after[service].devices.forEach((s, i) => s.should.not.equal(before[service].devices[i], `${service} device_session ${i}`));
  }
}

describe('simulator reboot (API 1.0)', function () {
  const f = useSimulator({ api: '1.0' });
  const configure = async (rebootMs: number) => (await f.api.post('/sim/config', { reboot_ms: rebootMs })).body;

  /** Settings a reboot must take away: power config, an output, a digital pin, the watchdog. */
  async function settle(): Promise<void> {
    (await f.api.post(`${IO}/power-management`, six())).status.should.equal(200);
    shouldSucceed(await f.api.post(`${IO}/output/state`, { pin: 1, state: 'high' }));
    shouldSucceed(await f.api.post(`${IO}/input/mode`, { pin: 4, mode: 'digital' }));
  }

  async function shouldBeAtDefaults(): Promise<void> {
    const pins = (await f.api.get(`${IO}/input/values`)).body.pins;
    pins.map((p: { pin_type: string }) => p.pin_type).should.eql(Array(6).fill('voltage_millivolt'));
    shouldFail(await f.api.post(`${IO}/output/state`, { pin: 1, state: 'high' }), 400, 'Power config missing');
    (await f.api.get(`${BMC}/watchdog`)).body.timeout.should.equal(0);
  }

  it('reboot_ms is set and read through /sim/config, bounded', async function () {
    (await configure(1234)).should.containEql({ reboot_ms: 1234, reboot_max_ms: LONG_MS });
    (await f.api.get('/sim/config')).body.reboot_ms.should.equal(1234);
    shouldFail(await f.api.post('/sim/config', { reboot_ms: LONG_MS + 1 }), 400, `reboot time must be an integer from 0 to ${LONG_MS} ms, got ${LONG_MS + 1}`);
    (await f.api.get('/sim/config')).body.should.containEql({ reboot_ms: 1234, fan_apply_delay_ms: 400 });
  });

  it('an expired watchdog: down for reboot_ms (connection refused), then defaults and new sessions', async function () {
    await configure(LONG_MS);
    await settle();
    shouldSucceed(await f.api.post(`${BMC}/watchdog`, { timeout: 1000 }));
    const before = await sessions(f.api);
    // The device clock passes the deadline: the control answer still comes, closing its connection.
    const advanced = await f.api.post('/sim/advance', { ms: 2000 });
    advanced.status.should.equal(200);
    String(advanced.headers.connection).should.equal('close');
    const outage = f.sim.outage!;
    outage.cause.should.equal('watchdog expired');
    (outage.until - outage.since).should.equal(LONG_MS);
    (await failure(f.sim.url, `${IO}/input/values`)).should.equal('ECONNREFUSED');
    (await failure(f.sim.url, '/sim/state')).should.equal('ECONNREFUSED', 'the control API shares the port');

    await f.sim.boot();
    (f.sim.outage === null).should.be.true();
    await shouldBeAtDefaults();
    allNew(before, await sessions(f.api));
    const state = (await f.api.get('/sim/state')).body;
    state.should.containEql({ down: false, outage: null, resets: 1, rebootMs: LONG_MS });
    state.lastReset.cause.should.equal('watchdog expired');
  });

  it('an expiry noticed by the next request: that connection is reset, the next one refused', async function () {
    await configure(LONG_MS);
    shouldSucceed(await f.api.post(`${BMC}/watchdog`, { timeout: 1000 }));
    // The deadline passes while nobody asks (at least 1 s: a slow machine only waits longer).
    await sleep(1200);
    (await failure(f.sim.url, `${IO}/input/values`)).should.equal('ECONNRESET');
    (await failure(f.sim.url, `${IO}/input/values`)).should.equal('ECONNREFUSED');
    f.sim.outage!.cause.should.equal('watchdog expired');
  });

  it('hard_reset: answered, then down; back by itself after reboot_ms on the same port', async function () {
    await configure(200);
    await settle();
    const before = await sessions(f.api);
    const res = await f.api.post(`${BMC}/hard_reset`, { reset: 'yes' });
    shouldSucceed(res);
    String(res.headers.connection).should.equal('close');
    await f.sim.whenUp();
    await shouldBeAtDefaults();
    allNew(before, await sessions(f.api));
    const { lastReset, down } = (await f.api.get('/sim/state')).body;
    down.should.be.false();
    lastReset.cause.should.equal('hard_reset');
    (lastReset.upAt - lastReset.at).should.equal(200, 'device time: booted when reboot_ms had passed');
  });

  it('a long hard_reset refuses connections until it is over', async function () {
    await configure(LONG_MS);
    shouldSucceed(await f.api.post(`${BMC}/hard_reset`, { reset: 'yes' }));
    (await failure(f.sim.url, `${BMC}/watchdog`)).should.equal('ECONNREFUSED');
    f.sim.outage!.cause.should.equal('hard_reset');
    await f.sim.boot();
    (await f.api.get(`${BMC}/watchdog`)).status.should.equal(200);
  });

  it('reboot_ms 0 keeps the instant reset: never down, defaults and new sessions at once', async function () {
    await configure(0);
    for (const trigger of ['hard_reset', 'watchdog'] as const) {
      await settle();
      const before = await sessions(f.api);
      if (trigger === 'hard_reset') shouldSucceed(await f.api.post(`${BMC}/hard_reset`, { reset: 'yes' }));
      else {
        shouldSucceed(await f.api.post(`${BMC}/watchdog`, { timeout: 1000 }));
        (await f.api.post('/sim/advance', { ms: 1001 })).headers.connection!.should.not.equal('close');
      }
      (f.sim.outage === null).should.be.true();
      await shouldBeAtDefaults();
      allNew(before, await sessions(f.api));
      const { lastReset } = (await f.api.get('/sim/state')).body;
      lastReset.upAt.should.equal(lastReset.at);
    }
  });

  it('a module reset gives that device a new device_session (re-enumerated); nothing else changes', async function () {
    for (const [service, slot] of [
      ['io', 2],
      ['bmc', 0],
      ['power', 1],
    ] as const) {
      const before = await sessions(f.api);
      shouldSucceed(await f.api.post(`/api/${service}/1.0/${slot}/reset`, { reset: 'yes' }));
      const after = await sessions(f.api);
      after[service].devices[0].should.not.equal(before[service].devices[0]);
      after[service].driver.should.equal(before[service].driver);
      for (const other of ['io', 'bmc', 'power'].filter((s) => s !== service)) after[other].should.eql(before[other]);
      if (service === 'io') after.io.devices[1].should.equal(before.io.devices[1], 'slot 3 was not reset');
    }
  });
});

describe('simulator reboot (API 0.9)', function () {
  const f = useSimulator({ rebootMs: LONG_MS });

  it('the default reboot_ms of a fixture is its option; an expired watchdog refuses, then defaults', async function () {
    (await f.api.get('/sim/config')).body.reboot_ms.should.equal(LONG_MS);
    shouldSucceed(await f.api.post('/api/io/0.9/2/input/mode', { pin: 1, mode: 'digital' }));
    shouldSucceed(await f.api.post('/api/bmc/0.9/0/watchdog', { timeout: 1000 }));
    (await f.api.post('/sim/advance', { ms: 1001 })).status.should.equal(200);
    (await failure(f.sim.url, '/api/io/0.9/2/input/values')).should.equal('ECONNREFUSED');
    await f.sim.boot();
    (await f.api.get('/api/io/0.9/2/input/values')).body.pins[0].pin_type.should.equal('voltage_mV');
  });

  it('GET reset (module reset) does not take the device down', async function () {
    shouldSucceed(await f.api.get('/api/io/0.9/2/reset'));
    (f.sim.outage === null).should.be.true();
    (await f.api.get('/api/io/0.9/2/input/values')).status.should.equal(200);
  });
});
