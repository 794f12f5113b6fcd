/**
 * The scaffolding every action node uses, written once: find the config node, register
 * with its connection, turn a msg into checked device requests, send them through the
 * module's queue, put the answer on the msg, and keep the status dot truthful. Nodes that
 * apply a setting when the module connects, or that poll, declare it here too.
 *
 * An action node file then only declares its settings, how a msg becomes an operation, and
 * what goes out. The moving parts live in their own files: what a node declares
 * (action-spec.ts), the status dot (status-dot.ts), when polling runs (polling-lifecycle.ts),
 * what a msg does (input-handler.ts).
 */
import type { DeviceResult } from '../device/client';
import type { ConnectionState } from '../config-node/connection';
import type { DeviceNode } from '../config-node/device-settings';
import { bodyOf, NoExtra, Operation, Outcome, perform } from './operation';
import { asDeviceError, DeviceError } from '../base/errors';
import { say, t, textOf, useRuntimeLanguage } from '../base/i18n';
import { afterStart, handOver, takeOver } from './hand-over';
import { DesiredSetting, isRetried, PHASE } from '../config-node/desired-state';
import { inputHandler } from './input-handler';
import { Poller } from './poller';
import { PollingLifecycle } from './polling-lifecycle';
import { NodeStatusDot } from './status-dot';
import { TrippedPins } from './tripped-pins';
import { maySuspend, pinsOf } from '../config-node/pin-trips';
import type { NodeAPI, NodeDef, NodeMessage } from '../base/node-red';
import type { ActionNode, ActionSpec } from './action-spec';

export type { ActionNode, ActionSpec } from './action-spec';

/** The default output: the incoming msg with the device's answer and what was sent. */
function defaultOutput(result: DeviceResult, msg: NodeMessage): Outcome {
  msg.payload = result.data;
  msg.request = result.request;
  return { msgs: [msg] };
}

