/**
 * A `later` (status-dot.ts) whose jobs run when the test says so: the busy dot's delay is
 * then a step of the test, not a race with the machine's speed. With `now` and `advance` it
 * is also a queue's clock (queue.ts QueueClock): time moves only when the test moves it.
 */
import type { Later } from '../../nodes/lib/base/clock';

export interface HandClock {
  later: Later;
  /** Jobs scheduled and not cancelled, with the delay each asked for. */
  pending(): Array<{ ms: number }>;
  /** Runs every pending job now. */
  fire(): void;
  /** The hand clock's time, ms (starts at 1000). */
  now(): number;
  /** Moves time on by `ms`, running each job that comes due, in the order due. */
  advance(ms: number): void;
  /** Moves time on by `ms` without running anything: timers that are late (a busy event loop). */
  lag(ms: number): void;
}

export function handClock(): HandClock {
  let time = 1000;
  const jobs: Array<{ job: () => void; ms: number; at: number; cancelled: boolean }> = [];
  const pending = () => jobs.filter((j) => !j.cancelled);
  return {
    later: (job, ms) => {
      const entry = { job, ms, at: time + ms, cancelled: false };
      jobs.push(entry);
      return () => {
        entry.cancelled = true;
      };
    },
    pending,
    fire: () => {
      for (const entry of jobs.splice(0)) if (!entry.cancelled) entry.job();
    },
    now: () => time,
    advance: (ms) => {
      const until = time + ms;
      // Jobs a job schedules run too when they come due in the same step.
      for (let step = 0; ; step++) {
        if (step === 10_000) throw new Error('hand clock: jobs keep scheduling jobs within one step');
        const due = pending()
          .filter((j) => j.at <= until)
          .sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        time = Math.max(time, due.at);
        due.cancelled = true;
        jobs.splice(jobs.indexOf(due), 1);
        due.job();
      }
      time = until;
    },
    lag: (ms) => {
      time += ms;
    },
  };
}
