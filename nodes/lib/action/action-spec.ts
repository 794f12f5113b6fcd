/**
 * What an action node declares (ActionSpec) and what every action node offers its
 * declaration (ActionNode): the types of action-node.ts, apart from its scaffolding.
 */
import type { DeviceClient, DeviceResult } from '../device/client';
import type { DeviceNode } from '../config-node/device-settings';
import type { ReadBack } from '../config-node/desired-state';
import type { NoExtra, Operation, Outcome } from './operation';
import type { Service } from '../pure/limits';
import type { Node, NodeDef, NodeMessage, NodeStatus } from '../base/node-red';

/** `S`: the node's settings; `X`: what its `output` needs to know about an operation. */
export interface ActionSpec<S, X extends object = NoExtra> {
  /** Reads the node's settings from the editor (text) once per deploy; throws on a bad one. */
  settings(def: NodeDef): S;
  /**
   * The operation for a msg: fields of `msg.payload` (the spec's names) over the settings,
   * every value checked against limits.ts. Throws a DeviceError (INVALID_INPUT) naming
   * field, value and range; then nothing is sent. Returns undefined when the msg was a
   * command the node handled itself (e.g. `stop`).
   */
  build(msg: NodeMessage, settings: S, node: ActionNode): Operation<X> | undefined;
  /** What to send for an answer; by default the msg with `payload` and `request` set. */
  output?(result: DeviceResult, msg: NodeMessage, settings: S, op: Operation<X>): Outcome;
  /**
   * Whether `build` may be tried with an empty msg at deploy to show a bad setting at once;
   * a function says so per settings (not when a setting is only known from a msg).
   */
  checkOnDeploy?: boolean | ((settings: S) => boolean);
  /** The service the node talks to; a config node for another one is refused at deploy. */
  service?: Service;
  /** A setting to apply each time the module (re)connects: on deploy and after a device restart. */
  onConnect?(settings: S): Operation<X> | undefined;
  /** State kept on the device is gone: its service restarted (a new driver_session), or the module was reset or re-plugged. */
  onRestart?(node: ActionNode, settings: S, what: 'service' | 'module'): void;
  /** An accepted write re-enumerates the module (API 1.0 power-management, real §3.2 step 5): a new device_session. */
  renewsSession?: boolean;
  /** Where the on-connect setting goes in the spec's order of applying (desired-state.ts PHASE). */
  phase?: number;
  /**
   * Every msg's operation sets what onConnect sets (with other values): the last one is put
   * back after a reset. A function: whether the node's settings ask for it (io-output's
   * "restore after a reset"), for a node with nothing to apply on connect.
   */
  remembers?: boolean | ((settings: S) => boolean);
  /**
   * API 0.9's check that the setting is still on the module (a pin read back in the mode it
   * was set to): true = in place, words = gone (what the device shows), undefined = the read
   * tells nothing (config-node/read-back.ts). Absent: it cannot be read back.
   */
  readBack?(setting: Operation<X>, client: DeviceClient): Promise<ReadBack>;
  /** readBack sends the setting again and judges the answer (a write: only after an outage, when no read told). */
  readBackSends?: boolean;
  /**
   * A msg's operation sets what the module forgets on a reset but the package must not put
   * back (a watchdog armed by a msg would arm the next reset): kept to be read back (readBack)
   * after an outage as a sign. Returns the operation to keep, null to forget the kept one (it
   * proves nothing any more, e.g. the timeout saved), undefined to leave it.
   */
  witness?(op: Operation<X>): Operation<X> | null | undefined;
  /** A msg's operation resets the module: what the package set is applied again after it. */
  resetsModule?: boolean | ((op: Operation<X>) => boolean);
  /** Per-node work beside requests (e.g. a timer watching the keep-alive); returns its stop. */
  start?(node: ActionNode, settings: S): (() => void) | undefined;
  /** Polling: the interval (0 = off) and what one round sends. */
  poll?: {
    interval(settings: S): number;
    /**
     * What one round sends: built once, at the first round (the settings are fixed until a
     * redeploy). `deliver` sends msgs on before the round's answer (notification-poll's
     * alerts as each pin's read arrives), as `output`'s msgs go: to the successor at a redeploy.
     */
    build(settings: S, deliver: (msgs: NodeMessage[]) => void): Operation<X>;
    /** false: keep the pace while failing (a keep-alive must not slow down). */
    backoff?: boolean;
    /**
     * What a round reads is gone from the device once read (notifications): on close the
     * node waits for a round on the wire (bounded by the request timeout) and hands its
     * msgs to the node that takes its place after a redeploy (hand-over.ts).
     */
    handOver?: boolean;
  };
}

export interface ActionNode extends Node {
  device?: DeviceNode;
  /** Shows a status of the node's own (kept while connected). */
  report(status: NodeStatus): void;
  /** Shows (or clears) a conflict with another deployed node as a yellow status (sidebar/runtime/conflict-status.ts). */
  conflict(text: string | undefined): void;
  /** The node's own exchange found its setting gone from the module, in words: a sign it forgot (connection.ts settingGone). */
  settingGone(proof: string): void;
}
