/**
 * The Sparkplug B payload's bounded codec over our schema (payload-schema.ts): which field
 * holds each datatype's value (3.0, 6.4.16), and reading untrusted bytes. Decoding never throws: malformed bytes, a
 * payload over SPARKPLUG_BOUNDS.payloadBytes (refused before decoding), too many metrics or
 * a string too long are refusals that say why.
 */
import { t } from '../../lib/base/i18n';
import { FLEET_BOUNDS, SPARKPLUG_BOUNDS } from '../../lib/pure/limits';
import { schema } from './payload-schema';
import { DataType, DataTypeCode, MetricValue, SpMetric, SpPayload, SpProperty } from './types';

/** Which protobuf field holds a datatype's value (3.0, 6.4.16): 8-32 bit integers in int_value, 64-bit and DateTime in long_value. */
export type ValueField = 'intValue' | 'longValue' | 'floatValue' | 'doubleValue' | 'booleanValue' | 'stringValue';
const FIELD: Partial<Record<DataTypeCode, ValueField>> = {
  [DataType.Int8]: 'intValue',
  [DataType.Int16]: 'intValue',
  [DataType.Int32]: 'intValue',
  [DataType.UInt8]: 'intValue',
  [DataType.UInt16]: 'intValue',
  [DataType.UInt32]: 'intValue',
  [DataType.Int64]: 'longValue',
  [DataType.UInt64]: 'longValue',
  [DataType.DateTime]: 'longValue',
  [DataType.Float]: 'floatValue',
  [DataType.Double]: 'doubleValue',
  [DataType.Boolean]: 'booleanValue',
  [DataType.String]: 'stringValue',
  [DataType.Text]: 'stringValue',
};
export const fieldOf = (datatype: DataTypeCode): ValueField | undefined => FIELD[datatype];

/** Integer datatypes: [bits, signed]. */
const INT: Partial<Record<DataTypeCode, [number, boolean]>> = {
  [DataType.Int8]: [8, true],
  [DataType.Int16]: [16, true],
  [DataType.Int32]: [32, true],
  [DataType.UInt8]: [8, false],
  [DataType.UInt16]: [16, false],
  [DataType.UInt32]: [32, false],
  [DataType.Int64]: [64, true],
  [DataType.UInt64]: [64, false],
  [DataType.DateTime]: [64, false],
};

const NAMES = Object.fromEntries(Object.entries(DataType).map(([name, code]) => [code, name])) as Record<number, string>;
export const typeName = (datatype: number): string => NAMES[datatype] ?? `datatype ${datatype}`;

/** Whether a JavaScript value is one of the datatype (integers within its range): what we encode and what a command may write. */
export function fits(datatype: DataTypeCode, value: unknown): value is MetricValue {
  const int = INT[datatype];
  if (int) {
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) return false;
    const [bits, signed] = int;
    if (bits === 64) return signed || value >= 0;
    return signed ? value >= -(2 ** (bits - 1)) && value < 2 ** (bits - 1) : value >= 0 && value < 2 ** bits;
  }
  if (datatype === DataType.Float || datatype === DataType.Double) return typeof value === 'number';
  if (datatype === DataType.Boolean) return typeof value === 'boolean';
  if (datatype === DataType.String || datatype === DataType.Text) return typeof value === 'string';
  return false;
}

/** The protobuf field and value of a metric's value: signed integers below 64 bits as 32-bit two's complement (sign-extended, as Tahu's Java does). */
function wireValue(datatype: DataTypeCode, value: MetricValue): [ValueField, unknown] | undefined {
  const field = FIELD[datatype];
  if (!field || !fits(datatype, value)) return undefined;
  if (field === 'intValue') return [field, (value as number) >>> 0];
  return [field, value];
}

function encodeProperties(properties: Record<string, SpProperty>): unknown {
  const keys: string[] = [];
  const values: unknown[] = [];
  for (const [key, p] of Object.entries(properties)) {
    const wire = p.value === null ? undefined : wireValue(p.type, p.value);
    keys.push(key);
    values.push({ type: p.type, ...(wire ? { [wire[0]]: wire[1] } : { isNull: true }) });
  }
  return { keys, values };
}

