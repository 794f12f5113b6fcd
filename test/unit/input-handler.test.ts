/**
 * The input handler on its own: one msg in, what it sends, what `done` gets and what the
 * status dot shows. Requests go through a real DeviceClient to the simulator over
 * loopback; `send`, `done` and `node.status` are functions that record their calls.
 */
import should from 'should';
import { Simulator, startSimulator } from '../../simulator';
import { DeviceClient, DeviceResult } from '../../nodes/lib/device/client';
import { Operation, Outcome } from '../../nodes/lib/action/operation';
import { DeviceError, invalidInput } from '../../nodes/lib/base/errors';
import { InputContext, inputHandler } from '../../nodes/lib/action/input-handler';
import { Pollable, PollingLifecycle } from '../../nodes/lib/action/polling-lifecycle';
import { BUSY_STATUS_DELAY_MS, NodeStatusDot } from '../../nodes/lib/action/status-dot';
import { BusyWatch } from '../../nodes/lib/action/busy-watch';
import type { NodeMessage, NodeStatus } from '../../nodes/lib/base/node-red';
import { handClock } from '../helpers/hand-clock';

const IO_SLOT = 2;
const READ_VALUES: Operation = { kind: 'requests', requests: { method: 'GET', endpoint: ['input', 'values'] }, status: 'values read' };

interface Setup {
  build: InputContext<object>['build'];
  output?: InputContext<object>['output'];
  client?: DeviceClient;
  poller?: Pollable;
}

/** Handled: what was sent, and what done() got. */
interface Handled {
  sent: unknown[];
  error?: Error;
}

function handlerFor(setup: Setup) {
  const statuses: NodeStatus[] = [];
  const clock = handClock();
  const dot = new NodeStatusDot((status) => statuses.push(status), undefined, new BusyWatch(clock));
  dot.connectionIs({ state: 'connected', apiVersion: '0.9' });
  statuses.length = 0;
  const handle = inputHandler({
    client: () => setup.client,
    noDevice: () => new DeviceError('no device configured', { code: 'NOT_CONFIGURED' }),
    build: setup.build,
    output: setup.output ?? ((result, msg) => ({ msgs: [{ ...msg, payload: result.data }] })),
    dot,
    polling: new PollingLifecycle(setup.poller, false),
  });
  const receive = (msg: NodeMessage): Promise<Handled> =>
    new Promise((resolve) => {
      const sent: unknown[] = [];
      handle(
        msg,
        (m) => sent.push(m),
        (error) => resolve({ sent, error }),
      );
    });
  return { receive, statuses, clock };
}

