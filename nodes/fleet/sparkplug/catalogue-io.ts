/**
 * The io module's metrics (catalogue.ts): per pin its mode and reading, output, PWM,
 * threshold and alert counts. A pin reads one quantity at a time (analog: mV; digital: a
 * level, or a frequency with the counter on): each has a metric of its own with a fixed unit,
 * because a SCADA tag keeps one unit for its life; the others of the pin are null meanwhile.
 *
 * Outputs, PWM and thresholds have no read of their own on the device (API 0.9 shows no
 * output's state): their values are what a write that the module took said, from the wire
 * calls of the msg (`msg.request`, 0.9 or 1.0 field names).
 */
import { t } from '../../lib/base/i18n';
import { check } from '../../lib/pure/limits';
import { checkPwm } from '../../lib/pure/limit-rules';
import { planPwm } from '../../lib/pure/pwm';
import { ALERT_FLAGS, AlertFlag, PINS } from '../../lib/pure/facts';
import { pwmDutyPercent, pwmFrequencyHz } from '../../lib/pure/limit-rules';
import { DataType, MetricChange, MetricDef, MetricValue, WriteCommand } from './types';
import { callsOf, Field, isRecord, refusal } from './catalogue-values';

/** Alert flags as a host shows them (folders `Pin N/Alerts/<flag>`). */
export const ALERT_NAMES: Readonly<Record<AlertFlag, string>> = {
  under_voltage_alert: 'Under Voltage',
  high_voltage_alert: 'High Voltage',
  high_current_alert: 'High Current',
  custom_voltage_alert: 'Custom Voltage',
};

const pinMetrics = (pin: number): MetricDef[] => {
  const p = `Pin ${pin}`;
  return [
    { name: `${p}/Mode`, datatype: DataType.String },
    { name: `${p}/Voltage`, datatype: DataType.Double, unit: 'mV' },
    { name: `${p}/Level`, datatype: DataType.Boolean },
    { name: `${p}/Frequency`, datatype: DataType.Double, unit: 'Hz' },
    { name: `${p}/Current`, datatype: DataType.Double, unit: 'mA' },
    { name: `${p}/Output`, datatype: DataType.Boolean, writes: 'io-output' },
    { name: `${p}/PWM/Setting`, datatype: DataType.String, writes: 'io-output' },
    { name: `${p}/PWM/Frequency`, datatype: DataType.Double, unit: 'Hz' },
    { name: `${p}/PWM/Duty`, datatype: DataType.Double, unit: '%' },
    { name: `${p}/Threshold/Voltage`, datatype: DataType.UInt16, unit: 'mV', writes: 'io-threshold' },
    { name: `${p}/Threshold/Trigger`, datatype: DataType.String, writes: 'io-threshold' },
    ...ALERT_FLAGS.map((flag) => ({ name: `${p}/Alerts/${ALERT_NAMES[flag]}`, datatype: DataType.UInt64 })),
  ];
};

export const IO_METRICS: readonly MetricDef[] = PINS.flatMap(pinMetrics);

const isPin = (pin: unknown): pin is number => typeof pin === 'number' && PINS.includes(pin);
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** One pin record of `input/values` (pin_type in the spec's names: the client translates 1.0's). */
function pinReading(record: unknown): MetricChange[] {
  if (!isRecord(record) || !isPin(record.pin)) return [];
  const p = `Pin ${record.pin}`;
  const { pin_type: type, value } = record;
  const numeric = isNumber(value);
  switch (type) {
    case 'voltage_mV':
    case 'voltage_millivolt':
      return numeric
        ? [
            { name: `${p}/Mode`, value: 'analog' },
            { name: `${p}/Voltage`, value },
            { name: `${p}/Level`, value: null },
            { name: `${p}/Frequency`, value: null },
          ]
        : [];
    case 'digital_input':
      return numeric || typeof value === 'boolean'
        ? [
            { name: `${p}/Mode`, value: 'digital' },
            { name: `${p}/Voltage`, value: null },
            { name: `${p}/Level`, value: value === true || value === 1 },
            { name: `${p}/Frequency`, value: null },
          ]
        : [];
    case 'frequency_hz':
    case 'frequency_hertz':
      return numeric
        ? [
            { name: `${p}/Mode`, value: 'digital' },
            { name: `${p}/Voltage`, value: null },
            { name: `${p}/Level`, value: null },
            { name: `${p}/Frequency`, value },
          ]
        : [];
    case 'current_mA':
    case 'current_milliampere':
      return numeric ? [{ name: `${p}/Current`, value }] : [];
    default:
      return [];
  }
}

