/**
 * fleet-publish's Protocol and Sparkplug settings as the editor saved them, checked at run time
 * (after `${VAR}` substitution) by the rules the dialog checks as typed (fleet-publish.html):
 * each refusal names the field as the dialog labels it (the caller says it in the runtime's
 * language), the value and the bound from SPARKPLUG_BOUNDS. A refused Broker URL is shown
 * without what could be a password.
 */
import { SPARKPLUG_BOUNDS } from '../../lib/pure/limits';
import { isLevel } from '../scheme';
import type { EdgeSettings } from './types';

export const PROTOCOLS = ['uns', 'sparkplug', 'both'] as const;
export type Protocol = (typeof PROTOCOLS)[number];

/** The settings a Sparkplug edge node runs with. */
export interface SparkplugSettings extends EdgeSettings {
  url: string;
  /** The id of a core tls-config node, '' for none. */
  tls: string;
}

/** A refusal: the message id (locales' `fleet-publish.runtime.<id>`) and its values; `field` names the field (`runtime.<field>Field`, the dialog's label). */
export interface SettingRefusal {
  id: 'badProtocol' | 'badSpId' | 'badSpHost' | 'badBroker' | 'brokerCredentials' | 'tlsNeedsMqtts';
  field: 'protocol' | 'broker' | 'tls' | 'group' | 'edgeNode' | 'primaryHost';
  values: Record<string, string | number>;
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
const shown = (value: string) => JSON.stringify(value.slice(0, 80));

/** The Protocol setting: empty (a flow saved before it existed) is `uns`, as before. */
export function readProtocol(value: unknown): Protocol | SettingRefusal {
  const v = text(value) || 'uns';
  return (PROTOCOLS as readonly string[]).includes(v)
    ? (v as Protocol)
    : { id: 'badProtocol', field: 'protocol', values: { protocols: PROTOCOLS.join(', '), got: shown(v) } };
}

/** The Broker URL with a possible password left out: protocol, host and port only. */
export function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}`;
  } catch {
    return url.replace(/\/\/[^@/]*@/, '//…@');
  }
}

function checkUrl(url: string, tls: string): SettingRefusal | undefined {
  let parsed: URL | undefined;
  try {
    parsed = url.length <= SPARKPLUG_BOUNDS.urlChars ? new URL(url) : undefined;
  } catch {
    parsed = undefined;
  }
  const ok =
    parsed && (parsed.protocol === 'mqtt:' || parsed.protocol === 'mqtts:') && parsed.hostname !== '' && (parsed.pathname === '' || parsed.pathname === '/');
  if (!parsed || !ok) return { id: 'badBroker', field: 'broker', values: { max: SPARKPLUG_BOUNDS.urlChars, got: shown(safeUrl(url)) } };
  if (parsed.username || parsed.password) return { id: 'brokerCredentials', field: 'broker', values: { got: shown(safeUrl(url)) } };
  if (tls && parsed.protocol !== 'mqtts:') return { id: 'tlsNeedsMqtts', field: 'tls', values: { got: shown(safeUrl(url)) } };
  return undefined;
}

function checkId(field: 'group' | 'edgeNode' | 'primaryHost', value: string): SettingRefusal | undefined {
  if (field === 'primaryHost' && value === '') return undefined;
  if (isLevel(value) && value.length <= SPARKPLUG_BOUNDS.idChars) return undefined;
  return { id: field === 'primaryHost' ? 'badSpHost' : 'badSpId', field, values: { max: SPARKPLUG_BOUNDS.idChars, got: shown(value) } };
}

/**
 * The Sparkplug settings of a node definition, or the first refusal (in the dialog's order).
 * The Edge node id defaults to `device` (the node's Device, else FF_DEVICE_NAME).
 */
export function readSparkplug(def: Record<string, unknown>, device: string): SparkplugSettings | SettingRefusal {
  const url = text(def.broker);
  const tls = text(def.tls);
  const group = text(def.group);
  const edgeNode = text(def.edgeNode) || device;
  const primaryHost = text(def.primaryHost);
  const refusal = checkUrl(url, tls) ?? checkId('group', group) ?? checkId('edgeNode', edgeNode) ?? checkId('primaryHost', primaryHost);
  return refusal ?? { url, tls, group, edgeNode, primaryHost };
}

export function isRefusal(value: unknown): value is SettingRefusal {
  return typeof value === 'object' && value !== null && 'id' in value && 'field' in value;
}
