/**
 * The fleet's topic scheme, pure: `<prefix>/<device>/<service>/<slot>/<leaf>`. Topics, the
 * command parser and the allow-list, written once for the fleet-publish node, its help and
 * the tests. No Node-RED here. Every payload also names its `device` (the topic's level), so
 * a consumer that keeps payloads without their topics still knows whose they are.
 *
 *   <p>/<d>/node-red                     the instance: birth "online" / last will "offline" (the mqtt-broker node's settings)
 *   <p>/<d>/<svc>/<slot>/state           retained: {device, state, cause, time, lastReset?}
 *   <p>/<d>/<svc>/<slot>/reading/<what>  retained, by exception: {device, value, time}
 *   <p>/<d>/<svc>/<slot>/alert           event (QoS 1): {device, pin, alerts, record, time}
 *   <p>/<d>/<svc>/<slot>/notifications-lost  event: {device, pins, from, to, reason, time}
 *   <p>/<d>/<svc>/<slot>/event/<kind>    event: reset, reapplied, keepalive-late, queue
 *   <p>/<d>/<svc>/<slot>/command         in: {id?, op, payload?}, never retained
 *   <p>/<d>/<svc>/<slot>/reply           out: {device, id, op, ok, payload | error, time}
 *   <p>/<d>/alarms/<alarm>/state         retained: {device, ...AlarmView, time} (alarm-topics.ts)
 *   <p>/<d>/alarms/<alarm>/event         event (QoS 1): {device, ...AlarmRecord, time}, one per transition
 *   <p>/<d>/alarms/<alarm>/command       in: {id?, op: 'alarm-<action>', payload?: {user?, comment?, duration?}}
 *   <p>/<d>/alarms/<all>/command         in: {id?, op: 'alarm-acknowledge-all', payload?: {area?, user?, comment?}}
 *   <p>/<d>/alarms/<alarm | *>/reply     out: as a module's reply
 *
 * An alarm takes the places of a module's service and slot (`alarms`, its id): the command
 * subscription `<p>/<d>/+/+/command` that delivers a module's commands delivers an alarm's too.
 * <all> is `*` (never an alarm id: alarm_id's characters): every alarm of the device.
 */
import { FLEET_BOUNDS } from '../lib/pure/limits';
import { FLEET_ALARM_OPS, FLEET_COMMAND_OPS } from '../lib/pure/facts';

/** One msg to the mqtt out node (publisher.ts sends it; alarm-topics.ts makes some). */
export interface MqttMsg {
  topic: string;
  payload: Record<string, unknown>;
  qos: 1;
  retain: boolean;
}

export type AlarmOp = (typeof FLEET_ALARM_OPS)[number];
export type CommandOp = (typeof FLEET_COMMAND_OPS)[number] | AlarmOp;
/** Every entry the allow-list may hold: node types, then alarm commands. */
export const ALLOWABLE_OPS: readonly string[] = [...FLEET_COMMAND_OPS, ...FLEET_ALARM_OPS];
export const isAlarmOp = (op: string): op is AlarmOp => (FLEET_ALARM_OPS as readonly string[]).includes(op);
/** The topic level that names every alarm of a device (acknowledge-all). */
export const ALL_ALARMS = '*';

/** A module as the topics name it: the device it is on (a topic level), its service and slot. */
export interface ModuleKey {
  device: string;
  service: string;
  slot: number;
}

/** A topic level of our own: no MQTT wildcard or separator, never empty, bounded. */
export function isLevel(value: string): boolean {
  return value.length <= FLEET_BOUNDS.levelChars && /^[A-Za-z0-9._-]+$/.test(value);
}

/** MQTT's bound on a topic (a UTF-16 length at most this is all a broker can send): no topic of ours is longer. */
const TOPIC_CHARS = 65_535;

/** A topic the command subscription matches: where its reply goes, and the module it names or why it names none. */
export type CommandTopic = { reply: string; device: string } & ({ service: string; slot: number } | { alarm: string } | { refused: string });

