/**
 * Sparkplug B topics (3.0, chapter 4): `spBv1.0/<group>/<type>/<edge node>[/<device>]` and the
 * primary host's `spBv1.0/STATE/<host id>`. An incoming topic is read only as far as it can be
 * ours: the NCMD and DCMD of this edge node and the STATE of its primary host; anything else
 * (another edge node's commands a wildcard let in, a topic of any length) is not for us.
 */
import { FLEET_BOUNDS, SPARKPLUG_BOUNDS } from '../../lib/pure/limits';
import type { EdgeSettings } from './types';

export const NAMESPACE = 'spBv1.0';

export type NodeMessage = 'NBIRTH' | 'NDEATH' | 'NDATA' | 'NCMD';
export type DeviceMessage = 'DBIRTH' | 'DDEATH' | 'DDATA' | 'DCMD';

/** A group, edge node or host id: one topic level (no `/`, `+`, `#`), never empty, bounded. */
export function isSpId(value: unknown): value is string {
  return typeof value === 'string' && value.length <= SPARKPLUG_BOUNDS.idChars && /^[A-Za-z0-9._-]+$/.test(value);
}

/**
 * A module's Sparkplug device id: `<service>-<slot>` (`io-2`) on this instance's own device,
 * `<fleet device>.<service>-<slot>` on another (a gateway): each part a fleet topic level.
 */
export function deviceId(key: { device: string; service: string; slot: number }, own: string): string {
  const module = `${key.service}-${key.slot}`;
  return key.device === own ? module : `${key.device}.${module}`;
}

/** The longest device id (a fleet device, a dot, a `<service>-<slot>` level): a DCMD naming a longer one is not ours. */
const DEVICE_CHARS = 2 * FLEET_BOUNDS.levelChars + 1;

/** An incoming message for this edge node. */
export type Incoming = { kind: 'NCMD' } | { kind: 'DCMD'; device: string } | { kind: 'STATE' };

export class SpTopics {
  private readonly base: string;

  constructor(private readonly settings: EdgeSettings) {
    this.base = `${NAMESPACE}/${settings.group}`;
  }

  node(type: NodeMessage): string {
    return `${this.base}/${type}/${this.settings.edgeNode}`;
  }

  device(type: DeviceMessage, device: string): string {
    return `${this.base}/${type}/${this.settings.edgeNode}/${device}`;
  }

  /** The primary host's STATE topic, or undefined without one. */
  get state(): string | undefined {
    return this.settings.primaryHost ? `${NAMESPACE}/STATE/${this.settings.primaryHost}` : undefined;
  }

  /** What the edge node subscribes to: its NCMD, its devices' DCMD and the primary host's STATE. */
  subscriptions(): string[] {
    const state = this.state;
    return [this.node('NCMD'), this.device('DCMD', '+'), ...(state ? [state] : [])];
  }

  /** An incoming topic, if it is one of ours; bounded: a topic longer than ours could be is not read. */
  parse(topic: string): Incoming | undefined {
    if (typeof topic !== 'string') return undefined;
    if (topic === this.state) return { kind: 'STATE' };
    if (topic === this.node('NCMD')) return { kind: 'NCMD' };
    const prefix = `${this.base}/DCMD/${this.settings.edgeNode}/`;
    if (topic.length > prefix.length + DEVICE_CHARS || !topic.startsWith(prefix)) return undefined;
    const device = topic.slice(prefix.length);
    return device && !device.includes('/') ? { kind: 'DCMD', device } : undefined;
  }
}
