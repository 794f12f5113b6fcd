/**
 * How the sidebar says a reading: a pin's mode from its pin_type (or what the flows drive), its value with the unit
 * of that mode, a countdown in seconds, a session id short. Words come from the catalogue
 * through `t`, numbers are formatted here once, as the editor's language writes them (a
 * German editor: `38,2 °C`, `0,5 s`), so words and numbers of a row speak one language.
 */
import type { LivePin } from '../../lib/pure/snapshot';
import { RED, t } from './editor-api';

/**
 * The editor's language, the one its catalogues speak (`de` in a German editor, whatever
 * the browser's region), for Intl; undefined (the browser's) outside an editor.
 */
export function editorLocale(): string | undefined {
  const lang = RED()?.i18n?.lang?.();
  return typeof lang === 'string' && lang ? lang : undefined;
}

/** One format per language and number of decimals: the sidebar says numbers four times a second. */
const FORMATS = new Map<string, Intl.NumberFormat>();

/**
 * A number as the editor's language writes it, with `decimals` decimals (none for an
 * integer): no grouping, so a reading reads as the device sent it (`3300 mV`, not `3.300`).
 */
export function num(v: number, decimals = 1): string {
  return fixed(v, Number.isInteger(v) ? 0 : decimals);
}

/** A number with exactly `digits` decimals, as the editor's language writes it (a countdown: `4,8 s`). */
export function fixed(v: number, digits: number): string {
  const locale = editorLocale();
  const key = `${locale ?? ''}|${digits}`;
  let format = FORMATS.get(key);
  if (!format) {
    try {
      format = new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false });
    } catch {
      // A language tag Intl does not know: the browser's own.
      format = new Intl.NumberFormat(undefined, { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false });
    }
    FORMATS.set(key, format);
  }
  return format.format(v);
}

/** A value of the device (a number, or a word it sent) with its unit, the number as the editor writes it. */
export function withUnit(v: number | string | undefined, unit: string): string {
  if (v === undefined) return '–';
  return `${typeof v === 'number' ? num(v) : v} ${unit}`;
}

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
  if (driven?.kind === 'pwm') return t('pin.pwmValue', { hz: num(driven.frequencyHz), duty: num(driven.dutyPercent) });
  if (pin.value === undefined) return '–';
  switch (pin.type) {
    case 'voltage_mV':
      return withUnit(pin.value, 'mV');
    case 'digital_input':
      return pin.value ? t('pin.high') : t('pin.low');
    case 'frequency_hz':
      return withUnit(pin.value, 'Hz');
    default:
      return String(pin.value);
  }
}

export function currentText(pin: LivePin): string {
  return pin.current_mA === undefined ? '' : withUnit(pin.current_mA, 'mA');
}

/** Milliseconds as seconds with one decimal: a countdown updated four times a second. */
export function seconds(ms: number): string {
  return `${fixed(Math.max(0, ms) / 1000, 1)} s`;
}

/** First 8 characters tell a new session from the old one. */
export function short(id: string | undefined): string {
  return id ? id.slice(0, 8) : '–';
}

/** A record of readings as "name value unit" pairs, in the record's order. */
export function entries(record: Record<string, number | string> | undefined, unit = ''): Array<[string, string]> {
  return Object.entries(record ?? {}).map(([k, v]) => [k, typeof v === 'number' ? `${num(v)}${unit ? ` ${unit}` : ''}` : String(v)]);
}
