/**
 * The user's flows file as Node-RED saves it, read without changing it: checked to be a
 * Node-RED flow, its modular-device config nodes pointed at the simulator in memory, and
 * nodes found by id or name. Credentials come plain, or from flows_cred.json decrypted with
 * the user's credentialSecret the way Node-RED encrypts it (aes-256-ctr, key = sha256(secret)).
 */
import crypto from 'crypto';
import fs from 'fs';
import { KitError, show } from './errors';
import { SERVICES, Service } from '../nodes/lib/pure/limits';

export type FlowNode = Record<string, any> & { id: string; type: string };
export type Credentials = Record<string, Record<string, unknown>>;

/** Node types that are not nodes on a tab (no catch hooks, not injectable). */
const STRUCTURE = new Set(['tab', 'subflow', 'group', 'junction', 'comment']);

function readJson(file: string, what: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new KitError(`${what} ${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new KitError(`${what} ${file}: not JSON (${(error as Error).message})`);
  }
}

/** The flows as an array of nodes, or a KitError naming the file and the first bad entry. */
export function readFlows(source: string | unknown[], where = 'flows'): FlowNode[] {
  const value = typeof source === 'string' ? readJson(source, 'flows file') : source;
  const name = typeof source === 'string' ? `flows file ${source}` : where;
  // Node-RED's storage also accepts {flows: [...], rev} (what the admin API returns).
  const list = Array.isArray(value) ? value : value && typeof value === 'object' && Array.isArray((value as any).flows) ? (value as any).flows : undefined;
  if (!list) throw new KitError(`${name}: not a Node-RED flow: expected a JSON array of nodes (an export or flows.json), got ${show(value, 80)}`);
  const ids = new Set<string>();
  list.forEach((node: unknown, i: number) => {
    if (!node || typeof node !== 'object' || typeof (node as any).id !== 'string' || typeof (node as any).type !== 'string') {
      throw new KitError(`${name}: entry ${i} is not a Node-RED node (needs string "id" and "type"): ${show(node, 80)}`);
    }
    if (ids.has((node as any).id)) throw new KitError(`${name}: node id ${(node as any).id} appears twice (entry ${i})`);
    ids.add((node as any).id);
  });
  return list as FlowNode[];
}

/** Decrypts (or reads plain) a flows_cred.json. */
export function readCredentials(source: string | Credentials | undefined, secret?: string): Credentials {
  if (source === undefined) return {};
  const value = typeof source === 'string' ? readJson(source, 'credentials file') : source;
  const name = typeof source === 'string' ? `credentials file ${source}` : 'credentials';
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new KitError(`${name}: expected a JSON object keyed by node id`);
  const encrypted = (value as Record<string, unknown>).$;
  if (typeof encrypted !== 'string') return value as Credentials;
  if (!secret) throw new KitError(`${name} is encrypted: give credentialSecret (the one in your settings.js, or the generated one in .config.runtime.json)`);
  try {
    const key = crypto.createHash('sha256').update(secret).digest();
    const iv = Buffer.from(encrypted.substring(0, 32), 'hex');
    const decipher = crypto.createDecipheriv('aes-256-ctr', key, iv);
    const text = decipher.update(encrypted.substring(32), 'base64', 'utf8') + decipher.final('utf8');
    return JSON.parse(text) as Credentials;
  } catch {
    throw new KitError(`${name}: cannot decrypt it with the credentialSecret given (a different secret?)`);
  }
}

/** Copies of the flows with every modular-device config node aimed at `url` (and `apiVersion` if given). */
export function pointAt(flows: FlowNode[], url: string, apiVersion?: string): FlowNode[] {
  return flows.map((node) => (node.type === 'modular-device' ? { ...node, url, ...(apiVersion ? { apiVersion } : {}) } : node));
}

/** The modules the flows' config nodes talk to, as simulator modules (one per slot). */
export function modulesOf(flows: FlowNode[]): Array<{ service: Service; slot: number }> {
  const bySlot = new Map<number, Service>();
  for (const node of flows) {
    if (node.type !== 'modular-device') continue;
    const slot = Number(node.slot);
    if (!(SERVICES as readonly unknown[]).includes(node.service) || !Number.isInteger(slot)) continue;
    const had = bySlot.get(slot);
    if (had && had !== node.service)
      throw new KitError(
        `config nodes ${show(node.name || node.id)} and another both use slot ${slot}, as ${had} and ${node.service}: one device cannot have both`,
      );
    bySlot.set(slot, node.service);
  }
  return [...bySlot].map(([slot, service]) => ({ service, slot }));
}

/** Hidden Catch nodes, one per tab: the kit sees every error reported in a tab. */
export function withCatchers(flows: FlowNode[]): { flows: FlowNode[]; catchers: Set<string> } {
  const catchers = new Set<string>();
  const extra: FlowNode[] = [];
  for (const tab of flows) {
    if (tab.type !== 'tab') continue;
    const id = `modular-device-test.catch.${tab.id}`;
    catchers.add(id);
    extra.push({ id, type: 'catch', z: tab.id, name: 'modular-device-test', scope: null, uncaught: false, x: 0, y: 0, wires: [] });
  }
  return { flows: [...flows, ...extra], catchers };
}

/** Types the flows use that this Node-RED does not know (subflow instances excluded when the subflow is there). */
export function missingTypes(flows: FlowNode[], known: (type: string) => boolean): string[] {
  const subflows = new Set(flows.filter((n) => n.type === 'subflow').map((n) => `subflow:${n.id}`));
  const missing = new Map<string, string>();
  for (const node of flows) {
    if (STRUCTURE.has(node.type) || subflows.has(node.type) || known(node.type) || missing.has(node.type)) continue;
    missing.set(node.type, node.name ? `${node.type} (node "${node.name}", id ${node.id})` : `${node.type} (node id ${node.id})`);
  }
  return [...missing.values()];
}

/** The node with this id, else the one node with this name; a KitError otherwise. */
export function findNode(flows: FlowNode[], ref: string, where: string): FlowNode {
  const found = lookupNode(flows, ref);
  if (typeof found === 'string') throw new KitError(`${where}: ${found}`);
  return found;
}

/** The node with this id, else the one node with this name; else why not, as a sentence. */
export function lookupNode(flows: FlowNode[], ref: string): FlowNode | string {
  const byId = flows.find((n) => n.id === ref);
  if (byId) return byId;
  const named = flows.filter((n) => n.name === ref && !STRUCTURE.has(n.type));
  if (named.length === 1) return named[0];
  if (named.length > 1) return `${named.length} nodes are named ${show(ref)} (ids ${named.map((n) => n.id).join(', ')}): use an id`;
  const names = flows.filter((n) => n.name && !STRUCTURE.has(n.type)).map((n) => show(n.name));
  return `no node with id or name ${show(ref)} in the flows${names.length ? `; named nodes: ${names.slice(0, 12).join(', ')}${names.length > 12 ? ', ...' : ''}` : ''}`;
}

/** Nodes the runtime itself hands msgs to (errors, statuses, completions), wired or not. */
const FED_BY_RUNTIME = new Set(['catch', 'status', 'complete']);

/**
 * Why no msg can reach the node in these flows, or undefined when one can. The kit sees the
 * msgs a node receives; a node nothing is wired to (an inject, an http in: nodes that only
 * send) or a disabled one receives none, so waiting at it can only time out.
 */
export function whyNoMsgCanArrive(flows: FlowNode[], node: FlowNode): string | undefined {
  const tab = flows.find((n) => n.id === node.z);
  if (node.d === true) return 'the node is disabled';
  if (tab?.type === 'tab' && (tab.disabled === true || tab.d === true)) return `its tab ${show(tab.label ?? tab.id)} is disabled`;
  if (FED_BY_RUNTIME.has(node.type)) return undefined;
  const feeds = (n: FlowNode) =>
    (Array.isArray(n.wires) && n.wires.some((port: unknown) => Array.isArray(port) && port.includes(node.id))) ||
    // link out and link call reach link in nodes by their links
    (Array.isArray(n.links) && n.links.includes(node.id)) ||
    // a subflow's input port is wired to nodes inside it
    (n.type === 'subflow' && Array.isArray(n.in) && n.in.some((port: any) => Array.isArray(port?.wires) && port.wires.some((w: any) => w?.id === node.id)));
  if (flows.some(feeds)) return undefined;
  // A link out in return mode answers the link call that called it: the call node receives.
  if (node.type === 'link call') return undefined;
  const next = (Array.isArray(node.wires) ? node.wires.flat() : [])
    .map((id: string) => flows.find((n) => n.id === id))
    .filter((n): n is FlowNode => !!n)
    .map((n) => (n.name ? show(n.name) : `${n.id} (${n.type})`));
  return `nothing is wired to its input, so no msg can arrive there (the kit sees the msgs a node receives)${
    next.length ? `; it sends to ${[...new Set(next)].slice(0, 6).join(', ')}: wait at one of those` : ''
  }`;
}
