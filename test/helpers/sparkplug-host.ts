/**
 * A Sparkplug host's reading of what the edge node published, decoded by Eclipse Tahu's
 * `sparkplug-payload` (a devDependency), never by our decoder: our encoding is checked by code
 * that is not ours. Tahu's JavaScript gives 64-bit integers as Long objects (here numbers) and
 * reads a UInt32 from long_value only (Tahu issue #76): for one in int_value, where the 3.0
 * specification puts it, the raw field is read with Tahu's own protobuf message.
 *
 * RecordingLink is the session's link (SpLink) as a test drives it: it records what is
 * published and subscribed; the real MQTT link has tests of its own.
 */
import type { SpLink } from '../../nodes/fleet/sparkplug/types';

const tahu = require('sparkplug-payload').get('spBv1.0') as {
  decodePayload(bytes: Uint8Array): Record<string, unknown>;
  encodePayload(payload: Record<string, unknown>): Uint8Array;
};
const TahuPayload = require('sparkplug-payload/lib/sparkplugPayloadProto').org.eclipse.tahu.protobuf.Payload as {
  decode(bytes: Uint8Array): { metrics: Array<{ intValue?: number }> };
  encode(message: Record<string, unknown>): { finish(): Uint8Array };
};

/** Bytes of Tahu's protobuf message as given, field by field (a command by alias without datatype, as a host may send it). */
export const hostEncodeFields = (message: Record<string, unknown>): Buffer => Buffer.from(TahuPayload.encode(message).finish());

export interface HostMetric {
  name?: string;
  alias?: number;
  type: string;
  value: unknown;
  timestamp?: number;
  isHistorical?: boolean;
  properties?: Record<string, { type: string; value: unknown }>;
}

export interface HostPayload {
  timestamp?: number;
  seq?: number;
  metrics: HostMetric[];
}

/** A Long (or a number) as a number; Int64 signed. */
function num(value: unknown, signed = false): unknown {
  if (value === null || value === undefined || typeof value !== 'object') return value;
  const text = String(value); // Long's toString: its decimal digits
  const big = BigInt(text);
  return Number(signed ? BigInt.asIntN(64, big) : BigInt.asUintN(64, big));
}

const LONG_TYPES = ['Int64', 'UInt64', 'DateTime', 'UInt32'];

/** Tahu's decoding of our bytes, its Longs as numbers. */
export function hostDecode(bytes: Uint8Array): HostPayload {
  const raw = tahu.decodePayload(bytes) as { timestamp?: unknown; seq?: unknown; metrics?: Array<Record<string, unknown>> };
  const proto = TahuPayload.decode(bytes);
  const metrics = (raw.metrics ?? []).map((m, i) => {
    const type = String(m.type);
    let value = LONG_TYPES.includes(type) ? num(m.value, type === 'Int64') : m.value;
    if (type === 'UInt32' && value === null && m.isNull !== true) value = proto.metrics[i].intValue ?? null;
    const properties = m.properties as Record<string, { type: string; value: unknown }> | undefined;
    return {
      ...(m.name !== undefined ? { name: m.name as string } : {}),
      ...(m.alias !== undefined ? { alias: num(m.alias) as number } : {}),
      type,
      value,
      ...(m.timestamp !== undefined ? { timestamp: num(m.timestamp) as number } : {}),
      ...(m.isHistorical ? { isHistorical: true } : {}),
      ...(properties ? { properties } : {}),
    };
  });
  return {
    ...(raw.timestamp !== undefined ? { timestamp: num(raw.timestamp) as number } : {}),
    ...(raw.seq !== undefined ? { seq: num(raw.seq) as number } : {}),
    metrics,
  };
}

/** Tahu's encoding (its metric shape: `type` by name), for what a host sends. */
export function hostEncode(payload: { timestamp?: number; seq?: number; metrics: Array<Record<string, unknown>> }): Buffer {
  return Buffer.from(tahu.encodePayload({ timestamp: Date.now(), ...payload }));
}

export interface Published {
  topic: string;
  /** The topic's message type (NBIRTH, DDATA ...) or STATE. */
  type: string;
  /** The device id of a device message. */
  device?: string;
  payload: HostPayload;
  qos: 0 | 1;
  retain: boolean;
}

export class RecordingLink implements SpLink {
  readonly published: Published[] = [];
  readonly subscribed: string[] = [];
  private read = 0;

  publish(topic: string, payload: Uint8Array | string, options: { qos: 0 | 1; retain: boolean }): void {
    const levels = topic.split('/');
    const bytes = typeof payload === 'string' ? Buffer.from(payload) : payload;
    this.published.push({ topic, type: levels[2], ...(levels[4] ? { device: levels[4] } : {}), payload: hostDecode(bytes), ...options });
  }

  subscribe(topic: string): void {
    this.subscribed.push(topic);
  }

  /** What was published since the last take. */
  take(): Published[] {
    const out = this.published.slice(this.read);
    this.read = this.published.length;
    return out;
  }
}

/** A metric of a payload by name, or (data) by alias. */
export function metricOf(payload: HostPayload, nameOrAlias: string | number): HostMetric | undefined {
  return payload.metrics.find((m) => (typeof nameOrAlias === 'string' ? m.name === nameOrAlias : m.alias === nameOrAlias));
}
