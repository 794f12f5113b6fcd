/**
 * Msgs a closing node could not send any more, kept for the node that takes its place.
 *
 * A redeploy (full, of the node, or of its config node) closes the node and starts a new
 * one with the same id. A poll round on the wire when the old one closed still finishes,
 * and what it read (notification flags, which the device clears when read) must reach the
 * flow: the old node's wires are being torn down, so its msgs wait here, and the new node
 * sends them once the flows have started. A node removed for good has no successor: its
 * msgs are announced in the log instead (see the caller).
 */
import type { NodeAPI, NodeMessage } from '../base/node-red';

const waiting = new Map<string, NodeMessage[]>();
const successors = new Map<string, (msgs: NodeMessage[]) => void>();

/** Keeps `msgs` of the closed node `id` for its successor (sent at once if it is running). */
export function handOver(id: string, msgs: NodeMessage[]): void {
  if (!msgs.length) return;
  const successor = successors.get(id);
  if (successor) successor(msgs);
  else waiting.set(id, [...(waiting.get(id) ?? []), ...msgs]);
}

/**
 * The node `id` (re)started: `send` gets what its predecessor left, now and later (a round
 * of the old node may end after the new one started). Returns the deregistration.
 */
export function takeOver(id: string, send: (msgs: NodeMessage[]) => void): () => void {
  successors.set(id, send);
  const left = waiting.get(id);
  waiting.delete(id);
  if (left) send(left);
  return () => {
    if (successors.get(id) === send) successors.delete(id);
  };
}

/**
 * Runs `deliver` once the flows have started: msgs handed over at deploy must wait until
 * every node of the new flows is there to receive them.
 */
export function afterStart(RED: NodeAPI, deliver: () => void): void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    RED.events?.removeListener('flows:started', once);
    deliver();
  };
  RED.events?.once('flows:started', once);
  // A hand-over after the new flows started (the old round ended late), or a runtime
  // without the event, never hears it: the fallback delivers after FLOWS_STARTED_FALLBACK_MS,
  // by when a deploy's nodes have long been created.
  setTimeout(once, FLOWS_STARTED_FALLBACK_MS);
}

/** How long a handed-over msg waits for the flows:started event at most. */
const FLOWS_STARTED_FALLBACK_MS = 1000;
