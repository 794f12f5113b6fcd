/**
 * The power module's metrics (catalogue.ts): per rail its voltage, current, current limit,
 * capacity and efficiency and protection counters (power-readings, power-limits' read),
 * temperatures, the fan (power-fan). Each is a field of a record the device answers, the same
 * on API 0.9 and 1.0. A write the module took (power-limits' set, power-fan's set and
 * measurement) says its values in its wire call's body. Nothing here is written by a DCMD:
 * power-limits and power-fan run the operation their dialog chose, so a payload alone does
 * not say what the node does with it.
 */
import { DataType, MetricChange } from './types';
import { callsOf, FieldMetric, fieldsOf, isRecord } from './catalogue-values';

const RAILS = [
  ['3V3', '3v3'],
  ['5V0', '5v0'],
  ['12V', '12v'],
] as const;

const railFields = ([rail, f]: (typeof RAILS)[number]): FieldMetric[] => [
  { field: `voltage_${f}`, name: `Rails/${rail}/Voltage`, datatype: DataType.Double, unit: 'mV' },
  { field: `current_${f}`, name: `Rails/${rail}/Current`, datatype: DataType.Double, unit: 'mA' },
  { field: `limit_${f}`, name: `Rails/${rail}/Current Limit`, datatype: DataType.UInt32, unit: 'mA' },
  { field: `source_${f}`, name: `Rails/${rail}/Capacity`, datatype: DataType.UInt32, unit: 'mW' },
  { field: `efficiency_factor_${f}`, name: `Rails/${rail}/Efficiency`, datatype: DataType.Double, unit: '%' },
  { field: `ovp_cnt_${f}`, name: `Protection/${rail}/Over Voltage`, datatype: DataType.UInt32 },
  { field: `uvp_cnt_${f}`, name: `Protection/${rail}/Under Voltage`, datatype: DataType.UInt32 },
  { field: `ocp_cnt_${f}`, name: `Protection/${rail}/Over Current`, datatype: DataType.UInt32 },
];

/** Fields of the records power-readings and power-limits read (unique across them: power-readings merges them). */
export const POWER_RECORD_FIELDS: readonly FieldMetric[] = [
  ...RAILS.flatMap(railFields),
  { field: 'source_total', name: 'Rails/Total Capacity', datatype: DataType.UInt32, unit: 'mW' },
  { field: 'opp_protection_cnt', name: 'Protection/All', datatype: DataType.UInt32 },
  { field: 'pmc_temperature', name: 'Protection/PMC Over Temperature', datatype: DataType.UInt32 },
  { field: 'total_power_overload', name: 'Protection/Total Power Overload', datatype: DataType.UInt32 },
  { field: 'on_board_temp', name: 'Temperatures/On Board', datatype: DataType.Double, unit: '°C' },
  { field: 'pmc_temp', name: 'Temperatures/PMC', datatype: DataType.Double, unit: '°C' },
];

/** The fan's record (`GET fan`). */
const FAN_FIELDS: readonly FieldMetric[] = [
  { field: 'fan_forced', name: 'Fan/Forced', datatype: DataType.Boolean },
  { field: 'fan_current_mode', name: 'Fan/Mode', datatype: DataType.UInt8, unit: '%' },
  { field: 'fan_setting_mode', name: 'Fan/Forced Mode', datatype: DataType.UInt8, unit: '%' },
];

/** The fan's speed record (`GET fan/rpm`): its field names are too plain to read from any other. */
const RPM_FIELDS: readonly FieldMetric[] = [
  { field: 'rpm', name: 'Fan/Speed', datatype: DataType.UInt32, unit: 'rpm' },
  { field: 'enabled', name: 'Fan/Speed Measured', datatype: DataType.Boolean },
];

export const POWER_FIELDS: readonly FieldMetric[] = [...POWER_RECORD_FIELDS, ...FAN_FIELDS, ...RPM_FIELDS];

/** power-readings' merged record (`what` its first record: source, protectionlog, stats or temperature). */
const RECORDS = new Set(['source', 'protectionlog', 'stats', 'temperature']);

/** The bodies of the writes power-limits and power-fan make, as the fields they set. */
const WRITES: Record<string, readonly FieldMetric[]> = {
  limits: POWER_RECORD_FIELDS.filter((d) => d.field.startsWith('limit_')),
  fan: [
    { field: 'fan_forced', name: 'Fan/Forced', datatype: DataType.Boolean },
    { field: 'fan_mode', name: 'Fan/Forced Mode', datatype: DataType.UInt8, unit: '%' },
  ],
  'fan/rpm': [{ field: 'measurement_enabled', name: 'Fan/Speed Measured', datatype: DataType.Boolean }],
};

export function powerReading(what: string, payload: unknown, request: unknown): MetricChange[] {
  if (RECORDS.has(what)) return fieldsOf(POWER_RECORD_FIELDS, payload);
  if (isRecord(payload) && payload.status === 'success' && (what === 'limits' || what === 'fan' || what === 'fan/rpm'))
    return callsOf(request).flatMap((call) => {
      const leaf = /\/api\/power\/\d{1,3}\.\d{1,3}\/\d{1,5}\/(limits|fan|fan\/rpm)$/.exec(call.path)?.[1];
      return call.method === 'POST' && leaf && call.body ? fieldsOf(WRITES[leaf], call.body) : [];
    });
  if (what === 'fan') return fieldsOf(FAN_FIELDS, payload);
  if (what === 'fan/rpm') return fieldsOf(RPM_FIELDS, payload);
  return [];
}
