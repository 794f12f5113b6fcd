/**
 * How the sidebar says a reading: a pin's mode from its pin_type (or what the flows drive), its value with the unit
 * of that mode, a countdown in seconds, a session id short. Words come from the catalogue
 * through `t`, numbers are formatted here once.
 */
import type { LivePin } from '../../lib/pure/snapshot';
import { t } from './editor-api';

/** pin_type (0.9 names) → catalogue key of the mode. */
const MODE_KEYS: Record<string, string> = {
  voltage_mV: 'pin.mode.voltage',
  digital_input: 'pin.mode.digital',
  frequency_hz: 'pin.mode.frequency',
};

/**
 * A pin's mode: what the flows drive on it where the device shows an analog pin (it cannot
 * tell an output or a PWM from an analog input), else the device's pin_type.
 */
export function modeText(pin: LivePin): string {
  if (pin.driven) return t(`pin.mode.${pin.driven.kind}`);
  const key = pin.type ? MODE_KEYS[pin.type] : undefined;
  return key ? t(key) : (pin.type ?? t('unknown'));
}

/** Who says the mode: the flows (driven) or the device; undefined before a reading. */
export function modeSource(pin: LivePin): 'flows' | 'device' | undefined {
  return pin.driven ? 'flows' : pin.type ? 'device' : undefined;
}

export function valueText(pin: LivePin): string {
  const driven = pin.driven;
  if (driven?.kind === 'output') return driven.level === 'high' ? t('pin.high') : t('pin.low');
  if (driven?.kind === 'pwm') return t('pin.pwmValue', { hz: round(driven.frequencyHz), duty: round(driven.dutyPercent) });
  if (pin.value === undefined) return '–';
  switch (pin.type) {
    case 'voltage_mV':
      return `${pin.value} mV`;
    case 'digital_input':
      return pin.value ? t('pin.high') : t('pin.low');
    case 'frequency_hz':
      return `${pin.value} Hz`;
    default:
      return String(pin.value);
  }
}

export function currentText(pin: LivePin): string {
  return pin.current_mA === undefined ? '' : `${pin.current_mA} mA`;
}

/** Milliseconds as seconds with one decimal: a countdown updated four times a second. */
export function seconds(ms: number): string {
  return `${(Math.max(0, ms) / 1000).toFixed(1)} s`;
}

/** First 8 characters tell a new session from the old one. */
export function short(id: string | undefined): string {
  return id ? id.slice(0, 8) : '–';
}

/** A record of readings as "name value unit" pairs, in the record's order. */
export function entries(record: Record<string, number | string> | undefined, unit = ''): Array<[string, string]> {
  return Object.entries(record ?? {}).map(([k, v]) => [k, typeof v === 'number' ? `${round(v)}${unit ? ` ${unit}` : ''}` : String(v)]);
}

function round(v: number): string {
  return Number.isInteger(v) ? String(v) : v.toFixed(1);
}
