/**
 * A module as a Sparkplug device of the edge node: its declared metrics (its kind's, from the
 * catalogue), the values msgs and health events gave them, and whether it is alive (its
 * connection is `connected`: a DBIRTH stands) or dead (a DDEATH stands).
 */
import type { ModuleKey } from '../scheme';
import type { Service } from '../../lib/pure/limits';
import { metricsOf } from './catalogue';
import { fits } from './payload';
import type { MetricChange, MetricDef, MetricValue } from './types';

export interface SpDevice {
  /** The Sparkplug device id (topics.ts deviceId). */
  id: string;
  key: ModuleKey;
  service: Service;
  defs: readonly MetricDef[];
  byName: ReadonlyMap<string, MetricDef>;
  values: Map<string, { value: MetricValue | null; time: number }>;
  /** The connection state last heard; undefined: none yet. */
  state?: string;
  /** Its connection is up (or, before any state was heard, it answered): a DBIRTH is due or stands. */
  alive: boolean;
  /** Its DBIRTH was published in this birth of the edge node (and no DDEATH since). */
  born: boolean;
}

export const isService = (service: string): service is Service => service === 'io' || service === 'bmc' || service === 'power';

export function newDevice(id: string, key: ModuleKey, service: Service): SpDevice {
  const defs = metricsOf(service);
  return { id, key, service, defs, byName: new Map(defs.map((d) => [d.name, d])), values: new Map(), alive: false, born: false };
}

/** A changed metric: its definition and new value. */
export interface Changed {
  def: MetricDef;
  value: MetricValue | null;
  time: number;
}

/** Applies a msg's words to the device's values: what changed (by exception; a count adds to the last value). */
export function applyChanges(device: SpDevice, changes: readonly MetricChange[], time: number): Changed[] {
  const changed: Changed[] = [];
  for (const change of changes) {
    const def = device.byName.get(change.name);
    if (!def) continue;
    const last = device.values.get(def.name)?.value;
    let value: MetricValue | null;
    if ('add' in change) {
      if (typeof change.add !== 'number' || !Number.isFinite(change.add)) continue;
      value = (typeof last === 'number' ? last : 0) + change.add;
    } else value = change.value;
    // A value not of the declared datatype is not said (a host would read a wrong one).
    if (value !== null && !fits(def.datatype, value)) continue;
    if (last !== undefined && last === value) continue;
    if (last === undefined && value === null) {
      // Declared is_null already: keep it so, nothing to say.
      device.values.set(def.name, { value, time });
      continue;
    }
    device.values.set(def.name, { value, time });
    changed.push({ def, value, time });
  }
  return changed;
}