export class Scheme {
  constructor(
    readonly prefix: string,
    /** This instance's device: the modules whose config node names none are on it. */
    readonly device: string,
  ) {}

  get instance(): string {
    return `${this.prefix}/${this.device}/node-red`;
  }

  module(key: ModuleKey, leaf: string): string {
    return `${this.prefix}/${key.device}/${key.service}/${key.slot}/${leaf}`;
  }

  /** An alarm's topic (`alarms/<id>/<leaf>`) on its device. */
  alarm(device: string, alarm: string, leaf: string): string {
    return `${this.prefix}/${device}/alarms/${alarm}/${leaf}`;
  }

  /** The subscription an mqtt in node uses for every module's commands of this instance's device. */
  get commands(): string {
    return `${this.prefix}/${this.device}/+/+/command`;
  }

  /**
   * A topic `<prefix>/<any>/<any>/<any>/command` (what `<prefix>/<device>/+/+/command`, or a
   * gateway's `<prefix>/+/+/+/command`, delivers): its reply topic is the same with `reply`, so
   * every command the subscription lets in is answered, also one that names no module. Any
   * other topic: undefined (not a command).
   */
  commandTopic(topic: unknown): CommandTopic | undefined {
    if (typeof topic !== 'string' || topic.length > TOPIC_CHARS) return undefined;
    if (!topic.startsWith(`${this.prefix}/`) || !topic.endsWith('/command')) return undefined;
    const levels = topic.split('/', 6);
    if (levels.length !== 5) return undefined;
    const [, device, service, slot] = levels;
    const reply = `${this.prefix}/${device}/${service}/${slot}/reply`;
    if (/^(io|bmc|power)$/.test(service) && /^\d{1,3}$/.test(slot)) return { reply, device, service, slot: Number(slot) };
    // alarm_id's characters (pure/limits.ts), or every alarm.
    if (service === 'alarms' && (slot === ALL_ALARMS || /^[A-Za-z0-9_.:-]{1,64}$/.test(slot))) return { reply, device, alarm: slot };
    const named = JSON.stringify(`${service}/${slot}`.slice(0, 80));
    return {
      reply,
      device,
      refused: `${named} names no module or alarm: a command's topic is ${this.prefix}/<device>/<io|bmc|power>/<slot>/command or ${this.prefix}/<device>/alarms/<alarm id or *>/command`,
    };
  }
}

/** The module of a msg one of our nodes sent: its wire path `…/api/<svc>/<ver>/<slot>/<what>`. */
export function moduleOfRequest(request: unknown): { service: string; slot: number; what: string } | undefined {
  const first = Array.isArray(request) ? request[0] : request;
  const path = (first as { path?: unknown } | undefined)?.path;
  if (typeof path !== 'string' || path.length > 400) return undefined;
  const m = /\/api\/(io|bmc|power)\/\d{1,3}\.\d{1,3}\/(\d{1,3})((?:\/[a-z0-9_]{1,40}){0,4})/.exec(path);
  if (!m) return undefined;
  // The reading's name: the path's words, numbers dropped (a port number, a pin): "output/state".
  const what =
    m[3]
      .split('/')
      .filter((w) => w && !/^\d+$/.test(w))
      .join('/') || 'descriptor';
  return { service: m[1], slot: Number(m[2]), what };
}

export interface Command {
  id: string;
  op: CommandOp;
  payload: unknown;
}

/**
 * The bytes of `value` as JSON text when at most `limit`, else undefined. A command may come
 * parsed already (an mqtt in node that parses JSON, a function node): its size is bounded as
 * the text's would be. The walk counts a lower bound of the text's length (each string's
 * characters and quotes, each key, number and separator) and stops once past `limit`, so a
 * 1 MB object costs about `limit` steps; only what stayed within it is serialised, to measure
 * it exactly (escapes, UTF-8). A cycle or a value JSON cannot say is over the limit too.
 */
