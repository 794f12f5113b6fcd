/**
 * What a config node tells about its module, beside its users' statuses: every connection
 * change and the queue alarm as health events (health.ts), and Node-RED metric events
 * per request (`request` latency ms, `error` code, `queue` depth) when metrics are on.
 *
 * It hears the connection as one more ConnectionUser and each HTTP exchange through the
 * client's exchange event (device/client-events.ts): it asks the device nothing of its own.
 */
import type { Connection, ConnectionState, ConnectionUser } from './connection';
import type { ExchangeInfo } from '../device/exchange-info';
import { counting, HealthDetails, HealthModule, publish, tally } from './health';
import { QUEUE_HEALTH } from '../pure/limits';
import { say, t, textOf } from '../base/i18n';

/** The slice of a Node-RED node that emits metrics: `metric()` says whether they are on. */
export interface MetricNode {
  id: string;
  metric(): boolean;
  metric(event: string, msg: Record<string, unknown>, value: unknown): void;
}

/**
 * A connection state in words for a health event's cause, in the runtime's language: the
 * words of its status dot (the state, and why when there is a why), and a service restart.
 */
export function connectionCause(state: ConnectionState): string {
  if (state.state === 'connected') {
    const status = say('status.connected', { api: state.apiVersion });
    return state.restarted ? t('common.serviceRestarted', { status }) : status;
  }
  // A fixed status (connecting) is its message id: the cause is words for every listener.
  return textOf(say(`status.${state.state}`, 'reason' in state ? { reason: state.reason } : undefined));
}

/** A connection state's facts for a health event: the state, and the API version once connected. */
export function connectionDetail(state: ConnectionState): HealthDetails['connection'] {
  return state.state === 'connected' ? { state: state.state, apiVersion: state.apiVersion } : { state: state.state };
}

/**
 * The queue alarm's two edges for a queue limit: raised when more than `rise` wait, cleared
 * when fewer than `fall` do. The gap keeps a queue that hovers near the edge from flapping.
 */
export function queueEdges(limit: number): { rise: number; fall: number } {
  return { rise: Math.floor((limit * QUEUE_HEALTH.risePercent) / 100), fall: Math.ceil((limit * QUEUE_HEALTH.fallPercent) / 100) };
}

export class ModuleHealth implements ConnectionUser {
  private module?: HealthModule;
  private queueHigh = false;
  private lastState?: string;
  private readonly edges: { rise: number; fall: number };

  constructor(
    private readonly node: MetricNode,
    private readonly queueLimit: number,
  ) {
    this.edges = queueEdges(queueLimit);
  }

  /** Starts hearing the connection; its current state is the first event. */
  watch(connection: Connection): void {
    this.module = connection.healthModule;
    connection.register(this);
  }

  onConnectionState(state: ConnectionState): void {
    if (!this.module) return;
    // Each failed retry tells the users again (its reason may differ: refused, then a
    // timeout); a fleet wants the change of state, not the echo. A restart is a change.
    const detail = connectionDetail(state);
    const key = JSON.stringify(detail);
    if (key === this.lastState && !(state.state === 'connected' && state.restarted)) return;
    this.lastState = key;
    publish('connection', this.module, connectionCause(state), detail);
  }

  /** Hears the client's exchange event: never throws (the client calls it on its answer path). */
  readonly onExchange = (info: ExchangeInfo): void => {
    try {
      this.queueAlarm(info.queued);
      // Prometheus counters (nodes/fleet/metrics.ts) hear every exchange when loaded.
      if (this.module && counting()) tally(this.module, info);
      if (!this.node.metric()) return;
      // Node-RED logs each as {level: 99, nodeid, event: "node.modular-device.<name>", value}.
      this.node.metric('request', {}, info.ms);
      if (!info.ok) this.node.metric('error', {}, info.code);
      this.node.metric('queue', {}, info.queued);
    } catch {
      // Health and metrics are news about the module, never a reason to fail its request.
    }
  };

  private queueAlarm(queued: number): void {
    if (!this.module) return;
    // Every exchange passes here; only an edge builds anything.
    if (!this.queueHigh && queued > this.edges.rise) {
      this.queueHigh = true;
      publish('queue', this.module, t('common.cause.queueHigh', { count: this.edges.rise }), this.queueDetail(queued));
    } else if (this.queueHigh && queued < this.edges.fall) {
      this.queueHigh = false;
      publish('queue', this.module, t('common.cause.queueBack', { count: this.edges.fall }), this.queueDetail(queued));
    }
  }

  private queueDetail(queued: number): HealthDetails['queue'] {
    return { queued, limit: this.queueLimit, ...this.edges };
  }
}
