/**
 * The edge node's session (Sparkplug 3.0; the design of issue #44): this Node-RED is the edge
 * node, each module a device. bdSeq ties the NBIRTH to the NDEATH the link registers as its
 * will; `seq` counts 0-255 on every payload but NDEATH (NBIRTH is 0). Births declare every
 * metric; data goes by exception with aliases; a module whose connection leaves `connected`
 * dies (DDEATH) and is born again (DBIRTH) when it is back. With a primary host, births wait
 * for its STATE online, and while it is offline (or the broker away) data is stored and
 * forwarded as historical after the next births.
 *
 * Every incoming payload is untrusted: message() never throws; a command that fails a check
 * is refused whole (nothing sent) and told through EdgeOutput.refused.
 */
import { t } from '../../lib/base/i18n';
import type { HealthEvent } from '../../lib/config-node/health';
import { isPlainObject } from '../../lib/action/msg';
import type { FleetDevices } from '../devices';
import { ModuleKey, moduleOfRequest } from '../scheme';
import { Aliases } from './aliases';
import { bdSeqMetric, Counter, counterMetric, dataMetric, deviceBirth, NODE_METRICS, nodeBirth } from './births';
import { changesOfAlert, changesOfHealth, changesOfReading } from './catalogue';
import { checkDcmd, checkNcmd } from './command-check';
import { applyChanges, Changed, isService, newDevice, SpDevice } from './edge-device';
import { readHostState } from './host-state';
import { decode, encode } from './payload';
import { PendingCommands } from './pending-commands';
import { StoreAndForward } from './store-forward';
import { deviceId, SpTopics } from './topics';
import type { BdSeqStore, EdgeOutput, EdgeSession, EdgeSettings, MetricChange, SpLink, SpMetric } from './types';

export class EdgeNode implements EdgeSession {
  private readonly topics: SpTopics;
  private readonly aliases = new Aliases(Object.values(NODE_METRICS));
  private readonly devices = new Map<string, SpDevice>();
  private readonly store = new StoreAndForward();
  private readonly pending: PendingCommands;
  private link?: SpLink;
  private bdSeq?: number;
  private seq = 0;
  /** The NBIRTH of this connection stands (and the host, if any, is online). */
  private born = false;
  private hostOnline?: boolean;
  /** The newest STATE timestamp heard: an older one is a stale retained message. */
  private hostTime = -Infinity;
  private refusedCount = 0;
  private closed = false;
  private readonly warned = new Set<string>();

  constructor(
    private readonly settings: EdgeSettings,
    private readonly bdSeqs: BdSeqStore,
    private readonly allowed: ReadonlySet<string>,
    private readonly out: EdgeOutput,
    private readonly fleet: FleetDevices,
  ) {
    this.topics = new SpTopics(settings);
    this.pending = new PendingCommands((reason) => this.refuse(reason));
  }

  will(): { topic: string; payload: Uint8Array } {
    this.bdSeq = this.bdSeqs.next(this.settings.edgeNode);
    return { topic: this.topics.node('NDEATH'), payload: this.death() };
  }

  up(link: SpLink): void {
    if (this.closed) return;
    this.link = link;
    for (const topic of this.topics.subscriptions()) link.subscribe(topic, 1);
    if (!this.settings.primaryHost) this.birth();
  }

  down(): void {
    this.link = undefined;
    this.unborn();
    // The host may change its state while we are away: its retained STATE tells again after the next subscribe.
    if (this.settings.primaryHost) this.hostOnline = undefined;
  }

