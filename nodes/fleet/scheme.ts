/**
 * The fleet's topic scheme, pure: `<prefix>/<device>/<service>/<slot>/<leaf>`. Topics, the
 * command parser and the allow-list, written once for the fleet-publish node, its help and
 * the tests. No Node-RED here.
 *
 *   <p>/<d>/node-red                     the instance: birth "online" / last will "offline" (the mqtt-broker node's settings)
 *   <p>/<d>/<svc>/<slot>/state           retained: {state, cause, time, lastReset?}
 *   <p>/<d>/<svc>/<slot>/reading/<what>  retained, by exception: {value, time}
 *   <p>/<d>/<svc>/<slot>/alert           event (QoS 1): {pin, alerts, record, time}
 *   <p>/<d>/<svc>/<slot>/notifications-lost  event: {pins, from, to, reason, time}
 *   <p>/<d>/<svc>/<slot>/event/<kind>    event: reset, reapplied, keepalive-late, queue
 *   <p>/<d>/<svc>/<slot>/command         in: {id?, op, payload?}
 *   <p>/<d>/<svc>/<slot>/reply           out: {id, op, ok, payload | error, time}
 */
import { FLEET_BOUNDS } from '../lib/pure/limits';
import { FLEET_COMMAND_OPS } from '../lib/pure/facts';

export type CommandOp = (typeof FLEET_COMMAND_OPS)[number];

export interface ModuleKey {
  service: string;
  slot: number;
}

/** A topic level of our own: no MQTT wildcard or separator, never empty, bounded. */
export function isLevel(value: string): boolean {
  return value.length <= FLEET_BOUNDS.levelChars && /^[A-Za-z0-9._-]+$/.test(value);
}

export class Scheme {
  constructor(
    readonly prefix: string,
    readonly device: string,
  ) {}

  get instance(): string {
    return `${this.prefix}/${this.device}/node-red`;
  }

  module(key: ModuleKey, leaf: string): string {
    return `${this.prefix}/${this.device}/${key.service}/${key.slot}/${leaf}`;
  }

  /** The subscription an mqtt in node uses for every module's commands. */
  get commands(): string {
    return `${this.prefix}/${this.device}/+/+/command`;
  }

  /** The module a command topic names, or undefined for any other topic. */
  commandTarget(topic: unknown): ModuleKey | undefined {
    if (typeof topic !== 'string' || topic.length > 400) return undefined;
    const head = `${this.prefix}/${this.device}/`;
    if (!topic.startsWith(head)) return undefined;
    const m = /^(io|bmc|power)\/(\d{1,3})\/command$/.exec(topic.slice(head.length));
    return m ? { service: m[1], slot: Number(m[2]) } : undefined;
  }
}

/** The module of a msg one of our nodes sent: its wire path `…/api/<svc>/<ver>/<slot>/<what>`. */
export function moduleOfRequest(request: unknown): (ModuleKey & { what: string }) | undefined {
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

/** Parses a command's payload (a JSON text or an object); a string says why it is refused. */
export function parseCommand(raw: unknown, allowed: ReadonlySet<string>): Command | { id: string; refused: string } {
  let value = raw;
  if (Buffer.isBuffer(value)) value = value.toString('utf8');
  if (typeof value === 'string') {
    if (value.length > FLEET_BOUNDS.commandBytes)
      return { id: '', refused: `a command must be at most ${FLEET_BOUNDS.commandBytes} bytes, got ${value.length}` };
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
  const unknown = list.filter((op) => !(FLEET_COMMAND_OPS as readonly unknown[]).includes(op));
  return unknown.length ? { unknown } : new Set(list as string[]);
}
