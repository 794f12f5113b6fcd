/**
 * watchdog-unkept: a watchdog armed with nothing in the flows to keep it alive resets the
 * device once its timeout runs out. Armed by a bmc-watchdog set to "timeout" with a
 * timeout > 0 (nodes/bmc-watchdog.ts), or live (the module's watchdog timeout > 0); kept
 * by a bmc-watchdog with its own keep-alive or one set to "alive". A node whose operation
 * comes from msg.operation (or an env var) may be either: its module is not judged.
 */
import { FROM_MSG } from './dangerous';
import type { Finding } from './snapshot';
import { flagOf, FlowNode, intOf, nodeName, wordOf } from './flow-nodes';
import { FlowIndex, ModuleGroup, moduleKey, nodesOf } from './flow-index';

interface Watchdogs {
  armers: Array<{ node: FlowNode; timeout: number }>;
  /** A keep-alive, or a node that may be one: the module is not judged. */
  kept: boolean;
}

function watchdogsOf(index: FlowIndex, group: ModuleGroup): Watchdogs {
  const result: Watchdogs = { armers: [], kept: false };
  for (const node of nodesOf(group, 'bmc-watchdog')) {
    index.work.steps++;
    // An empty operation is the node's default, read (nodes/bmc-watchdog.ts).
    const operation = node.operation === undefined || node.operation === '' ? 'read' : wordOf(node.operation);
    const keepAlive = flagOf(node.keepAlive);
    if (keepAlive !== false || operation === undefined || operation === 'alive' || operation === FROM_MSG) {
      result.kept = true;
      continue;
    }
    const timeout = intOf(node.timeout);
    if (operation === 'timeout' && timeout !== undefined && timeout > 0) result.armers.push({ node, timeout });
  }
  return result;
}

export function checkWatchdogs(index: FlowIndex, group: ModuleGroup, findings: Finding[]): void {
  const { armers, kept } = watchdogsOf(index, group);
  if (kept) return;
  for (const { node, timeout } of armers) {
    findings.push({
      kind: 'watchdog-unkept',
      nodes: [node.id],
      key: 'finding.watchdogUnkept',
      values: { node: nodeName(node), timeout, module: group.configs[0].label },
    });
  }
}

/** A live module whose watchdog runs (timeout > 0) with no keep-alive for it in the flows. */
export function checkLiveWatchdogs(index: FlowIndex, findings: Finding[]): void {
  const told = new Set<string>();
  for (const live of index.liveOfConfig.values()) {
    index.work.steps++;
    const timeout = live.bmc?.watchdog?.timeout;
    const key = moduleKey(live.device, live.service, live.slot);
    // Two config nodes of one module are one module: told once.
    if (live.service !== 'bmc' || typeof timeout !== 'number' || timeout <= 0 || told.has(key)) continue;
    told.add(key);
    // By the module; by the config id only for a config node whose module is known at run time alone.
    const byId = index.groupOfConfig.get(live.config);
    const group = index.groups.get(key) ?? (byId?.key.startsWith('config:') ? byId : undefined);
    if (group && watchdogsOf(index, group).kept) continue;
    const nodes = group ? [...group.configs.map((c) => c.node.id), ...nodesOf(group, 'bmc-watchdog').map((n) => n.id)] : [];
    findings.push({ kind: 'watchdog-unkept', nodes, key: 'finding.watchdogLive', values: { module: live.label, timeout } });
  }
}
