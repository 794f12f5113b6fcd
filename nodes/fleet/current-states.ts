/**
 * The connection state every deployed config node has now, as health events: a fleet-publish
 * node deployed on its own (a "modified nodes" deploy) hears no change from modules already
 * connected, yet must know them (retained state, commands). Read from Node-RED's list of the
 * deployed nodes, as the sidebar does; nothing is asked of a device.
 */
import type { DeviceNode } from '../lib/config-node/device-settings';
import type { HealthEvent } from '../lib/config-node/health';
import { connectionCause, connectionDetail } from '../lib/config-node/module-health';
import type { NodeAPI } from '../lib/base/node-red';

export function currentStates(RED: NodeAPI): HealthEvent[] {
  const events: HealthEvent[] = [];
  RED.nodes.eachNode?.((def) => {
    if (def.type !== 'modular-device') return;
    const connection = (RED.nodes.getNode(def.id) as DeviceNode | null)?.connection;
    if (!connection) return;
    const state = connection.state;
    events.push({
      kind: 'connection',
      module: connection.healthModule,
      cause: connectionCause(state),
      time: new Date().toISOString(),
      detail: connectionDetail(state),
    });
  });
  return events;
}
