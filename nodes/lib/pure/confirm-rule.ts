/**
 * Which dangerous operations a node is set to in its dialog without its confirm box: the
 * runtime refuses each (action/operation-choice.ts requireConfirm, bmc-watchdog's keep-alive), so the
 * editor marks the node invalid with the runtime's words and the flow check names it.
 * Pure (no Node-RED, no DOM): the editor bundle and the runtime's check both read it.
 */
import { DANGEROUS_OPERATIONS, GuardedType, KEEP_ALIVE_OPERATION } from './dangerous';
import { flagOf, FlowNode, wordOf } from './flow-nodes';

export function unconfirmed(node: FlowNode): string[] {
  if (!(node.type in DANGEROUS_OPERATIONS) || flagOf(node.confirm) !== false) return [];
  const dangerous: readonly string[] = DANGEROUS_OPERATIONS[node.type as GuardedType];
  // io-reset has no operation select; a node set to "from msg.operation" runs no dangerous
  // operation without confirm (the runtime refuses the msg that names one): not refused here.
  const operation = node.type === 'io-reset' ? dangerous[0] : wordOf(node.operation);
  const set: string[] = [];
  // The keep-alive first: the runtime refuses it with the settings, before any msg (bmc-watchdog.ts).
  if (node.type === 'bmc-watchdog' && flagOf(node.keepAlive) === true) set.push(KEEP_ALIVE_OPERATION);
  if (operation !== undefined && dangerous.includes(operation)) set.push(operation);
  return set;
}