export function jsonBytesWithin(value: unknown, limit: number): number | undefined {
  let left = limit;
  const stack: unknown[] = [value];
  while (stack.length && left >= 0) {
    const v = stack.pop();
    if (typeof v === 'string') left -= v.length + 2;
    else if (typeof v === 'number' || typeof v === 'boolean') left -= String(v).length;
    else if (v === null || v === undefined) left -= 4;
    // A typed array (a Buffer: {"type":"Buffer","data":[...]}) says at least two characters an element; not walked index by index.
    else if (ArrayBuffer.isView(v)) left -= v instanceof DataView ? 2 : (v as unknown as { length: number }).length * 2;
    else if (Array.isArray(v)) {
      left -= 2;
      // Every element costs at least its separator: the loop ends within `limit` elements.
      for (let i = 0; i < v.length && left >= 0; i++, left--) stack.push(v[i]);
    } else if (typeof v === 'object') {
      left -= 2;
      for (const key in v) {
        if (left < 0) break;
        if (!Object.prototype.hasOwnProperty.call(v, key)) continue;
        left -= key.length + 4; // "key": and a separator
        stack.push((v as Record<string, unknown>)[key]);
      }
    } else return undefined; // a function, symbol or bigint: no JSON
  }
  if (left < 0) return undefined;
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return undefined;
  }
  const bytes = Buffer.byteLength(text ?? '');
  return bytes <= limit ? bytes : undefined;
}

/** The bytes of a command as it came (a Buffer or a text), or of its JSON text (parsed), when at most the bound. */
function sizeRefusal(value: unknown): string | undefined {
  const limit = FLEET_BOUNDS.commandBytes;
  const over = (got: string) => `a command must be at most ${limit} bytes, got ${got}`;
  if (Buffer.isBuffer(value)) return value.length > limit ? over(String(value.length)) : undefined;
  // A character is at least a byte: a long text is refused before its bytes are counted.
  if (typeof value === 'string') {
    const bytes = value.length > limit ? value.length : Buffer.byteLength(value);
    return bytes > limit ? over(value.length > limit ? `at least ${bytes}` : String(bytes)) : undefined;
  }
  return jsonBytesWithin(value, limit) === undefined ? over(`more as JSON (it came parsed: measured up to the bound)`) : undefined;
}

/** Parses a command's payload (a Buffer, a JSON text or an object); a string says why it is refused. */
export function parseCommand(raw: unknown, allowed: ReadonlySet<string>): Command | { id: string; refused: string } {
  const tooBig = sizeRefusal(raw);
  if (tooBig) return { id: '', refused: tooBig };
  let value = raw;
  if (Buffer.isBuffer(value)) value = value.toString('utf8');
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return { id: '', refused: 'a command must be a JSON object {"op": ..., "payload": ...}' };
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { id: '', refused: 'a command must be a JSON object {"op": ..., "payload": ...}' };
  const fields = value as Record<string, unknown>;
  const id = typeof fields.id === 'string' || typeof fields.id === 'number' ? String(fields.id).slice(0, FLEET_BOUNDS.levelChars) : '';
  const op = fields.op;
  if (typeof op !== 'string' || !allowed.has(op)) {
    const list = [...allowed].join(', ') || 'none';
    return { id, refused: `op ${JSON.stringify(typeof op === 'string' ? op.slice(0, 40) : op)} is not allowed here (allowed: ${list})` };
  }
  return { id, op: op as CommandOp, payload: fields.payload };
}

/** The allow-list setting (a list, or comma-separated text after env substitution), or the entries it does not know. */
export function readAllowList(value: unknown): Set<string> | { unknown: unknown[] } {
  const list = Array.isArray(value)
    ? value
    : typeof value === 'string'
      ? value
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : [];
  const unknown = list.filter((op) => !ALLOWABLE_OPS.includes(op));
  return unknown.length ? { unknown } : new Set(list as string[]);
}
