/**
 * The edge node's own MQTT connection (mqtt.js), with NDEATH as its will. mqtt.js is required
 * here, lazily, so a Node-RED whose flows never turn Sparkplug on never loads it.
 *
 * The will of every CONNECT is the session's `will()` of that moment: mqtt.js builds each
 * CONNECT packet from `client.options.will`, and emits 'reconnect' right before it connects
 * again, so the will is set anew there (and once before the first CONNECT). So the NDEATH a
 * broker publishes for a lost connection carries the bdSeq that connection's NBIRTH carried.
 * Anew only after a CONNECT the broker accepted: an attempt that never connected registered no
 * will and saw no NBIRTH, so the next one keeps its bdSeq (a broker away for a day costs no
 * bdSeq file write every few seconds on the device's flash).
 *
 * Reconnects forever at a fixed pace (SPARKPLUG_BOUNDS.reconnectMs), a refused CONNECT too
 * (`reconnectOnConnackError`: a broker whose ACL is fixed later is reached without a redeploy).
 * Credentials go only into the CONNECT: what the node shows of a failure is mqtt.js's message,
 * which names the host and port, never the username or password (the URL may hold none: the
 * node refuses one that does).
 */
import crypto from 'crypto';
import type { IClientOptions, MqttClient } from 'mqtt';
import { SPARKPLUG_BOUNDS } from '../../lib/pure/limits';
import type { EdgeSession, SpLink } from './types';

/** A core `tls-config` node as its runtime object offers it. */
export interface TlsConfigNode {
  addTLSOptions(options: Record<string, unknown>): void;
}

export interface LinkSettings {
  /** mqtt://host[:port] or mqtts://host[:port], checked by the node (edge-settings.ts). */
  url: string;
  clientId: string;
  username?: string;
  password?: string;
  tls?: TlsConfigNode;
}

/** How the connection stands, for the node's status. */
export type LinkState = { state: 'connecting' } | { state: 'up' } | { state: 'unreachable'; detail: string } | { state: 'refused'; detail: string };

export interface LinkEvents {
  state(state: LinkState): void;
  /** The session threw on something the link handed it: said, the link goes on. */
  fault(error: unknown): void;
  /** After every call into the session (its births, its host's state may have changed): the node's status is read again. */
  touched(): void;
}

/**
 * The MQTT client id: letters and digits only, at most SPARKPLUG_BOUNDS.clientIdChars (what
 * MQTT 3.1.1 obliges every broker to take), the edge node's id as far as it fits, then a hash
 * of group and edge node, so two edge nodes with a long common start still differ.
 */
export function clientIdFor(group: string, edge: string): string {
  const hash = crypto.createHash('sha256').update(`${group}/${edge}`).digest('hex').slice(0, 8);
  const start = `md${edge.replace(/[^A-Za-z0-9]/g, '')}`.slice(0, SPARKPLUG_BOUNDS.clientIdChars - hash.length);
  return `${start}${hash}`;
}

type Will = NonNullable<IClientOptions['will']>;

/** NDEATH as the will: QoS 1, not retained (Sparkplug 3.0, 7.1.2). */
function willOf(session: EdgeSession): Will {
  const { topic, payload } = session.will();
  return { topic, payload: Buffer.from(payload), qos: 1, retain: false };
}

export class MqttLink implements SpLink {
  private readonly client: MqttClient;
  private up = false;
  private closed = false;
  /** While close() has the session say its NDEATH: the one publish after closed. */
  private closing = false;
  /** The will set for the next CONNECT has been taken by an accepted one: the next CONNECT needs a new bdSeq. */
  private willTaken = false;
  /** The last failure, said again when the connection closes (a refusal stays a refusal until a CONNECT passes). */
  private failure: LinkState = { state: 'unreachable', detail: '' };

  constructor(
    private readonly session: EdgeSession,
    settings: LinkSettings,
    private readonly events: LinkEvents,
  ) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when a node turns Sparkplug on
    const mqtt = require('mqtt') as typeof import('mqtt');
    const options: IClientOptions = {
      clientId: settings.clientId,
      protocolVersion: 4,
      clean: true,
      reconnectPeriod: SPARKPLUG_BOUNDS.reconnectMs,
      connectTimeout: SPARKPLUG_BOUNDS.connectTimeoutMs,
      reconnectOnConnackError: true,
      will: willOf(session),
      ...(settings.username ? { username: settings.username } : {}),
      ...(settings.password ? { password: settings.password } : {}),
    };
    settings.tls?.addTLSOptions(options as Record<string, unknown>);
    events.state({ state: 'connecting' });
    this.client = mqtt.connect(settings.url, options);
    const client = this.client;
    client.on('reconnect', () => {
      if (this.closed) return;
      if (this.willTaken) {
        this.willTaken = false;
        this.guard(() => (client.options.will = willOf(session)));
      }
      events.state({ state: 'connecting' });
    });
    client.on('connect', () => {
      if (this.closed) return;
      this.up = true;
      this.willTaken = true;
      this.failure = { state: 'unreachable', detail: '' };
      events.state({ state: 'up' });
      this.guard(() => session.up(this));
    });
    client.on('close', () => {
      if (this.up) {
        this.up = false;
        if (!this.closed) this.guard(() => session.down());
      }
      if (!this.closed) events.state(this.failure);
    });
    client.on('error', (error: Error & { code?: unknown }) => {
      if (this.closed) return;
      // A CONNACK's refusal has a number (MQTT 3.1.1: 1-5); a socket's failure a string code (ECONNREFUSED...).
      const refused = typeof error.code === 'number';
      this.failure = { state: refused ? 'refused' : 'unreachable', detail: String(error.message).slice(0, 120) };
      events.state(this.failure);
    });
    client.on('message', (topic, payload) => {
      if (!this.closed) this.guard(() => session.message(topic, payload));
    });
  }

  publish(topic: string, payload: Uint8Array | string, options: { qos: 0 | 1; retain: boolean }): void {
    if (this.closed && !this.closing) return;
    // A failure to deliver (the connection lost meanwhile) is the session's to notice through down(): nothing to throw here.
    this.client.publish(topic, typeof payload === 'string' ? payload : Buffer.from(payload), options, () => undefined);
  }

  subscribe(topic: string, qos: 0 | 1): void {
    if (this.closed) return;
    this.client.subscribe(topic, { qos }, () => undefined);
  }

  /**
   * A clean end: the session's NDEATH published while the connection is up, then DISCONNECT
   * once it is delivered (the broker then drops the will); bounded by connectTimeoutMs, after
   * which the connection is cut. Resolves when the client has ended: nothing of it is left.
   */
  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    this.closing = true;
    this.guard(() => this.session.close());
    this.closing = false;
    const client = this.client;
    return new Promise<void>((resolve) => {
      // end() waits for the NDEATH's PUBACK; a broker that never sends it: the socket is cut (end(true) would wait behind the first end).
      const cut = setTimeout(() => {
        client.stream?.destroy();
        resolve();
      }, SPARKPLUG_BOUNDS.connectTimeoutMs);
      client.end(!this.up, () => {
        clearTimeout(cut);
        resolve();
      });
    });
  }

  private guard(call: () => void): void {
    try {
      call();
    } catch (error) {
      this.events.fault(error);
    }
    this.events.touched();
  }
}
