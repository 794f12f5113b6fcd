/**
 * Settings a user takes from msg, flow, global or env (typedInput in the dialog), evaluated
 * per msg with RED.util.evaluateNodeProperty, and the output property of io-read: on the
 * real runtime against the simulator. A value so taken is checked against limits.ts like a
 * typed one, and nothing is sent when it is refused.
 */
import should from 'should';
import { expectCode, helper, lastStatus, MODULES } from '../helpers/node-red';
import { runtimeSuite } from '../helpers/runtime-suite';
import { ActionDef, IO_NODE_MODULES, loadActionsQuiet, Outcomes, send, setPin, wire } from '../helpers/io-nodes';

const STATE = '/api/io/0.9/2/output/state';
const VALUES = '/api/io/0.9/2/input/values';

function output(settings: Record<string, unknown>): ActionDef {
  return { id: 'o', type: 'io-output', pin: '1', pinType: 'num', mode: 'state', state: 'high', stateType: 'state', ...settings };
}

describe('typed settings: pin and state from msg, flow, global, env; io-read output property (runtime, simulator)', function () {
  this.timeout(20000);
  const io = runtimeSuite();

  async function load(actions: ActionDef[]): Promise<Outcomes> {
    await io.ctl.powerConfig(2);
    return loadActionsQuiet(io.ctl, actions, { modules: [...IO_NODE_MODULES, MODULES.ioOutput] });
  }

  it('pin from msg.target.pin: each msg drives its own pin; a msg without it is refused by the pin limit, nothing sent', async () => {
    const outcomes = await load([output({ pin: 'target.pin', pinType: 'msg' })]);
    // Not known at deploy: no problem shown then.
    should(lastStatus(helper.getNode('o'))?.fill).not.equal('red');
    should(await send(outcomes, 'o', { payload: '', target: { pin: 4 } })).be.undefined();
    should(await send(outcomes, 'o', { payload: '', target: { pin: '6' } })).be.undefined();
    const refused = await send(outcomes, 'o', { payload: '' });
    expectCode(refused?.error, 'INVALID_INPUT', 'no msg.target.pin');
    (await wire(io.ctl)).should.eql([
      ['POST', STATE, { pin: 4, state: 'high' }],
      ['POST', STATE, { pin: 6, state: 'high' }],
    ]);
    const outOfRange = await send(outcomes, 'o', { payload: '', target: { pin: 7 } });
    expectCode(outOfRange?.error, 'INVALID_INPUT', 'pin 7');
    (await wire(io.ctl)).should.have.length(2);
  });

  it('pin from env and state from flow context: read when the msg arrives', async () => {
    process.env.MD_TYPED_TEST_PIN = '5';
    try {
      const outcomes = await load([output({ pin: 'MD_TYPED_TEST_PIN', pinType: 'env', state: 'wanted', stateType: 'flow' })]);
      const context = (helper.getNode('o') as unknown as { context(): { flow: { set(k: string, v: unknown): void } } }).context();
      context.flow.set('wanted', 'low');
      should(await send(outcomes, 'o', { payload: 1732170000000 })).be.undefined();
      context.flow.set('wanted', 'high');
      should(await send(outcomes, 'o', { payload: 1732170000000 })).be.undefined();
      context.flow.set('wanted', 'half');
      expectCode((await send(outcomes, 'o', { payload: 1732170000000 }))?.error, 'INVALID_INPUT', 'state "half"');
      (await wire(io.ctl)).should.eql([
        ['POST', STATE, { pin: 5, state: 'low' }],
        ['POST', STATE, { pin: 5, state: 'high' }],
      ]);
    } finally {
      delete process.env.MD_TYPED_TEST_PIN;
    }
  });

  it('pin from global context; msg.payload {pin} still overrides it', async () => {
    const outcomes = await load([output({ pin: 'ioPin', pinType: 'global' })]);
    (helper.getNode('o') as unknown as { context(): { global: { set(k: string, v: unknown): void } } }).context().global.set('ioPin', 2);
    should(await send(outcomes, 'o', { payload: true })).be.undefined();
    should(await send(outcomes, 'o', { payload: { pin: 3 } })).be.undefined();
    (await wire(io.ctl)).should.eql([
      ['POST', STATE, { pin: 2, state: 'high' }],
      ['POST', STATE, { pin: 3, state: 'high' }],
    ]);
  });

  it('a node saved before the typed fields (no pinType, no stateType) works as before', async () => {
    const outcomes = await load([{ id: 'o', type: 'io-output', pin: '2', mode: 'state', state: 'low' }]);
    should(await send(outcomes, 'o', { payload: '' })).be.undefined();
    (await wire(io.ctl)).should.eql([['POST', STATE, { pin: 2, state: 'low' }]]);
  });

  it('io-read puts the answer on the msg property the user chose; payload and other properties kept', async () => {
    await setPin(io.ctl, 2, 2, { voltage_mV: 1234 });
    const read = { type: 'io-read', source: 'values', interval: '0', onlyOnChange: false, deadband: '0' };
    const outcomes = await load([
      { id: 'r1', ...read, pin: '2', output: 'record', property: 'reading.now' },
      { id: 'r2', ...read, pin: 'all', output: 'per-pin', property: 'volts' },
    ]);
    should(await send(outcomes, 'r1', { payload: 'keep', reading: { before: 1 } })).be.undefined();
    const [one] = outcomes.sent('r1');
    should(one.payload).equal('keep');
    should(one.reading).eql({ before: 1, now: { pin: 2, pin_type: 'voltage_mV', value: 1234 } });
    should(await send(outcomes, 'r2', { payload: 'keep' })).be.undefined();
    const perPin = outcomes.sent('r2');
    perPin.map((m) => [m.topic, m.volts, m.payload]).should.containEql(['pin/2', 1234, 'keep']);
    perPin.should.have.length(6);
    (await wire(io.ctl)).should.eql([
      ['GET', VALUES, null],
      ['GET', VALUES, null],
    ]);
  });
});
