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

/** Real timers that never keep the process alive: a watch beside work that holds it itself. */
export const backgroundLater: Later = (job, ms) => {
  const timer = setTimeout(job, ms).unref();
  return () => clearTimeout(timer);
};

/** Time for code that also asks the hour: a monotonic `now` (ms) and timers on it; a test's hand clock drives both. */
export interface Clock {
  now(): number;
  later: Later;
}

/** The real monotonic clock (performance.now()) and real timers. */
export const realClock: Clock = { now: () => performance.now(), later: realLater };
