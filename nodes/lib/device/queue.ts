/**
 * A bounded FIFO queue of async jobs with a fixed number running at once (one by default).
 *
 * Requests to one module must leave in arrival order: a write of `high` then `low` must end
 * `low`, and with one job at a time the second cannot overtake the first on the wire. The
 * bound is on the jobs waiting (not counting those running): a job that finds the queue full
 * is refused at once, so memory stays bounded and nothing is dropped silently.
 */
export class QueueFullError extends Error {
  constructor(readonly limit: number) {
    super(`queue full: ${limit} requests are already waiting for this module`);
  }
}

interface Job<T> {
  run: () => Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

export class RequestQueue {
  // A plain array with a moving head: O(1) amortised shift without a dependency.
  private waiting: Array<Job<unknown> | undefined> = [];
  private head = 0;
  private running = 0;
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly limit: number,
    private readonly concurrency = 1,
  ) {}

  /** Jobs waiting to start. */
  get size(): number {
    return this.waiting.length - this.head;
  }

  /** Jobs started and not yet settled. */
  get active(): number {
    return this.running;
  }

  /** Runs `run` after every job added before it has started; rejects at once when full. */
  add<T>(run: () => Promise<T>): Promise<T> {
    if (this.size >= this.limit) return Promise.reject(new QueueFullError(this.limit));
    return new Promise<T>((resolve, reject) => {
      this.waiting.push({ run, resolve, reject } as Job<unknown>);
      this.next();
    });
  }

  /** Resolves once no job is running (at once when none is). */
  idle(): Promise<void> {
    if (this.running === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Refuses every waiting job with `error` (used when the node closes). */
  clear(error: Error): void {
    const jobs = this.waiting.slice(this.head);
    this.waiting = [];
    this.head = 0;
    for (const job of jobs) job?.reject(error);
  }

  private next(): void {
    while (this.running < this.concurrency && this.size > 0) {
      const job = this.waiting[this.head]!;
      this.waiting[this.head++] = undefined;
      if (this.head > 1024 && this.head * 2 > this.waiting.length) {
        this.waiting = this.waiting.slice(this.head);
        this.head = 0;
      }
      this.running++;
      let result: Promise<unknown>;
      try {
        result = job.run();
      } catch (error) {
        result = Promise.reject(error);
      }
      result.then(job.resolve, job.reject).finally(() => {
        this.running--;
        this.next();
        if (this.running === 0) for (const wake of this.idleWaiters.splice(0)) wake();
      });
    }
  }
}
