/**
 * The status dot of an action node, so that it tells the truth: the connection while it is
 * not fine, else the node's own last outcome; a blue dot only for a request that takes a
 * while; and the editor told only when something changed.
 *
 * Owns every piece of state the dot depends on (connection, own outcome, requests in
 * flight, the busy timer) and talks to Node-RED through one function, `node.status`.
 */
import type { ConnectionState } from '../config-node/connection';
import { DeviceError, statusText } from '../base/errors';
import { isMessageId, say } from '../base/i18n';
import type { NodeStatus } from '../base/node-red';
import { busyStatusOf, StatusTexts } from './operation';
import { BUSY_STATUS_DELAY_MS, BusyWatch, busyWatch, Watched } from './busy-watch';

export { BUSY_STATUS_DELAY_MS } from './busy-watch';

const STATUS_TEXT_MAX = 60;

export function short(text: string): string {
  // A message id is never cut: the editor turns it into words.
  return text.length > STATUS_TEXT_MAX && !isMessageId(text) ? `${text.slice(0, STATUS_TEXT_MAX - 3)}...` : text;
}

/** The status dot for a connection state. */
export function connectionStatus(state: ConnectionState): NodeStatus {
  switch (state.state) {
    case 'connecting':
      return { fill: 'yellow', shape: 'ring', text: say('status.connecting') };
    case 'connected':
      return { fill: 'green', shape: 'ring', text: say('status.connected', { api: state.apiVersion }) };
    default:
      return { fill: 'red', shape: 'ring', text: short(say(`status.${state.state}`, { reason: state.reason })) };
  }
}

export class NodeStatusDot implements Watched {
  private connection: ConnectionState = { state: 'connecting' };
  /** The node's own last outcome; shown whenever the connection is fine. */
  private own?: NodeStatus;
  private inFlight = 0;
  /** Whether the busy watch looks at this dot (see `started`). */
  private watched = false;
  private closed = false;
  /** When the msgs in flight now began to be in flight (the watch's clock). */
  private busySince = 0;
  /** What the blue dot would say: the text, or the operation it is said from (only if shown). */
  private busy: string | StatusTexts = '';
  /** A conflict with another deployed node (sidebar/runtime/conflict-status.ts): yellow while connected, unless the node failed. */
  private conflict?: string;
  /** The conflict's status, made when it is set (shown for every msg while it lasts). */
  private conflictStatus?: NodeStatus;
  /** The node's own status as the last success made it, and that success's text. */
  private success?: NodeStatus;
  private successText?: string;
  /** What the editor shows now; undefined when unknown (after the blue dot). */
  private shown?: NodeStatus;

  constructor(
    /** `node.status`. */
    private readonly setStatus: (status: NodeStatus) => void,
    /** A bad setting found at deploy: shown at once, and no reconnection clears it. */
    private readonly settingsProblem?: string,
    /** The process's watch, or a test's on a hand clock. */
    private readonly watch: BusyWatch = busyWatch,
  ) {
    if (settingsProblem) this.own = { fill: 'red', shape: 'ring', text: short(settingsProblem) };
  }

  /**
   * Takes a new connection state and shows it; returns whether the module (re)connected:
   * connected after another state, or its service restarted (API 1.0, a new driver_session).
   */
  connectionIs(state: ConnectionState): boolean {
    const restarted = state.state === 'connected' && state.restarted === true;
    const reconnected = state.state === 'connected' && (this.connection.state !== 'connected' || restarted);
    // A reconnection clears an old transport error: the dot shows the connection again.
    if (reconnected && this.own?.fill === 'red' && !this.settingsProblem) this.own = undefined;
    this.connection = state;
    this.show();
    return reconnected;
  }

  /** A status of the node's own (kept while connected); waits while a msg is in flight. */
  report(status: NodeStatus): void {
    // Fields named, not spread: a spread followed by a property costs V8 a runtime call, and a
    // write whose state alternates reports a new text for every msg.
    this.own = { fill: status.fill, shape: status.shape, text: status.text === undefined ? undefined : short(status.text) };
    if (!this.inFlight) this.show();
  }

  /** Sets or clears (undefined) the node's conflict with another deployed node. */
  conflictIs(text: string | undefined): void {
    const conflict = text === undefined ? undefined : short(text);
    // Nothing new: the dot stays as it is (a node without a module keeps its own red status).
    if (conflict === this.conflict) return;
    this.conflict = conflict;
    this.conflictStatus = conflict === undefined ? undefined : { fill: 'yellow', shape: 'ring', text: conflict };
    if (!this.inFlight) this.show();
  }

  /** An operation succeeded with this status text. */
  succeeded(text: string): void {
    // A poller succeeds every round with the same words: the status it shows is kept.
    if (this.own !== undefined && this.own === this.success && text === this.successText) {
      if (!this.inFlight) this.show();
      return;
    }
    this.report({ fill: 'green', shape: 'dot', text });
    this.success = this.own;
    this.successText = text;
  }

  /** Something failed: shown at once, even while other msgs are in flight. */
  failed(error: DeviceError): void {
    this.own = { fill: 'red', shape: 'ring', text: short(statusText(error)) };
    this.show();
  }

  /** A msg's operation went on its way; `busy` is its busy status, or the operation to say it from. */
  started(busy: string | StatusTexts): void {
    if (!this.inFlight++) this.busySince = this.watch.now();
    this.busy = busy;
    // The blue dot only for a request that takes a while: a status update per msg costs
    // more than a fast request itself, and a dot that flashes for 0.2 ms shows nothing.
    // The process's one watch looks (busy-watch.ts): a timer per node, even one per busy
    // stretch, cost a wakeup of the event loop per msg of a node driven at 10 Hz.
    if (!this.watched && !this.closed) {
      this.watched = true;
      this.watch.add(this);
    }
  }

  /** A msg's operation ended (either way); the outcome follows through succeeded/failed. */
  finished(): void {
    this.inFlight--;
  }

  /** The watch's look (busy-watch.ts): the blue dot once a msg has been in flight for the delay. */
  busyCheck(now: number): boolean {
    if (!this.inFlight || this.closed) return (this.watched = false);
    if (now - this.busySince < BUSY_STATUS_DELAY_MS) return true;
    this.watched = false;
    this.setStatus({ fill: 'blue', shape: 'dot', text: short(typeof this.busy === 'string' ? this.busy : busyStatusOf(this.busy)) });
    this.shown = undefined;
    return false;
  }

  /** The node is closing: the dot cleared (the watch drops it at its next look). */
  close(): void {
    // The watch drops the dot at its next look.
    this.closed = true;
    this.setStatus({});
  }

  private show(): void {
    const c = this.connection;
    // A failure (red) says more than the conflict; the conflict more than a success.
    const conflict = this.own?.fill !== 'red' ? this.conflictStatus : undefined;
    const status = c.state !== 'connected' ? connectionStatus(c) : (conflict ?? this.own ?? connectionStatus(c));
    // Pollers report every round: only tell the editor when something changed.
    const was = this.shown;
    if (was && was.fill === status.fill && was.shape === status.shape && was.text === status.text) return;
    this.shown = status;
    this.setStatus(status);
  }
}
