/** The simulator tests' fixture: one simulator per test file, factory state and no faults before each test. */
import 'should';
import type { Simulator, SimulatorOptions } from '../../simulator';
import { simulatorSuite } from '../helpers/sim-control';
import { httpClient, HttpClient, HttpResult } from '../helpers/http';

export interface Fixture {
  sim: Simulator;
  api: HttpClient;
}

/** Fan delay short enough to wait for, long enough to observe "not yet" on a loaded machine. */
export const FAN_DELAY_MS = 400;

/** The simulator fixture (simulatorSuite) with the simulator tests' reset: API 0.9 unless asked. */
export function useSimulator(options: SimulatorOptions = {}): Fixture {
  const fixture = {} as Fixture;
  const reset = async (sim: Simulator) => {
    sim.restart();
    await sim.whenUp(); // a test that left the device rebooting: the port opens again
    (await fixture.api.del('/sim/faults')).status.should.equal(200);
    const delay = options.fanApplyDelayMs ?? FAN_DELAY_MS;
    const config = { fan_apply_delay_ms: delay, reboot_ms: options.rebootMs ?? 0 };
    (await fixture.api.post('/sim/config', config)).status.should.equal(200);
    for (const svc of ['io', 'bmc', 'power']) (await fixture.api.post(`/sim/services/${svc}/up`)).status.should.equal(200);
  };
  simulatorSuite(
    (sim) => {
      fixture.sim = sim;
      fixture.api = httpClient(sim.url);
    },
    { simulator: { api: '0.9', fanApplyDelayMs: FAN_DELAY_MS, ...options }, reset, nodeRed: false },
  );
  return fixture;
}

/** Asserts the error envelope exactly. */
export function shouldFail(res: HttpResult, status: number, message?: string): void {
  res.status.should.equal(status, `expected ${status}, got ${res.status}: ${res.text}`);
  String(res.headers['content-type']).should.match(/^application\/json/);
  res.body.status.should.equal('error');
  res.body.code.should.equal(status);
  res.body.should.have.only.keys('status', 'code', 'message');
  if (message !== undefined) res.body.message.should.equal(message);
}

export function shouldSucceed(res: HttpResult): void {
  res.status.should.equal(200, res.text);
  res.body.should.eql({ status: 'success' });
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The shared body checks of a POST route: malformed JSON 400, empty 400, wrong type 422,
 * missing field 422, extra field 422, wrong version 400, unknown slot 404. The malformed
 * body breaks off after the good fields: read front to back, an unknown field before the
 * break would already be a 422 (serde's way, simulator/json.ts).
 */
export async function checkPostViolations(
  api: HttpClient,
  base: string,
  tail: string,
  good: Record<string, unknown>,
  typeBreak: Record<string, unknown>,
): Promise<void> {
  const path = `${base}/${tail}`;
  shouldFail(await api.post(path, undefined, { raw: `${JSON.stringify(good).slice(0, -1)},` }), 400, 'Bad Request');
  shouldFail(await api.post(path, undefined, { raw: '' }), 400, 'Bad Request');
  shouldFail(await api.post(path, { ...good, ...typeBreak }), 422, 'Unprocessable Entity');
  const missing = { ...good };
  delete missing[Object.keys(good)[0]];
  shouldFail(await api.post(path, missing), 422, 'Unprocessable Entity');
  shouldFail(await api.post(path, { ...good, extra: 1 }), 422, 'Unprocessable Entity');
  shouldFail(await api.post(path, { ...good, [Object.keys(good)[0]]: null }), 422, 'Unprocessable Entity');
  const [, svc, , slot] = base.split('/').filter(Boolean);
  shouldFail(await api.post(`/api/${svc}/1.0/${slot}/${tail}`, good), 400, 'Version not compatible');
  shouldFail(await api.post(`/api/${svc}/0.9/77/${tail}`, good), 404, 'Slot not found');
}
