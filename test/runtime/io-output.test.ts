/**
 * io-output against the simulator: what reaches the wire for every kind of msg (checked in
 * the simulator's request log and its pin state), what the msg looks like afterwards,
 * the status dots, and that every invalid msg fails through Catch with nothing sent.
 */
import should from 'should';
import { expectCode, helper, inject, ioFlow, loadFlow, Received, sleep, statusHistory, waitConnected, waitOutcomes, waitStatus } from '../helpers/node-red';
import { runtimeSuite } from '../helpers/runtime-suite';
import { wireRequest } from '../helpers/api';

describe('io-output (runtime, simulator)', function () {
  this.timeout(20000);
  const { sim, ctl } = runtimeSuite({ server: true, powered: true });

  /** Loads io-output with the given settings, waits for the connection, clears the log. */
  async function load(output: Record<string, unknown> = {}): Promise<Received> {
    const received = await loadFlow(ioFlow({ url: sim.url }, output));
    await waitConnected();
    await ctl.clearLog();
    return received;
  }

  /** Sends msgs one after another (each waits for its outcome); returns the received lists. */
  async function sendEach(received: Received, msgs: Array<Record<string, unknown>>): Promise<void> {
    let outcomes = received.sent.length + received.caught.length;
    for (const msg of msgs) {
      inject(msg);
      await waitOutcomes(received, ++outcomes);
    }
  }

  describe('happy paths', () => {
    it('a msg without override (inject timestamp) sets the configured pin and state', async () => {
      const received = await load({ pin: '3', state: 'high' });
      await sendEach(received, [{ payload: 1732170000000 }]);
      received.caught.should.have.length(0);
      const log = await ctl.requests();
      log.map((e) => [e.method, e.path, e.body, e.status]).should.eql([['POST', '/api/io/0.9/2/output/state', { pin: 3, state: 'high' }, 200]]);
      const pin = await ctl.pinState(2, 3);
      pin.mode.should.equal('output');
      pin.output.should.equal('high');
    });

    it('bare payloads true/false, 1/0, "high"/"low" set the state of the configured pin', async () => {
      const received = await load({ pin: '2', state: 'low' });
      const payloads = [true, false, 1, 0, 'high', 'low', true];
      await sendEach(
        received,
        payloads.map((payload) => ({ payload })),
      );
      received.caught.should.have.length(0);
      received.sent.should.have.length(payloads.length);
      const log = await ctl.requests();
      log.map((e) => e.body).should.eql(['high', 'low', 'high', 'low', 'high', 'low', 'high'].map((state) => ({ pin: 2, state })));
      (await ctl.pinState(2, 2)).output.should.equal('high');
    });

    it('msg.payload {pin, state} overrides the configured values; {pin} alone keeps the configured state', async () => {
      const received = await load({ pin: '1', state: 'high' });
      await sendEach(received, [{ payload: { pin: 4, state: 'low' } }, { payload: { pin: 5 } }, { payload: { state: 'low' } }]);
      received.caught.should.have.length(0);
      (await ctl.requests())
        .map((e) => e.body)
        .should.eql([
          { pin: 4, state: 'low' },
          { pin: 5, state: 'high' },
          { pin: 1, state: 'low' },
        ]);
    });

    it('PWM from raw settings sends prescaler, period and time_on as configured', async () => {
      const received = await load({ pin: '6', mode: 'pwm', pwmInput: 'raw', prescaler: '47', period: '1000', time_on: '250' });
      await sendEach(received, [{ payload: '' }]);
      received.caught.should.have.length(0);
      (await ctl.requests()).map((e) => [e.path, e.body]).should.eql([['/api/io/0.9/2/output/pwm', { pin: 6, prescaler: 47, period: 1000, time_on: 250 }]]);
      const pin = await ctl.pinState(2, 6);
      pin.mode.should.equal('pwm');
      should(pin.pwm).eql({ prescaler: 47, period: 1000, timeOn: 250 });
      await waitStatus('out', 'green', 'dot', 'pin 6 PWM 25 %');
    });

    it('PWM from frequency and duty sends the planned timer values (1 kHz, 50 %)', async () => {
      const received = await load({ pin: '1', mode: 'pwm', pwmInput: 'frequency', frequency: '1000', duty: '50' });
      await sendEach(received, [{}]);
      received.caught.should.have.length(0);
      // 48 MHz / 1 kHz = 48,000 ticks: smallest prescaler 1 → period 24,000, half of it on.
      (await ctl.requests()).map((e) => e.body).should.eql([{ pin: 1, prescaler: 1, period: 24000, time_on: 12000 }]);
    });

    it('msg.payload with prescaler/period/time_on switches a state node to PWM for that msg', async () => {
      const received = await load({ pin: '2', mode: 'state', state: 'high' });
      await sendEach(received, [
        { payload: { prescaler: 479, period: 100, time_on: 10 } },
        { payload: { pin: 3, period: 200, prescaler: 479, time_on: 150 } },
        { payload: true },
      ]);
      received.caught.should.have.length(0);
      (await ctl.requests())
        .map((e) => [e.path, e.body])
        .should.eql([
          ['/api/io/0.9/2/output/pwm', { pin: 2, prescaler: 479, period: 100, time_on: 10 }],
          ['/api/io/0.9/2/output/pwm', { pin: 3, prescaler: 479, period: 200, time_on: 150 }],
          ['/api/io/0.9/2/output/state', { pin: 2, state: 'high' }],
        ]);
    });

    it('keeps every other msg property, sets payload to the answer and msg.request to what was sent', async () => {
      const received = await load({ pin: '1', state: 'high' });
      const custom = { nested: { a: [1, 2, 3] } };
      const msg = { payload: { pin: 4, state: 'low' }, topic: 'line/4', custom, parts: { id: 'p1', index: 0, count: 1 } };
      await sendEach(received, [msg]);
      received.sent.should.have.length(1);
      const out = received.sent[0];
      out.topic!.should.equal('line/4');
      should(out.custom).eql({ nested: { a: [1, 2, 3] } });
      should(out.parts).eql({ id: 'p1', index: 0, count: 1 });
      should(out._msgid).be.a.String();
      should(out.payload).eql({ status: 'success' });
      should(out.request).eql(wireRequest({ method: 'POST', path: '/api/io/0.9/2/output/state', body: { pin: 4, state: 'low' } }));
    });

    it('status: blue dot while requesting, then green dot "pin N high"', async () => {
      const received = await load({ pin: '3', state: 'high' });
      await ctl.fault({ path: 'output/state', latency_ms: 300, count: 1 });
      inject({ payload: true });
      await waitStatus('out', 'blue', 'dot', 'pin 3 high');
      received.sent.should.have.length(0);
      await waitOutcomes(received, 1);
      await waitStatus('out', 'green', 'dot', 'pin 3 high');
      const history = statusHistory(helper.getNode('out'));
      const blue = history.findIndex((s) => s.fill === 'blue' && s.shape === 'dot');
      const green = history.findIndex((s) => s.fill === 'green' && s.shape === 'dot' && s.text === 'pin 3 high');
      blue.should.be.above(-1);
      green.should.be.above(blue);
      history[history.length - 1].should.eql({ fill: 'green', shape: 'dot', text: 'pin 3 high' });
    });
  });

  describe('validation: the error reaches Catch and nothing reaches the simulator', () => {
    const cases: Array<[string, unknown, RegExp]> = [
      ['pin 0', { pin: 0, state: 'high' }, /Pin \(pin\) must be an integer from 1 to 6, got 0/],
      ['pin 7', { pin: 7 }, /Pin \(pin\) must be an integer from 1 to 6, got 7/],
      ['pin as text', { pin: '2' }, /Pin \(pin\) must be an integer from 1 to 6, got "2"/],
      ['pin 1.5', { pin: 1.5 }, /Pin \(pin\) must be an integer from 1 to 6, got 1\.5/],
      ['state "on"', { state: 'on' }, /State \(state\) must be one of high, low, got "on"/],
      ['state "HIGH"', { state: 'HIGH' }, /State \(state\) must be one of high, low, got "HIGH"/],
      ['state true inside the object', { state: true }, /State \(state\) must be one of high, low, got true/],
      ['a bare word other than high/low', 'toggle', /msg\.payload must be .*got "toggle"/],
      ['an array', [1, 0], /msg\.payload must be a state or an object, got an array/],
      ['state and PWM at once', { state: 'high', period: 100 }, /either state or prescaler\/period\/time_on, not both/],
      ['prescaler 0', { prescaler: 0, period: 100, time_on: 10 }, /Prescaler \(prescaler\) must be an integer from 1 to 65534, got 0/],
      ['prescaler 65535', { prescaler: 65535, period: 100, time_on: 10 }, /Prescaler \(prescaler\) must be an integer from 1 to 65534, got 65535/],
      ['period 1', { prescaler: 47, period: 1, time_on: 1 }, /period must be an integer from 2 to 65535 ticks, got 1/],
      ['period 65536', { prescaler: 47, period: 65536, time_on: 1 }, /period must be an integer from 2 to 65535 ticks, got 65536/],
      ['time_on 0', { prescaler: 47, period: 100, time_on: 0 }, /time_on must be an integer from 1 to 98 \(below period − 1\), got 0/],
      ['time_on = period − 1', { prescaler: 47, period: 100, time_on: 99 }, /time_on must be an integer from 1 to 98 .*got 99/],
      ['PWM above 1 MHz', { prescaler: 1, period: 4, time_on: 1 }, /PWM frequency must be at most 1000000 Hz, got 6000000 Hz/],
      ['prescaler as text', { prescaler: '47', period: 100, time_on: 10 }, /Prescaler \(prescaler\) must be an integer from 1 to 65534, got "47"/],
    ];

    it('every invalid msg.payload fails with INVALID_INPUT naming field and range; no request is sent', async () => {
      const received = await load({ pin: '1', state: 'high' });
      for (const [i, [, payload]] of cases.entries()) {
        inject({ payload, topic: `case ${i}` });
        await waitOutcomes(received, i + 1);
      }
      received.sent.should.have.length(0);
      received.caught.should.have.length(cases.length);
      for (const [i, [name, , pattern]] of cases.entries()) {
        const msg = received.caught[i];
        should(msg.topic).equal(`case ${i}`, name);
        msg.error.source.id.should.equal('out');
        expectCode(msg.error, 'INVALID_INPUT', name);
        msg.error.message.should.match(pattern, `${name}: ${msg.error.message}`);
      }
      (await ctl.log()).should.eql([], 'no device request at all');
      await waitStatus('out', 'red', 'ring', 'Prescaler (prescaler) must be an integer from 1 to 65534');
    });

    it('one error per invalid msg: nothing more arrives later', async () => {
      const received = await load({ pin: '1', state: 'high' });
      inject({ payload: { pin: 9 } });
      await waitOutcomes(received, 1);
      await sleep(200);
      received.caught.should.have.length(1);
      received.sent.should.have.length(0);
    });

    it('an invalid setting (pin 9) shows at deploy and fails every msg without a request', async () => {
      const received = await load({ pin: '9', state: 'high' });
      // The connection is fine; the node's own problem stays on its dot.
      await waitStatus('out', 'red', 'ring', 'Pin (pin) must be an integer from 1 to 6, got 9');
      inject({ payload: true });
      await waitOutcomes(received, 1);
      expectCode(received.caught[0].error, 'INVALID_INPUT');
      received.caught[0].error.message.should.match(/Pin \(pin\) must be an integer from 1 to 6, got 9/);
      (await ctl.log()).should.eql([]);
    });

    it('a PWM frequency above 1 MHz in the settings is refused at deploy', async () => {
      const received = await load({ mode: 'pwm', pwmInput: 'frequency', frequency: '2000000', duty: '50' });
      await waitStatus('out', 'red', 'ring', 'Frequency (frequency) must be an integer from 1 to');
      inject({});
      await waitOutcomes(received, 1);
      expectCode(received.caught[0].error, 'INVALID_INPUT');
      (await ctl.log()).should.eql([]);
    });

    it('settings from environment variables are checked at runtime (${MD_TEST_PIN})', async () => {
      process.env.MD_TEST_PIN = '9';
      try {
        const received = await load({ pin: '${MD_TEST_PIN}', state: 'high' });
        await waitStatus('out', 'red', 'ring', 'Pin (pin) must be an integer from 1 to 6, got 9');
        inject({ payload: true });
        await waitOutcomes(received, 1);
        expectCode(received.caught[0].error, 'INVALID_INPUT');
        (await ctl.log()).should.eql([]);
        await helper.unload();
        process.env.MD_TEST_PIN = '5';
        const ok = await load({ pin: '${MD_TEST_PIN}', state: 'high' });
        await sendEach(ok, [{ payload: true }]);
        ok.caught.should.have.length(0);
        (await ctl.requests()).map((e) => e.body).should.eql([{ pin: 5, state: 'high' }]);
      } finally {
        delete process.env.MD_TEST_PIN;
      }
    });

    it('no config node: NOT_CONFIGURED through Catch, red ring', async () => {
      const flow = ioFlow({ url: sim.url }, { device: '' }).filter((n) => n.type !== 'modular-device');
      const received = await loadFlow(flow);
      await waitStatus('out', 'red', 'ring', 'no device configured');
      inject({ payload: true });
      await waitOutcomes(received, 1);
      expectCode(received.caught[0].error, 'NOT_CONFIGURED');
      received.caught[0].error.message.should.match(/no device configured/);
      (await ctl.log()).should.eql([]);
    });

    it('an unusable config node (slot "x") fails msgs with its problem and shows it', async () => {
      const flow = ioFlow({ url: sim.url, slot: 'x' });
      const received = await loadFlow(flow);
      await waitStatus('out', 'red', 'ring', 'invalid: Slot (slot) must be an integer from 0 to 65535');
      inject({ payload: true });
      await waitOutcomes(received, 1);
      expectCode(received.caught[0].error, 'NOT_CONFIGURED');
      received.caught[0].error.message.should.match(/device: Slot \(slot\) must be an integer from 0 to 65535, got "x"/);
      (await ctl.log()).should.eql([]);
    });
  });
});
