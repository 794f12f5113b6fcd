/**
 * Which nodes of the edited flows use a module, and which of its pins: what the sidebar
 * selects when a module or a pin is clicked, and what it highlights when a node is
 * selected in the workspace. Pure (a list of nodes in, ids out), so the unit tests read it.
 */
import { ALL_PINS, FlowNode, pollPins } from '../../lib/pure/flow-nodes';
import { pinNumber } from '../../editor/pin-picker';

/** A node of the edited flows, as the flow check reads it too (pure/flow-nodes.ts). */
export interface UsingNode extends FlowNode {
  name?: string;
  device?: unknown;
  pin?: unknown;
  pinType?: unknown;
  /** notification-poll: a list of pins (array or comma-separated text), empty = all. */
  pins?: unknown;
  d?: boolean;
}

/** The pins a node works on; none for nodes of the module as a whole (io-reset, bmc, power). */
export function pinsOf(node: UsingNode): number[] {
  switch (node.type) {
    case 'io-output':
    case 'io-input':
    case 'io-threshold': {
      const pin = node.pinType === undefined || node.pinType === 'num' ? pinNumber(node.pin) : undefined;
      return pin === undefined ? [] : [pin];
    }
    case 'io-read': {
      const pin = pinNumber(node.pin);
      return pin === undefined ? [...ALL_PINS] : [pin];
    }
    case 'io-power':
      return [...ALL_PINS];
    case 'notification-poll': {
      const pins = pollPins(node)
        .map(pinNumber)
        .filter((p): p is number => p !== undefined);
      return pins.length ? pins : [...ALL_PINS];
    }
    default:
      return [];
  }
}

/** Enabled nodes using the config node `config` (and, when given, working on `pin`). */
export function usersOf(nodes: UsingNode[], config: string, pin?: number): UsingNode[] {
  return nodes.filter((n) => n.d !== true && n.device === config && (pin === undefined || pinsOf(n).includes(pin)));
}