function encodeMetric(m: SpMetric): Record<string, unknown> {
  const wire = m.isNull || m.value === undefined || m.datatype === undefined ? undefined : wireValue(m.datatype, m.value);
  return {
    ...(m.name !== undefined ? { name: m.name } : {}),
    ...(m.alias !== undefined ? { alias: m.alias } : {}),
    ...(m.timestamp !== undefined ? { timestamp: m.timestamp } : {}),
    ...(m.datatype !== undefined ? { datatype: m.datatype } : {}),
    ...(m.isHistorical ? { isHistorical: true } : {}),
    ...(m.isTransient ? { isTransient: true } : {}),
    // A value that is not of its datatype is said as no value rather than as a wrong one.
    ...(wire ? { [wire[0]]: wire[1] } : { isNull: true }),
    ...(m.properties ? { properties: encodeProperties(m.properties) } : {}),
  };
}

/** A payload as bytes. Our own values only (the catalogue's datatypes): a value that does not fit its datatype goes as is_null. */
export function encode(payload: SpPayload): Uint8Array {
  const type = schema();
  const message = {
    timestamp: payload.timestamp,
    metrics: payload.metrics.map(encodeMetric),
    ...(payload.seq !== undefined ? { seq: payload.seq } : {}),
  };
  return type.encode(message).finish();
}

/** A metric's value as it came, for a metric that gave no datatype (a command by alias): the session reads it as the declared one. */
export interface RawValue {
  field: ValueField | 'other';
  value: unknown;
}

/** A decoded metric: `value` when its datatype came with it, else `raw`. */
export interface DecodedMetric extends SpMetric {
  raw?: RawValue;
}
export type Decoded = { payload: Omit<SpPayload, 'metrics'> & { metrics: DecodedMetric[] } } | { refused: string };

/** A uint64 as protobufjs gives it (a Long with `long` installed, else a number) as a BigInt: exact. */
function big(v: unknown): bigint {
  if (typeof v === 'number') return BigInt(Math.trunc(v));
  const { low, high } = v as { low: number; high: number };
  return (BigInt(high >>> 0) << 32n) | BigInt(low >>> 0);
}

/**
 * A raw value read as `datatype`, or why not. Integers below 64 bits come in int_value, the
 * signed ones sign-extended (0xFFFFFFFF is -1) or in their own width (0xFF is an Int8's -1);
 * a value outside the datatype's range is refused, never wrapped. UInt32 is also read from
 * long_value, where Tahu's JavaScript library and older Java put it.
 */
export function valueAs(datatype: DataTypeCode, raw: RawValue): { value: MetricValue } | { refused: string } {
  const name = typeName(datatype);
  const field = FIELD[datatype];
  const int = INT[datatype];
  const accepted = raw.field === field || (datatype === DataType.UInt32 && raw.field === 'longValue');
  if (!field || !accepted)
    return {
      refused: field
        ? t('fleet-publish.spValueField', { type: name, field, got: raw.field })
        : t('fleet-publish.spValueUnread', { type: name, got: raw.field }),
    };
  if (int) {
    const [bits, signed] = int;
    let v = big(raw.value);
    if (bits === 64) v = signed ? BigInt.asIntN(64, v) : v;
    else if (signed) {
      const half = 1n << BigInt(bits - 1);
      if (v >= (1n << 32n) - half)
        v -= 1n << 32n; // sign-extended to 32 bits
      else if (v >= half && v < 1n << BigInt(bits)) v -= 1n << BigInt(bits); // in its own width
    }
    const value = Number(v);
    if (!Number.isSafeInteger(value) || !fits(datatype, value)) return { refused: t('fleet-publish.spOutOfRange', { value: String(v), type: name }) };
    return { value };
  }
  if (typeof raw.value === 'string' && raw.value.length > FLEET_BOUNDS.commandBytes)
    return { refused: t('fleet-publish.spTextLong', { max: FLEET_BOUNDS.commandBytes, got: raw.value.length }) };
  return { value: raw.value as MetricValue };
}

/** The value field the message holds (protobufjs names the oneof's member). */
function rawOf(m: Record<string, unknown>): RawValue | undefined {
  const field = m.value as string | undefined;
  if (!field) return undefined;
  const known = ['intValue', 'longValue', 'floatValue', 'doubleValue', 'booleanValue', 'stringValue'].includes(field);
  return { field: known ? (field as ValueField) : 'other', value: m[field] };
}

const has = (m: object, key: string) => Object.prototype.hasOwnProperty.call(m, key);

