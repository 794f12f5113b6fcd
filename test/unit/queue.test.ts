/**
 * RequestQueue: jobs run one at a time in arrival order, the bound counts waiting jobs
 * only and refuses at once when reached, clear() refuses everything still waiting, and a
 * job's deadline ends its wait.
 */
import should from 'should';
import { DeadlinePassedError, QueueFullError, RequestQueue } from '../../nodes/lib/device/queue';
import { handClock } from '../helpers/hand-clock';

/** A job whose end the test decides. */
function gate(): { run: () => Promise<string>; open: (value: string) => void; fail: (error: Error) => void; started: boolean } {
  let resolve!: (v: string) => void;
  let reject!: (e: Error) => void;
  const g = {
    started: false,
    run: () => {
      g.started = true;
      return new Promise<string>((res, rej) => {
        resolve = res;
        reject = rej;
      });
    },
    open: (value: string) => resolve(value),
    fail: (error: Error) => reject(error),
  };
  return g;
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('RequestQueue', () => {
  it('runs jobs one at a time, in the order they were added', async () => {
    const queue = new RequestQueue(100);
    const events: string[] = [];
    let running = 0;
    const jobs = Array.from({ length: 20 }, (_, i) =>
      queue.add(async () => {
        running++;
        running.should.equal(1, 'never two at once');
        events.push(`start ${i}`);
        // Later jobs finish faster: order must still hold.
        await new Promise((resolve) => setTimeout(resolve, 20 - i));
        events.push(`end ${i}`);
        running--;
        return i;
      }),
    );
    (await Promise.all(jobs)).should.eql(Array.from({ length: 20 }, (_, i) => i));
    events.should.eql(Array.from({ length: 20 }, (_, i) => [`start ${i}`, `end ${i}`]).flat());
  });

  it('starts the first job at once; size counts waiting jobs, active the running one', async () => {
    const queue = new RequestQueue(10);
    const a = gate();
    const b = gate();
    const pa = queue.add(a.run);
    const pb = queue.add(b.run);
    a.started.should.be.true();
    b.started.should.be.false();
    queue.size.should.equal(1);
    queue.active.should.equal(1);
    a.open('a');
    (await pa).should.equal('a');
    await tick();
    b.started.should.be.true();
    queue.size.should.equal(0);
    b.open('b');
    (await pb).should.equal('b');
    await tick();
    queue.active.should.equal(0);
  });

  it('refuses a job at once with QueueFullError when `limit` jobs are waiting; accepts again after draining', async () => {
    const queue = new RequestQueue(3);
    const first = gate();
    const accepted = [queue.add(first.run), queue.add(async () => 1), queue.add(async () => 2), queue.add(async () => 3)];
    queue.size.should.equal(3);
    const refused = queue.add(async () => 'never');
    const error = await refused.then(
      () => {
        throw new Error('should have been refused');
      },
      (e: unknown) => e as Error,
    );
    error.should.be.instanceOf(QueueFullError);
    (error as QueueFullError).limit.should.equal(3);
    (error as Error).message.should.equal('queue full: 3 requests are already waiting for this module');
    first.open('first');
    (await Promise.all(accepted)).should.eql(['first', 1, 2, 3]);
    (await queue.add(async () => 'again')).should.equal('again');
  });

  it('a failing job rejects only its own promise; the next jobs still run', async () => {
    const queue = new RequestQueue(10);
    const boom = new Error('boom');
    const results = await Promise.allSettled([
      queue.add(async () => 1),
      queue.add(async () => {
        throw boom;
      }),
      queue.add(() => {
        throw boom; // synchronous throw
      }),
      queue.add(async () => 4),
    ]);
    results.map((r) => r.status).should.eql(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    should((results[3] as PromiseFulfilledResult<number>).value).equal(4);
  });

  it('clear() refuses every waiting job with the given error and leaves the running one alone', async () => {
    const queue = new RequestQueue(10);
    const running = gate();
    const p0 = queue.add(running.run);
    const ran: number[] = [];
    const waiting = [1, 2, 3].map((n) => queue.add(async () => ran.push(n)));
    const closed = new Error('closed');
    queue.clear(closed);
    queue.size.should.equal(0);
    const settled = await Promise.allSettled(waiting);
    settled.map((r) => (r.status === 'rejected' ? r.reason : r.value)).should.eql([closed, closed, closed]);
    running.open('done');
    (await p0).should.equal('done');
    await tick();
    ran.should.eql([]);
    (await queue.add(async () => 'after')).should.equal('after');
  });

  it('keeps order across the internal compaction (more than 1,024 jobs)', async () => {
    const queue = new RequestQueue(5000);
    const order: number[] = [];
    await Promise.all(Array.from({ length: 3000 }, (_, i) => queue.add(async () => order.push(i))));
    order.should.eql(Array.from({ length: 3000 }, (_, i) => i));
  });

  it('with concurrency 2 runs at most two at once, starting in order', async () => {
    const queue = new RequestQueue(10, 2);
    const gates = [gate(), gate(), gate()];
    const ps = gates.map((g) => queue.add(g.run));
    gates.map((g) => g.started).should.eql([true, true, false]);
    gates[1].open('b');
    await ps[1];
    await tick();
    gates[2].started.should.be.true();
    gates[0].open('a');
    gates[2].open('c');
    (await Promise.all(ps)).should.eql(['a', 'b', 'c']);
  });

  it('a job added ahead (settings put back) is never refused for room and runs before every waiting job, after the running one', async () => {
    const queue = new RequestQueue(2);
    const running = gate();
    const order: string[] = [];
    const first = queue.add(running.run);
    const waiting = [queue.add(async () => void order.push('user 1')), queue.add(async () => void order.push('user 2'))];
    await queue.add(async () => undefined).should.be.rejectedWith(QueueFullError);
    const ahead = [queue.addAhead(async () => void order.push('setting 1')), queue.addAhead(async () => void order.push('setting 2'))];
    await tick();
    order.should.eql([], 'the running job ends first');
    running.open('done');
    await Promise.all([first, ...waiting, ...ahead]);
    order.should.eql(['setting 1', 'setting 2', 'user 1', 'user 2']);
  });

  it('clear() refuses the jobs ahead too', async () => {
    const queue = new RequestQueue(2);
    const running = gate();
    const first = queue.add(running.run);
    const ahead = queue.addAhead(async () => 'never');
    queue.clear(new Error('closed'));
    await ahead.should.be.rejectedWith('closed');
    running.open('done');
    (await first).should.equal('done');
  });
});

/**
 * Deadlines: a msg's timeout bounds its wait in the queue too. Time is the hand
 * clock's (test/helpers/hand-clock.ts): it moves only when the test moves it.
 */
describe('RequestQueue deadlines (hand clock)', () => {
  const refusal = (p: Promise<unknown>) =>
    p.then(
      () => undefined,
      (e: unknown) => e as Error,
    );

  it('a job whose deadline passes while it waits is refused at that moment and never runs; the others go on in order', async () => {
    const clock = handClock();
    const queue = new RequestQueue(10, 1, clock);
    const first = gate();
    const ran: string[] = [];
    const p0 = queue.add(first.run, clock.now() + 5000);
    const late = queue.add(async () => ran.push('late'), clock.now() + 1000);
    const patient = queue.add(async () => ran.push('patient'), clock.now() + 5000);
    const lateError = refusal(late);
    clock.advance(999);
    await tick();
    queue.size.should.equal(2, 'one ms before its deadline it still waits');
    clock.advance(1);
    (await lateError)!.should.be.instanceOf(DeadlinePassedError);
    queue.size.should.equal(1, 'the refused job no longer counts as waiting');
    first.open('first');
    (await p0).should.equal('first');
    (await patient).should.equal(1);
    ran.should.eql(['patient']);
  });

  it('a job whose turn comes after its deadline (its timer late) is refused, not started', async () => {
    const clock = handClock();
    const queue = new RequestQueue(10, 1, clock);
    const first = gate();
    const p0 = queue.add(first.run);
    let ran = false;
    const late = refusal(
      queue.add(async () => {
        ran = true;
      }, clock.now() + 100),
    );
    clock.lag(200); // the event loop was busy: the deadline timer has not fired yet
    first.open('first');
    await p0;
    (await late)!.should.be.instanceOf(DeadlinePassedError);
    ran.should.be.false();
  });

  it('a deadline already past when added: refused at once', async () => {
    const clock = handClock();
    const queue = new RequestQueue(10, 1, clock);
    let ran = false;
    const error = await refusal(
      queue.add(async () => {
        ran = true;
      }, clock.now()),
    );
    error!.should.be.instanceOf(DeadlinePassedError);
    ran.should.be.false();
  });

  it('the limit counts only jobs still waiting: a refused one frees its place', async () => {
    const clock = handClock();
    const queue = new RequestQueue(2, 1, clock);
    const first = gate();
    const p0 = queue.add(first.run);
    const a = refusal(queue.add(async () => 'a', clock.now() + 100));
    const b = queue.add(async () => 'b', clock.now() + 10000);
    (await refusal(queue.add(async () => 'c')))!.should.be.instanceOf(QueueFullError);
    clock.advance(100);
    (await a)!.should.be.instanceOf(DeadlinePassedError);
    const d = queue.add(async () => 'd', clock.now() + 10000);
    queue.size.should.equal(2);
    first.open('first');
    await p0;
    (await Promise.all([b, d])).should.eql(['b', 'd']);
  });

  it('deadlines out of order: each job is refused at its own deadline', async () => {
    const clock = handClock();
    const queue = new RequestQueue(10, 1, clock);
    const first = gate();
    const p0 = queue.add(first.run);
    const ended: string[] = [];
    const jobs = [
      ['a', 300],
      ['b', 100],
      ['c', 200],
    ].map(([name, ms]) => refusal(queue.add(async () => name, clock.now() + (ms as number))).then(() => ended.push(name as string)));
    for (const step of [100, 100, 100]) {
      clock.advance(step);
      await tick();
    }
    await Promise.all(jobs);
    ended.should.eql(['b', 'c', 'a']);
    first.open('first');
    await p0;
  });

  it('clear() with a function gets the number of jobs it refuses; the queue goes on', async () => {
    const clock = handClock();
    const queue = new RequestQueue(10, 1, clock);
    const first = gate();
    const p0 = queue.add(first.run);
    const waiting = [1, 2, 3].map((n) => refusal(queue.add(async () => n, clock.now() + 1000)));
    let told = -1;
    queue
      .clear((count) => {
        told = count;
        return new Error(`${count} not sent`);
      })
      .should.equal(3);
    told.should.equal(3);
    (await Promise.all(waiting)).map((e) => e!.message).should.eql(['3 not sent', '3 not sent', '3 not sent']);
    first.open('first');
    await p0;
    (await queue.add(async () => 'after', clock.now() + 1000)).should.equal('after');
  });

  it('leaves no timer behind once nothing waits', async () => {
    const clock = handClock();
    const queue = new RequestQueue(10, 1, clock);
    const first = gate();
    const p0 = queue.add(first.run, clock.now() + 1000);
    clock.pending().should.have.length(0, 'a running job needs no timer');
    const second = queue.add(async () => 'second', clock.now() + 1000);
    clock.pending().should.have.length(1, 'one timer for the waiting job');
    first.open('first');
    await p0;
    (await second).should.equal('second');
    clock.pending().should.have.length(0, 'nothing waits: no timer');
    await tick();
    const third = gate();
    const p3 = queue.add(third.run);
    const refused = refusal(queue.add(async () => 'x', clock.now() + 50));
    queue.clear(new Error('closed'));
    (await refused)!.message.should.equal('closed');
    clock.pending().should.have.length(0, 'cleared: no timer');
    third.started.should.be.true();
    third.open('third');
    await p3;
  });
});
