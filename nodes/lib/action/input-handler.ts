/**
 * What an action node does with a msg: a "stop"/"start" for its poller, else build the
 * operation (refusing a bad msg before anything is sent), send it, and answer with the
 * output msgs or `done(err)` for a Catch node, keeping the status dot in step.
 */
import type { DeviceClient, DeviceResult } from '../device/client';
import { Operation, Outcome, perform } from './operation';
import { asDeviceError, DeviceError, DeviceErrorCode } from '../base/errors';
import type { PollingLifecycle } from './polling-lifecycle';
import type { DoneFn, NodeMessage, SendFn } from '../base/node-red';
import type { NodeStatusDot } from './status-dot';

export interface InputContext<X extends object> {
  /** The client of the node's module; undefined when the node has no usable device. */
  client(): DeviceClient | undefined;
  /** Why there is no client, for the msg's error. */
  noDevice(): DeviceError;
  /** The operation for a msg; throws to refuse it, undefined when the node handled it itself. */
  build(msg: NodeMessage): Operation<X> | undefined;
  /** What goes out for the answer; throws when the answer is not what the node can use. */
  output(result: DeviceResult, msg: NodeMessage, op: Operation<X>): Outcome;
  /** The msg's operation succeeded (the node may remember it as its setting). */
  applied?(op: Operation<X>): void;
  /** The msg's operation failed on its way to or at the device (the device may have acted on it). */
  failed?(op: Operation<X>, error: unknown): void;
  dot: NodeStatusDot;
  polling: PollingLifecycle;
}

export function inputHandler<X extends object>(ctx: InputContext<X>) {
  return (msg: NodeMessage, send: SendFn, done: DoneFn): void => {
    // Every polling node pauses on "stop" and resumes on "start".
    const command = ctx.polling.command(msg.payload);
    if (command) {
      ctx.dot.report(command);
      return done();
    }
    const client = ctx.client();
    if (!client) return done(ctx.noDevice());
    let op: Operation<X> | undefined;
    try {
      op = ctx.build(msg);
    } catch (error) {
      return refused(ctx.dot, done, error, 'INVALID_INPUT');
    }
    if (!op) return done();
    const asked = op;
    // The busy text is said only if the blue dot comes (a request still running after 50 ms).
    ctx.dot.started(asked);
    perform(client, asked).then(
      (result) => {
        ctx.dot.finished();
        let outcome: Outcome;
        try {
          outcome = ctx.output(result, msg, asked);
        } catch (error) {
          return refused(ctx.dot, done, error, 'BAD_RESPONSE');
        }
        deliver(send, outcome.msgs);
        if (outcome.error) return refused(ctx.dot, done, outcome.error, 'BAD_RESPONSE');
        ctx.applied?.(asked);
        ctx.dot.succeeded(outcome.status ?? asked.status);
        done();
      },
      (error: unknown) => {
        ctx.dot.finished();
        ctx.failed?.(asked, error);
        refused(ctx.dot, done, error, 'BAD_RESPONSE');
      },
    );
  };
}

/** The msg ends with `error` (as `code` unless it is a DeviceError already): red dot, Catch. */
function refused(dot: NodeStatusDot, done: DoneFn, error: unknown, code: DeviceErrorCode): void {
  const err = asDeviceError(error, code);
  dot.failed(err);
  done(err);
}

/** One msg as itself; several as one sequence on the node's one output. */
function deliver(send: SendFn, msgs: NodeMessage[]): void {
  if (msgs.length === 1) send(msgs[0]);
  else if (msgs.length > 1) send([msgs]);
}
