/**
 * What the catalogue's parts share: reading untrusted msgs (a payload, `msg.request`) with a
 * bounded walk, and a limits.ts check's phrase as a command's refusal.
 */
import { spoken } from '../../lib/base/i18n';
import type { Check } from '../../lib/pure/limits';
import { DataType, DataTypeCode, MetricDef, MetricValue } from './types';

/** The field a refusal names: the metric as the host shows it. */
export type Field = string;

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A wire call of `msg.request` (one call, or a list of them: io-threshold sends the mode first). */
export interface Call {
  method: string;
  path: string;
  body?: Record<string, unknown>;
}

/** The calls of `msg.request`, at most 8 (no node of ours makes more for one msg), each checked. */
export function callsOf(request: unknown): Call[] {
  const list = Array.isArray(request) ? request.slice(0, 8) : [request];
  const calls: Call[] = [];
  for (const call of list) {
    if (!isRecord(call) || typeof call.method !== 'string' || typeof call.path !== 'string' || call.path.length > 400) continue;
    calls.push({ method: call.method, path: call.path, ...(isRecord(call.body) ? { body: call.body } : {}) });
  }
  return calls;
}

/** A check's failure as a refusal in the runtime's language (`Pin 2/Threshold/Voltage must be an integer from 50 to 25000 mV, got 9`); a pass: undefined. */
export function refusal(result: Check): { refused: string } | undefined {
  return result === true ? undefined : { refused: spoken(result) };
}

const INTEGER_RANGE: Partial<Record<DataTypeCode, [number, number]>> = {
  [DataType.Int8]: [-128, 127],
  [DataType.Int16]: [-32768, 32767],
  [DataType.Int32]: [-(2 ** 31), 2 ** 31 - 1],
  [DataType.Int64]: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  [DataType.UInt8]: [0, 255],
  [DataType.UInt16]: [0, 65535],
  [DataType.UInt32]: [0, 2 ** 32 - 1],
  [DataType.UInt64]: [0, Number.MAX_SAFE_INTEGER],
};

const TYPE_NAMES = Object.fromEntries(Object.entries(DataType).map(([name, code]) => [code, name])) as Record<number, string>;

/** Whether `value` is of the metric's declared datatype (a DCMD's value as decoded). */
export function ofDatatype(def: MetricDef, value: MetricValue): boolean {
  const range = INTEGER_RANGE[def.datatype];
  if (range) return typeof value === 'number' && Number.isInteger(value) && value >= range[0] && value <= range[1];
  switch (def.datatype) {
    case DataType.Float:
    case DataType.Double:
      return typeof value === 'number' && Number.isFinite(value);
    case DataType.Boolean:
      return typeof value === 'boolean';
    case DataType.String:
    case DataType.Text:
      return typeof value === 'string';
    case DataType.DateTime:
      return typeof value === 'number' && Number.isInteger(value) && value >= 0;
    default:
      return false;
  }
}

export const typeName = (code: DataTypeCode): string => TYPE_NAMES[code] ?? String(code);

/** A metric that is one field of a device record, as the record says it (bmc and power). */
export interface FieldMetric extends MetricDef {
  field: string;
}

/** The metrics of a table of fields, as declared (without the field). */
export const declaredOf = (table: readonly FieldMetric[]): MetricDef[] =>
  table.map(({ name, datatype, unit, writes }) => ({ name, datatype, ...(unit ? { unit } : {}), ...(writes ? { writes } : {}) }));

/** Every field of `record` the table names, of its metric's type (another type says nothing). */
export function fieldsOf(table: readonly FieldMetric[], record: unknown): Array<{ name: string; value: MetricValue }> {
  if (!isRecord(record)) return [];
  const out: Array<{ name: string; value: MetricValue }> = [];
  for (const def of table) {
    const value = Object.prototype.hasOwnProperty.call(record, def.field) ? record[def.field] : undefined;
    if (value !== undefined && (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string') && ofDatatype(def, value))
      out.push({ name: def.name, value });
  }
  return out;
}
