/**
 * A Sparkplug B host application on a real broker, as the fleet tests need one: an mqtt.js
 * client on `spBv1.0/<group>/#` and the STATE topics that decodes every payload with Eclipse
 * Tahu's `sparkplug-payload` (sparkplug-host.ts's hostDecode: never our decoder, so our
 * encoding is checked by code that is not ours) and keeps every message in order; it
 * publishes the primary host's STATE and NCMD/DCMD encoded with the same library. A payload
 * the independent decoder cannot read is kept with its error: `undecodable()` says which.
 */
import mqtt, { MqttClient } from 'mqtt';
import { waitFor } from './fleet-harness';
import { hostDecode, hostEncode } from './sparkplug-host';

/** A metric as the host read it: 64-bit integers as numbers, the datatype by its name (`Boolean`, `Float` ...). */
export interface HostMetric {
  name?: string;
  alias?: number;
  type: string;
  value: unknown;
  isNull: boolean;
  isHistorical: boolean;
  timestamp?: number;
  properties: Record<string, { type: string; value: unknown }>;
}

export interface HostPayload {
  timestamp?: number;
  seq?: number;
  metrics: HostMetric[];
}

/** One message as the host received it. `type` NBIRTH ... DCMD, or STATE (then `state` holds its JSON). */
export interface HostMessage {
  topic: string;
  type: string;
  edge?: string;
  device?: string;
  retain: boolean;
  bytes: number;
  payload?: HostPayload;
  state?: { online?: unknown; timestamp?: unknown };
  /** What the independent decoder said of a payload it could not read. */
  error?: string;
}

/** Decodes a Sparkplug B payload with sparkplug-payload (hostDecode), every metric's flags spelled out. */
export function decode(bytes: Uint8Array): HostPayload {
  const payload = hostDecode(bytes);
  return {
    ...payload,
    metrics: payload.metrics.map((m) => ({ ...m, isNull: m.value === null, isHistorical: m.isHistorical === true, properties: m.properties ?? {} })),
  };
}

/** A metric a command carries, as sparkplug-payload encodes it: `type` by name (`Boolean` ...), a name or an alias. */
export interface CommandMetric {
  name?: string;
  alias?: number;
  type: string;
  value: unknown;
}

/** Encodes a payload with sparkplug-payload. */
export function encode(metrics: CommandMetric[], seq?: number): Buffer {
  return hostEncode({ metrics: metrics as unknown as Array<Record<string, unknown>>, ...(seq === undefined ? {} : { seq }) });
}

export class SparkplugHost {
  readonly all: HostMessage[] = [];
  client!: MqttClient;

  constructor(
    readonly group: string,
    /** The primary host application's id (its STATE topic). */
    readonly hostId = 'scada',
  ) {}

  get stateTopic(): string {
    return `spBv1.0/STATE/${this.hostId}`;
  }

  async connect(port: number, clientId: string): Promise<void> {
    this.client = mqtt.connect(`mqtt://127.0.0.1:${port}`, { clientId, clean: true, reconnectPeriod: 200, connectTimeout: 5000 });
    this.client.on('message', (topic, buffer, packet) => this.keep(topic, buffer, packet.retain));
    await new Promise<void>((resolve, reject) => {
      this.client.once('connect', () => resolve());
      this.client.once('error', reject);
    });
    await this.client.subscribeAsync([`spBv1.0/${this.group}/#`, 'spBv1.0/STATE/+'], { qos: 1 });
  }

  private keep(topic: string, buffer: Buffer, retain: boolean): void {
    const [, second, type, edge, device] = topic.split('/');
    const message: HostMessage = { topic, type: second === 'STATE' ? 'STATE' : type, retain, bytes: buffer.length };
    if (second === 'STATE') {
      try {
        message.state = JSON.parse(buffer.toString('utf8'));
      } catch (error) {
        message.error = (error as Error).message;
      }
    } else {
      message.edge = edge;
      if (device !== undefined) message.device = device;
      try {
        message.payload = decode(buffer);
      } catch (error) {
        message.error = (error as Error).message;
      }
    }
    this.all.push(message);
  }

