/**
 * What one msg (or one poll round, or a setting applied on connect) asks of the device:
 * either requests the client sends back to back, or a conversation that needs the answers
 * as it goes (a fallback, a wait until applied). One or the other, never a placeholder of
 * the first beside the second.
 *
 * `X` is what the node's own `output` needs to know about the operation (e.g. which pin
 * was asked), typed per node; most nodes need nothing.
 */
import { bounded, type DeviceClient, type DeviceRequest, type DeviceResult, type Lane, type ModuleClient } from '../device/client';
import type { DeviceError } from '../base/errors';
import { textOf } from '../base/i18n';
import type { NodeMessage } from '../base/node-red';

/**
 * A conversation with the device: requests chosen from the answers so far, all of them
 * within the one deadline of the msg (or round) it answers.
 */
export type Conversation = (client: ModuleClient) => Promise<DeviceResult>;

/** Nothing beyond the operation itself. */
export type NoExtra = Record<never, never>;

export interface StatusTexts {
  /** Status text once it succeeded, e.g. `pin 3 high` (an `output` may say more). */
  status: string;
  /** Status text while it runs; defaults to `status` with an ellipsis. */
  busyStatus?: string;
}

/** One request, or several sent back to back in one turn of the module's queue. */
export interface RequestsOperation extends StatusTexts {
  kind: 'requests';
  requests: DeviceRequest | DeviceRequest[];
  /** The keep-alive's own lane instead of the module's ordered queue (see client.ts). */
  lane?: Lane;
}

export interface ConversationOperation extends StatusTexts {
  kind: 'conversation';
  run: Conversation;
  /** How much longer than the request timeout it may take by design (power-fan's wait for the fan), ms. */
  waitsMs?: number;
}

export type Operation<X extends object = NoExtra> = (RequestsOperation | ConversationOperation) & X;

/**
 * Sends the operation through the client: its requests, or its conversation. Called as the
 * msg arrives (or the round starts): its timeout from now bounds everything it sends.
 */
export function perform(client: DeviceClient, op: RequestsOperation | ConversationOperation): Promise<DeviceResult> {
  if (op.kind === 'requests') return client.request(op.requests, op.lane);
  return op.run(bounded(client, client.deadline(op.waitsMs)));
}

/** The operation's request to `endpoint` (e.g. 'input/mode'), if it sends one. */
export function requestTo(op: RequestsOperation | ConversationOperation, endpoint: string): DeviceRequest | undefined {
  if (op.kind !== 'requests') return undefined;
  const list = Array.isArray(op.requests) ? op.requests : [op.requests];
  return list.find((r) => r.endpoint.join('/') === endpoint);
}

/** The body of the operation's request to `endpoint`, if it sends one. */
export function bodyOf(op: RequestsOperation | ConversationOperation, endpoint: string): Record<string, unknown> | undefined {
  return requestTo(op, endpoint)?.body;
}

/** The status text while the operation runs. */
export function busyStatusOf(op: StatusTexts): string {
  // A fixed status is a message id (the editor's words): in words first, then "...".
  return op.busyStatus ?? `${textOf(op.status)}...`;
}

/** What goes out for an answer: msgs for the output (none to send nothing) and the status text. */
export interface Outcome {
  msgs: NodeMessage[];
  status?: string;
  /**
   * Part of it failed: the msgs still go out (what arrived is never thrown away), then this
   * error ends the msg (done(err)) or counts the poll round as failed.
   */
  error?: DeviceError;
}