function decodeProperties(set: Record<string, unknown>): Record<string, SpProperty> | string {
  const keys = (set.keys as string[] | undefined) ?? [];
  const values = (set.values as Array<Record<string, unknown>> | undefined) ?? [];
  const out: Record<string, SpProperty> = {};
  for (let i = 0; i < keys.length; i++) {
    const p = values[i];
    if (!p || keys[i].length > FLEET_BOUNDS.commandBytes) return t('fleet-publish.spPropertyBad');
    const type = Number(p.type) as DataTypeCode;
    const raw = rawOf(p);
    if (p.isNull === true || !raw || !FIELD[type]) out[keys[i]] = { type, value: null };
    else {
      const v = valueAs(type, raw);
      if ('refused' in v) return t('fleet-publish.spProperty', { key: JSON.stringify(keys[i].slice(0, 80)), reason: v.refused });
      out[keys[i]] = { type, value: v.value };
    }
  }
  return out;
}

/** A metric's refusal: `metric "Pin 1/Output": ...` (by name, else by its place in the payload). */
const ofMetric = (metric: string | number, reason: string): string => t('fleet-publish.spMetric', { metric, reason });

function decodeMetric(m: Record<string, unknown>, i: number): DecodedMetric | string {
  const metric: DecodedMetric = {};
  if (has(m, 'name')) {
    const name = m.name as string;
    if (name.length > FLEET_BOUNDS.commandBytes) return ofMetric(i + 1, t('fleet-publish.spNameLong', { max: FLEET_BOUNDS.commandBytes, got: name.length }));
    metric.name = name;
  }
  const what = metric.name !== undefined ? JSON.stringify(metric.name.slice(0, 80)) : `${i + 1}`;
  if (has(m, 'alias')) {
    const alias = big(m.alias);
    if (alias > BigInt(Number.MAX_SAFE_INTEGER)) return ofMetric(what, t('fleet-publish.spAliasNotOurs', { alias: String(alias) }));
    metric.alias = Number(alias);
  }
  if (has(m, 'timestamp')) metric.timestamp = Number(big(m.timestamp));
  if (has(m, 'datatype')) metric.datatype = m.datatype as DataTypeCode;
  if (m.isHistorical === true) metric.isHistorical = true;
  if (m.isTransient === true) metric.isTransient = true;
  if (m.isNull === true) metric.isNull = true;
  if (m.properties) {
    const props = decodeProperties(m.properties as Record<string, unknown>);
    if (typeof props === 'string') return ofMetric(what, props);
    metric.properties = props;
  }
  const raw = rawOf(m);
  if (!metric.isNull && raw) {
    if (metric.datatype === undefined) metric.raw = raw;
    else if (!FIELD[metric.datatype]) return ofMetric(what, t('fleet-publish.spTypeUnread', { type: typeName(metric.datatype) }));
    else {
      const v = valueAs(metric.datatype, raw);
      if ('refused' in v) return ofMetric(what, v.refused);
      metric.value = v.value;
    }
  }
  return metric;
}

/** Bytes protobufjs could not read: its reason (its own words, English) in brackets. */
const malformed = (error: unknown): Decoded => ({
  refused: t('fleet-publish.spNotPayload', { error: error instanceof Error ? error.message.slice(0, 120) : t('fleet-publish.spMalformed') }),
});

/** Untrusted bytes (an NCMD or DCMD) as a payload, or why not; never throws. */
export function decode(bytes: Uint8Array): Decoded {
  if (bytes.length > SPARKPLUG_BOUNDS.payloadBytes)
    return { refused: t('fleet-publish.spPayloadBytes', { max: SPARKPLUG_BOUNDS.payloadBytes, got: bytes.length }) };
  let message: Record<string, unknown>;
  try {
    message = schema().decode(bytes) as unknown as Record<string, unknown>;
  } catch (error) {
    return malformed(error);
  }
  try {
    const metrics = (message.metrics as Array<Record<string, unknown>> | undefined) ?? [];
    if (metrics.length > SPARKPLUG_BOUNDS.commandMetrics)
      return { refused: t('fleet-publish.spTooManyMetrics', { max: SPARKPLUG_BOUNDS.commandMetrics, got: metrics.length }) };
    const out: DecodedMetric[] = [];
    for (let i = 0; i < metrics.length; i++) {
      const metric = decodeMetric(metrics[i], i);
      if (typeof metric === 'string') return { refused: metric };
      out.push(metric);
    }
    return {
      payload: {
        timestamp: has(message, 'timestamp') ? Number(big(message.timestamp)) : 0,
        metrics: out,
        ...(has(message, 'seq') ? { seq: Number(big(message.seq)) } : {}),
      },
    };
  } catch (error) {
    return malformed(error);
  }
}