/** What a write the module took says (a POST of io-output, io-threshold, io-input). */
function written(path: string, body: Record<string, unknown>): MetricChange[] {
  if (!isPin(body.pin)) return [];
  const p = `Pin ${body.pin}`;
  if (path.endsWith('/output/state') && (body.state === 'high' || body.state === 'low'))
    return [
      { name: `${p}/Output`, value: body.state === 'high' },
      { name: `${p}/PWM/Setting`, value: null },
      { name: `${p}/PWM/Frequency`, value: null },
      { name: `${p}/PWM/Duty`, value: null },
    ];
  if (path.endsWith('/output/pwm') && isNumber(body.prescaler) && isNumber(body.period) && isNumber(body.time_on) && body.period > 0) {
    const frequency = pwmFrequencyHz({ prescaler: body.prescaler, period: body.period });
    const duty = pwmDutyPercent({ period: body.period, time_on: body.time_on });
    return [
      { name: `${p}/Output`, value: null },
      { name: `${p}/PWM/Setting`, value: `${frequency} Hz ${Math.round(duty)} %` },
      { name: `${p}/PWM/Frequency`, value: frequency },
      { name: `${p}/PWM/Duty`, value: duty },
    ];
  }
  if (path.endsWith('/input/analog/threshold')) {
    const mV = body.threshold_mV ?? body.threshold_millivolt;
    const out: MetricChange[] = [];
    if (isNumber(mV)) out.push({ name: `${p}/Threshold/Voltage`, value: mV });
    if (typeof body.trigger === 'string' && body.trigger.length <= 16) out.push({ name: `${p}/Threshold/Trigger`, value: body.trigger });
    return out;
  }
  if (path.endsWith('/input/mode') && (body.mode === 'analog' || body.mode === 'digital')) return [{ name: `${p}/Mode`, value: body.mode }];
  return [];
}

export function ioReading(what: string, payload: unknown, request: unknown): MetricChange[] {
  if (what === 'input/values' || what === 'input/values/current') {
    // All six ({pins}) or one pin's record.
    const records = isRecord(payload) && Array.isArray(payload.pins) ? payload.pins.slice(0, PINS.length) : [payload];
    return records.flatMap(pinReading);
  }
  // A write's answer is `{status: "success"}`: what it set is in the calls it made.
  return callsOf(request).flatMap((call) => (call.method === 'POST' && call.body ? written(call.path, call.body) : []));
}

/** notification-poll's msg: one pin's record (`alerts` its flags) or several (`alerts` by pin). */
export function ioAlert(payload: unknown, alerts: unknown): MetricChange[] {
  const records = Array.isArray(payload) ? payload.slice(0, PINS.length * 4) : [payload];
  const out: MetricChange[] = [];
  for (const record of records) {
    if (!isRecord(record) || !isPin(record.pin)) continue;
    const flags = Array.isArray(alerts) ? alerts : isRecord(alerts) ? alerts[String(record.pin)] : undefined;
    if (!Array.isArray(flags)) continue;
    // A record holds each flag once: a flag named twice in its list is one alert (the next read's is another).
    const raised = new Set(flags.slice(0, ALERT_FLAGS.length * 2));
    for (const flag of ALERT_FLAGS) if (raised.has(flag)) out.push({ name: `Pin ${record.pin}/Alerts/${ALERT_NAMES[flag]}`, add: 1 });
  }
  return out;
}

/** The pin a metric of a pin names: `Pin 3/Output` → 3. */
const pinOf = (name: string): number => Number(/^Pin (\d)\//.exec(name)?.[1]);

/** "1000 Hz 25 %": a PWM setting as a host writes it. */
const PWM_TEXT = /^\s*(\d{1,7})\s*Hz[\s,;]*(\d{1,3})\s*%\s*$/i;

export function ioWrite(def: MetricDef, value: MetricValue): WriteCommand | { refused: string } {
  const pin = pinOf(def.name);
  const field: Field = def.name;
  const leaf = def.name.slice(`Pin ${pin}/`.length);
  if (leaf === 'Output') return { op: 'io-output', payload: { pin, state: value === true ? 'high' : 'low' } };
  if (leaf === 'Threshold/Voltage') return refusal(check('threshold_mV', value, field)) ?? { op: 'io-threshold', payload: { pin, threshold_mV: value } };
  if (leaf === 'Threshold/Trigger') return refusal(check('threshold_trigger', value, field)) ?? { op: 'io-threshold', payload: { pin, trigger: value } };
  if (leaf === 'PWM/Setting') {
    const text = String(value);
    // Cut, a long text could end in a setting it never said: too long is no setting.
    const m = text.length <= 40 ? PWM_TEXT.exec(text) : null;
    if (!m) return { refused: t('fleet-publish.spPwmText', { metric: def.name, got: JSON.stringify(text.slice(0, 40)) }) };
    const [frequency, duty] = [Number(m[1]), Number(m[2])];
    const bad = refusal(check('pwm_frequency_hz', frequency, field)) ?? refusal(check('duty_percent', duty, field));
    if (bad) return bad;
    const plan = planPwm(frequency, duty);
    if (!plan) return { refused: t('fleet-publish.spPwmNoTimer', { metric: def.name, frequency }) };
    const timer = { prescaler: plan.prescaler, period: plan.period, time_on: plan.time_on };
    return refusal(checkPwm(timer)) ?? { op: 'io-output', payload: { pin, ...timer } };
  }
  return { refused: t('fleet-publish.spNotWritten', { metric: def.name }) };
}
