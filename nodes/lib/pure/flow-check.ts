/**
 * The flow check: what is wrong between the flows and the live device, as findings the
 * device sidebar lists (each names every node concerned, so the editor can link them, and
 * says itself as a key of the sidebar's catalogue, locales/<lang>/modular-device-sidebar.json,
 * under `finding.`, with values).
 *
 * One pure function for both sides: the runtime checks the deployed flows, the editor the
 * edited ones. Pure (no Node-RED, no DOM, no timers) and linear-ish: the nodes are grouped
 * by module once (flow-index.ts) and each rule looks at one module's nodes.
 *
 * Disabled nodes (`d`) are ignored, and so are the nodes of a disabled tab when the caller
 * passes the tabs (`{ id, type: 'tab', disabled: true }`) among the nodes. Values only known
 * at run time (`${VAR}`, msg/flow/global/env) are skipped, never guessed.
 */
import { SERVICES } from './limits';
import type { Finding, LiveDevice, LiveModule } from './snapshot';
import { enabledNodes, FlowNode, nodeName, serviceOfType } from './flow-nodes';
import { unconfirmed } from './confirm-rule';
import { FlowIndex, indexFlows, Work } from './flow-index';
import { checkIoModule } from './flow-check-io';
import { checkWatchdogs, checkLiveWatchdogs } from './flow-check-bmc';
import { checkConflicts } from './flow-check-conflicts';

export type { FlowNode } from './flow-nodes';
export type { Work } from './flow-index';

/**
 * Checks `nodes` (editor or deployed, tabs optional) against the live device. `work`, when
 * given, counts the inner steps (for the size test; the result does not depend on it).
 */
export function checkFlows(nodes: FlowNode[], live: { modules: LiveModule[]; devices: LiveDevice[] }, work: Work = { steps: 0 }): Finding[] {
  const enabled = enabledNodes(nodes);
  const index = indexFlows(enabled, live, work);
  const findings: Finding[] = [];
  checkSlots(index, findings);
  for (const group of index.groups.values()) {
    work.steps++;
    checkIoModule(index, group, findings);
    checkWatchdogs(index, group, findings);
    checkConflicts(index, group, findings);
  }
  checkLiveWatchdogs(index, findings);
  for (const node of enabled) {
    work.steps++;
    checkConfirm(node, findings);
  }
  return findings;
}

/** slot-missing and wrong-service: each config node against its device's version records. */
function checkSlots(index: FlowIndex, findings: Finding[]): void {
  for (const info of index.configs) {
    index.work.steps++;
    const { service, slot, location } = info;
    const ids = [info.node.id, ...info.users.map((n) => n.id)];
    // An action node of another service than its module's (its type says which it needs).
    if (service) {
      for (const node of info.users) {
        index.work.steps++;
        const wants = serviceOfType(node.type);
        if (wants && wants !== service) {
          findings.push({
            kind: 'wrong-service',
            nodes: [node.id, info.node.id],
            key: 'finding.nodeWrongService',
            values: { node: nodeName(node), service: wants, module: info.label, actual: service },
          });
        }
      }
    }
    const device = location === undefined ? undefined : index.devices.get(location);
    if (!device || !service || slot === undefined) continue;
    const own = device.slots[service];
    if (own?.has(slot)) continue;
    const actual = SERVICES.find((s) => s !== service && device.slots[s]?.has(slot));
    if (actual) {
      findings.push({ kind: 'wrong-service', nodes: ids, key: 'finding.slotWrongService', values: { slot, device: location!, service, actual } });
    } else if (own) {
      findings.push({ kind: 'slot-missing', nodes: ids, key: 'finding.slotMissing', values: { slot, device: location!, service } });
    }
  }
}

/** no-confirm: a node set to one of its dangerous operations without its confirm setting. */
function checkConfirm(node: FlowNode, findings: Finding[]): void {
  for (const op of unconfirmed(node))
    findings.push({ kind: 'no-confirm', nodes: [node.id], key: 'finding.noConfirm', values: { node: nodeName(node), operation: op } });
}