  /** The messages of a type (and device: '' for the edge node's own), from index `since` on. */
  of(type: string, device?: string, since = 0): HostMessage[] {
    return this.all.slice(since).filter((m) => m.type === type && (device === undefined || (m.device ?? '') === device));
  }

  /** Waits for the first message of a type (and device) from index `since` on. */
  next(type: string, device: string | undefined, since: number, ms = 30_000): Promise<HostMessage> {
    return waitFor(`${type}${device ? ` of ${device}` : ''} after message ${since}`, ms, () => this.of(type, device, since)[0]);
  }

  /** What the edge node published (not the commands, which the tests send, malformed ones too) that the independent decoder could not read: a test fails on any. */
  undecodable(): HostMessage[] {
    return this.all.filter((m) => m.error !== undefined && m.type !== 'NCMD' && m.type !== 'DCMD');
  }

  /**
   * The metrics of a message with their names: a data message may carry aliases only, named
   * by the last birth of its device (NBIRTH for the edge node's) before it.
   */
  named(message: HostMessage): HostMetric[] {
    const index = this.all.lastIndexOf(message);
    const birthType = message.device === undefined ? 'NBIRTH' : 'DBIRTH';
    const birth = this.all
      .slice(0, index + 1)
      .reverse()
      .find((m) => m.type === birthType && m.edge === message.edge && m.device === message.device);
    const names = new Map((birth?.payload?.metrics ?? []).map((m) => [m.alias, m.name]));
    return (message.payload?.metrics ?? []).map((m) => ({ ...m, name: m.name ?? names.get(m.alias) }));
  }

  /** The primary host's state, retained, Sparkplug 3.0's JSON. */
  publishState(online: boolean, timestamp = Date.now()): Promise<unknown> {
    return this.client.publishAsync(this.stateTopic, JSON.stringify({ online, timestamp }), { qos: 1, retain: true });
  }

  ncmd(edge: string, metrics: CommandMetric[]): Promise<unknown> {
    return this.raw(`spBv1.0/${this.group}/NCMD/${edge}`, encode(metrics));
  }

  dcmd(edge: string, device: string, metrics: CommandMetric[]): Promise<unknown> {
    return this.raw(`spBv1.0/${this.group}/DCMD/${edge}/${device}`, encode(metrics));
  }

  /** Any bytes on any topic (malformed, huge ...), not retained. */
  raw(topic: string, bytes: Buffer | string): Promise<unknown> {
    return this.client.publishAsync(topic, bytes, { qos: 1, retain: false });
  }

  /** Asks for a rebirth (NCMD `Node Control/Rebirth` = true) and waits for the new NBIRTH and `devices` DBIRTHs after it. */
  async rebirth(edge: string, devices: string[], ms = 30_000): Promise<{ nbirth: HostMessage; dbirths: HostMessage[]; since: number }> {
    const since = this.all.length;
    await this.ncmd(edge, [{ name: 'Node Control/Rebirth', type: 'Boolean', value: true }]);
    const nbirth = await this.next('NBIRTH', '', since, ms);
    const from = this.all.indexOf(nbirth);
    const dbirths = await waitFor(`${devices.length} DBIRTHs after the rebirth`, ms, () => {
      const found = devices.map((d) => this.of('DBIRTH', d, from)[0]);
      return found.every(Boolean) ? found : undefined;
    });
    return { nbirth, dbirths, since };
  }

  /** Clears the retained STATE (an empty retained message) and disconnects. */
  async close(clearState = true): Promise<void> {
    if (!this.client) return;
    if (clearState && this.client.connected) await this.client.publishAsync(this.stateTopic, '', { qos: 1, retain: true }).catch(() => undefined);
    await this.client.endAsync(true);
  }
}
