/**
 * The simulated device: modules by slot, the lazy clock (tick), hard reset and restart.
 *
 * Three layers of state with different lifetimes:
 *  - model: the module's volatile state; rebuilt by a device hard reset.
 *  - persist: what the module stores persistently (saved watchdog timeout, shutdown
 *    timeout, bootloader flag, protection counters); survives hard resets.
 *  - world: the outside the control API sets (pin signals, temperatures, loads); survives
 *    hard resets too, since rebooting the device does not change the room it is in.
 * A simulator restart (POST /sim/restart, restart()) rebuilds all three: factory state.
 *
 * A device hard reset reboots the board: for `rebootMs` the device is down (the server
 * refuses connections, see outage.ts), then it boots: every module at its defaults, the REST
 * services started anew (new driver_session) and every module enumerated anew (new
 * device_session). With rebootMs 0 the boot happens at the moment of the reset.
 */
import { FAN_APPLY_MAX_MS, Service, SERVICES, SLOT_MAX } from './facts';
import { BmcModel, BmcPersist, BmcWorld, defaultBmcPersist, defaultBmcWorld } from './models/bmc';
import { defaultStimuli, IoModel, PinStimulus } from './models/io';
import { defaultPowerPersist, defaultPowerWorld, PowerModel, PowerPersist, PowerWorld } from './models/power';
import { DeviceHooks, ModuleModel, newSession } from './models/types';

export interface ModuleSpec {
  service: Service;
  slot: number;
}

export const DEFAULT_MODULES: readonly ModuleSpec[] = [
  { service: 'bmc', slot: 0 },
  { service: 'power', slot: 1 },
  { service: 'io', slot: 2 },
  { service: 'io', slot: 3 },
];

export const DEFAULT_FAN_APPLY_DELAY_MS = 3000;

/**
 * A board like this one boots Linux, the module drivers, the REST services and nginx: a few
 * seconds until connections are accepted again. The CLI's default; startSimulator's is 0.
 */
export const DEFAULT_REBOOT_MS = 3000;
/** Sim-only bound: ten minutes covers any boot; beyond is a typo. */
export const REBOOT_MAX_MS = 600_000;

type Entry =
  | { service: 'io'; slot: number; world: PinStimulus[]; persist: null; model: IoModel }
  | { service: 'bmc'; slot: number; world: BmcWorld; persist: BmcPersist; model: BmcModel }
  | { service: 'power'; slot: number; world: PowerWorld; persist: PowerPersist; model: PowerModel };

/** Throws a readable Error for a bad module list or fan delay (programmer input, not requests). */
export function checkModules(specs: readonly ModuleSpec[]): void {
  const seen = new Set<number>();
  for (const spec of specs) {
    if (!SERVICES.includes(spec.service)) throw new Error(`module service must be one of ${SERVICES.join(', ')}, got ${spec.service}`);
    if (!Number.isInteger(spec.slot) || spec.slot < 0 || spec.slot > SLOT_MAX) {
      throw new Error(`slot must be an integer from 0 to ${SLOT_MAX}, got ${String(spec.slot)}`);
    }
    if (seen.has(spec.slot)) throw new Error(`slot ${spec.slot} holds two modules`);
    seen.add(spec.slot);
  }
}

export function checkFanDelay(ms: unknown): true | string {
  return Number.isInteger(ms) && (ms as number) >= 0 && (ms as number) <= FAN_APPLY_MAX_MS
    ? true
    : `fan apply delay must be an integer from 0 to ${FAN_APPLY_MAX_MS} ms, got ${String(ms)}`;
}

export function checkRebootMs(ms: unknown): true | string {
  return Number.isInteger(ms) && (ms as number) >= 0 && (ms as number) <= REBOOT_MAX_MS
    ? true
    : `reboot time must be an integer from 0 to ${REBOOT_MAX_MS} ms, got ${String(ms)}`;
}

export interface DeviceIdentity {
  readonly name: string;
  readonly serialPrefix: string;
}

/** A device alone keeps the serials it always had (SIM-IO-0002...). */
export const DEFAULT_IDENTITY: DeviceIdentity = { name: 'sim', serialPrefix: 'SIM' };

/** The board is down from a hard reset `since` until it has booted (device time). */
export interface Outage {
  readonly since: number;
  readonly until: number;
  readonly cause: string;
}

export class Device implements DeviceHooks {
  private entries = new Map<number, Entry>();
  private readonly bySlotList: Record<Service, number[]> = { io: [], bmc: [], power: [] };
  /**
   * Each REST service's driver_session: random per start of that service (real §4). New on a
   * simulator restart, and for one service when it comes back up after being down.
   */
  private readonly sessions = {} as Record<Service, string>;
  resets = 0;
  lastReset: { at: number; cause: string; upAt: number | null } | null = null;
  /** Set while the board reboots; nothing of it answers then. */
  outage: Outage | null = null;
  private readonly down = new Set<Service>();
  /**
   * Added to the wall clock. POST /sim/advance moves it forward so tests can pass the 90 s
   * bootloader window or a 10 s shutdown without waiting; it never goes back, not even on restart.
   */
  clockOffsetMs = 0;

  /** Who this device is in a fleet: its name, and the prefix of its modules' serial codes. */
  identity: DeviceIdentity = DEFAULT_IDENTITY;

  constructor(
    private readonly specs: readonly ModuleSpec[],
    public fanApplyDelayMs: number,
    now: number,
    /** How long a hard reset keeps the device down, ms (0: it is back at once). */
    public rebootMs = 0,
  ) {
    checkModules(specs);
    for (const spec of specs) this.bySlotList[spec.service].push(spec.slot);
    for (const list of Object.values(this.bySlotList)) list.sort((a, b) => a - b);
    this.restart(now);
  }

