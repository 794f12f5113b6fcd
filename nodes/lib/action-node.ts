/**
 * The scaffolding every action node uses, written once: find the config node, register
 * with its connection, turn a msg into checked device requests, send them through the
 * module's queue, put the answer on the msg, and keep the status dot truthful. Nodes that
 * apply a setting when the module connects, or that poll, declare it here too.
 *
 * An action node file then only declares its settings, how a msg becomes requests, and
 * what goes out.
 */
import { DeviceClient, DeviceRequest, DeviceResult } from './client';
import { ConnectionState } from './connection';
import { DeviceNode } from './device-settings';
import { DeviceError, statusText } from './errors';
import { isMessageId, say, t, textOf, useRuntimeLanguage } from './i18n';
import { Poller } from './poller';
import type { Service } from './limits';
import type { DoneFn, Node, NodeAPI, NodeDef, NodeMessage, NodeStatus, SendFn } from './red';

/** What one msg (or one poll round) asks of the device. */
export interface Operation {
  /** One request, or several sent back to back in one turn of the queue. */
  requests: DeviceRequest | DeviceRequest[];
  /** Instead of `requests`: a conversation that needs the answers as it goes (e.g. a fallback). */
  run?: (client: DeviceClient) => Promise<DeviceResult>;
  /** Status text once it succeeded, e.g. `pin 3 high`. */
  done: string;
  /** Status text while it runs; defaults to `done` with an ellipsis. */
  running?: string;
  /** What the node's `output` needs to know about this operation (e.g. which pin was asked). */
  meta?: Record<string, unknown>;
}

/** What goes out for an answer: msgs for the output (none to send nothing) and the status text. */
export interface Outcome {
  msgs: NodeMessage[];
  status?: string;
}

export interface ActionSpec<S> {
  /** Reads the node's settings from the editor (text) once per deploy; throws on a bad one. */
  settings(def: NodeDef): S;
  /**
   * The requests for a msg: fields of `msg.payload` (the spec's names) over the settings,
   * every value checked against limits.ts. Throws a DeviceError (INVALID_INPUT) naming
   * field, value and range; then nothing is sent. Returns undefined when the msg was a
   * command the node handled itself (e.g. `stop`).
   */
  build(msg: NodeMessage, settings: S, node: ActionNode): Operation | undefined;
  /** What to send for an answer; by default the msg with `payload` and `request` set. */
  output?(result: DeviceResult, msg: NodeMessage, settings: S, op: Operation): Outcome;
  /** Whether `build` may be tried with an empty msg at deploy to show a bad setting at once. */
  checkOnDeploy?: boolean;
  /** The service the node talks to; a config node for another one is refused at deploy. */
  service?: Service;
  /** A setting to apply each time the module (re)connects: on deploy and after a device restart. */
  onConnect?(settings: S): Operation | undefined;
  /** The device's service restarted (API 1.0 driver_session changed): state on the device is gone. */
  onRestart?(node: ActionNode, settings: S): void;
  /** Polling: the interval (0 = off) and what one round sends. */
  poll?: {
    interval(settings: S): number;
    build(settings: S): Operation;
    /** false: keep the pace while failing (a keep-alive must not slow down). */
    backoff?: boolean;
  };
}

export interface ActionNode extends Node {
  device?: DeviceNode;
  /** The node's poller, when it polls (for start/stop commands). */
  poller?: Poller;
  /** Shows a status of the node's own (kept while connected). */
  report(status: NodeStatus): void;
}

const STATUS_TEXT_MAX = 60;
/** A request still running after this long shows the blue "requesting" dot. */
export const BUSY_STATUS_DELAY_MS = 50;

