/**
 * A msg's life (nodes/lib/device/msg-life.ts) on a hand clock (../helpers/hand-clock.ts):
 * the time an exchange may take, a call that must not leave, a slow first version read
 * bounded by the msg's deadline, and a request the module did not answer ending the msgs
 * behind it. Time moves when the test moves it; the exchanges themselves are
 * client-deadline.test.ts's, against the simulator.
 */
import should from 'should';
import { MsgLife, ModuleWay } from '../../nodes/lib/device/msg-life';
import { RequestQueue } from '../../nodes/lib/device/queue';
import { DeviceError } from '../../nodes/lib/base/errors';
import { handClock, HandClock } from '../helpers/hand-clock';
import { speak } from '../helpers/i18n';

const TIMEOUT_MS = 300;
const GET = { method: 'GET' as const, path: '/api/io/0.9/2/input/values' };

/** The way a life needs for its time (no exchange is made here: the exchanger is never reached). */
function way(clock: HandClock): ModuleWay {
  return { slot: 2, roots: { '0.9': '/api/io/0.9', '1.0': '/api/io/1.0' }, timeoutMs: TIMEOUT_MS, clock, exchanger: undefined as never, closed: false };
}

const timeout = (had: string) => new DeviceError(`GET /x: no answer within ${had}`, { code: 'TIMEOUT', method: 'GET', path: '/x' });

async function rejection(p: Promise<unknown>): Promise<DeviceError> {
  const outcome = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  should(outcome).be.instanceOf(DeviceError, 'it should have failed');
  return outcome as DeviceError;
}

describe('MsgLife: a msg timeout over its whole life, on a hand clock', () => {
  before(() => speak());

  it('an exchange gets the timeout, or what is left of the msg; none leaves once the time is up', () => {
    const clock = handClock();
    const life = new MsgLife(clock.now() + TIMEOUT_MS, way(clock));
    life.left().should.equal(TIMEOUT_MS);
    should(life.unsent(GET)).be.undefined();
    clock.advance(120);
    life.left().should.equal(180);
    clock.advance(180);
    const unsent = life.unsent(GET)!;
    unsent.code.should.equal('NOT_SENT');
    unsent.message.should.startWith(`GET ${GET.path}: `);
    unsent.message.should.containEql(`${TIMEOUT_MS} ms`);
  });

  it('a first version read that takes longer than the msg has ends NOT_SENT at the deadline; one in time is waited for, its timer gone', async () => {
    const clock = handClock();
    const slow = new MsgLife(clock.now() + TIMEOUT_MS, way(clock));
    const never = new Promise<string>(() => undefined);
    const waited = rejection(slow.within(never));
    clock
      .pending()
      .map((j) => j.ms)
      .should.eql([TIMEOUT_MS]);
    clock.advance(TIMEOUT_MS);
    (await waited).code.should.equal('NOT_SENT');

    const quick = new MsgLife(clock.now() + TIMEOUT_MS, way(clock));
    (await quick.within(Promise.resolve('1.0'))).should.equal('1.0');
    clock.pending().should.eql([], 'the deadline timer is cancelled');
  });

  it('no answer after the whole timeout: the msgs waiting behind end at once, unsent, and the rest of the job stays unsent', async () => {
    const clock = handClock();
    const queue = new RequestQueue(10, 1, clock);
    let release: () => void = () => undefined;
    const running = queue.add(() => new Promise<void>((r) => (release = r)), clock.now() + TIMEOUT_MS);
    const behind = [1, 2].map(() => rejection(queue.add(() => Promise.resolve(), clock.now() + 2 * TIMEOUT_MS)));
    const life = new MsgLife(clock.now() + TIMEOUT_MS, way(clock), queue);
    const error = timeout(`${TIMEOUT_MS} ms`);
    should(life.noted(error, TIMEOUT_MS)).equal(error);
    for (const p of behind) {
      const ended = await p;
      ended.code.should.equal('NOT_SENT');
      ended.message.should.containEql('GET /x');
      ended.message.should.match(/\b2 msgs\b/);
    }
    life.unsent(GET)!.code.should.equal('NOT_SENT', 'the next call of the same msg is not sent');
    release();
    await running;
  });

  it('no answer to a request that had only the rest of the time (it waited): the msgs behind go on; anything but a timeout is passed as it is', async () => {
    const clock = handClock();
    const queue = new RequestQueue(10, 1, clock);
    let release: () => void = () => undefined;
    const running = queue.add(() => new Promise<void>((r) => (release = r)));
    let ran = false;
    const behind = queue.add(async () => {
      ran = true;
    });
    const life = new MsgLife(clock.now() + TIMEOUT_MS, way(clock), queue);
    const refused = new DeviceError('GET /x failed: 500', { code: 'DEVICE_ERROR' });
    should(life.noted(refused, TIMEOUT_MS)).equal(refused);
    should(life.timedOut).be.undefined();
    life.noted(timeout('120 ms'), 120);
    should(life.silent).be.undefined();
    should(life.timedOut).be.ok();
    queue.size.should.equal(1, 'the msg behind still waits for its turn');
    release();
    await running;
    await behind;
    ran.should.be.true();
  });
});