export function registerActionNode<S, X extends object = NoExtra>(RED: NodeAPI, type: string, spec: ActionSpec<S, X>): void {
  // Status texts and errors of every node in the runtime's language (see i18n.ts `t`).
  useRuntimeLanguage(RED);
  function ActionNodeConstructor(this: ActionNode, def: NodeDef) {
    RED.nodes.createNode(this, def);
    const node = this;
    node.device = (typeof def.device === 'string' && (RED.nodes.getNode(def.device) as DeviceNode | null)) || undefined;
    const output = spec.output ?? defaultOutput;
    const { settings, problem } = deploySettings(spec, def, node, type);
    const dot = new NodeStatusDot((status) => node.status(status), problem);
    node.report = (status) => dot.report(status);
    node.conflict = (text) => dot.conflictIs(text);
    const client = () => node.device?.connection?.client;

    /** Set once the node closes; `removed`: deleted for good (no successor). */
    let closing: { removed: boolean } | undefined;
    const emit = (msgs: NodeMessage[]) => {
      if (!closing) for (const m of msgs) node.send(m);
      else if (!closing.removed) handOver(node.id, msgs);
      // Deleted for good: nobody to deliver to. Where the read consumed what it carried (a
      // notification's flags, handOver) the log says what was lost; a reading is simply read again.
      else if (msgs.length && spec.poll?.handOver)
        node.warn(t('common.closedUndelivered', { count: msgs.length, topics: msgs.map((m) => m.topic).join(', ') }));
    };

    /** What follows an answer to an operation no msg asked for (on connect, a poll round). */
    const ownAnswered = (op: Operation<X>, asked: Operation<X>, result: DeviceResult, fromPoll: boolean, restored: boolean): void => {
      const outcome = output(result, {}, settings as S, op);
      if (!fromPoll && spec.renewsSession) node.device?.connection?.ownRenewal(spec.phase ?? PHASE.pins);
      node.device?.connection?.desired.driven.tookAll(asked);
      tripped.set(asked);
      const status = outcome.status ?? op.status;
      // A poll round that ends after the poller was stopped still delivers, but the status
      // keeps saying "paused".
      if (!outcome.error && !closing && (!fromPoll || polling.active)) dot.succeeded(restored ? t('common.restored', { status: textOf(status) }) : status);
      // Applying a setting on connect answers no msg: status only, nothing sent on.
      if (fromPoll) emit(outcome.msgs);
      if (outcome.error) throw outcome.error;
    };
    /** Applies a setting (on connect, or putting it back). */
    const runOwn = async (op: Operation<X>, restored = false): Promise<void> => {
      const c = client();
      if (!c) throw noDevice(node);
      // A setting goes in the module's reserved place ahead of the users' msgs (client.ts).
      const asked = op.kind === 'requests' ? { ...op, lane: op.lane ?? 'settings' } : op;
      ownAnswered(op, asked, await perform(c, asked), false, restored);
    };
    let roundOp: Operation<X> | undefined;
    /** The last poll round (rounds never overlap: the poller waits for each); close waits for it. */
    let lastRound: Promise<void> | undefined;
    const pollRound = (): Promise<void> => {
      const op = (roundOp ??= spec.poll!.build(settings as S, emit));
      const c = client();
      // One reaction on the round's answer, not an async function: every module polls every interval.
      lastRound = c ? perform(c, op).then((result) => ownAnswered(op, op, result, true, false)) : Promise.reject(noDevice(node));
      return lastRound;
    };
    const failedOwn = (error: unknown) => {
      const err = asDeviceError(error, 'BAD_RESPONSE');
      dot.failed(err);
      return err;
    };

    const poll = spec.poll;
    const interval = poll && settings !== undefined && !problem ? poll.interval(settings) : 0;
    const poller =
      poll && interval > 0
        ? new Poller(
            interval,
            {
              round: pollRound,
              // Every failed round shows (a reconnection clears a red dot, the next round must
              // set it again); Catch hears of the first one of an outage only. Node-RED hands an
              // error to Catch nodes only with a msg: give it an empty one.
              roundFailed: failedOwn,
              failed: (error) => node.error(asDeviceError(error, 'BAD_RESPONSE'), {}),
            },
            poll.backoff ?? true,
          )
        : undefined;
    // Nodes that apply a setting on connect start polling once it is applied; others at once.
    const polling = new PollingLifecycle(poller, !!spec.onConnect);

    // The node's setting is part of what the package set on the module: the config node
    // applies it on connect and puts it back whenever the module forgot it, in the spec's
    // order with the other nodes' settings (config-node/desired-state.ts).
    let lastSet = settings !== undefined && !problem ? spec.onConnect?.(settings) : undefined;
    const desired = node.device?.connection?.desired;
    const remembers = settings !== undefined && !problem && (typeof spec.remembers === 'function' ? spec.remembers(settings) : spec.remembers === true);
    const setting: DesiredSetting | undefined =
      (lastSet || remembers) && desired
        ? {
            phase: spec.phase ?? PHASE.pins,
            apply: (cause, retry) => {
              // Nothing set yet (a msg-driven output before its first msg): nothing to put back.
              if (!lastSet) {
                polling.reconnected();
                return Promise.resolve();
              }
              const restoring = cause !== 'connected';
              if (restoring) dot.report({ fill: 'yellow', shape: 'ring', text: t('common.reapplying', { cause }) });
              const applying = runOwn(lastSet!, restoring).catch((error) => {
                // Catch hears the first failure and the device's refusal, not every retry.
                const err = failedOwn(error);
                if (!retry || !isRetried(error)) node.error(err, {});
                throw error;
              });
              polling.reconnected(applying.catch(() => undefined));
              return applying;
            },
            inPlace: spec.readBack && (() => (lastSet ? spec.readBack!(lastSet, client()!) : Promise.resolve(undefined))),
            ...(spec.readBackSends ? { sends: true as const } : {}),
            body: (endpoint) => (lastSet ? bodyOf(lastSet, endpoint) : undefined),
            pin: () => pinsOf(lastSet)[0],
          }
        : undefined;
    const forget = setting && desired!.add(setting);
    // The module's protection switched off a pin this node set: said at once, never undone.
    const tripped = new TrippedPins(desired?.trips, (error) => {
      if (closing) return;
      node.report({ fill: 'red', shape: 'ring', text: error.brief });
      node.error(error, {});
    });
    /** The package's own power-management suspended the module (pin-trips.ts): each notification-poll announces it. */
    const suspended = () => {
      if (spec.renewsSession && desired) desired.trips.suspends++;
    };
    node.settingGone = (proof) => {
      if (setting) node.device?.connection?.settingGone(setting, proof);
    };
    // What a msg set that is only read back (spec.witness): a sign after an outage, never put back.
    let witnessed: Operation<X> | undefined;
    const unwitness =
      spec.witness && spec.readBack && desired && settings !== undefined && !problem
        ? desired.add({
            phase: spec.phase ?? PHASE.pins,
            witness: true,
            apply: () => Promise.resolve(),
            inPlace: () => (witnessed ? spec.readBack!(witnessed, client()!) : Promise.resolve(undefined)),
            forget: () => (witnessed = undefined),
          })
        : undefined;

    const user = {
      onConnectionState(state: ConnectionState) {
        // A restarted device service or a reset module lost what it kept (notifications).
        if (state.state === 'connected' && settings !== undefined && (state.restarted || state.moduleReset))
          spec.onRestart?.(node, settings, state.restarted ? 'service' : 'module');
        const reconnected = dot.connectionIs(state);
        if (!reconnected || settings === undefined || problem) return;
        // A setting goes back through the config node's reconciliation (which starts the
        // polling after it); without one, polling goes on at once.
        if (!forget) polling.reconnected();
      },
    };
    if (node.device) node.device.register(user);
    else node.status({ fill: 'red', shape: 'ring', text: say('status.noDevice') });
    const stopOwn = settings !== undefined && !problem ? spec.start?.(node, settings) : undefined;
    polling.begin();

    node.on(
      'input',
      inputHandler<X>({
        client,
        noDevice: () => noDevice(node),
        build: (msg) => {
          if (settings === undefined) throw new DeviceError(problem ?? t('common.invalidSettings'), { code: 'INVALID_INPUT' });
          return spec.build(msg, settings, node);
        },
        output: (result, msg, op) => output(result, msg, settings as S, op),
        applied: (op) => {
          node.device?.connection?.desired.driven.tookAll(op);
          // A msg that sets a pin is the user's act: a pin the protection switched off is theirs again.
          desired?.trips.release(pinsOf(op));
          tripped.set(op);
          suspended();
          // What a msg set is what the module must keep; a reset of the module wants it all back.
          if (remembers && forget) {
            lastSet = op;
            desired?.took(setting!);
          }
          const seen = spec.witness?.(op);
          if (seen !== undefined) witnessed = seen ?? undefined;
          if (spec.renewsSession) node.device?.connection?.ownRenewal(spec.phase ?? PHASE.pins);
          const reset = typeof spec.resetsModule === 'function' ? spec.resetsModule(op) : spec.resetsModule;
          if (reset) node.device?.connection?.ownReset(t('common.resetBy', { type }));
        },
        failed: (_op, error) => {
          if (maySuspend(error)) suspended();
        },
        dot,
        polling,
      }),
    );

    // The predecessor's last round (a redeploy) reaches this node's wires.
    const released = spec.poll?.handOver ? takeOver(node.id, (msgs) => afterStart(RED, () => emit(msgs))) : undefined;

    node.on('close', (removed: boolean, closed: () => void) => {
      closing = { removed };
      stopOwn?.();
      polling.close();
      released?.();
      forget?.();
      unwitness?.();
      tripped.close();
      node.device?.deregister(user);
      const finish = () => {
        dot.close();
        closed();
      };
      if (!spec.poll?.handOver || !lastRound) return finish();
      // A round on the wire finishes first (its client waits too, bounded by the timeout);
      // one that ended already lets the node go at once.
      void lastRound.then(finish, finish);
    });
  }
  RED.nodes.registerType(type, ActionNodeConstructor);
}

