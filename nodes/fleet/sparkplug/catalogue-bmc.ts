/**
 * The bmc module's metrics (catalogue.ts): board voltages and temperatures (bmc-readings),
 * the watchdog (bmc-watchdog's read), the USB hub (bmc-usbhub's read). Each is a field of a
 * record the device answers, in the same shape on API 0.9 and 1.0 (the client answers 1.0's
 * hub record in the spec's port numbers). Measurements are Double, settings and counts
 * integers. Nothing here is written by a DCMD: the watchdog's writes need the node's confirm.
 */
import { DataType } from './types';
import { callsOf, FieldMetric, fieldsOf, isRecord } from './catalogue-values';
import type { MetricChange } from './types';

const USB_PORTS = [2, 3, 4, 5, 6, 7, 8];

export const BMC_FIELDS: readonly FieldMetric[] = [
  { field: 'voltage_1v8', name: 'Rails/1V8/Voltage', datatype: DataType.Double, unit: 'mV' },
  { field: 'voltage_rtc', name: 'Rails/RTC/Voltage', datatype: DataType.Double, unit: 'mV' },
  { field: 'ntc_0', name: 'Temperatures/SoC', datatype: DataType.Double, unit: '°C' },
  { field: 'ntc_1', name: 'Temperatures/Ambient', datatype: DataType.Double, unit: '°C' },
  { field: 'timeout', name: 'Watchdog/Timeout', datatype: DataType.UInt32, unit: 'ms' },
  { field: 'timeout_left', name: 'Watchdog/Time Left', datatype: DataType.UInt32, unit: 'ms' },
  { field: 'shutdown_timeout', name: 'Watchdog/Shutdown Timeout', datatype: DataType.UInt32, unit: 'ms' },
  { field: 'emergency_mode', name: 'Watchdog/Emergency Mode', datatype: DataType.Boolean },
  { field: 'hub_state', name: 'USB Hub/State', datatype: DataType.String },
  ...USB_PORTS.map((port) => ({ field: `port_slot_${port}`, name: `USB Hub/Port ${port}`, datatype: DataType.String })),
];

/** Which records a reading's wire path names: the watchdog's fields only from its own read, the hub's from its. */
const TABLES: Record<string, readonly FieldMetric[]> = {
  voltage: BMC_FIELDS.filter((d) => d.name.startsWith('Rails/') || d.name.startsWith('Temperatures/')),
  temperature: BMC_FIELDS.filter((d) => d.name.startsWith('Temperatures/')),
  watchdog: BMC_FIELDS.filter((d) => d.name.startsWith('Watchdog/')),
  usbhub: BMC_FIELDS.filter((d) => d.name.startsWith('USB Hub/')),
};

function watchdogWritten(call: { method: string; path: string; body?: Record<string, unknown> }): MetricChange[] {
  const leaf = /\/api\/bmc\/\d{1,3}\.\d{1,3}\/\d{1,5}\/(watchdog|watchdog\/sw_shutdown_timeout)$/.exec(call.path)?.[1];
  if (call.method !== 'POST' || !leaf || !call.body) return [];
  const name = leaf === 'watchdog' ? 'Watchdog/Timeout' : 'Watchdog/Shutdown Timeout';
  return fieldsOf([{ field: 'timeout', name, datatype: DataType.UInt32, unit: 'ms' }], call.body);
}

/**
 * bmc-readings merges voltage and temperature into one record (its `what` is the first
 * record's: `voltage`); the watchdog's and the hub's fields have names as plain as `timeout`,
 * so they are read only from their own records.
 */
export function bmcReading(what: string, payload: unknown, request: unknown): MetricChange[] {
  if (!isRecord(payload)) return [];
  // A watchdog write the module took (`{status: "success"}`): the timeout its body set.
  if (payload.status === 'success') return callsOf(request).flatMap(watchdogWritten);
  const table = TABLES[what];
  if (!table) return [];
  // A hub port's text is the device's word ("enabled", "disabled", "not available"): bounded.
  return fieldsOf(table, payload).filter((c) => typeof c.value !== 'string' || c.value.length <= 40);
}