  message(topic: string, payload: Buffer): void {
    if (this.closed) return;
    try {
      const incoming = this.topics.parse(topic);
      if (!incoming) return;
      if (incoming.kind === 'STATE') this.hostState(payload);
      else if (incoming.kind === 'NCMD') this.ncmd(payload);
      else this.dcmd(incoming.device, payload);
    } catch (error) {
      // A fault of ours on an untrusted payload: said, never thrown into the MQTT client.
      this.refuse(`${topic.slice(0, 200)}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  health(event: HealthEvent): void {
    if (this.closed || !isService(event.module.service)) return;
    const key = this.fleet.keyOf(event.module);
    if (!key) return;
    const device = this.deviceOf(key);
    const time = Date.parse(event.time);
    const changed = applyChanges(device, changesOfHealth(event), Number.isFinite(time) ? time : Date.now());
    if (event.kind === 'connection') {
      device.state = event.detail.state;
      const alive = event.detail.state === 'connected';
      if (alive !== device.alive) return this.setAlive(device, alive);
    }
    this.data(device, changed);
  }

  msg(msg: Record<string, unknown>): void {
    if (this.closed) return;
    if (isPlainObject(msg.fleetCommand)) {
      const command = msg.fleetCommand as Record<string, unknown>;
      if (command.via === 'sparkplug') this.pending.answer(command.ref, msg.error);
      // A write that worked tells the metric's new value (its msg.request), whoever asked for it.
      if (msg.error !== undefined) return;
    }
    const module = moduleOfRequest(msg.request);
    if (!module || !isService(module.service)) return;
    // A command's answer names its device (a gateway's two devices may both have this module); a reading, msg.device or its slot.
    const commanded = isPlainObject(msg.fleetCommand) ? (msg.fleetCommand as Record<string, unknown>).device : undefined;
    const named = msg.device === undefined && typeof commanded === 'string' ? { device: commanded } : msg;
    const key = { device: this.fleet.ofMsg(module, named), service: module.service, slot: module.slot };
    const device = this.deviceOf(key);
    const changes: MetricChange[] =
      Array.isArray(msg.alerts) || isPlainObject(msg.alerts)
        ? changesOfAlert(module.service, msg.payload, msg.alerts)
        : changesOfReading(module.service, module.what, msg.payload, msg.request);
    const changed = applyChanges(device, changes, Date.now());
    // An answer proves the module reachable when no connection state was heard yet.
    if (device.state === undefined && !device.alive) return this.setAlive(device, true);
    this.data(device, changed);
  }

  close(): void {
    if (this.closed) return;
    this.pending.close();
    if (this.link && this.bdSeq !== undefined) this.link.publish(this.topics.node('NDEATH'), this.death(), { qos: 1, retain: false });
    this.closed = true;
    this.link = undefined;
    this.born = false;
  }

  stats(): { born: boolean; hostOnline: boolean | undefined; devices: number; stored: number; dropped: number; refused: number } {
    return {
      born: this.born,
      hostOnline: this.hostOnline,
      devices: this.devices.size,
      stored: this.store.stored,
      dropped: this.store.dropped,
      refused: this.refusedCount,
    };
  }

  /** NDEATH: bdSeq only, no seq. */
  private death(): Uint8Array {
    return encode({ timestamp: Date.now(), metrics: [bdSeqMetric(this.bdSeq ?? 0, Date.now())] });
  }

  /** Births may go out: connected, not closed, and the primary host (if any) online. */
  private get mayPublish(): boolean {
    return this.link !== undefined && !this.closed && (!this.settings.primaryHost || this.hostOnline === true);
  }

  private publish(topic: string, timestamp: number, metrics: SpMetric[]): void {
    const seq = this.seq;
    this.seq = (this.seq + 1) % 256;
    this.link?.publish(topic, encode({ timestamp, metrics, seq }), { qos: 0, retain: false });
  }

  /** NBIRTH (seq 0), a DBIRTH per live device, then what was stored, as historical. */
  private birth(): void {
    if (!this.mayPublish) return;
    if (this.bdSeq === undefined) this.bdSeq = this.bdSeqs.next(this.settings.edgeNode);
    const now = Date.now();
    this.seq = 0;
    const counters = { stored: this.store.stored, dropped: this.store.dropped, refused: this.refusedCount };
    this.publish(this.topics.node('NBIRTH'), now, nodeBirth(this.aliases, this.bdSeq, counters, now));
    this.born = true;
    for (const device of this.devices.values()) {
      device.born = false;
      if (device.alive) this.deviceBirth(device);
    }
    if (!this.store.stored) return;
    for (const { device: id, metrics } of this.store.take()) {
      const device = this.devices.get(id);
      // A device dead again by now has no birth to follow: its values are in its next DBIRTH.
      if (device?.born) this.publish(this.topics.device('DDATA', id), Date.now(), metrics);
      else this.store.dropped += metrics.length;
    }
    this.nodeData(['stored', 'dropped']);
  }

  private unborn(): void {
    this.born = false;
    for (const device of this.devices.values()) device.born = false;
  }

  private deviceBirth(device: SpDevice): void {
    this.publish(this.topics.device('DBIRTH', device.id), Date.now(), deviceBirth(this.aliases, device, Date.now()));
    device.born = true;
  }

  private setAlive(device: SpDevice, alive: boolean): void {
    device.alive = alive;
    if (!this.born) return; // the next births say it
    if (alive) this.deviceBirth(device);
    else if (device.born) {
      this.publish(this.topics.device('DDEATH', device.id), Date.now(), []);
      device.born = false;
    }
  }

  /** Changed values: DDATA now, stored while births wait, or only kept for the next DBIRTH while the device is dead. */
  private data(device: SpDevice, changed: Changed[]): void {
    if (!changed.length || !device.alive) return;
    const metrics = changed.map((c) => dataMetric(this.aliases.of(device.id, c.def.name), c.def, c.value, c.time));
    if (this.born && device.born) this.publish(this.topics.device('DDATA', device.id), Date.now(), metrics);
    else this.store.keep(device.id, metrics);
  }

  /** NDATA with the edge node's counters. */
  private nodeData(counters: Counter[]): void {
    if (!this.born) return;
    const now = Date.now();
    const values = { stored: this.store.stored, dropped: this.store.dropped, refused: this.refusedCount };
    this.publish(
      this.topics.node('NDATA'),
      now,
      counters.map((c) => counterMetric(this.aliases, c, values[c], now)),
    );
  }

  private deviceOf(key: ModuleKey): SpDevice {
    const id = deviceId(key, this.fleet.scheme.device);
    let device = this.devices.get(id);
    if (!device) {
      device = newDevice(id, key, key.service as SpDevice['service']);
      this.devices.set(id, device);
    }
    return device;
  }

  private refuse(reason: string): void {
    this.refusedCount++;
    this.out.refused(reason);
    this.nodeData(['refused']);
  }

  private hostState(payload: Buffer): void {
    const state = readHostState(payload);
    if (!state) return;
    if ('refused' in state) {
      if (!this.warned.has('state')) this.out.warn(`${this.topics.state}: ${state.refused}`);
      this.warned.add('state');
      return;
    }
    if (state.timestamp < this.hostTime) return;
    this.hostTime = state.timestamp;
    if (state.online === this.hostOnline) return;
    this.hostOnline = state.online;
    if (state.online) this.birth();
    else this.unborn();
  }

  private ncmd(payload: Buffer): void {
    const decoded = decode(payload);
    if ('refused' in decoded) return this.refuse(`NCMD: ${decoded.refused}`);
    const checked = checkNcmd(decoded.payload.metrics, this.aliases);
    if ('refused' in checked) return this.refuse(`NCMD: ${checked.refused}`);
    // Not born (the host offline): the births to come are the rebirth.
    if (checked.rebirth && this.born) this.birth();
  }

  private dcmd(id: string, payload: Buffer): void {
    const device = this.devices.get(id);
    const said = `DCMD ${id.slice(0, 140)}`;
    if (!device) return this.refuse(`${said}: ${t('fleet-publish.spNoDevice', { edgeNode: this.settings.edgeNode })}`);
    if (!device.alive) return this.refuse(`${said}: ${t('fleet-publish.spNotConnected', { state: device.state ?? t('fleet-publish.spStateUnknown') })}`);
    const decoded = decode(payload);
    if ('refused' in decoded) return this.refuse(`${said}: ${decoded.refused}`);
    const writes = checkDcmd(device, decoded.payload.metrics, this.aliases, this.allowed);
    if ('refused' in writes) return this.refuse(`${said}: ${writes.refused}`);
    if (writes.length > this.pending.room)
      return this.refuse(`${said}: ${t('fleet-publish.spTooManyWaiting', { writes: writes.length, room: Math.max(0, this.pending.room) })}`);
    const { device: fleetDevice, service, slot } = device.key;
    for (const { def, command } of writes) {
      const ref = this.pending.add(id, def.name, command.op);
      this.out.command({
        topic: `${service}/${slot}/${command.op}`,
        payload: command.payload,
        fleetCommand: { ref, id: `${id}/${def.name}`, op: command.op, device: fleetDevice, service, slot, via: 'sparkplug', metric: def.name },
      });
    }
  }
}