export function short(text: string): string {
  return text.length > STATUS_TEXT_MAX && !isMessageId(text) ? `${text.slice(0, STATUS_TEXT_MAX - 3)}...` : text; // an id: the editor says it
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

function asDeviceError(error: unknown, code: DeviceError['code']): DeviceError {
  return error instanceof DeviceError ? error : new DeviceError(String((error as Error)?.message ?? error), { code });
}

/** The default output: the incoming msg with the device's answer and what was sent. */
function defaultOutput(result: DeviceResult, msg: NodeMessage): Outcome {
  msg.payload = result.data;
  msg.request = result.request;
  return { msgs: [msg] };
}

export function registerActionNode<S>(RED: NodeAPI, type: string, spec: ActionSpec<S>): void {
  // Status texts and errors of every node in the runtime's language (see i18n.ts `t`).
  useRuntimeLanguage(RED);
  function ActionNodeConstructor(this: ActionNode, def: NodeDef) {
    RED.nodes.createNode(this, def);
    const node = this;
    node.device = (typeof def.device === 'string' && (RED.nodes.getNode(def.device) as DeviceNode | null)) || undefined;
    const output = spec.output ?? defaultOutput;

    let settings: S | undefined;
    let settingsProblem: string | undefined;
    try {
      const service = node.device?.connection?.client.service;
      if (spec.service && service && service !== spec.service) {
        throw new DeviceError(t('common.wrongService', { type, service: spec.service, chosen: service }), { code: 'NOT_CONFIGURED' });
      }
      settings = spec.settings(def);
      if (spec.checkOnDeploy) spec.build({}, settings, node);
    } catch (error) {
      settingsProblem = error instanceof Error ? error.message : String(error);
    }

    let connection: ConnectionState = { state: 'connecting' };
    let inFlight = 0;
    let busyTimer: NodeJS.Timeout | undefined;
    let busyText = '';
    const idle = () => {
      clearTimeout(busyTimer);
      busyTimer = undefined;
    };
    /** The node's own last outcome; shown whenever the connection is fine. */
    let own: NodeStatus | undefined = settingsProblem ? { fill: 'red', shape: 'ring', text: short(settingsProblem) } : undefined;
    let shown = '';

    const show = () => {
      const status = connection.state !== 'connected' ? connectionStatus(connection) : own ?? connectionStatus(connection);
      // Pollers report every round: only tell the editor when something changed.
      const key = `${status.fill}|${status.shape}|${status.text}`;
      if (key === shown) return;
      shown = key;
      node.status(status);
    };
    node.report = (status) => {
      own = { ...status, text: status.text === undefined ? undefined : short(status.text) };
      if (!inFlight) show();
    };
    const fail = (error: DeviceError) => {
      own = { fill: 'red', shape: 'ring', text: short(statusText(error)) };
      show();
    };

    const client = () => node.device?.connection?.client;

    /** Runs an operation that no msg asked for (on connect, a poll round). */
    const runOwn = async (op: Operation, origin: NodeMessage = {}, fromPoll = false): Promise<void> => {
      const c = client();
      if (!c) throw noDevice(node);
      const result = await (op.run ? op.run(c) : c.request(op.requests));
      const outcome = output(result, origin, settings as S, op);
      // A poll round that ends after the poller was stopped still delivers, but the status
      // keeps saying "paused".
      if (!fromPoll || node.poller?.active) node.report({ fill: 'green', shape: 'dot', text: outcome.status ?? op.done });
      // Applying a setting on connect answers no msg: status only, nothing sent on.
      if (fromPoll) for (const m of outcome.msgs) node.send(m);
    };

    if (spec.poll && settings !== undefined && !settingsProblem) {
      const poll = spec.poll;
      const s = settings;
      const interval = poll.interval(s);
      if (interval > 0) {
        node.poller = new Poller(interval, {
          round: () => runOwn(poll.build(s), {}, true),
          // Every failed round shows (a reconnection clears a red dot, the next round must
          // set it again); Catch hears of the first one of an outage only.
          roundFailed: (error) => fail(asDeviceError(error, 'BAD_RESPONSE')),
          failed: (error) => {
            // Node-RED hands an error to Catch nodes only with a msg: give it an empty one.
            node.error(asDeviceError(error, 'BAD_RESPONSE'), {});
          },
        }, poll.backoff ?? true);
      }
    }

    const user = {
      onConnectionState(state: ConnectionState) {
        // A restarted device service (a new API 1.0 driver_session) lost what was applied: apply again.
        const restarted = state.state === 'connected' && state.restarted === true;
        const reconnected = state.state === 'connected' && (connection.state !== 'connected' || restarted);
        if (restarted && settings !== undefined) spec.onRestart?.(node, settings);
        // A reconnection clears an old transport error: the dot shows the connection again.
        if (reconnected && own?.fill === 'red' && !settingsProblem) own = undefined;
        connection = state;
        show();
        if (!reconnected || settings === undefined || settingsProblem) return;
        const op = spec.onConnect?.(settings);
        if (!op) {
          node.poller?.nudge();
          return;
        }
        runOwn(op)
          .catch((error) => {
            const err = asDeviceError(error, 'BAD_RESPONSE');
            fail(err);
            node.error(err, {});
          })
          .finally(() => {
            // The node may have been closed (redeployed) while the setting was on its way.
            if (stopped) return;
            // Polling that depends on the setting (a keep-alive needs the timeout set) starts after it.
            if (!pollingStarted) {
              pollingStarted = true;
              if (!paused) node.poller?.start();
            } else node.poller?.nudge();
          });
      },
    };
    // Nodes that apply a setting on connect start polling once it is applied; others at once.
    let pollingStarted = !spec.onConnect;
    let paused = false;
    /** Closed: nothing may start polling again (an on-connect setting may still be in flight). */
    let stopped = false;
    if (node.device) node.device.register(user);
    else node.status({ fill: 'red', shape: 'ring', text: say('status.noDevice') });
    if (pollingStarted) node.poller?.start();

    node.on('input', (msg: NodeMessage, send: SendFn, done: DoneFn) => {
      // Every polling node pauses on "stop" and resumes on "start"; a pause outlives reconnections.
      if (node.poller && (msg.payload === 'stop' || msg.payload === 'start')) {
        paused = msg.payload === 'stop';
        if (paused) node.poller.stop();
        else if (pollingStarted) node.poller.start();
        node.report(paused ? { fill: 'grey', shape: 'ring', text: say('status.paused') } : { fill: 'green', shape: 'ring', text: say('status.polling') });
        done();
        return;
      }
      const c = client();
      if (!c) {
        done(noDevice(node));
        return;
      }
      let op: Operation | undefined;
      try {
        if (settings === undefined) throw new DeviceError(settingsProblem ?? t('common.invalidSettings'), { code: 'INVALID_INPUT' });
        op = spec.build(msg, settings, node);
      } catch (error) {
        const err = asDeviceError(error, 'INVALID_INPUT');
        fail(err);
        done(err);
        return;
      }
      if (!op) {
        done();
        return;
      }
      const running = op;
      inFlight++;
      busyText = short(running.running ?? `${textOf(running.done)}...`);
      // The blue dot only for a request that takes a while: a status update per msg costs
      // more than a fast request itself, and a dot that flashes for 0.2 ms shows nothing.
      busyTimer ??= setTimeout(() => {
        busyTimer = undefined;
        if (!inFlight) return;
        node.status({ fill: 'blue', shape: 'dot', text: busyText });
        shown = '';
      }, BUSY_STATUS_DELAY_MS);
      (running.run ? running.run(c) : c.request(running.requests)).then(
        (result: DeviceResult) => {
          inFlight--;
          if (!inFlight) idle();
          let outcome: Outcome;
          try {
            outcome = output(result, msg, settings as S, running);
          } catch (error) {
            const err = asDeviceError(error, 'BAD_RESPONSE');
            fail(err);
            done(err);
            return;
          }
          own = { fill: 'green', shape: 'dot', text: short(outcome.status ?? running.done) };
          if (!inFlight) show();
          if (outcome.msgs.length === 1) send(outcome.msgs[0]);
          else if (outcome.msgs.length > 1) send([outcome.msgs]);
          done();
        },
        (error: unknown) => {
          inFlight--;
          if (!inFlight) idle();
          const err = asDeviceError(error, 'BAD_RESPONSE');
          fail(err);
          done(err);
        },
      );
    });

    node.on('close', (_removed: boolean, closed: () => void) => {
      stopped = true;
      idle();
      node.poller?.stop();
      node.device?.deregister(user);
      node.status({});
      closed();
    });
  }
  RED.nodes.registerType(type, ActionNodeConstructor);
}

/** The error a msg gets when the node has no usable device configuration. */
function noDevice(node: ActionNode): DeviceError {
  const why = node.device ? node.device.problem ?? t('common.notUsable') : t('common.noDevice');
  return new DeviceError(t('common.deviceProblem', { problem: why }), { code: 'NOT_CONFIGURED' });
}