describe('inputHandler', () => {
  let sim: Simulator;
  let client: DeviceClient;
  before(async () => {
    sim = await startSimulator();
    client = new DeviceClient({ url: sim.url, service: 'io', slot: IO_SLOT, apiVersion: '0.9' });
  });
  after(async () => {
    client.close();
    await sim.close();
  });
  beforeEach(() => sim.log.clear());

  it("sends the operation's requests, passes the answer to output, sends its msg and calls done()", async () => {
    const { receive, statuses } = handlerFor({ client, build: () => READ_VALUES });
    const { sent, error } = await receive({ topic: 't' });
    should(error).be.undefined();
    sent.should.have.length(1);
    (sent[0] as NodeMessage).should.have.properties({ topic: 't' });
    should((sent[0] as { payload: { pins?: unknown } }).payload.pins).be.an.Array();
    sim.log
      .entries()
      .map((e) => `${e.method} ${e.path}`)
      .should.eql([`GET /api/io/0.9/${IO_SLOT}/input/values`]);
    statuses.should.eql([{ fill: 'green', shape: 'dot', text: 'values read' }]);
  });

  it('a msg the build refuses: done(err) with INVALID_INPUT, a red ring, nothing sent to the device', async () => {
    const { receive, statuses } = handlerFor({
      client,
      build: () => {
        throw invalidInput('pin must be 1 to 6, got 9');
      },
    });
    const { sent, error } = await receive({ payload: { pin: 9 } });
    should(error).be.instanceOf(DeviceError);
    should((error as DeviceError).code).equal('INVALID_INPUT');
    sent.should.eql([]);
    sim.log.entries().should.eql([]);
    statuses.should.eql([{ fill: 'red', shape: 'ring', text: 'pin must be 1 to 6, got 9' }]);
  });

  it('no device: done(err) with the reason, the build never asked', async () => {
    let built = false;
    const { receive } = handlerFor({
      build: () => {
        built = true;
        return READ_VALUES;
      },
    });
    const { error } = await receive({});
    should(error?.message).equal('no device configured');
    built.should.be.false();
  });

  it('a msg the node handled itself (build gives nothing): done() and nothing else', async () => {
    const { receive, statuses } = handlerFor({ client, build: () => undefined });
    const { sent, error } = await receive({});
    should(error).be.undefined();
    sent.should.eql([]);
    statuses.should.eql([]);
    sim.log.entries().should.eql([]);
  });

  it('"stop" and "start" go to a polling node\'s lifecycle, not to the device', async () => {
    const calls: string[] = [];
    const poller: Pollable = { active: true, start: () => calls.push('start'), stop: () => calls.push('stop'), nudge: () => calls.push('nudge') };
    const { receive, statuses } = handlerFor({ client, poller, build: () => READ_VALUES });
    should((await receive({ payload: 'stop' })).error).be.undefined();
    await receive({ payload: 'start' });
    calls.should.eql(['stop', 'start']);
    statuses.map((s) => s.fill).should.eql(['grey', 'green']);
    sim.log.entries().should.eql([]);
  });

  it('a conversation that fails with a plain error: done(err) as a BAD_RESPONSE DeviceError', async () => {
    const failing: Operation = {
      kind: 'conversation',
      run: async () => {
        throw new Error('odd answer');
      },
      status: 'never',
    };
    const { receive, statuses } = handlerFor({ client, build: () => failing });
    const { sent, error } = await receive({});
    should((error as DeviceError).code).equal('BAD_RESPONSE');
    should(error?.message).equal('odd answer');
    sent.should.eql([]);
    statuses.should.eql([{ fill: 'red', shape: 'ring', text: 'odd answer' }]);
  });

  it('a device refusal keeps its own DeviceError', async () => {
    const refused: Operation = {
      kind: 'requests',
      requests: { method: 'POST', endpoint: ['output', 'state'], body: { pin: 3, state: 'high' } },
      status: 'pin 3 high',
    };
    const { receive } = handlerFor({ client, build: () => refused });
    const { error } = await receive({});
    should((error as DeviceError).code).equal('DEVICE_ERROR');
    should((error as DeviceError).statusCode).be.within(400, 499);
  });

  it('an output that cannot use the answer: done(err) as BAD_RESPONSE, nothing sent', async () => {
    const output = (): Outcome => {
      throw new Error('no pins in the answer');
    };
    const { receive } = handlerFor({ client, build: () => READ_VALUES, output });
    const { sent, error } = await receive({});
    should((error as DeviceError).code).equal('BAD_RESPONSE');
    sent.should.eql([]);
  });

  it("several msgs from output go out in one send, all on the node's one output; the output's status text wins", async () => {
    const output = (_result: DeviceResult, msg: NodeMessage): Outcome => ({
      msgs: [
        { ...msg, n: 1 },
        { ...msg, n: 2 },
      ],
      status: '2 pins',
    });
    const { receive, statuses } = handlerFor({ client, build: () => READ_VALUES, output });
    const { sent } = await receive({});
    sent.should.eql([[[{ n: 1 }, { n: 2 }]]]);
    statuses.should.eql([{ fill: 'green', shape: 'dot', text: '2 pins' }]);
  });

  it('an operation still running after the busy delay shows its busy text', async () => {
    let answer!: (result: DeviceResult) => void;
    const slow: Operation = {
      kind: 'conversation',
      run: () => new Promise((resolve) => (answer = resolve)),
      status: 'fan at 60 %',
      busyStatus: 'fan to 60 %',
    };
    const { receive, statuses, clock } = handlerFor({ client, build: () => slow });
    const handled = receive({});
    clock.advance(BUSY_STATUS_DELAY_MS);
    statuses.should.eql([{ fill: 'blue', shape: 'dot', text: 'fan to 60 %' }]);
    answer({ data: {}, request: { method: 'GET', path: '/fan' } });
    should((await handled).error).be.undefined();
    statuses[1].should.eql({ fill: 'green', shape: 'dot', text: 'fan at 60 %' });
  });
});
