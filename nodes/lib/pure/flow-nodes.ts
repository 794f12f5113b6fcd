/**
 * The flow check's view of a node: the plain object both sides have (the editor's node
 * properties, the runtime's deployed flow definitions), and how a setting is read from it.
 * A setting whose value is only known at run time (a `${VAR}`, a typed value from msg, flow,
 * global or env) reads as undefined: the check skips it, it never guesses.
 * Pure: no Node-RED, no DOM (bundled into the editor).
 */
import { isEnvReference, parseInteger, SERVICES } from './limits';
import { PINS } from './facts';
import { baseUrl, locationOf } from './base-url';
import type { Service } from './limits';
import { listSetting } from './list-setting';

/**
 * A node as the editor holds it (id, type, z, d and its defaults' values, e.g. `device` =
 * the config node's id) or as deployed (the same properties). Tabs may be passed too
 * (`type: 'tab'`, `disabled`): the nodes of a disabled tab are ignored.
 */
export interface FlowNode {
  id: string;
  type: string;
  /** The tab (or subflow) the node sits on. */
  z?: string;
  /** Disabled node. */
  d?: boolean;
  /** Disabled tab (tabs only). */
  disabled?: boolean;
  name?: unknown;
  [setting: string]: unknown;
}

/** The nodes that run: neither disabled, nor on a disabled tab, nor tabs; ordered by id. */
export function enabledNodes(nodes: readonly FlowNode[]): FlowNode[] {
  const offTabs = new Set<string>();
  for (const n of nodes) if (n.type === 'tab' && n.disabled === true) offTabs.add(n.id);
  // Ordered by id so that the findings (and the names quoted in them) do not depend on the
  // order the caller walked its nodes in.
  return nodes
    .filter((n) => n.type !== 'tab' && n.d !== true && !(typeof n.z === 'string' && offTabs.has(n.z)))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** An integer setting typed in the dialog; undefined when not (yet) known or not an integer. */
export function intOf(value: unknown): number | undefined {
  if (isEnvReference(value)) return undefined;
  const n = parseInteger(value);
  return typeof n === 'number' && Number.isSafeInteger(n) ? n : undefined;
}

/** A word setting typed in the dialog; undefined when empty or only known at run time. */
export function wordOf(value: unknown): string | undefined {
  if (typeof value !== 'string' || isEnvReference(value)) return undefined;
  const text = value.trim();
  return text || undefined;
}

/** A checkbox: true/false (also as text after env substitution); undefined when unknown. */
export function flagOf(value: unknown): boolean | undefined {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false' || value === undefined || value === '') return false;
  return undefined;
}

/**
 * A setting typed into the dialog (`<prop>Type` absent or 'num'), else undefined: msg,
 * flow, global and env values (action/typed-setting.ts) are only known when a msg arrives.
 */
export function typedInInt(node: FlowNode, prop: string): number | undefined {
  const type = node[`${prop}Type`];
  if (typeof type === 'string' && type !== 'num' && type !== '') return undefined;
  return intOf(node[prop]);
}

/** Every pin of an io module, 1 to 6. */
/** Every pin (facts.ts), for a setting that names none. */
export const ALL_PINS = PINS;

/**
 * The pins a notification-poll watches: those it lists (saved as an array, or as text
 * separated by commas), undefined where an entry is not an integer; every pin when it lists
 * none. The flow check and the sidebar's linking both read the setting through this.
 */
export function pollPins(node: FlowNode): Array<number | undefined> {
  const listed = listSetting(node.pins) ?? [];
  return listed.length ? listed.map(intOf) : [...ALL_PINS];
}

/** The service a node type talks to (io-*, notification-poll → io; bmc-*; power-*); undefined for any. */
export function serviceOfType(type: string): Service | undefined {
  if (type === 'notification-poll') return 'io';
  const prefix = type.split('-', 1)[0];
  return (SERVICES as readonly string[]).includes(prefix) ? (prefix as Service) : undefined;
}

/**
 * Where a device is, as the runtime names it (DeviceClient.location): host[:port] and the
 * URL's path without trailing slashes. Undefined for a `${VAR}` or a URL the node refuses.
 */
export function deviceLocation(url: unknown): string | undefined {
  if (isEnvReference(url)) return undefined;
  const parsed = baseUrl(url);
  return parsed && locationOf(parsed);
}

/** A node as a finding names it: its type and, when it has one, its name in quotes. */
export function nodeName(node: FlowNode): string {
  const name = typeof node.name === 'string' ? node.name.trim() : '';
  return name ? `${node.type} '${name}'` : node.type;
}
