/**
 * The scaffolding every action node uses, written once: find the config node, register
 * with its connection, turn a msg into checked device requests, send them through the
 * module's queue, put the answer on the msg, and keep the status dot truthful.
 *
 * An action node file then only declares its settings, how a msg becomes requests, and
 * what the status says on success.
 */
import { DeviceRequest, DeviceResult } from './client';
import { ConnectionState } from './connection';
import { DeviceNode } from './device-settings';
import { DeviceError } from './errors';
import type { DoneFn, Node, NodeAPI, NodeDef, NodeMessage, NodeStatus, SendFn } from './red';

/** What one msg asks of the device. */
export interface Operation {
  /** One request, or several sent back to back in one turn of the queue. */
  requests: DeviceRequest | DeviceRequest[];
  /** Status text once it succeeded, e.g. `pin 3 high`. */
  done: string;
  /** Status text while it runs; defaults to `done` with an ellipsis. */
  running?: string;
}

export interface ActionSpec<S> {
  /** Reads the node's settings from the editor (text) once per deploy; throws on a bad one. */
  settings(def: NodeDef): S;
  /**
   * The requests for a msg: fields of `msg.payload` (the spec's names) over the settings,
   * every value checked against limits.ts. Throws a DeviceError (INVALID_INPUT) naming
   * field, value and range; then nothing is sent.
   */
  build(msg: NodeMessage, settings: S): Operation;
  /** Whether `build` may be tried with an empty msg at deploy to show a bad setting at once. */
  checkOnDeploy?: boolean;
}

export interface ActionNode extends Node {
  device?: DeviceNode;
}

const STATUS_TEXT_MAX = 60;

function short(text: string): string {
  return text.length > STATUS_TEXT_MAX ? `${text.slice(0, STATUS_TEXT_MAX - 3)}...` : text;
}

/** The status dot for a connection state; undefined when connected (the node's own status shows). */
export function connectionStatus(state: ConnectionState): NodeStatus {
  switch (state.state) {
    case 'connecting':
      return { fill: 'yellow', shape: 'ring', text: 'connecting' };
    case 'connected':
      return { fill: 'green', shape: 'ring', text: `connected (API ${state.apiVersion})` };
    default:
      return { fill: 'red', shape: 'ring', text: short(`${state.state}: ${state.reason}`) };
  }
}

/** The error a msg gets when the node has no usable device configuration. */
function noDevice(node: ActionNode): DeviceError {
  const why = node.device ? node.device.problem ?? 'not usable' : 'no device configured: choose a modular-device config node';
  return new DeviceError(`device: ${why}`, { code: 'NOT_CONFIGURED' });
}

export function registerActionNode<S>(RED: NodeAPI, type: string, spec: ActionSpec<S>): void {
  function ActionNodeConstructor(this: ActionNode, def: NodeDef) {
    RED.nodes.createNode(this, def);
    const node = this;
    node.device = (typeof def.device === 'string' && (RED.nodes.getNode(def.device) as DeviceNode | null)) || undefined;

    let settings: S | undefined;
    let settingsProblem: string | undefined;
    try {
      settings = spec.settings(def);
      if (spec.checkOnDeploy) spec.build({}, settings);
    } catch (error) {
      settingsProblem = error instanceof Error ? error.message : String(error);
    }

    let connection: ConnectionState = { state: 'connecting' };
    let inFlight = 0;
    /** The node's own last outcome; shown whenever the connection is fine. */
    let own: NodeStatus | undefined = settingsProblem ? { fill: 'red', shape: 'ring', text: short(settingsProblem) } : undefined;

    const show = () => {
      if (connection.state !== 'connected') node.status(connectionStatus(connection));
      else node.status(own ?? connectionStatus(connection));
    };
    const user = {
      onConnectionState(state: ConnectionState) {
        // A reconnection clears an old transport error: the dot shows the connection again.
        if (state.state === 'connected' && connection.state !== 'connected' && own?.fill === 'red' && !settingsProblem) own = undefined;
        connection = state;
        show();
      },
    };
    if (node.device) node.device.register(user);
    else node.status({ fill: 'red', shape: 'ring', text: 'no device configured' });

    node.on('input', (msg: NodeMessage, send: SendFn, done: DoneFn) => {
      const client = node.device?.connection?.client;
      if (!client) {
        done(noDevice(node));
        return;
      }
      let op: Operation;
      try {
        if (settings === undefined) throw new DeviceError(settingsProblem ?? 'invalid settings', { code: 'INVALID_INPUT' });
        op = spec.build(msg, settings);
      } catch (error) {
        const err = error instanceof DeviceError ? error : new DeviceError(String((error as Error)?.message ?? error), { code: 'INVALID_INPUT' });
        own = { fill: 'red', shape: 'ring', text: short(err.message) };
        show();
        done(err);
        return;
      }
      inFlight++;
      node.status({ fill: 'blue', shape: 'dot', text: short(op.running ?? `${op.done}...`) });
      client.request(op.requests).then(
        (result: DeviceResult) => {
          inFlight--;
          own = { fill: 'green', shape: 'dot', text: short(op.done) };
          if (!inFlight) show();
          msg.payload = result.data;
          msg.request = result.request;
          send(msg);
          done();
        },
        (error: unknown) => {
          inFlight--;
          const err = error instanceof DeviceError ? error : new DeviceError(String(error), { code: 'BAD_RESPONSE' });
          own = { fill: 'red', shape: 'ring', text: short(err.message) };
          show();
          done(err);
        },
      );
    });

    node.on('close', (_removed: boolean, closed: () => void) => {
      node.device?.deregister(user);
      node.status({});
      closed();
    });
  }
  RED.nodes.registerType(type, ActionNodeConstructor);
}
