/**
 * Hand-written flows for the flow check's tests: a config node per module and the action
 * nodes on it, with the settings their dialogs save, and live data as the runtime sends it.
 */
import type { FlowNode } from '../../nodes/lib/pure/flow-check';
import type { Finding, LiveDevice, LiveModule } from '../../nodes/lib/pure/snapshot';

export const HOST = '192.168.1.10';
export const URL = `http://${HOST}`;

export function config(id: string, service: string, slot: number | string, more: Partial<FlowNode> = {}): FlowNode {
  return { id, type: 'modular-device', z: '', name: '', url: URL, service, slot, apiVersion: 'auto', ...more };
}

export function node(id: string, type: string, device: string, more: Partial<FlowNode> = {}): FlowNode {
  return { id, type, z: 'tab1', name: '', device, ...more };
}

/** An io-power node's six entries: all on one rail with one current unless given. */
export function powerPins(entries: Array<[string, number | string]>): Array<{ rail: string; current: number | string }> {
  return entries.map(([rail, current]) => ({ rail, current }));
}

export function device(services: LiveDevice['services'], where = HOST): LiveDevice {
  return { device: where, services };
}

export function liveModule(cfg: string, service: LiveModule['service'], slot: number, more: Partial<LiveModule> = {}): LiveModule {
  return { config: cfg, label: `${service} slot ${slot} @ ${HOST}`, device: HOST, service, slot, state: 'connected', apiVersion: '1.0', ...more };
}

export const NO_LIVE = { modules: [] as LiveModule[], devices: [] as LiveDevice[] };

/** The findings of one kind, in a short comparable form: key and node ids. */
export function briefly(findings: Finding[], kind?: Finding['kind']): Array<{ key: string; nodes: string[] }> {
  return findings.filter((f) => !kind || f.kind === kind).map((f) => ({ key: f.key, nodes: f.nodes }));
}
