/**
 * Faults that act after the device processed a request: `answer_delay_ms` holds
 * the answer, `drop_answer` closes the connection instead of answering; and `hang` (issue
 * 25), a frozen device that reads a request and never processes or answers it. Unlike `latency_ms`
 * and `reset`, the device's state has changed and notification flags are cleared, so a
 * client that never gets the answer has lost them. Every "while pending" check waits for
 * the fault's hit count, never for time.
 */
import 'should';
import { request } from '../helpers/http';
import { shouldFail, sleep, useSimulator } from './setup';
import type { Fixture } from './setup';

const NO_ALERTS = { under_voltage_alert: false, high_voltage_alert: false, high_current_alert: false, custom_voltage_alert: false };

/** Resolves once the fault `id` was hit `hits` times (it counts on arrival, before any delay). */
async function hitsReach(f: Fixture, id: string, hits: number): Promise<void> {
  for (;;) {
    const rule = (await f.api.get('/sim/faults')).body.faults.find((r: { id: string }) => r.id === id);
    if (rule === undefined || rule.hits >= hits) return;
    await sleep(20);
  }
}

async function addFault(f: Fixture, rule: Record<string, unknown>): Promise<string> {
  const res = await f.api.post('/sim/faults', rule);
  res.status.should.equal(200, res.text);
  return res.body.id;
}

/** A request on its own connection, settled as 'answered <status>' or 'dropped'. */
function outcome(f: Fixture, method: string, path: string, body?: unknown): Promise<string> {
  return request(f.sim.url, method, path, body, { agent: false }).then(
    (res) => `answered ${res.status}`,
    () => 'dropped',
  );
}

