/**
 * A bounded FIFO queue of async jobs with a fixed number running at once (one by default).
 *
 * Requests to one module must leave in arrival order: a write of `high` then `low` must end
 * `low`, and with one job at a time the second cannot overtake the first on the wire. The
 * bound is on the jobs waiting (not counting those running): a job that finds the queue full
 * is refused at once, so memory stays bounded and nothing is dropped silently.
 *
 * A job may carry a deadline (its msg's timeout, counted from its arrival): a command that
 * leaves after its msg has ended would switch a pin long after anyone asked. A job whose
 * deadline passes while it waits is refused at that moment (one timer for the whole queue,
 * aimed at the earliest deadline), and one whose turn comes too late never starts.
 */
import { Clock, realClock } from '../base/clock';

export class QueueFullError extends Error {
  constructor(readonly limit: number) {
    super(`queue full: ${limit} requests are already waiting for this module`);
  }
}

/** The job's deadline passed before it could start: it never ran. */
export class DeadlinePassedError extends Error {
  constructor() {
    super('its deadline passed before its turn');
  }
}

/** Time for the queue: a monotonic `now` and a timer; a test drives both by hand. */
export type QueueClock = Clock;

export const realQueueClock: QueueClock = realClock;

interface Job<T> {
  run: () => Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
  deadline: number;
}

export class RequestQueue {
  // A plain array with a moving head: O(1) amortised shift without a dependency. A job
  // refused for its deadline while waiting leaves a hole (undefined), skipped when reached.
  private waiting: Array<Job<unknown> | undefined> = [];
  private head = 0;
  private holes = 0;
  /**
   * Jobs with a reserved place ahead of every waiting job (settings put back on the module,
   * config-node/desired-state.ts): not counted against the limit, so a queue full of users' msgs
   * never refuses them. Few by construction (one reconciliation per module at a time).
   */
  private ahead: Array<Job<unknown>> = [];
  private running = 0;
  private idleWaiters: Array<() => void> = [];
  /** The deadline timer: when it fires, and what cancels it. */
  private alarm?: { at: number; cancel: () => void };

  constructor(
    private readonly limit: number,
    private readonly concurrency = 1,
    private readonly clock: QueueClock = realQueueClock,
    /**
     * The error a job gets when the queue refuses it (full, or its deadline came first):
     * the owner's own words, made here so that no promise per job is spent translating.
     */
    private readonly refusal: (error: QueueFullError | DeadlinePassedError) => Error = (error) => error,
  ) {}

  /** Jobs waiting to start. */
  get size(): number {
    return this.waiting.length - this.head - this.holes;
  }

  /** Jobs started and not yet settled. */
  get active(): number {
    return this.running;
  }

  /**
   * Runs `run` after every job added before it has started; rejects at once when full, and
   * with DeadlinePassedError (never running it) when `deadline` (clock time) comes first.
   */
  add<T>(run: () => Promise<T>, deadline = Infinity): Promise<T> {
    if (this.size >= this.limit) return Promise.reject(this.refusal(new QueueFullError(this.limit)));
    if (deadline <= this.clock.now()) return Promise.reject(this.refusal(new DeadlinePassedError()));
    if (this.running < this.concurrency && !this.ahead.length && this.size === 0) {
      // Nothing waits and there is room: the job starts now and its own promise is the
      // answer (no job record, no promise around it: most msgs find the queue so).
      const result = this.launch(run);
      // Attached first, so the next job starts before the caller hears of this one, as below.
      result.then(this.ended, this.ended);
      return result;
    }
    return new Promise<T>((resolve, reject) => {
      this.waiting.push({ run, resolve, reject, deadline } as Job<unknown>);
      this.next();
      if (this.size > 0 && deadline < (this.alarm?.at ?? Infinity)) this.arm(deadline);
    });
  }

  /** Runs `run` before every waiting job (after those already ahead); never refused for room. */
  addAhead<T>(run: () => Promise<T>, deadline = Infinity): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.ahead.push({ run, resolve, reject, deadline } as Job<unknown>);
      this.next();
    });
  }

  /** Resolves once no job is running (at once when none is). */
  idle(): Promise<void> {
    if (this.running === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Refuses every waiting job with `error` (the node closed; the module stopped answering),
   * given how many they are; returns that number. The queue goes on taking jobs.
   */
  clear(error: Error | ((count: number) => Error)): number {
    const jobs = [...this.ahead, ...this.waiting.slice(this.head).filter((job): job is Job<unknown> => job !== undefined)];
    this.ahead = [];
    this.waiting = [];
    this.head = 0;
    this.holes = 0;
    this.disarm();
    const refusal = typeof error === 'function' ? error(jobs.length) : error;
    for (const job of jobs) job.reject(refusal);
    return jobs.length;
  }

  private next(): void {
    while (this.running < this.concurrency && (this.ahead.length > 0 || this.size > 0)) {
      const job = this.ahead.shift() ?? this.take();
      if (!job) {
        this.holes--;
        continue;
      }
      // Its timer may not have fired yet (a busy event loop): the deadline holds all the same.
      if (job.deadline <= this.clock.now()) {
        job.reject(this.refusal(new DeadlinePassedError()));
        continue;
      }
      this.start(job);
    }
    if (this.size === 0) this.disarm();
  }

  /** The first waiting job (undefined where a refused one left a hole). */
  private take(): Job<unknown> | undefined {
    const job = this.waiting[this.head];
    this.waiting[this.head++] = undefined;
    if (this.head > 1024 && this.head * 2 > this.waiting.length) {
      this.waiting = this.waiting.slice(this.head);
      this.head = 0;
    }
    return job;
  }

  /** Counts the job as running and runs it; a job that throws is a rejected one. */
  private launch<T>(run: () => Promise<T>): Promise<T> {
    this.running++;
    try {
      return run();
    } catch (error) {
      return Promise.reject(error);
    }
  }

  private start(job: Job<unknown>): void {
    // One reaction per job (not then + finally): every msg passes here.
    this.launch(job.run).then(
      (value) => {
        job.resolve(value);
        this.ended();
      },
      (error: unknown) => {
        job.reject(error);
        this.ended();
      },
    );
  }

  private readonly ended = (): void => {
    this.running--;
    this.next();
    if (this.running === 0 && this.idleWaiters.length) for (const wake of this.idleWaiters.splice(0)) wake();
  };

  private arm(at: number): void {
    this.disarm();
    const cancel = this.clock.later(() => this.expire(), Math.max(0, at - this.clock.now()));
    this.alarm = { at, cancel };
  }

  private disarm(): void {
    this.alarm?.cancel();
    this.alarm = undefined;
  }

  /** Refuses every waiting job whose deadline has come; aims the timer at the next one. */
  private expire(): void {
    this.alarm = undefined;
    const now = this.clock.now();
    let earliest = Infinity;
    for (let i = this.head; i < this.waiting.length; i++) {
      const job = this.waiting[i];
      if (!job) continue;
      if (job.deadline <= now) {
        this.waiting[i] = undefined;
        this.holes++;
        job.reject(this.refusal(new DeadlinePassedError()));
      } else earliest = Math.min(earliest, job.deadline);
    }
    if (earliest < Infinity) this.arm(earliest);
  }
}
