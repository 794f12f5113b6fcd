/**
 * What a birth says (Sparkplug 3.0, 6.4.18-19): the NBIRTH's bdSeq, `Node Control/Rebirth`
 * and the edge node's own metrics; a DBIRTH's every metric of its kind of module with name,
 * alias, datatype, the unit as the property `engUnit`, and its value or is_null. Data after
 * a birth names metrics by alias only.
 */
import type { Aliases } from './aliases';
import type { SpDevice } from './edge-device';
import { DataType, DataTypeCode, MetricDef, MetricValue, SpMetric } from './types';

/** The edge node's own metrics, as its NBIRTH declares them. */
export const NODE_METRICS = {
  bdSeq: 'bdSeq',
  rebirth: 'Node Control/Rebirth',
  stored: 'Store and Forward/Stored',
  dropped: 'Store and Forward/Dropped',
  refused: 'Commands/Refused',
} as const;

/** The counters NBIRTH and NDATA carry. */
export interface NodeCounters {
  stored: number;
  dropped: number;
  refused: number;
}
export type Counter = keyof NodeCounters;

/** bdSeq, by name only: the NDEATH (the MQTT will) carries it and nothing else. */
export const bdSeqMetric = (bdSeq: number, timestamp: number): SpMetric => ({ name: NODE_METRICS.bdSeq, datatype: DataType.UInt64, value: bdSeq, timestamp });

/** A node counter as NDATA gives it: by alias. */
export function counterMetric(aliases: Aliases, counter: Counter, value: number, timestamp: number): SpMetric {
  return { alias: aliases.of('', NODE_METRICS[counter]), timestamp, datatype: DataType.UInt64, value };
}

export function nodeBirth(aliases: Aliases, bdSeq: number, counters: NodeCounters, timestamp: number): SpMetric[] {
  const named = (name: string, datatype: DataTypeCode, value: MetricValue): SpMetric => ({ name, alias: aliases.of('', name), timestamp, datatype, value });
  return [
    bdSeqMetric(bdSeq, timestamp),
    named(NODE_METRICS.rebirth, DataType.Boolean, false),
    named(NODE_METRICS.stored, DataType.UInt64, counters.stored),
    named(NODE_METRICS.dropped, DataType.UInt64, counters.dropped),
    named(NODE_METRICS.refused, DataType.UInt64, counters.refused),
  ];
}

/** Every declared metric of the device: a metric no msg has told yet is is_null (births are never empty). */
export function deviceBirth(aliases: Aliases, device: SpDevice, timestamp: number): SpMetric[] {
  return device.defs.map((def) => {
    const known = device.values.get(def.name);
    return {
      name: def.name,
      alias: aliases.of(device.id, def.name),
      timestamp: known?.time ?? timestamp,
      datatype: def.datatype,
      ...(def.unit ? { properties: { engUnit: { type: DataType.String, value: def.unit } } } : {}),
      ...(known && known.value !== null ? { value: known.value } : { isNull: true }),
    };
  });
}

/**
 * A changed value as DDATA gives it: the alias, and the datatype (the specification lets data
 * leave it out; with it a decoder that has not seen the birth still reads the value).
 */
export function dataMetric(alias: number, def: MetricDef, value: MetricValue | null, timestamp: number): SpMetric {
  return { alias, timestamp, datatype: def.datatype, ...(value === null ? { isNull: true } : { value }) };
}
