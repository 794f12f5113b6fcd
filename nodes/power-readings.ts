/**
 * power-readings: any of `source` (capacity, mW), `protectionlog` (counters), `stats`
 * (rail voltages mV, currents mA, limits mA) and `temperature` (°C), when a msg arrives or
 * polled, as plain numbers a chart can take. `msg.protection_changed` is true when any
 * protection counter rose since the node's previous read.
 */
import { registerActionNode } from './lib/action-node';
import { ChangeFilter } from './lib/change';
import { ensure, invalidInput } from './lib/errors';
import { check } from './lib/limits';
import { mergedOutput, readMerged } from './lib/readings';
import { boolSetting, intSetting, textSetting } from './lib/settings';
import type { NodeAPI, NodeDef } from './lib/red';

const RECORDS = ['source', 'protectionlog', 'stats', 'temperature'] as const;

interface Settings {
  endpoints: string[][];
  interval: number;
  onlyOnChange: boolean;
  output: 'record' | 'per-field';
  filter: ChangeFilter;
  /** Protection counters at the previous read, for protection_changed. */
  counters?: Record<string, number>;
}

function readSettings(def: NodeDef): Settings {
  const endpoints = RECORDS.filter((r) => boolSetting(def[r], r === 'stats')).map((r) => [r]);
  if (!endpoints.length) throw invalidInput(`choose at least one of ${RECORDS.join(', ')}`);
  const interval = intSetting(def.interval, 0);
  const deadband = intSetting(def.deadband, 0);
  ensure(check('poll_interval', interval, 'interval'));
  ensure(check('deadband', deadband));
  return {
    endpoints,
    interval: interval as number,
    onlyOnChange: boolSetting(def.onlyOnChange, false),
    output: textSetting(def.output) === 'per-field' ? 'per-field' : 'record',
    filter: new ChangeFilter(deadband as number),
  };
}

/** Counter fields of the protection log (spec: power protection log). */
const isCounter = (key: string) => /_cnt(_|$)/.test(key) || key === 'pmc_temperature' || key === 'total_power_overload';

function protectionChanged(s: Settings, record: Record<string, unknown>): boolean {
  const counters = Object.fromEntries(Object.entries(record).filter(([k, v]) => isCounter(k) && typeof v === 'number')) as Record<string, number>;
  if (!Object.keys(counters).length) return false;
  const before = s.counters;
  s.counters = counters;
  return !!before && Object.entries(counters).some(([k, v]) => v > (before[k] ?? v));
}

const read = (s: Settings) => ({ requests: [], run: readMerged(s.endpoints), done: 'read' });

export = function (RED: NodeAPI) {
  registerActionNode(RED, 'power-readings', {
    service: 'power',
    settings: readSettings,
    build: (_msg, s) => read(s),
    output: (result, msg, s) =>
      mergedOutput(result, msg, {
        ...s,
        extra: (r) => ({ protection_changed: protectionChanged(s, r) }),
        exact: isCounter,
        force: (extra) => extra.protection_changed === true,
        status: (r) =>
          [
            r.current_5v0 !== undefined ? `5V0 ${r.current_5v0} mA` : '',
            r.pmc_temp !== undefined ? `PMC ${r.pmc_temp} °C` : '',
            r.opp_protection_cnt !== undefined ? `protections ${r.opp_protection_cnt}` : '',
          ]
            .filter(Boolean)
            .join(', ') || 'read',
      }),
    poll: { interval: (s) => s.interval, build: read },
  });
};
