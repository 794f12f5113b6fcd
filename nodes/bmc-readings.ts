/**
 * bmc-readings: board voltages (`voltage`: voltage_1v8, voltage_rtc in mV) and/or
 * temperatures (`temperature`: ntc_0 near the SoC, ntc_1 ambient, °C), when a msg arrives
 * or polled every N ms, optionally only when a value moved past the deadband.
 */
import { registerActionNode } from './lib/action/action-node';
import { invalidInput } from './lib/base/errors';
import { numberText, t } from './lib/base/i18n';
import { mergedOutput, readingSettings, ReadingSettings, readOperation } from './lib/action/readings';
import { boolSetting } from './lib/action/setting-values';
import type { NodeAPI, NodeDef } from './lib/base/node-red';

function readSettings(def: NodeDef): ReadingSettings {
  const endpoints: string[][] = [];
  if (boolSetting(def.voltage, true)) endpoints.push(['voltage']);
  if (boolSetting(def.temperature, true)) endpoints.push(['temperature']);
  if (!endpoints.length) throw invalidInput(t('bmc-readings.chooseRecords'));
  return readingSettings(def, endpoints);
}

const read = readOperation;

export = function (RED: NodeAPI) {
  registerActionNode(RED, 'bmc-readings', {
    service: 'bmc',
    settings: readSettings,
    build: (_msg, s) => read(s),
    output: (result, msg, s) =>
      mergedOutput(result, msg, {
        ...s,
        status: (r) =>
          [r.voltage_1v8 !== undefined ? `1V8 ${numberText(r.voltage_1v8)} mV` : '', r.ntc_0 !== undefined ? `SoC ${numberText(r.ntc_0)} °C` : '']
            .filter(Boolean)
            .join(', '),
      }),
    poll: { interval: (s) => s.interval, build: read },
  });
};