/**
 * The node's settings, read once at deploy, and the problem to show when they are bad (a
 * config node of another service, a setting refused, or, with checkOnDeploy, a build that
 * fails on an empty msg: the settings then stay, since a msg may still override the bad one).
 */
function deploySettings<S, X extends object>(spec: ActionSpec<S, X>, def: NodeDef, node: ActionNode, type: string): { settings?: S; problem?: string } {
  let settings: S | undefined;
  try {
    const service = node.device?.connection?.client.service;
    if (spec.service && service && service !== spec.service) {
      throw new DeviceError(t('common.wrongService', { type, service: spec.service, chosen: service }), { code: 'NOT_CONFIGURED' });
    }
    settings = spec.settings(def);
    const check = typeof spec.checkOnDeploy === 'function' ? spec.checkOnDeploy(settings) : spec.checkOnDeploy;
    if (check) spec.build({}, settings, node);
    return { settings };
  } catch (error) {
    return { settings, problem: error instanceof Error ? error.message : String(error) };
  }
}

/** The error a msg gets when the node has no usable device configuration. */
function noDevice(node: ActionNode): DeviceError {
  const why = node.device ? (node.device.problem ?? t('common.notUsable')) : t('common.noDevice');
  return new DeviceError(t('common.deviceProblem', { problem: why }), { code: 'NOT_CONFIGURED' });
}
