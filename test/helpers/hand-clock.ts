/**
 * A `later` (status-dot.ts) whose jobs run when the test says so: the busy dot's delay is
 * then a step of the test, not a race with the machine's speed.
 */
import type { Later } from '../../nodes/lib/base/clock';

export interface HandClock {
  later: Later;
  /** Jobs scheduled and not cancelled, with the delay each asked for. */
  pending(): Array<{ ms: number }>;
  /** Runs every pending job now. */
  fire(): void;
}

export function handClock(): HandClock {
  const jobs: Array<{ job: () => void; ms: number; cancelled: boolean }> = [];
  return {
    later: (job, ms) => {
      const entry = { job, ms, cancelled: false };
      jobs.push(entry);
      return () => {
        entry.cancelled = true;
      };
    },
    pending: () => jobs.filter((j) => !j.cancelled),
    fire: () => {
      for (const entry of jobs.splice(0)) if (!entry.cancelled) entry.job();
    },
  };
}
