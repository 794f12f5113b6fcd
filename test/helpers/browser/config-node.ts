/**
 * The `modular-device` config node the browser tests' flows deploy (../device-node.ts, as
 * the runtime tests deploy it), named for its module unless told.
 */
import { deviceNode, FlowNode } from '../device-node';

export type { FlowNode };

export function configNode(id: string, service: string, slot: number, url: string, name = `${service} slot ${slot}`): FlowNode {
  return deviceNode({ id, service, slot, url, name });
}
