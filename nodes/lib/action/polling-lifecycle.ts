/**
 * When an action node's poller runs: from deploy, or, for a node that applies a setting
 * when the module connects, only once that setting was applied (a keep-alive needs its
 * timeout set first); paused by a "stop" msg and resumed by "start", a pause outliving
 * reconnections; never again once the node closed, even if an on-connect setting was still
 * on its way then.
 */
import { say } from '../base/i18n';
import type { NodeStatus } from '../base/node-red';

/** What the lifecycle drives: the Poller (poller.ts). */
export interface Pollable {
  start(): void;
  stop(): void;
  /** Polls now instead of waiting out a backoff. */
  nudge(): void;
  readonly active: boolean;
}

export class PollingLifecycle {
  private started: boolean;
  private paused = false;
  private closed = false;

  constructor(
    /** None when the node does not poll (or polling is off): every call is then harmless. */
    readonly poller: Pollable | undefined,
    /** The node applies a setting on connect: polling starts after it, not at deploy. */
    waitsForConnect: boolean,
  ) {
    this.started = !waitsForConnect;
  }

  /** Deploy is done (the node registered with its connection): start unless waiting. */
  begin(): void {
    if (this.started) this.poller?.start();
  }

  /**
   * The module (re)connected. `applying` settles once the on-connect setting was applied
   * (or failed: its failure is the caller's to report; it must not reject); none: no setting.
   */
  reconnected(applying?: Promise<void>): void {
    if (!applying) {
      this.poller?.nudge();
      return;
    }
    void applying.finally(() => this.applied());
  }

  /**
   * A msg's "stop" or "start" for a polling node: pauses or resumes, and returns the status
   * to show. Undefined for any other msg, or when the node does not poll.
   */
  command(payload: unknown): NodeStatus | undefined {
    if (!this.poller || (payload !== 'stop' && payload !== 'start')) return undefined;
    this.paused = payload === 'stop';
    if (this.paused) this.poller.stop();
    else if (this.started) this.poller.start();
    return this.paused ? { fill: 'grey', shape: 'ring', text: say('status.paused') } : { fill: 'green', shape: 'ring', text: say('status.polling') };
  }

  /** Whether rounds are running (not paused, stopped or closed). */
  get active(): boolean {
    return this.poller?.active === true;
  }

  close(): void {
    this.closed = true;
    this.poller?.stop();
  }

  private applied(): void {
    // The node may have been closed (redeployed) while the setting was on its way.
    if (this.closed) return;
    if (!this.started) {
      this.started = true;
      if (!this.paused) this.poller?.start();
    } else this.poller?.nudge();
  }
}