describe('simulator faults after processing', function () {
  describe('API 1.0: only pin 4 of a notification round', function () {
    const f = useSimulator({ api: '1.0' });
    const read = (pin: number) => f.api.get(`/api/io/1.0/2/notification/${pin}`);

    it('drop_answer clears the flag on the device and answers nothing; the other pins are untouched', async function () {
      for (const pin of [3, 4]) (await f.api.post(`/sim/io/2/pins/${pin}/alert`, { alert: 'high_voltage_alert' })).status.should.equal(200);
      const id = await addFault(f, { path: '/api/io/1.0/2/notification/4', drop_answer: true, count: 1 });
      (await read(3)).body.should.eql({ ...NO_ALERTS, high_voltage_alert: true }, 'pin 3 is not hit');
      (await outcome(f, 'GET', '/api/io/1.0/2/notification/4')).should.equal('dropped');
      (await read(4)).body.should.eql(NO_ALERTS, 'the device handed the flag out with the lost answer');
      (await f.api.get('/sim/faults')).body.faults.map((r: { id: string }) => r.id).should.not.containEql(id);
      const log = (await f.api.get('/sim/log')).body.entries.filter((e: { path: string }) => e.path.endsWith('/notification/4'));
      log.map((e: { status: number }) => e.status).should.eql([0, 200]);
    });

    it('answer_delay_ms: the flag is cleared while the answer is held, and the answer still carries it', async function () {
      (await f.api.post('/sim/io/2/pins/4/alert', { alert: 'custom_voltage_alert' })).status.should.equal(200);
      const id = await addFault(f, { path: 'notification/4', answer_delay_ms: 1000, count: 1 });
      const pending = request(f.sim.url, 'GET', '/api/io/1.0/2/notification/4', undefined, { agent: false });
      await hitsReach(f, id, 1);
      (await read(4)).body.should.eql(NO_ALERTS, 'already cleared on the device');
      (await pending).body.should.eql({ ...NO_ALERTS, custom_voltage_alert: true });
    });
  });

  describe('API 0.9', function () {
    const f = useSimulator();
    const MODE = '/api/io/0.9/2/input/mode';
    const pinType = async (pin: number): Promise<string> => (await f.api.get('/api/io/0.9/2/input/values', { agent: false })).body.pins[pin - 1].pin_type;

    it('answer_delay_ms applies the request at once and answers after the delay', async function () {
      const id = await addFault(f, { path: 'input/mode', method: 'POST', answer_delay_ms: 400, count: 1 });
      const start = Date.now();
      const pending = outcome(f, 'POST', MODE, { pin: 2, mode: 'digital' });
      await hitsReach(f, id, 1);
      (await pinType(2)).should.equal('digital_input', 'applied before the answer');
      (await pending).should.equal('answered 200');
      (Date.now() - start).should.be.aboveOrEqual(390);
    });

    it('latency_ms, by contrast, holds the request before the device sees it', async function () {
      const id = await addFault(f, { path: 'input/mode', latency_ms: 60000, count: 1 });
      const pending = outcome(f, 'POST', MODE, { pin: 2, mode: 'digital' });
      await hitsReach(f, id, 1);
      (await pinType(2)).should.equal('voltage_mV', 'not applied yet');
      await f.sim.pause(); // drops the held request: the device never applies it
      (await pending).should.equal('dropped');
      await f.sim.resume();
      (await pinType(2)).should.equal('voltage_mV');
    });

    it('hang (a frozen device): the request is logged at once with status 0, never processed, never answered', async function () {
      const id = await addFault(f, { path: 'input/mode', hang: true, count: 1 });
      const pending = outcome(f, 'POST', MODE, { pin: 4, mode: 'digital' });
      await hitsReach(f, id, 1);
      const logged = (await f.api.get('/sim/log')).body.entries.filter((e: { path: string; body: { pin?: number } }) => e.path === MODE && e.body?.pin === 4);
      logged.map((e: { status: number; body: unknown }) => [e.status, e.body]).should.eql([[0, { pin: 4, mode: 'digital' }]]);
      (await pinType(4)).should.equal('voltage_mV', 'not processed');
      // Nothing answers it: only the connection going away ends it.
      await f.sim.pause();
      (await pending).should.equal('dropped');
      await f.sim.resume();
      (await pinType(4)).should.equal('voltage_mV', 'not processed later either');
    });

    it('drop_answer after answer_delay_ms: applied, held, then the connection closes unanswered', async function () {
      const id = await addFault(f, { path: 'input/mode', answer_delay_ms: 300, drop_answer: true });
      const start = Date.now();
      const pending = outcome(f, 'POST', MODE, { pin: 5, mode: 'digital' });
      await hitsReach(f, id, 1);
      (await pinType(5)).should.equal('digital_input');
      (await pending).should.equal('dropped');
      (Date.now() - start).should.be.aboveOrEqual(290);
      (await outcome(f, 'POST', MODE, { pin: 6, mode: 'digital' })).should.equal('dropped', 'no count: every request');
      (await pinType(6)).should.equal('digital_input');
    });

    it('a held answer does not outlive pause()', async function () {
      const id = await addFault(f, { path: 'input/values', answer_delay_ms: 60000, count: 1 });
      const pending = outcome(f, 'GET', '/api/io/0.9/2/input/values');
      await hitsReach(f, id, 1);
      await f.sim.pause();
      (await pending).should.equal('dropped');
      await f.sim.resume();
      (await f.api.get('/api/io/0.9/2/input/values', { agent: false })).status.should.equal(200);
    });

    it('refuses combinations that make no sense', async function () {
      const refused = async (rule: Record<string, unknown>, message: string) =>
        shouldFail(await f.api.post('/sim/faults', { path: 'x', ...rule }), 400, message);
      await refused({ drop_answer: true, reset: true }, 'give at most one of status, reset, body and drop_answer');
      await refused({ drop_answer: true, body: 'empty' }, 'give at most one of status, reset, body and drop_answer');
      await refused({ status: 500, answer_delay_ms: 10 }, 'answer_delay_ms needs a processed request: not with status or reset (use latency_ms)');
      await refused({ reset: true, answer_delay_ms: 10 }, 'answer_delay_ms needs a processed request: not with status or reset (use latency_ms)');
      await refused({ answer_delay_ms: 120001 }, 'answer_delay_ms must be at most 120000');
      await refused({ drop_answer: 'yes' }, 'body: field drop_answer must be bool');
      await refused({ hang: true, status: 500 }, 'hang goes alone: a frozen device neither delays, answers, resets nor processes');
      await refused({ hang: true, latency_ms: 10 }, 'hang goes alone: a frozen device neither delays, answers, resets nor processes');
      await refused({ drop_answer: false }, 'a fault needs latency_ms, answer_delay_ms, status, reset, body, drop_answer or hang');
    });
  });
});
