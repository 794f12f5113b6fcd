/**
 * io-reset against the simulator: `GET reset` only when a msg asks and "confirm" is on;
 * refused (error in Catch, nothing sent) without confirm; never run on deploy; device
 * errors reach Catch.
 */
import should from 'should';
import { expectCode, waitStatus } from '../helpers/node-red';
import { runtimeSuite } from '../helpers/runtime-suite';
import { wireRequest } from '../helpers/api';
import { ActionDef, deviceCall, httpStatus, ioModule, loadActions, send, wire } from '../helpers/io-nodes';

const RESET = '/api/io/0.9/2/reset';

function reset(settings: Record<string, unknown> = {}): ActionDef {
  return { id: 'rs', type: 'io-reset', confirm: true, ...settings };
}

describe('io-reset (runtime, simulator)', function () {
  this.timeout(15000);
  const { sim, ctl } = runtimeSuite();
  beforeEach(async () => {
    // Something to reset: power management set and pin 4 digital.
    await ctl.powerConfig(2);
    await deviceCall(ctl, 'POST', '/api/io/0.9/2/input/mode', { pin: 4, mode: 'digital' });
    await ctl.clearLog();
  });

  it('without confirm: refused, one error in Catch, nothing sent, the module untouched', async () => {
    const outcomes = await loadActions(sim.url, [reset({ confirm: false })]);
    const caught = await send(outcomes, 'rs', { payload: true, topic: 'reset' });
    should(caught).be.ok();
    caught!.topic!.should.equal('reset');
    expectCode(caught!.error, 'INVALID_INPUT');
    caught!.error.source.id.should.equal('rs');
    // The shared refusal, quoting the dialog's checkbox.
    caught!.error.message.should.equal(
      'InvalidInputError: "reset" refused: tick "Confirm: reset the module when a msg arrives" in the node\'s dialog to allow it',
    );
    outcomes.caught.should.have.length(1);
    outcomes.sent('rs').should.have.length(0);
    (await wire(ctl)).should.eql([]);
    (await ioModule(ctl)).pins[3].mode.should.equal('digital');
    await waitStatus('rs', 'red', 'ring', '"reset" refused: tick');
  });

  it('never runs on deploy, even with confirm on', async () => {
    const outcomes = await loadActions(sim.url, [reset(), { id: 'rd', type: 'io-read', source: 'values', pin: '4', interval: '0', output: 'record' }]);
    // Had io-reset sent anything when the module connected, it would be queued before this read.
    await send(outcomes, 'rd', {});
    (await wire(ctl)).should.eql([['GET', '/api/io/0.9/2/input/values', null]]);
    const io = await ioModule(ctl);
    io.pins[3].mode.should.equal('digital');
    should(io.powerConfig).not.be.null();
    outcomes.sent('rs').should.have.length(0);
  });

  it('with confirm on, a msg resets the module: GET reset, every pin analog, power management gone', async () => {
    const outcomes = await loadActions(sim.url, [reset()]);
    should(await send(outcomes, 'rs', { payload: 'go', topic: 'maintenance', keep: [1] })).be.undefined();
    (await wire(ctl)).should.eql([['GET', RESET, null]]);
    const io = await ioModule(ctl);
    io.pins.map((p: { mode: string }) => p.mode).should.eql(['analog', 'analog', 'analog', 'analog', 'analog', 'analog']);
    should(io.powerConfig).be.null();
    const [out] = outcomes.sent('rs');
    out.should.containEql({ payload: { status: 'success' }, topic: 'maintenance', keep: [1] });
    should(out.request).eql(wireRequest({ method: 'GET', path: RESET }));
    await waitStatus('rs', 'green', 'dot', 'module reset');
  });

  it('a device error reaches Catch with status and message', async () => {
    const outcomes = await loadActions(sim.url, [reset()]);
    await ctl.fault({ path: '/reset', status: 500, message: 'Internal driver communication failed', count: 1 });
    const caught = await send(outcomes, 'rs', {});
    expectCode(caught!.error, 'DEVICE_ERROR');
    const sent = wireRequest({ method: 'GET', path: RESET });
    caught!.error.cause!.should.containEql({ statusCode: 500, deviceMessage: 'Internal driver communication failed', method: sent.method, path: sent.path });
    (await ioModule(ctl)).pins[3].mode.should.equal('digital');
    await waitStatus('rs', 'red', 'ring', httpStatus(500));
  });
});
