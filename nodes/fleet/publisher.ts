/**
 * What the fleet-publish node does, without Node-RED: health events become retained module
 * states and events, our nodes' msgs become readings by exception and alerts, command msgs
 * from an mqtt in node become msgs for the action nodes (allow-listed) and their answers
 * become replies. It holds events while the broker is away (a status node on the mqtt out
 * tells it) and announces what it had to drop, so no alert is lost silently.
 *
 * Each module is published under its own device: the one its config node names (Fleet
 * device), else this instance's (the node's Device, else FF_DEVICE_NAME). One Node-RED may
 * serve several devices (a gateway); two devices' modules never share a topic.
 */
import type { HealthEvent } from '../lib/config-node/health';
import { FLEET_BOUNDS } from '../lib/pure/limits';
import { isPlainObject } from '../lib/action/msg';
import type { AlarmSystem } from '../alarms/alarm-system';
import { CommandTopic, isAlarmOp, ModuleKey, moduleOfRequest, MqttMsg, parseCommand, Scheme } from './scheme';
import { FleetDevices, keyText } from './devices';
import { FleetAlarms } from './alarm-topics';

export type { MqttMsg } from './scheme';

export interface CommandMsg {
  topic: string;
  payload: unknown;
  fleetCommand: { ref: string; id: string; op: string; device: string; service: string; slot: number };
}

export interface PublisherOutput {
  mqtt(msg: MqttMsg): void;
  command(msg: CommandMsg): void;
  /** A fault of the setup no msg carries (two devices' modules on one topic): said once, in the log. */
  warn(text: string): void;
}

interface Pending {
  id: string;
  op: string;
  key: ModuleKey;
  timer: ReturnType<typeof setTimeout>;
}

const now = (): string => new Date().toISOString();

export class FleetPublisher {
  /** The retained state per module, republished when the broker is back (it may have lost it). */
  private readonly states = new Map<string, { key: ModuleKey; payload: Record<string, unknown> }>();
  private readonly readings = new Map<string, { topic: string; text: string; payload: Record<string, unknown> }>();
  private readonly pending = new Map<string, Pending>();
  private held: MqttMsg[] = [];
  /** Alerts dropped while the broker was away, per module: announced once it is back. */
  private readonly dropped = new Map<string, { key: ModuleKey; count: number; from: string; pins: Set<unknown> }>();
  private readonly devices: FleetDevices;
  /** The alarms' topics, when there is an alarm system to publish. */
  readonly alarms?: FleetAlarms;
  /** Unknown until a status node says: then publishing is assumed to work. */
  private brokerUp = true;
  private refs = 0;

  constructor(
    readonly scheme: Scheme,
    private readonly allowed: ReadonlySet<string>,
    private readonly out: PublisherOutput,
    /** The Fleet device a config node names ('' or undefined: none), by the config node's id. */
    deviceOf: (config: string) => string | undefined = () => undefined,
    system?: AlarmSystem,
  ) {
    this.devices = new FleetDevices(scheme, deviceOf, (text) => out.warn(text));
    if (system) this.alarms = new FleetAlarms(scheme, system, deviceOf, { send: (m) => this.send(m), event: (m) => this.event(m.topic, m.payload) });
  }

  onHealth(event: HealthEvent): void {
    const key = this.devices.keyOf(event.module);
    if (!key) return;
    const { device } = key;
    const time = event.time;
    if (event.kind === 'connection') {
      const lastReset = this.states.get(keyText(key))?.payload.lastReset;
      this.setState(key, { device, state: event.detail.state, cause: event.cause, time, ...(lastReset ? { lastReset } : {}) });
    } else if (event.kind === 'reset') {
      const current = this.states.get(keyText(key))?.payload ?? { state: 'connected', cause: event.cause, time };
      this.setState(key, { ...current, device, state: 'reset', cause: event.cause, time, lastReset: { cause: event.cause, time } });
      this.event(this.scheme.module(key, 'event/reset'), { device, cause: event.cause, time });
    } else if (event.kind === 'notifications-lost') {
      this.event(this.scheme.module(key, 'notifications-lost'), { device, ...event.detail, reason: event.cause, time });
    } else {
      this.event(this.scheme.module(key, `event/${event.kind}`), { device, cause: event.cause, time, ...(event.detail ?? {}) });
    }
  }

