/**
 * Time as the package's timers see it: `later(job, ms)` runs a job after a delay and returns
 * its cancel. Code that waits takes a `Later`, so tests drive it with a hand clock
 * (test/helpers/hand-clock.ts) instead of real time.
 */

/** Runs `job` after `ms`; returns what cancels it. */
export type Later = (job: () => void, ms: number) => () => void;

/** Real timers. */
export const realLater: Later = (job, ms) => {
  const timer = setTimeout(job, ms);
  return () => clearTimeout(timer);
};
