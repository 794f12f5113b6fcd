/**
 * Health as data: what happens to the modules, published once for whoever listens (the
 * device-status node, metrics, the fleet, the alarms). Publishers are the shared code that
 * notices it: the connection (state changes, resets), reconciliation (settings re-applied),
 * the keep-alive (late alives), notification-poll (flags lost), the client (queue above its
 * threshold).
 *
 * One bus per process: a listener hears every module of every config node and filters by
 * `module.config` when it wants one.
 */
import type { ExchangeInfo } from '../device/exchange-info';
import type { ApiVersion } from '../pure/limits';
import type { HEALTH_KINDS } from '../pure/facts';
import type { Same } from '../pure/same-type';
import type { ConnectionStateName } from './connection-state';
import { t } from '../base/i18n';

/** The kinds, listed once in the pure layer (the device-status dialog lists them too). */
export type HealthKind = (typeof HEALTH_KINDS)[number];

/**
 * Each kind's facts, as its publisher tells them and device-status sends them as
 * `payload.detail` (a kind without facts: none, device-status sends `{}`).
 */
export interface HealthDetails {
  connection: { state: 'connected'; apiVersion: ApiVersion } | { state: Exclude<ConnectionStateName, 'connected'> };
  reset: undefined;
  /** The settings put back after a reset, and how many of them failed. */
  reapplied: { settings: number; failed: number };
  'keepalive-late': { since_ms: number; timeout_ms: number; reset_in_ms: number };
  /** ISO times of the window whose alerts may have been cleared unread. */
  'notifications-lost': { pins: number[]; from: string; to: string };
  /** The queue alarm's edges (module-health.ts queueEdges) and the depth that crossed one. */
  queue: { queued: number; limit: number; rise: number; fall: number };
}

/** Fails to compile when a kind lacks its facts here, or the facts name a kind HEALTH_KINDS lacks. */
const EVERY_KIND_DETAILED: Same<keyof HealthDetails, HealthKind> = true;
void EVERY_KIND_DETAILED;

export interface HealthModule {
  /** The config node's id. */
  config: string;
  service: string;
  slot: number;
  /** host[:port][/prefix] of the device: never credentials. */
  device: string;
}

/** One event of one kind: `kind` tells the compiler which facts `detail` holds. */
export type HealthEventOf<K extends HealthKind> = {
  kind: K;
  module: HealthModule;
  /** What happened, in words (e.g. "unreachable: connection refused", "driver_session changed"). */
  cause: string;
  /** ISO time of the event. */
  time: string;
} & (HealthDetails[K] extends undefined ? { detail?: undefined } : { detail: HealthDetails[K] });

export type HealthEvent = { [K in HealthKind]: HealthEventOf<K> }[HealthKind];

/** A filter that narrows: `events.filter(ofKind('connection'))` holds connection events only. */
export const ofKind =
  <K extends HealthKind>(kind: K) =>
  (event: HealthEvent): event is Extract<HealthEvent, { kind: K }> =>
    event.kind === kind;

/** A kind's facts as publish takes them: none for a kind without. */
type DetailArgs<K extends HealthKind> = HealthDetails[K] extends undefined ? [] : [detail: HealthDetails[K]];

/** Says a listener's failure; `text` is in the runtime's language and names the error. */
export type Report = (text: string) => void;

/** Where a listener's failure goes when its subscriber names no place: Node's own warnings (stderr). */
const processWarning: Report = (text) => process.emitWarning(text, 'ModularDeviceWarning');

/** A listener and where its failure is said; `failed`: said once already. */
interface Heard<F> {
  listener: F;
  report: Report;
  failed: boolean;
}

type Listener = (event: HealthEvent) => void;
const listeners = new Set<Heard<Listener>>();

/** Tells every listener; a listener that throws does not stop the others. */
export function publish<K extends HealthKind>(kind: K, module: HealthModule, cause: string, ...detail: DetailArgs<K>): void {
  if (!listeners.size) return;
  // The one place an event is built: DetailArgs<K> already tied the facts to the kind.
  const event = { kind, module, cause, time: new Date().toISOString(), ...(detail.length ? { detail: detail[0] } : {}) } as HealthEvent;
  tell(listeners, event, undefined, kind);
}

/**
 * Tells each listener; a listener's own failure is its own: the news still reaches the others
 * (and never the request it is about). The failure is said once per listener, where its
 * subscriber asked: a listener that fails fails on every event, and tallies come per request.
 */
function tell<A, B>(to: ReadonlySet<Heard<(a: A, b: B) => void>>, a: A, b: B, what: string): void {
  for (const heard of to) {
    try {
      heard.listener(a, b);
    } catch (error) {
      if (heard.failed) continue;
      heard.failed = true;
      try {
        heard.report(t('common.listenerFailed', { what, error: error instanceof Error ? error.message : String(error) }));
      } catch {
        // A report that fails too has nowhere left to go; the others still hear the news.
      }
    }
  }
}

/** Starts listening; returns the stop. `report` says the listener's failure (once), e.g. `node.error`. */
export function subscribe(listener: Listener, report: Report = processWarning): () => void {
  const heard = { listener, report, failed: false };
  listeners.add(heard);
  return () => listeners.delete(heard);
}

/**
 * Tallies: facts too frequent for health events, for counters (metrics): every exchange of a
 * module's client (the client's own ExchangeInfo, passed on as it is: no object is made per
 * exchange for metrics) and every alert delivered. No listener (no metrics loaded): one size check.
 */
export type Tally = ExchangeInfo | { kind: 'alerts'; count: number };

type TallyListener = (module: HealthModule, tally: Tally) => void;
const tallyListeners = new Set<Heard<TallyListener>>();

/** Whether anyone counts: callers skip building the tally when not. */
export function counting(): boolean {
  return tallyListeners.size > 0;
}

export function tally(module: HealthModule, fact: Tally): void {
  tell(tallyListeners, module, fact, fact.kind);
}

/** Starts counting; returns the stop. `report` as for subscribe. */
export function onTally(listener: TallyListener, report: Report = processWarning): () => void {
  const heard = { listener, report, failed: false };
  tallyListeners.add(heard);
  return () => tallyListeners.delete(heard);
}
