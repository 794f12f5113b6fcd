/**
 * io-threshold against the simulator: `input/mode` analog then `input/analog/threshold`,
 * in that order (or the threshold alone with analogFirst off), from a msg and on connect;
 * every invalid value fails through Catch with nothing sent; device refusals reach Catch
 * with their status; and a crossing made through the control API sets the notification
 * that notification-poll then delivers (end to end).
 */
import should from 'should';
import { expectCode, helper, statusHistory, waitFor, waitStatus } from '../helpers/node-red';
import { runtimeSuite } from '../helpers/runtime-suite';
import { wirePath, wireRequest } from '../helpers/api';
import { ActionDef, deviceCall, httpStatus, ioModule, loadActions, loadActionsQuiet, send, setPin, wire } from '../helpers/io-nodes';

const MODE = '/api/io/0.9/2/input/mode';
const THRESHOLD = '/api/io/0.9/2/input/analog/threshold';

function threshold(settings: Record<string, unknown> = {}): ActionDef {
  return { id: 'thr', type: 'io-threshold', pin: '3', threshold_mV: '2000', trigger: 'rising', analogFirst: true, applyOnConnect: false, ...settings };
}

describe('io-threshold (runtime, simulator)', function () {
  this.timeout(15000);
  const { sim, ctl } = runtimeSuite();

  it('a msg sends input/mode analog, then the threshold, in that order; the answer goes out on the msg', async () => {
    const outcomes = await loadActionsQuiet(ctl, [threshold()]);
    const msg = { payload: 'go', topic: 'arm', custom: { keep: [1, 2] } };
    should(await send(outcomes, 'thr', msg)).be.undefined();
    (await wire(ctl)).should.eql([
      ['POST', MODE, { pin: 3, mode: 'analog' }],
      ['POST', THRESHOLD, { pin: 3, threshold_mV: 2000, trigger: 'rising' }],
    ]);
    const out = outcomes.sent('thr');
    out.should.have.length(1);
    out[0].should.containEql({ payload: { status: 'success' }, topic: 'arm', custom: { keep: [1, 2] } });
    should(out[0].request).eql([
      wireRequest({ method: 'POST', path: MODE, body: { pin: 3, mode: 'analog' } }),
      wireRequest({ method: 'POST', path: THRESHOLD, body: { pin: 3, threshold_mV: 2000, trigger: 'rising' } }),
    ]);
    const pin = (await ioModule(ctl)).pins[2];
    pin.mode.should.equal('analog');
    should(pin.threshold).eql({ mv: 2000, trigger: 'rising' });
    await waitStatus('thr', 'green', 'dot', 'pin 3 rising 2000 mV');
  });

  it('analogFirst off sends the threshold alone', async () => {
    const outcomes = await loadActionsQuiet(ctl, [threshold({ analogFirst: false, trigger: 'falling', threshold_mV: '50' })]);
    await send(outcomes, 'thr', { payload: 1 });
    outcomes.caught.should.have.length(0);
    (await wire(ctl)).should.eql([['POST', THRESHOLD, { pin: 3, threshold_mV: 50, trigger: 'falling' }]]);
  });

  it('msg.payload {pin, threshold_mV, trigger} overrides the settings, field by field', async () => {
    const outcomes = await loadActionsQuiet(ctl, [threshold()]);
    await send(outcomes, 'thr', { payload: { pin: 6, threshold_mV: 25000, trigger: 'falling' } });
    await send(outcomes, 'thr', { payload: { trigger: 'disabled' } });
    outcomes.caught.should.have.length(0);
    (await wire(ctl)).should.eql([
      ['POST', MODE, { pin: 6, mode: 'analog' }],
      ['POST', THRESHOLD, { pin: 6, threshold_mV: 25000, trigger: 'falling' }],
      ['POST', MODE, { pin: 3, mode: 'analog' }],
      ['POST', THRESHOLD, { pin: 3, threshold_mV: 2000, trigger: 'disabled' }],
    ]);
    await waitStatus('thr', 'green', 'dot', 'pin 3 threshold off');
  });

  it('applies the setting when the module connects (deploy), mode first; not with applyOnConnect off', async () => {
    const outcomes = await loadActions(sim.url, [
      threshold({ id: 'on', pin: '1', threshold_mV: '1500', applyOnConnect: true }),
      threshold({ id: 'off', pin: '2' }),
    ]);
    await waitStatus('on', 'green', 'dot', 'pin 1 rising 1500 mV');
    // Both nodes learnt of the connection at the same moment: had 'off' applied its setting
    // too, its requests would sit in the module's queue before this msg's.
    await send(outcomes, 'off', { payload: { trigger: 'disabled' } });
    (await wire(ctl)).should.eql([
      ['POST', MODE, { pin: 1, mode: 'analog' }],
      ['POST', THRESHOLD, { pin: 1, threshold_mV: 1500, trigger: 'rising' }],
      ['POST', MODE, { pin: 2, mode: 'analog' }],
      ['POST', THRESHOLD, { pin: 2, threshold_mV: 2000, trigger: 'disabled' }],
    ]);
    should((await ioModule(ctl)).pins[0].threshold).eql({ mv: 1500, trigger: 'rising' });
    outcomes.caught.should.have.length(0);
  });

  describe('validation: one error in Catch, nothing sent', () => {
    const cases: Array<[string, unknown, RegExp]> = [
      ['pin 0', { pin: 0 }, /Pin \(pin\) must be an integer from 1 to 6, got 0/],
      ['pin 7', { pin: 7 }, /Pin \(pin\) must be an integer from 1 to 6, got 7/],
      ['pin as text', { pin: '3' }, /Pin \(pin\) must be an integer from 1 to 6, got "3"/],
      ['threshold 49 mV', { threshold_mV: 49 }, /Threshold \(threshold_mV\) must be an integer from 50 to 25000 mV, got 49/],
      ['threshold 25001 mV', { threshold_mV: 25001 }, /Threshold \(threshold_mV\) must be an integer from 50 to 25000 mV, got 25001/],
      ['threshold 2000.5 mV', { threshold_mV: 2000.5 }, /Threshold \(threshold_mV\) must be an integer from 50 to 25000 mV, got 2000.5/],
      ['threshold as text', { threshold_mV: '2000' }, /Threshold \(threshold_mV\) must be an integer .* got "2000"/],
      [
        'threshold out of range with trigger disabled',
        { threshold_mV: 0, trigger: 'disabled' },
        /Threshold \(threshold_mV\) must be an integer from 50 to 25000/,
      ],
      ['trigger "both"', { trigger: 'both' }, /Trigger \(trigger\) must be one of disabled, rising, falling, got "both"/],
    ];
    it('every invalid override', async () => {
      const outcomes = await loadActionsQuiet(ctl, [threshold()]);
      for (const [name, payload, pattern] of cases) {
        const caught = await send(outcomes, 'thr', { payload, topic: name });
        should(caught).be.ok();
        caught!.topic!.should.equal(name);
        expectCode(caught!.error, 'INVALID_INPUT', name);
        caught!.error.source.id.should.equal('thr');
        caught!.error.message.should.match(pattern, `${name}: ${caught!.error.message}`);
      }
      outcomes.caught.should.have.length(cases.length);
      outcomes.sent('thr').should.have.length(0);
      (await wire(ctl)).should.eql([]);
      await waitStatus('thr', 'red', 'ring', 'Trigger (trigger) must be one of');
    });

    it('an invalid setting shows at deploy, is not applied on connect, and fails every msg', async () => {
      const outcomes = await loadActionsQuiet(ctl, [threshold({ threshold_mV: '10', applyOnConnect: true })]);
      const caught = await send(outcomes, 'thr', { payload: {} });
      caught!.error.message.should.match(/Threshold \(threshold_mV\) must be an integer from 50 to 25000 mV, got 10/);
      (await wire(ctl)).should.eql([]);
      outcomes.caught.should.have.length(1);
      statusHistory(helper.getNode('thr'))
        .some((s) => s.fill === 'red' && /threshold_mV/.test(s.text ?? ''))
        .should.be.true();
    });
  });

  describe('device errors reach Catch with the status and the device message', () => {
    it('the device refuses a threshold on a digital pin (analogFirst off): 400 Invalid mode', async () => {
      await deviceCall(ctl, 'POST', MODE, { pin: 3, mode: 'digital' });
      const outcomes = await loadActionsQuiet(ctl, [threshold({ analogFirst: false })]);
      const caught = await send(outcomes, 'thr', { payload: {} });
      should(caught).be.ok();
      expectCode(caught!.error, 'DEVICE_ERROR');
      caught!.error.cause!.should.containEql({ statusCode: 400, deviceMessage: 'Invalid mode', method: 'POST', path: wirePath(THRESHOLD) });
      outcomes.sent('thr').should.have.length(0);
      await waitStatus('thr', 'red', 'ring', httpStatus(400));
    });

    it('a failing input/mode stops the pair: the threshold is not sent', async () => {
      const outcomes = await loadActionsQuiet(ctl, [threshold()]);
      await ctl.fault({ path: '/input/mode', status: 503, message: 'driver busy', count: 1 });
      const caught = await send(outcomes, 'thr', { payload: {} });
      caught!.error.cause!.should.containEql({ statusCode: 503, deviceMessage: 'driver busy', path: wirePath(MODE) });
      (await ctl.requests()).map((e) => [e.path, e.status]).should.eql([[MODE, 503]]);
    });
  });

  it('end to end: a crossing made through the control API reaches notification-poll as custom_voltage_alert', async () => {
    const outcomes = await loadActionsQuiet(ctl, [
      threshold({ pin: '4', threshold_mV: '2000', trigger: 'rising' }),
      { id: 'poll', type: 'notification-poll', interval: '100', pins: '', alerts: '', combined: false },
    ]);
    await setPin(ctl, 2, 4, { voltage_mV: 1000 });
    await send(outcomes, 'thr', { payload: {} });
    outcomes.caught.should.have.length(0);
    // Below the threshold: no alert yet. Then cross it from below.
    await setPin(ctl, 2, 4, { voltage_mV: 2500 });
    await waitFor(() => outcomes.sent('poll').length >= 1, 'the notification msg');
    const [msg] = outcomes.sent('poll');
    msg.topic!.should.equal('pin/4');
    should(msg.alerts).eql(['custom_voltage_alert']);
    should(msg.payload).eql({ pin: 4, under_voltage_alert: false, high_voltage_alert: false, high_current_alert: false, custom_voltage_alert: true });
    // A fall below a rising threshold is no crossing: the next polls bring nothing new.
    await setPin(ctl, 2, 4, { voltage_mV: 500 });
    const polled = (await ctl.requests()).length;
    await waitFor(async () => (await ctl.requests()).length >= polled + 3, 'three more polls');
    outcomes.sent('poll').should.have.length(1);
  });
});
