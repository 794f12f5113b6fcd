/**
 * power-readings: any of `source` (capacity, mW), `protectionlog` (counters), `stats`
 * (rail voltages mV, currents mA, limits mA) and `temperature` (°C), when a msg arrives or
 * polled, as plain numbers a chart can take. `msg.protection_changed` is true when any
 * protection counter rose since the node's previous read.
 */
import { registerActionNode } from './lib/action/action-node';
import { invalidInput } from './lib/base/errors';
import { numberText, t } from './lib/base/i18n';
import { mergedOutput, readingSettings, ReadingSettings, readOperation } from './lib/action/readings';
import { boolSetting } from './lib/action/setting-values';
import type { NodeAPI, NodeDef } from './lib/base/node-red';

const RECORDS = ['source', 'protectionlog', 'stats', 'temperature'] as const;

interface Settings extends ReadingSettings {
  /** Protection counters at the previous read, for protection_changed. */
  counters?: Record<string, number>;
}

function readSettings(def: NodeDef): Settings {
  const endpoints = RECORDS.filter((r) => boolSetting(def[r], r === 'stats')).map((r) => [r]);
  if (!endpoints.length) throw invalidInput(t('power-readings.chooseRecords', { records: RECORDS.join(', ') }));
  return readingSettings(def, endpoints);
}

/** Counter fields of the protection log (spec: power protection log). */
// Device keys are read with plain string tests, never a regular expression (docs/security.md).
const isCounter = (key: string) => key.endsWith('_cnt') || key.includes('_cnt_') || key === 'pmc_temperature' || key === 'total_power_overload';

function protectionChanged(s: Settings, record: Record<string, unknown>): boolean {
  const counters = Object.fromEntries(Object.entries(record).filter(([k, v]) => isCounter(k) && typeof v === 'number')) as Record<string, number>;
  if (!Object.keys(counters).length) return false;
  const before = s.counters;
  s.counters = counters;
  return !!before && Object.entries(counters).some(([k, v]) => v > (before[k] ?? v));
}

const read = readOperation;

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
            r.current_5v0 !== undefined ? `5V0 ${numberText(r.current_5v0)} mA` : '',
            r.pmc_temp !== undefined ? `PMC ${numberText(r.pmc_temp)} °C` : '',
            r.opp_protection_cnt !== undefined ? t('power-readings.protections', { n: r.opp_protection_cnt }) : '',
          ]
            .filter(Boolean)
            .join(', ') || t('common.read'),
      }),
    poll: { interval: (s) => s.interval, build: read },
  });
};