  /** A msg into the node; a refused command's reason is returned (the node's status, done(err)), a failure thrown. */
  onMsg(msg: Record<string, unknown>): string | undefined {
    // A status node's msg about an mqtt out node (a status node scoped wider reports other nodes too: not the broker).
    const status = isPlainObject(msg.status) ? (msg.status as Record<string, unknown>) : undefined;
    if (status && isPlainObject(status.source)) {
      if ((status.source as Record<string, unknown>).type === 'mqtt out') this.brokerStatus(status);
    } else if (isPlainObject(msg.fleetCommand)) this.reply(msg);
    else {
      const command = this.scheme.commandTopic(msg.topic);
      // A Catch node's copy of a command this node refused (msg.error): answered already, never run again (a loop).
      if (command) return msg.error === undefined ? this.command(command, msg) : undefined;
      const module = moduleOfRequest(msg.request);
      if (!module) return undefined;
      const key = { device: this.devices.ofMsg(module, msg), service: module.service, slot: module.slot };
      if (Array.isArray(msg.alerts) || isPlainObject(msg.alerts)) this.alert(key, msg);
      else this.reading(key, module.what, msg.payload);
    }
    return undefined;
  }

  /** Ends every wait (the node closes): commands still out are answered as not done here. */
  close(): void {
    for (const [ref, p] of this.pending) {
      clearTimeout(p.timer);
      this.pending.delete(ref);
      this.send({
        topic: this.scheme.module(p.key, 'reply'),
        payload: {
          device: p.key.device,
          id: p.id,
          op: p.op,
          ok: false,
          error: { message: 'Node-RED stopped the flow before the command was answered', code: 'CLOSED' },
          time: now(),
        },
        qos: 1,
        retain: false,
      });
    }
  }

  private setState(key: ModuleKey, payload: Record<string, unknown>): void {
    this.states.set(keyText(key), { key, payload });
    this.send({ topic: this.scheme.module(key, 'state'), payload, qos: 1, retain: true });
  }

  private reading(key: ModuleKey, what: string, value: unknown): void {
    const topic = this.scheme.module(key, `reading/${what}`);
    const text = JSON.stringify(value ?? null);
    const last = this.readings.get(topic);
    if (last?.text === text) return; // by exception: only what changed
    if (!last && this.readings.size >= FLEET_BOUNDS.maxReadings) return;
    const payload = { device: key.device, value: value ?? null, time: now() };
    this.readings.set(topic, { topic, text, payload });
    this.send({ topic, payload, qos: 1, retain: true });
  }

  private alert(key: ModuleKey, msg: Record<string, unknown>): void {
    const records = Array.isArray(msg.payload) ? msg.payload : [msg.payload];
    const time = now();
    for (const record of records.slice(0, 64)) {
      const pin = isPlainObject(record) ? record.pin : undefined;
      const alerts = Array.isArray(msg.alerts) ? msg.alerts : isPlainObject(msg.alerts) ? (msg.alerts as Record<string, unknown>)[String(pin)] : [];
      this.event(this.scheme.module(key, 'alert'), { device: key.device, pin, alerts, record, time }, key, pin);
    }
  }

  /** A msg on a topic the command subscription matches: run (allowed, for a module here) or refused on its reply topic. */
  private command(topic: CommandTopic, msg: Record<string, unknown>): string | undefined {
    // An empty message is how a retained one is cleared (MQTT): no command, nothing to answer.
    if ((Buffer.isBuffer(msg.payload) || typeof msg.payload === 'string') && msg.payload.length === 0) return undefined;
    const parsed = parseCommand(msg.payload, this.allowed);
    const refuse = (id: string, refused: string) => {
      this.send({ topic: topic.reply, payload: { device: topic.device, id, ok: false, refused, time: now() }, qos: 1, retain: false });
      return refused;
    };
    // Retained, a command would run again on every (re)subscribe: after each reconnect of Node-RED.
    if (msg.retain === true)
      return refuse(
        parsed.id,
        `a retained command is not run: the broker hands it out again on every (re)subscribe. Publish commands with retain off, and clear this one (an empty retained message on ${String(msg.topic)})`,
      );
    if ('refused' in parsed) return refuse(parsed.id, parsed.refused);
    if ('refused' in topic) return refuse(parsed.id, topic.refused);
    if ('alarm' in topic || isAlarmOp(parsed.op)) {
      const refused = this.alarms ? this.alarms.command(topic, parsed, this.devices.all()) : 'no alarm system in this Node-RED';
      return refused === undefined ? undefined : refuse(parsed.id, refused);
    }
    const key = { device: topic.device, service: topic.service, slot: topic.slot };
    if (!this.states.has(keyText(key))) {
      const devices = this.devices.all();
      return refuse(
        parsed.id,
        devices.has(key.device)
          ? `no ${key.service} module in slot ${key.slot} of ${key.device} in this Node-RED`
          : `no device ${JSON.stringify(key.device.slice(0, 80))} in this Node-RED (its devices: ${[...devices].slice(0, 5).join(', ')})`,
      );
    }
    if (this.pending.size >= FLEET_BOUNDS.maxPending) return refuse(parsed.id, `${FLEET_BOUNDS.maxPending} commands are waiting for their answer already`);
    const ref = `${++this.refs}`;
    const timer = setTimeout(() => this.timedOut(ref), FLEET_BOUNDS.replyTimeoutMs);
    this.pending.set(ref, { id: parsed.id, op: parsed.op, key, timer });
    this.out.command({
      topic: `${key.service}/${key.slot}/${parsed.op}`,
      payload: parsed.payload,
      fleetCommand: { ref, id: parsed.id, op: parsed.op, device: key.device, service: key.service, slot: key.slot },
    });
    return undefined;
  }

