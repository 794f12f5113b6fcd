/**
 * The flows grouped by module, once, so that every rule looks only at the nodes of one
 * module (no pair loops over all nodes): each config node and the nodes that use it, the
 * modules of the same device+service+slot merged (two config nodes may name one module),
 * and the live data looked up by config id, module and device.
 */
import type { LiveDevice, LiveModule } from './snapshot';
import { deviceLocation, FlowNode, intOf, wordOf } from './flow-nodes';
import { SERVICES } from './limits';
import type { Service } from './limits';

/** Counts the check's inner steps: the size test reads it (work, not time). */
export interface Work {
  steps: number;
}

/** One modular-device config node, read. */
export interface ConfigInfo {
  node: FlowNode;
  /** host[:port][/prefix], undefined when only known at run time. */
  location?: string;
  service?: Service;
  slot?: number;
  /** As the editor labels the config node: its name, else `io slot 2 @ host`. */
  label: string;
  /** The enabled nodes that use it. */
  users: FlowNode[];
}

/** One module: the config nodes naming it and the nodes using them, by type. */
export interface ModuleGroup {
  key: string;
  configs: ConfigInfo[];
  byType: Map<string, FlowNode[]>;
}

export interface FlowIndex {
  configs: ConfigInfo[];
  groups: Map<string, ModuleGroup>;
  groupOfConfig: Map<string, ModuleGroup>;
  devices: Map<string, { device: LiveDevice; slots: Partial<Record<Service, Set<number>>> }>;
  liveOfConfig: Map<string, LiveModule>;
  liveOfKey: Map<string, LiveModule>;
  work: Work;
}

export function moduleKey(location: string, service: string, slot: number): string {
  return `${location}|${service}|${slot}`;
}

function readConfig(node: FlowNode): ConfigInfo {
  const location = deviceLocation(node.url);
  const service = wordOf(node.service);
  const slot = intOf(node.slot);
  const name = typeof node.name === 'string' ? node.name.trim() : '';
  const host =
    typeof node.url === 'string'
      ? node.url
          .trim()
          .replace(/^https?:\/\//, '')
          .replace(/\/+$/, '')
      : '';
  return {
    node,
    location,
    service: (SERVICES as readonly string[]).includes(service ?? '') ? (service as Service) : undefined,
    slot,
    label: name || `${service ?? '?'} slot ${String(node.slot)} @ ${host}`,
    users: [],
  };
}

/** Indexes the enabled nodes (see enabledNodes) and the live data: linear in their number. */
export function indexFlows(nodes: readonly FlowNode[], live: { modules: LiveModule[]; devices: LiveDevice[] }, work: Work): FlowIndex {
  const configs: ConfigInfo[] = [];
  const configOf = new Map<string, ConfigInfo>();
  for (const node of nodes) {
    work.steps++;
    if (node.type !== 'modular-device') continue;
    const info = readConfig(node);
    configs.push(info);
    configOf.set(node.id, info);
  }
  const groups = new Map<string, ModuleGroup>();
  const groupOfConfig = new Map<string, ModuleGroup>();
  for (const info of configs) {
    work.steps++;
    // A module known only at run time is its config node alone: never merged by a guess.
    const key =
      info.location !== undefined && info.service && info.slot !== undefined ? moduleKey(info.location, info.service, info.slot) : `config:${info.node.id}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { key, configs: [], byType: new Map() }));
    group.configs.push(info);
    groupOfConfig.set(info.node.id, group);
  }
  for (const node of nodes) {
    work.steps++;
    const info = typeof node.device === 'string' ? configOf.get(node.device) : undefined;
    if (!info || node.type === 'modular-device') continue;
    info.users.push(node);
    const byType = groupOfConfig.get(info.node.id)!.byType;
    const list = byType.get(node.type);
    if (list) list.push(node);
    else byType.set(node.type, [node]);
  }
  return { configs, groups, groupOfConfig, ...indexLive(live, work), work };
}

function indexLive(live: { modules: LiveModule[]; devices: LiveDevice[] }, work: Work): Pick<FlowIndex, 'devices' | 'liveOfConfig' | 'liveOfKey'> {
  const devices: FlowIndex['devices'] = new Map();
  for (const device of live.devices) {
    const slots: Partial<Record<Service, Set<number>>> = {};
    for (const service of SERVICES) {
      const list = device.services[service];
      work.steps += list?.length ?? 0;
      if (Array.isArray(list)) slots[service] = new Set(list);
    }
    devices.set(device.device, { device, slots });
  }
  const liveOfConfig = new Map<string, LiveModule>();
  const liveOfKey = new Map<string, LiveModule>();
  for (const m of live.modules) {
    work.steps++;
    liveOfConfig.set(m.config, m);
    liveOfKey.set(moduleKey(m.device, m.service, m.slot), m);
  }
  return { devices, liveOfConfig, liveOfKey };
}

/**
 * The live module of a config node: the module it names; by its id only when that is known
 * at run time alone (an edited URL must not borrow the deployed module's data).
 */
export function liveOf(index: FlowIndex, info: ConfigInfo): LiveModule | undefined {
  if (info.location === undefined || !info.service || info.slot === undefined) return index.liveOfConfig.get(info.node.id);
  return index.liveOfKey.get(moduleKey(info.location, info.service, info.slot));
}

/** The enabled nodes of one type on a module. */
export function nodesOf(group: ModuleGroup, type: string): FlowNode[] {
  return group.byType.get(type) ?? [];
}
