/**
 * Health as data: what happens to the modules, published once for whoever listens (the
 * device-status node, metrics). Publishers are the shared code that notices it: the
 * connection (state changes, resets), reconciliation (settings re-applied), the keep-alive
 * (late alives), notification-poll (flags lost), the client (queue above its threshold).
 *
 * One bus per process: a listener hears every module of every config node and filters by
 * `module.config` when it wants one.
 */
import type { ExchangeInfo } from '../device/exchange-info';

export type HealthKind = 'connection' | 'reset' | 'reapplied' | 'keepalive-late' | 'notifications-lost' | 'queue';

export interface HealthModule {
  /** The config node's id. */
  config: string;
  service: string;
  slot: number;
  /** host[:port][/prefix] of the device: never credentials. */
  device: string;
}

export interface HealthEvent {
  kind: HealthKind;
  module: HealthModule;
  /** What happened, in words (e.g. "unreachable: connection refused", "driver_session changed"). */
  cause: string;
  /** ISO time of the event. */
  time: string;
  /** Facts of the event, e.g. {state: 'connected', apiVersion: '1.0'} or {queued: 80, threshold: 75}. */
  detail?: Record<string, unknown>;
}

type Listener = (event: HealthEvent) => void;
const listeners = new Set<Listener>();

/** Tells every listener; a listener that throws does not stop the others. */
export function publish(kind: HealthKind, module: HealthModule, cause: string, detail?: Record<string, unknown>): void {
  if (!listeners.size) return;
  const event: HealthEvent = { kind, module, cause, time: new Date().toISOString(), ...(detail ? { detail } : {}) };
  tell(listeners, event, undefined);
}

/** Tells each listener; a listener's own failure is its own: the news still reaches the others (and never the request it is about). */
function tell<A, B>(to: ReadonlySet<(a: A, b: B) => void>, a: A, b: B): void {
  for (const listener of to) {
    try {
      listener(a, b);
    } catch {
      // see above
    }
  }
}

/** Starts listening; returns the stop. */
export function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Tallies: facts too frequent for health events, for counters (metrics): every exchange of a
 * module's client (the client's own ExchangeInfo, passed on as it is: no object is made per
 * exchange for metrics) and every alert delivered. No listener (no metrics loaded): one size check.
 */
export type Tally = ExchangeInfo | { kind: 'alerts'; count: number };

type TallyListener = (module: HealthModule, tally: Tally) => void;
const tallyListeners = new Set<TallyListener>();

/** Whether anyone counts: callers skip building the tally when not. */
export function counting(): boolean {
  return tallyListeners.size > 0;
}

export function tally(module: HealthModule, fact: Tally): void {
  tell(tallyListeners, module, fact);
}

/** Starts counting; returns the stop. */
export function onTally(listener: TallyListener): () => void {
  tallyListeners.add(listener);
  return () => tallyListeners.delete(listener);
}
