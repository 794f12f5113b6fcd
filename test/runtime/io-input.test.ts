/**
 * io-input against the simulator: the mode first, then the interrupt, then the counter
 * (the device accepts the last two only in digital mode), from a msg and on connect;
 * digital-only fields refused for an analog input; every invalid value fails through
 * Catch with nothing sent; device errors stop the sequence and reach Catch.
 */
import should from 'should';
import { expectCode, waitStatus } from '../helpers/node-red';
import { runtimeSuite } from '../helpers/runtime-suite';
import { wirePath, wireRequest } from '../helpers/api';
import { ActionDef, httpStatus, ioModule, loadActions, loadActionsQuiet, send, wire } from '../helpers/io-nodes';

const P = '/api/io/0.9/2/input';

function input(settings: Record<string, unknown> = {}): ActionDef {
  return {
    id: 'in',
    type: 'io-input',
    pin: '2',
    mode: 'digital',
    trigger: 'rising',
    debounce_time_ms: '250',
    counter: 'enabled',
    applyOnConnect: false,
    ...settings,
  };
}

describe('io-input (runtime, simulator)', function () {
  this.timeout(15000);
  const { sim, ctl } = runtimeSuite();

  it('a msg sends mode, interrupt, counter in that order; the pin ends digital with both', async () => {
    const outcomes = await loadActionsQuiet(ctl, [input()]);
    const msg = { payload: 'now', topic: 'cfg', keep: true };
    should(await send(outcomes, 'in', msg)).be.undefined();
    (await wire(ctl)).should.eql([
      ['POST', `${P}/mode`, { pin: 2, mode: 'digital' }],
      ['POST', `${P}/digital/interrupt`, { pin: 2, debounce_time_ms: 250, trigger: 'rising' }],
      ['POST', `${P}/digital/counter`, { pin: 2, state: 'enabled' }],
    ]);
    const pin = (await ioModule(ctl)).pins[1];
    pin.mode.should.equal('digital');
    pin.counter.should.be.true();
    pin.interrupt.should.containEql({ trigger: 'rising', debounceMs: 250 });
    const out = outcomes.sent('in');
    out.should.have.length(1);
    out[0].should.containEql({ payload: { status: 'success' }, topic: 'cfg', keep: true });
    // msg.request names all three calls, in the order sent.
    should(out[0].request).eql([
      wireRequest({ method: 'POST', path: `${P}/mode`, body: { pin: 2, mode: 'digital' } }),
      wireRequest({ method: 'POST', path: `${P}/digital/interrupt`, body: { pin: 2, debounce_time_ms: 250, trigger: 'rising' } }),
      wireRequest({ method: 'POST', path: `${P}/digital/counter`, body: { pin: 2, state: 'enabled' } }),
    ]);
    await waitStatus('in', 'green', 'dot', 'pin 2 digital, rising 250 ms, counter');
  });

  it('applies the configuration when the module connects (deploy), in the same order', async () => {
    const outcomes = await loadActions(sim.url, [input({ pin: '5', trigger: 'pulse', debounce_time_ms: '20', applyOnConnect: true })]);
    await waitStatus('in', 'green', 'dot', 'pin 5 digital, pulse 20 ms, counter');
    (await wire(ctl)).should.eql([
      ['POST', `${P}/mode`, { pin: 5, mode: 'digital' }],
      ['POST', `${P}/digital/interrupt`, { pin: 5, debounce_time_ms: 20, trigger: 'pulse' }],
      ['POST', `${P}/digital/counter`, { pin: 5, state: 'enabled' }],
    ]);
    (await ioModule(ctl)).pins[4].counter.should.be.true();
    outcomes.caught.should.have.length(0);
  });

  it('an analog input sends the mode alone; interrupt and counter left empty send nothing for them', async () => {
    const outcomes = await loadActionsQuiet(ctl, [
      input({ id: 'a', mode: 'analog', trigger: '', counter: '' }),
      input({ id: 'd', pin: '4', trigger: '', counter: '' }),
    ]);
    await send(outcomes, 'a', {});
    await send(outcomes, 'd', {});
    (await wire(ctl)).should.eql([
      ['POST', `${P}/mode`, { pin: 2, mode: 'analog' }],
      ['POST', `${P}/mode`, { pin: 4, mode: 'digital' }],
    ]);
    outcomes.caught.should.have.length(0);
  });

  it('msg.payload overrides pin, mode, trigger, debounce_time_ms and state (the counter)', async () => {
    const outcomes = await loadActionsQuiet(ctl, [input({ mode: 'analog', trigger: '', counter: '' })]);
    await send(outcomes, 'in', { payload: { pin: 6, mode: 'digital', trigger: 'falling', debounce_time_ms: 0, state: 'disabled' } });
    await send(outcomes, 'in', { payload: { pin: 1, mode: 'digital', state: 'enabled' } });
    outcomes.caught.should.have.length(0);
    (await wire(ctl)).should.eql([
      ['POST', `${P}/mode`, { pin: 6, mode: 'digital' }],
      ['POST', `${P}/digital/interrupt`, { pin: 6, debounce_time_ms: 0, trigger: 'falling' }],
      ['POST', `${P}/digital/counter`, { pin: 6, state: 'disabled' }],
      ['POST', `${P}/mode`, { pin: 1, mode: 'digital' }],
      ['POST', `${P}/digital/counter`, { pin: 1, state: 'enabled' }],
    ]);
  });

  describe('validation: one error in Catch, nothing sent', () => {
    it('digital-only fields (trigger, debounce_time_ms, state) are refused for an analog input', async () => {
      const outcomes = await loadActionsQuiet(ctl, [input({ mode: 'analog', trigger: '', counter: '' }), input({ id: 'd' })]);
      for (const [id, payload] of [
        ['in', { trigger: 'rising' }],
        ['in', { state: 'enabled' }],
        ['d', { mode: 'analog', trigger: 'disabled' }],
        ['d', { mode: 'analog', state: 'disabled' }],
        ['in', { debounce_time_ms: 20 }],
      ] as Array<[string, Record<string, unknown>]>) {
        const caught = await send(outcomes, id, { payload });
        should(caught).be.ok();
        expectCode(caught!.error, 'INVALID_INPUT');
        caught!.error.message.should.match(/need mode digital/);
      }
      outcomes.caught.should.have.length(5);
      (await wire(ctl)).should.eql([]);
    });

    it('every invalid value', async () => {
      const outcomes = await loadActionsQuiet(ctl, [input()]);
      const cases: Array<[unknown, RegExp]> = [
        [{ pin: 0 }, /Pin \(pin\) must be an integer from 1 to 6, got 0/],
        [{ pin: 7 }, /Pin \(pin\) must be an integer from 1 to 6, got 7/],
        [{ mode: 'pwm' }, /Mode \(mode\) must be one of analog, digital, got "pwm"/],
        [{ mode: 1 }, /Mode \(mode\) must be one of analog, digital, got 1/],
        [{ trigger: 'both' }, /Interrupt \(trigger\) must be one of disabled, rising, falling, pulse, got "both"/],
        [{ debounce_time_ms: 1001 }, /Debounce \(debounce_time_ms\) must be an integer from 0 to 1000 ms, got 1001/],
        [{ debounce_time_ms: -1 }, /Debounce \(debounce_time_ms\) must be an integer from 0 to 1000 ms, got -1/],
        [{ debounce_time_ms: '20' }, /Debounce \(debounce_time_ms\) must be an integer from 0 to 1000 ms, got "20"/],
        [{ state: 'on' }, /Counter \(state\) must be one of enabled, disabled, got "on"/],
      ];
      for (const [payload, pattern] of cases) {
        const caught = await send(outcomes, 'in', { payload });
        should(caught).be.ok();
        expectCode(caught!.error, 'INVALID_INPUT');
        caught!.error.source.id.should.equal('in');
        caught!.error.message.should.match(pattern);
      }
      outcomes.caught.should.have.length(cases.length);
      outcomes.sent('in').should.have.length(0);
      (await wire(ctl)).should.eql([]);
      await waitStatus('in', 'red', 'ring', 'Counter (state) must be one of');
    });

    it('an invalid setting shows at deploy, is not applied on connect, and fails msgs', async () => {
      const outcomes = await loadActions(sim.url, [input({ debounce_time_ms: '5000', applyOnConnect: true })]);
      await waitStatus('in', 'red', 'ring', 'Debounce (debounce_time_ms) must be an integer from 0 to');
      const caught = await send(outcomes, 'in', {});
      caught!.error.message.should.match(/Debounce \(debounce_time_ms\) must be an integer from 0 to 1000 ms, got 5000/);
      (await wire(ctl)).should.eql([]);
    });
  });

  describe('device errors', () => {
    it('a refused interrupt stops the sequence (no counter request) and reaches Catch with status and message', async () => {
      const outcomes = await loadActionsQuiet(ctl, [input()]);
      await ctl.fault({ path: '/digital/interrupt', status: 500, message: 'Internal driver communication failed', count: 1 });
      const caught = await send(outcomes, 'in', { payload: {} });
      should(caught).be.ok();
      expectCode(caught!.error, 'DEVICE_ERROR');
      caught!.error.cause!.should.containEql({
        statusCode: 500,
        deviceMessage: 'Internal driver communication failed',
        path: wirePath(`${P}/digital/interrupt`),
      });
      (await ctl.requests())
        .map((e) => [e.path, e.status])
        .should.eql([
          [`${P}/mode`, 200],
          [`${P}/digital/interrupt`, 500],
        ]);
      outcomes.sent('in').should.have.length(0);
      await waitStatus('in', 'red', 'ring', httpStatus(500));
    });
  });
});