  /** Device time: the wall clock plus the offset. Every model reads time through this. */
  now(): number {
    return Date.now() + this.clockOffsetMs;
  }

  /** Factory state: new worlds, new persistent stores, new modules. */
  restart(now: number): void {
    this.entries.clear();
    for (const { service, slot } of this.specs) {
      if (service === 'io') {
        const world = defaultStimuli();
        this.entries.set(slot, { service, slot, world, persist: null, model: new IoModel(world) });
      } else if (service === 'bmc') {
        const world = defaultBmcWorld();
        const persist = defaultBmcPersist();
        this.entries.set(slot, { service, slot, world, persist, model: new BmcModel(world, persist, this, now) });
      } else {
        const world = defaultPowerWorld();
        const persist = defaultPowerPersist();
        this.entries.set(slot, { service, slot, world, persist, model: new PowerModel(world, persist, this) });
      }
    }
    for (const service of SERVICES) this.sessions[service] = newSession();
    this.resets = 0;
    this.lastReset = null;
    this.outage = null;
  }

  /**
   * Device hard reset at `at`: the board goes down for rebootMs, then boots. Persistent
   * stores and the world stay.
   */
  hardReset(at: number, cause: string): void {
    this.resets++;
    this.lastReset = { at, cause, upAt: null };
    this.outage = { since: at, until: at + this.rebootMs, cause };
    if (this.rebootMs === 0) this.boot();
  }

  /**
   * The board has booted at the end of the outage: every module to defaults (the bmc's
   * saved watchdog runs from now), every REST service a new process, every module enumerated
   * anew. Also ends an outage early (Simulator.boot()).
   */
  boot(): void {
    if (this.outage === null) return;
    const at = Math.min(this.outage.until, Math.max(this.outage.since, this.now()));
    for (const e of this.entries.values()) {
      if (e.service === 'io') e.model = new IoModel(e.world);
      else if (e.service === 'bmc') e.model = new BmcModel(e.world, e.persist, this, at);
      else e.model = new PowerModel(e.world, e.persist, this);
    }
    for (const service of SERVICES) this.sessions[service] = newSession();
    if (this.lastReset) this.lastReset.upAt = at;
    this.outage = null;
  }

  /**
   * The module in `slot` unplugged and plugged in again (the driver re-reads it: a new
   * device_session, real §4): the module at its defaults; its persistent store, the world
   * and the REST services stay. False when no module is in the slot.
   */
  replug(slot: number, now: number): boolean {
    const e = this.entries.get(slot);
    if (!e) return false;
    if (e.service === 'io') e.model.replug();
    else if (e.service === 'bmc') e.model = new BmcModel(e.world, e.persist, this, now);
    else e.model = new PowerModel(e.world, e.persist, this);
    return true;
  }

  /**
   * Fires every deadline due by `now`, earliest first, so a watchdog expiry that resets the
   * device cancels what would have happened after it. Run at the start of every request.
   */
  tick(now: number): void {
    // A saved 1 s watchdog left alone for days fires ~86,400 times a day: bounded work, no cap needed.
    for (;;) {
      // A board that is down keeps no deadlines; one whose boot time has passed is up again.
      if (this.outage !== null) {
        if (this.outage.until > now) return;
        this.boot();
      }
      let best: { at: number; fire(): void } | null = null;
      for (const e of this.entries.values()) {
        const due = e.model.nextDue();
        if (due !== null && due.at <= now && (best === null || due.at < best.at)) best = due;
      }
      if (best === null) return;
      best.fire();
    }
  }

  driverSession(service: Service): string {
    return this.sessions[service];
  }

  /** Services whose REST service is down (nginx answers 502). */
  get servicesDown(): ReadonlySet<Service> {
    return this.down;
  }

  serviceDown(service: Service): void {
    this.down.add(service);
  }

  /**
   * The service runs again: a new process, so a new driver_session, and the io service's
   * notification cache is gone (real §4). The modules and the driver are untouched.
   */
  serviceUp(service: Service): void {
    if (!this.down.delete(service)) return;
    this.sessions[service] = newSession();
    if (service !== 'io') return;
    for (const e of this.entries.values()) if (e.service === 'io') e.model.dropCache();
  }

  /** Slots holding a module of `service`, ascending. */
  slots(service: Service): readonly number[] {
    return this.bySlotList[service];
  }

  module(service: Service, slot: number): ModuleModel | undefined {
    const e = this.entries.get(slot);
    return e && e.service === service ? e.model : undefined;
  }

  io(slot: number): IoModel | undefined {
    const e = this.entries.get(slot);
    return e?.service === 'io' ? e.model : undefined;
  }

  bmc(slot: number): BmcModel | undefined {
    const e = this.entries.get(slot);
    return e?.service === 'bmc' ? e.model : undefined;
  }

  power(slot: number): PowerModel | undefined {
    const e = this.entries.get(slot);
    return e?.service === 'power' ? e.model : undefined;
  }

  snapshot(now: number): unknown {
    const modules = [...this.entries.values()].sort((a, b) => a.slot - b.slot).map((e) => ({ slot: e.slot, ...(e.model.snapshot(now) as object) }));
    return {
      name: this.identity.name,
      time: now,
      sessions: { ...this.sessions },
      resets: this.resets,
      lastReset: this.lastReset,
      down: this.outage !== null,
      outage: this.outage,
      rebootMs: this.rebootMs,
      fanApplyDelayMs: this.fanApplyDelayMs,
      servicesDown: [...this.down],
      clockOffsetMs: this.clockOffsetMs,
      modules,
    };
  }
}