  /** The action node's output (ok) or a Catch node's msg (msg.error) for a command. */
  private reply(msg: Record<string, unknown>): void {
    const ref = String((msg.fleetCommand as Record<string, unknown>).ref);
    const p = this.pending.get(ref);
    if (!p) return; // answered already (the output and a Catch both), or timed out
    clearTimeout(p.timer);
    this.pending.delete(ref);
    const error = msg.error as { message?: unknown; code?: unknown } | undefined;
    const outcome = error
      ? { ok: false, error: { message: String(error.message ?? error).slice(0, 500), ...(error.code ? { code: String(error.code) } : {}) } }
      : { ok: true, payload: msg.payload ?? null, ...(msg.request ? { request: msg.request } : {}) };
    this.send({
      topic: this.scheme.module(p.key, 'reply'),
      payload: { device: p.key.device, id: p.id, op: p.op, ...outcome, time: now() },
      qos: 1,
      retain: false,
    });
  }

  private timedOut(ref: string): void {
    const p = this.pending.get(ref);
    if (!p) return;
    this.pending.delete(ref);
    const message = `no answer within ${FLEET_BOUNDS.replyTimeoutMs / 1000} s: is the command output wired to the ${p.op} node, and its output back?`;
    this.send({
      topic: this.scheme.module(p.key, 'reply'),
      payload: { device: p.key.device, id: p.id, op: p.op, ok: false, error: { message, code: 'TIMEOUT' }, time: now() },
      qos: 1,
      retain: false,
    });
  }

  /** The status of the mqtt out node (a status node wired in): green is connected. */
  private brokerStatus(status: Record<string, unknown>): void {
    const up = status.fill === 'green';
    if (up === this.brokerUp) return;
    this.brokerUp = up;
    if (!up) return;
    // A broker that restarted without persistence lost what was retained: say it again.
    for (const { key, payload } of this.states.values()) this.send({ topic: this.scheme.module(key, 'state'), payload, qos: 1, retain: true });
    for (const { topic, payload } of this.readings.values()) this.send({ topic, payload, qos: 1, retain: true });
    this.alarms?.publishAll();
    const held = this.held;
    this.held = [];
    for (const msg of held) this.out.mqtt(msg);
    for (const { key, count, from, pins } of this.dropped.values()) {
      const to = now();
      this.out.mqtt({
        topic: this.scheme.module(key, 'notifications-lost'),
        payload: {
          device: key.device,
          pins: [...pins].sort((a, b) => Number(a) - Number(b)),
          from,
          to,
          reason: `${count} alerts dropped while the broker was unreachable`,
          time: to,
        },
        qos: 1,
        retain: false,
      });
    }
    this.dropped.clear();
  }

  /** An event: sent now, or held while the broker is away; an alert held past the bound is announced later. */
  private event(topic: string, payload: Record<string, unknown>, alertOf?: ModuleKey, pin?: unknown): void {
    const msg: MqttMsg = { topic, payload, qos: 1, retain: false };
    if (this.brokerUp) return this.out.mqtt(msg);
    if (this.held.length < FLEET_BOUNDS.maxHeld) {
      this.held.push(msg);
    } else if (alertOf) {
      const d = this.dropped.get(keyText(alertOf)) ?? { key: alertOf, count: 0, from: now(), pins: new Set<unknown>() };
      d.count++;
      // The pins as the alerts named them (an io module has six): the announcement says which.
      if (d.pins.size < 64) d.pins.add(pin);
      this.dropped.set(keyText(alertOf), d);
    }
  }

  private send(msg: MqttMsg): void {
    this.out.mqtt(msg);
  }
}
