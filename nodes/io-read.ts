/**
 * io-read: reads the pins' values (`input/values`) or currents (`input/values/current`),
 * all six or one, when a msg arrives or polled every N ms. "Only on change" sends a value
 * only when it moved by more than the deadband (mV for voltages, mA for currents; digital
 * levels and frequencies on any change).
 */
import { registerActionNode } from './lib/action/action-node';
import { DeviceResult } from './lib/device/client';
import { Operation, Outcome } from './lib/action/operation';
import { badResponse, ensure } from './lib/base/errors';
import { t } from './lib/base/i18n';
import { check, labelled } from './lib/pure/limits';
import { msgWith, payloadFields } from './lib/action/msg';
import { readingSettings, ReadingSettings } from './lib/action/readings';
import { intSetting, textSetting } from './lib/action/setting-values';
import type { NodeAPI, NodeDef, NodeMessage } from './lib/base/node-red';

interface PinRecord {
  pin: number;
  pin_type: string;
  value: number;
}

interface Settings extends ReadingSettings {
  source: 'values' | 'current';
  /** 0 = all six pins. */
  pin: unknown;
  /** The msg property the answer goes to (a typedInput of type msg): `payload` by default. */
  property: string;
}

/** Which pin a read asked for (0 = all), for the output to pick the records. */
type Asked = { pin: number };

/** Units of each pin_type, for msg.unit and the help. */
const UNITS: Record<string, string> = { voltage_mV: 'mV', current_mA: 'mA', digital_input: '', frequency_hz: 'Hz' };
/** Deadbands apply to analog quantities; a digital level or a frequency is sent on any change. */
const ANALOG = new Set(['voltage_mV', 'current_mA']);

function readSettings(def: NodeDef): Settings {
  const source = def.source === 'current' ? 'current' : 'values';
  const endpoint = source === 'current' ? ['input', 'values', 'current'] : ['input', 'values'];
  return {
    ...readingSettings(def, [endpoint], 'per-pin'),
    source,
    pin: def.pin === 'all' || def.pin === '' || def.pin === undefined ? 0 : intSetting(def.pin),
    property: textSetting(def.property, 'payload'),
  };
}

function operation(s: Settings, pin: unknown): Operation<Asked> {
  if (pin !== 0) ensure(check('pin', pin, labelled('io-read', 'pin')));
  return {
    kind: 'requests',
    requests: { method: 'GET', endpoint: s.endpoints[0] },
    status: t(s.source === 'current' ? 'io-read.currentsRead' : 'io-read.valuesRead'),
    pin: pin as number,
  };
}

/** The read of the node's own pin, made once per deploy: most msgs ask just that. */
const ownReads = new WeakMap<Settings, Operation<Asked>>();

function build(msg: NodeMessage, s: Settings): Operation<Asked> {
  const { pin = s.pin } = payloadFields(msg, ['pin']);
  if (pin !== s.pin) return operation(s, pin);
  let op = ownReads.get(s);
  if (!op) ownReads.set(s, (op = operation(s, pin)));
  return op;
}

function pinsOf(result: DeviceResult): PinRecord[] {
  const pins = (result.data as { pins?: unknown })?.pins;
  if (!Array.isArray(pins)) throw badResponse(t('io-read.noPins'));
  return pins as PinRecord[];
}

/**
 * Puts `value` at `property` of `out`, the msg going out (the msg that came in, or a copy of
 * its own where several go out), as Node-RED's own nodes do with RED.util.setMessageProperty.
 */
type Place = (out: NodeMessage, property: string, value: unknown) => NodeMessage;

/** "1: 3000 mV 2: 0 ..." in one pass (said for every msg): value, space, unit; a digital level has none. */
function statusOf(records: PinRecord[]): string {
  let text = '';
  for (const r of records) {
    const unit = UNITS[r.pin_type];
    const value = r.value === undefined || (r.value as unknown) === '' ? '' : String(r.value);
    text += `${text ? ' ' : ''}${r.pin}: ${value && unit ? `${value} ${unit}` : value || unit || ''}`;
  }
  return text;
}

function placer(RED: NodeAPI): Place {
  const util = RED.util as unknown as {
    setMessageProperty(msg: NodeMessage, property: string, value: unknown, create: boolean): void;
    cloneMessage(msg: NodeMessage): NodeMessage;
  };
  return (out, property, value) => {
    if (property === 'payload') {
      out.payload = value;
      return out;
    }
    // A nested property (e.g. `io.values`) must not reach into an object other msgs share.
    const own = /[.[]/.test(property) ? util.cloneMessage(out) : out;
    util.setMessageProperty(own, property, value, true);
    return own;
  };
}

function output(place: Place, result: DeviceResult, msg: NodeMessage, s: Settings, { pin }: Operation<Asked>): Outcome {
  const all = pinsOf(result);
  const records = pin === 0 ? all : all.filter((r) => r.pin === pin);
  const fresh = s.onlyOnChange ? records.filter((r) => s.filter.changed(`${s.source}/${r.pin}`, r.value, ANALOG.has(r.pin_type))) : records;
  const status = statusOf(records);
  if (!fresh.length) return { msgs: [], status };
  if (s.perValue) {
    const msgs = fresh.map((r) =>
      place(msgWith(msg, { topic: `pin/${r.pin}`, pin_type: r.pin_type, unit: UNITS[r.pin_type] ?? '', request: result.request }), s.property, r.value),
    );
    return { msgs, status };
  }
  const answer = pin === 0 ? { pins: records } : records[0];
  // One msg out: the msg that came in, as Node-RED's own nodes send it.
  msg.request = result.request;
  return { msgs: [place(msg, s.property, answer)], status };
}

export = function (RED: NodeAPI) {
  const place = placer(RED);
  registerActionNode(RED, 'io-read', {
    service: 'io',
    settings: readSettings,
    build,
    output: (result, msg, s, op) => output(place, result, msg, s, op),
    checkOnDeploy: true,
    poll: { interval: (s) => s.interval, build: (s) => operation(s, s.pin) },
  });
};
