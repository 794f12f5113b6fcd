/**
 * Sparkplug B (Eclipse Sparkplug 3.0) as fleet-publish speaks it: the shapes the parts of
 * nodes/fleet/sparkplug/ hand each other. The parts:
 *
 *   payload.ts    the protobuf schema (ours, from the specification's field numbers) and the
 *                 bounded encode/decode (protobufjs, loaded only when Sparkplug is on)
 *   topics.ts     spBv1.0/<group>/<type>/<edge node>[/<device>] and the host's STATE topic
 *   catalogue.ts  the metrics of each kind of module (name, type, unit), what a msg of our
 *                 nodes says about them, and what a DCMD write becomes (a command msg)
 *   edge-node.ts  the session: bdSeq, seq, births, data by exception, deaths, rebirth,
 *                 commands, the primary host's state and store and forward
 *   mqtt-link.ts  the MQTT connection (mqtt.js) with NDEATH as its will
 *
 * No Node-RED here.
 */
import type { HealthEvent } from '../../lib/config-node/health';

/** Sparkplug B data types (specification 3.0, 6.4.16), the ones this package declares or accepts. */
export const DataType = {
  Int8: 1,
  Int16: 2,
  Int32: 3,
  Int64: 4,
  UInt8: 5,
  UInt16: 6,
  UInt32: 7,
  UInt64: 8,
  Float: 9,
  Double: 10,
  Boolean: 11,
  String: 12,
  DateTime: 13,
  Text: 14,
} as const;
export type DataTypeName = keyof typeof DataType;
export type DataTypeCode = (typeof DataType)[DataTypeName];

/** A metric's value as JavaScript holds it: 64-bit integers as numbers (ours stay below 2^53), DateTime as ms since the epoch. */
export type MetricValue = number | boolean | string;

/** A property of a metric (PropertyValue): units are `engUnit` (String). */
export interface SpProperty {
  type: DataTypeCode;
  value: MetricValue | null;
}

/** One metric of a payload. A birth gives name, alias and datatype; data and commands may give the alias only. */
export interface SpMetric {
  name?: string;
  alias?: number;
  timestamp?: number;
  datatype?: DataTypeCode;
  isHistorical?: boolean;
  isTransient?: boolean;
  /** No value (a birth declares a metric before its first reading): `value` is then absent. */
  isNull?: boolean;
  properties?: Record<string, SpProperty>;
  value?: MetricValue;
}

/** A Sparkplug B payload. `seq` is on every payload but NDEATH. */
export interface SpPayload {
  timestamp: number;
  metrics: SpMetric[];
  seq?: number;
}

/** A metric a kind of module declares in its DBIRTH (catalogue.ts). */
export interface MetricDef {
  /** Folders with `/` (a host shows them as folders): `Pin 2/Output`. */
  name: string;
  datatype: DataTypeCode;
  /** Engineering unit, declared as the property `engUnit`: `V`, `A`, `°C`, `%`, `Hz`, `rpm`, `W`. */
  unit?: string;
  /** A DCMD may write it: the node type the command goes to (the allow-list's entry). */
  writes?: string;
}

/** A value a msg of our nodes gave a metric of its module. */
export interface MetricUpdate {
  name: string;
  value: MetricValue | null;
}

/** A msg's word on a metric: its new value, or a count to add (alerts, notifications lost: every event counts, two alike too). */
export type MetricChange = MetricUpdate | { name: string; add: number };

/** A command a DCMD write becomes: a msg for the action node, routed as the UNS commands are. */
export interface WriteCommand {
  op: string;
  payload: unknown;
}

/** The MQTT link as the session uses it (mqtt-link.ts over mqtt.js; tests may drive the session with their own). */
export interface SpLink {
  publish(topic: string, payload: Uint8Array | string, options: { qos: 0 | 1; retain: boolean }): void;
  subscribe(topic: string, qos: 0 | 1): void;
}

/** fleet-publish's Sparkplug settings (each id a topic level: isLevel, at most SPARKPLUG_BOUNDS.idChars). */
export interface EdgeSettings {
  group: string;
  /** The edge node id: this instance (fleet-publish's Device, else FF_DEVICE_NAME). */
  edgeNode: string;
  /** The primary host application's id, '' for none: with one, births wait for its STATE online and data is stored while it is offline. */
  primaryHost: string;
}

/** What the session tells fleet-publish (the node shows it, Catch gets it, the metrics count it). */
export interface EdgeOutput {
  /** A DCMD write that passed every check: the command msg for output 2, as the UNS commands (fleetCommand.via = 'sparkplug'). */
  command(msg: { topic: string; payload: unknown; fleetCommand: Record<string, unknown> }): void;
  /** An NCMD/DCMD refused, or a command the action node failed: nothing was sent; the reason names the metric and why. */
  refused(reason: string): void;
  /** A fault of the setup no msg carries, said once. */
  warn(text: string): void;
}

/** bdSeq of each edge node, kept across redeploys and restarts (bdseq-store.ts: a file in the userDir). */
export interface BdSeqStore {
  /** The bdSeq for the next MQTT CONNECT (0-255, one more than the last, wrapping), remembered before it is used. */
  next(edge: string): number;
}

/**
 * The edge node's session (edge-node.ts), as fleet-publish and mqtt-link.ts drive it. The
 * link calls `will()` before every CONNECT (the NDEATH with the bdSeq that connection's NBIRTH
 * carries), `up()` once connected (subscribe, then births unless the primary host is offline),
 * `down()` when the connection is lost, `message()` for every publish it receives.
 */
export interface EdgeSession {
  will(): { topic: string; payload: Uint8Array };
  up(link: SpLink): void;
  down(): void;
  message(topic: string, payload: Buffer): void;
  /** A module's health event (connection state, reset, notifications lost ...): DDEATH / DBIRTH / DDATA. */
  health(event: HealthEvent): void;
  /** A msg into fleet-publish: a reading or alert of our nodes, or a Sparkplug command's answer (fleetCommand.via = 'sparkplug'). */
  msg(msg: Record<string, unknown>): void;
  /** Node-RED closes the node: NDEATH published while the link is up (a clean end), then nothing more. */
  close(): void;
  /** For the node's status and the metrics. */
  stats(): { born: boolean; hostOnline: boolean | undefined; devices: number; stored: number; dropped: number; refused: number };
}
