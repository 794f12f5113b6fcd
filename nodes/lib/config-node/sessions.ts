/**
 * API 1.0's session ids in the version record, and what a change of each means (real §4):
 *  - driver_session is made when the REST service starts: a new one is a service restart.
 *    The service's in-memory notification cache is gone; the module and its settings are not.
 *  - device_session is made whenever the driver re-reads a module's descriptor: a re-plug, a
 *    reset, a restarted driver, or a re-enumeration after an accepted power-management
 *    (§3.2 step 5). The package's own renewing writes are counted here, per module for every
 *    config node of this Node-RED that names it (two config nodes may share a module), so
 *    the session that follows them is adopted; any other new one is the module reset by
 *    something else.
 * Who shares what is owned, not global: ModuleSessions holds the modules of one Node-RED (the
 * config node type makes one and hands it to every connection); each connection opens its
 * own Sessions on it and closes it when its config node closes.
 * API 0.9 has no sessions: nothing changes here.
 */
import type { VersionRecord } from '../device/version-record';
import { t } from '../base/i18n';

export interface SessionNews {
  session?: string;
  deviceSession?: string;
  /** The service restarted (driver_session changed). */
  restarted: boolean;
  /** Why the module lost its settings (device_session changed, not by the package's own write); else undefined. */
  resetCause?: string;
}

/** One module's own renewing writes, shared by every config node of this Node-RED naming it. */
interface ModuleWrites {
  /** On the wire now. */
  onWire: number;
  /** Ended so far (a running count, whatever the answer: one that renewed nothing is forgotten by the next look). */
  ended: number;
  /** Each config node's "put back what comes after this phase" (the re-enumeration undid it). */
  peers: Set<(phase: number) => void>;
}

/** The modules of one Node-RED, by key (device location, service and slot), while a config node names them. */
export class ModuleSessions {
  private readonly modules = new Map<string, ModuleWrites>();

  /** A config node's sessions of module `key`; `reenumerated` puts back what comes after a phase. */
  open(key: string, reenumerated: (phase: number) => void): Sessions {
    const writes = this.modules.get(key) ?? { onWire: 0, ended: 0, peers: new Set() };
    this.modules.set(key, writes);
    writes.peers.add(reenumerated);
    return new Sessions(writes, () => {
      writes.peers.delete(reenumerated);
      // A second close, after another config node opened the key afresh, leaves that one's.
      if (!writes.peers.size && this.modules.get(key) === writes) this.modules.delete(key);
    });
  }

  /** Modules some open config node names (a closed one's own writes are forgotten with its last). */
  get size(): number {
    return this.modules.size;
  }
}

export class Sessions {
  /** The last driver_session seen. */
  private session?: string;
  /** The last device_session of the module seen. */
  private deviceSession?: string;
  /** Own writes ended that a look already accounted for. */
  private seen: number;

  /** Made by ModuleSessions.open: the module's writes shared with its peers, and how to leave them. */
  constructor(
    private readonly writes: ModuleWrites,
    private readonly leave: () => void,
  ) {
    this.seen = writes.ended;
  }

  /** An own renewing write went on the wire ('sent') or ended ('ended'). */
  renewing(step: 'sent' | 'ended'): void {
    if (step === 'sent') this.writes.onWire++;
    else {
      this.writes.onWire = Math.max(0, this.writes.onWire - 1);
      this.writes.ended++;
    }
  }

  /** An own write of `phase` was accepted and re-enumerated the module: every config node of it puts back what comes after. */
  accepted(phase: number): void {
    for (const peer of this.writes.peers) peer(phase);
  }

  /** Own renewing writes ended so far: taken before a read goes out. */
  get owned(): number {
    return this.writes.ended;
  }

  /** The config node closed: its peers no longer put back its pins; the module is forgotten with its last. */
  close(): void {
    this.leave();
  }

  /** Judges a version record read after `owned` own writes had ended. */
  judge(record: VersionRecord, slot: number, owned: number): SessionNews {
    const session = typeof record.driver_session === 'string' ? record.driver_session : undefined;
    const restarted = session !== undefined && this.session !== undefined && session !== this.session;
    if (session !== undefined) this.session = session;
    const deviceSession = record.devices.find((d) => d.slot_number === slot)?.device_session;
    const renewed = deviceSession !== undefined && this.deviceSession !== undefined && deviceSession !== this.deviceSession;
    if (deviceSession !== undefined) this.deviceSession = deviceSession;
    // The same service and an own write on the wire or ended unseen (the device may renew the
    // session before its answer arrives): the new device_session is theirs. Writes ended
    // before this read that renewed nothing are forgotten (they never will).
    const own = renewed && !restarted && (this.writes.ended > this.seen || this.writes.onWire > 0);
    this.seen = own ? this.writes.ended : Math.max(this.seen, renewed ? this.writes.ended : owned);
    const resetCause = !renewed || own ? undefined : restarted ? t('common.cause.restarted') : t('common.cause.moduleReset');
    return { session, deviceSession, restarted, resetCause };
  }
}
