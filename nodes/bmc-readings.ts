/**
 * bmc-readings: board voltages (`voltage`: voltage_1v8, voltage_rtc in mV) and/or
 * temperatures (`temperature`: ntc_0 near the SoC, ntc_1 ambient, °C), when a msg arrives
 * or polled every N ms, optionally only when a value moved past the deadband.
 */
import { registerActionNode } from './lib/action-node';
import { ChangeFilter } from './lib/change';
import { ensure, invalidInput } from './lib/errors';
import { check } from './lib/limits';
import { mergedOutput, readMerged } from './lib/readings';
import { boolSetting, intSetting, textSetting } from './lib/settings';
import type { NodeAPI, NodeDef } from './lib/red';

interface Settings {
  endpoints: string[][];
  interval: number;
  onlyOnChange: boolean;
  output: 'record' | 'per-field';
  filter: ChangeFilter;
}

function readSettings(def: NodeDef): Settings {
  const endpoints: string[][] = [];
  if (boolSetting(def.voltage, true)) endpoints.push(['voltage']);
  if (boolSetting(def.temperature, true)) endpoints.push(['temperature']);
  if (!endpoints.length) throw invalidInput('choose voltage, temperature or both');
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

const read = (s: Settings) => ({ requests: [], run: readMerged(s.endpoints), done: 'read' });

export = function (RED: NodeAPI) {
  registerActionNode(RED, 'bmc-readings', {
    service: 'bmc',
    settings: readSettings,
    build: (_msg, s) => read(s),
    output: (result, msg, s) =>
      mergedOutput(result, msg, {
        ...s,
        status: (r) =>
          [r.voltage_1v8 !== undefined ? `1V8 ${r.voltage_1v8} mV` : '', r.ntc_0 !== undefined ? `SoC ${r.ntc_0} °C` : '']
            .filter(Boolean)
            .join(', '),
      }),
    poll: { interval: (s) => s.interval, build: read },
  });
};
