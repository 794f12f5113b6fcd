/**
 * RequestQueue: jobs run one at a time in arrival order, the bound counts waiting jobs
 * only and refuses at once when reached, and clear() refuses everything still waiting.
 */
import should from 'should';
import { QueueFullError, RequestQueue } from '../../nodes/lib/device/queue';

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
});
