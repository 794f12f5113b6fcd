/**
 * The bmc (service controller): board readings, watchdog, shutdown, USB hub, bootloader,
 * buzzer. Watchdog expiry, shutdown expiry and the bootloader window end are deadlines the
 * device fires lazily (no timers); each is a device hard reset.
 *
 * Choices where the spec is silent (also in simulator/README.md):
 *  - USB hub ports are kept by physical number 0..8; 0.9 shows and sets 2..8. Ports 0, 1
 *    and 8 are `not available` by default; a setting for such a port is stored but applying
 *    it leaves the port `not available`.
 *  - usb_bootloader {enabled:true, timeout}: armed, persistently; at the next device reset
 *    the bootloader is active for `timeout` ms (0 = the spec's 90 s window). No host ever
 *    activates it, so when that time is over the device resets to normal mode.
 *  - A second shutdown `start` while one is running keeps the first deadline.
 */
import { BOOTLOADER_WINDOW_MS } from '../facts';
import { ModelError } from '../errors';
import { DeviceHooks, DueEvent, ModuleModel, newSession, round3, wave } from './types';

export type UsbState = 'enabled' | 'disabled' | 'not available';

/** What survives a device hard reset (the spec: saved watchdog timeout, sw_shutdown_timeout). */
export interface BmcPersist {
  savedWatchdogMs: number;
  swShutdownMs: number;
  bootloaderArmed: boolean;
  bootloaderTimeoutMs: number;
}

/** The physical conditions the control API sets; drift is added on reading. */
export interface BmcWorld {
  ntc0: number;
  ntc1: number;
  voltage1v8: number;
  voltageRtc: number;
}

export const USB_PORT_COUNT = 9;
const UNAVAILABLE_PORTS: readonly number[] = [0, 1, 8];

export function defaultBmcPersist(): BmcPersist {
  return { savedWatchdogMs: 0, swShutdownMs: 30_000, bootloaderArmed: false, bootloaderTimeoutMs: 0 };
}

export function defaultBmcWorld(): BmcWorld {
  return { ntc0: 48.5, ntc1: 31.25, voltage1v8: 1800, voltageRtc: 3010 };
}

export class BmcModel implements ModuleModel {
  readonly service = 'bmc' as const;
  session = newSession();
  watchdogMs: number;
  watchdogDeadline: number | null = null;
  shutdownAt: number | null = null;
  hub: UsbState = 'enabled';
  ports: UsbState[];
  pendingHub: boolean | null = null;
  pendingPorts = new Map<number, boolean>();
  bootloaderUntil: number | null = null;
  soundsEnabled = true;
  lastSound: { mode: number; durationMs: number; at: number } | null = null;
  readonly emergencyMode = false;

  /** Created at power-on or after a hard reset at `at`. */
  constructor(
    readonly world: BmcWorld,
    readonly persist: BmcPersist,
    private readonly hooks: DeviceHooks,
    at: number,
  ) {
    this.ports = Array.from({ length: USB_PORT_COUNT }, (_, n) => (UNAVAILABLE_PORTS.includes(n) ? 'not available' : 'enabled'));
    // After a reset the watchdog is disabled again unless its timeout was saved.
    this.watchdogMs = persist.savedWatchdogMs;
    if (this.watchdogMs > 0) this.watchdogDeadline = at + this.watchdogMs;
    if (persist.bootloaderArmed) {
      persist.bootloaderArmed = false;
      this.bootloaderUntil = at + (persist.bootloaderTimeoutMs || BOOTLOADER_WINDOW_MS);
    }
  }

  nextDue(): DueEvent | null {
    let best: DueEvent | null = null;
    const consider = (at: number | null, cause: string): void => {
      if (at !== null && (!best || at < best.at)) best = { at, fire: () => this.hooks.hardReset(at, cause) };
    };
    consider(this.watchdogDeadline, 'watchdog expired');
    consider(this.shutdownAt, 'shutdown');
    consider(this.bootloaderUntil, 'bootloader window expired');
    return best;
  }

  voltages(now: number): { v1v8: number; vRtc: number } {
    return {
      v1v8: Math.round(this.world.voltage1v8 + 4 * wave(now, 61_000)),
      vRtc: Math.round(this.world.voltageRtc + 6 * wave(now, 97_000, 1)),
    };
  }

  temperatures(now: number): { ntc0: number; ntc1: number } {
    return { ntc0: round3(this.world.ntc0 + 0.4 * wave(now, 47_000)), ntc1: round3(this.world.ntc1 + 0.2 * wave(now, 83_000, 2)) };
  }

  watchdog(now: number): { timeoutMs: number; leftMs: number; shutdownMs: number; emergency: boolean } {
    const leftMs = this.watchdogDeadline === null ? 0 : Math.max(0, this.watchdogDeadline - now);
    return { timeoutMs: this.watchdogMs, leftMs, shutdownMs: this.persist.swShutdownMs, emergency: this.emergencyMode };
  }

  setWatchdog(timeoutMs: number, now: number): void {
    this.watchdogMs = timeoutMs;
    this.watchdogDeadline = timeoutMs > 0 ? now + timeoutMs : null;
  }

  alive(now: number): void {
    if (this.watchdogMs === 0) throw new ModelError('watchdog_not_enabled');
    this.watchdogDeadline = now + this.watchdogMs;
  }

  saveWatchdog(): void {
    this.persist.savedWatchdogMs = this.watchdogMs;
  }

  setShutdownTimeout(ms: number): void {
    this.persist.swShutdownMs = ms; // "always stored persistently"
  }

  startShutdown(now: number): void {
    if (this.shutdownAt === null) this.shutdownAt = now + this.persist.swShutdownMs;
  }

  setHubPending(enabled: boolean): void {
    this.pendingHub = enabled;
  }

  setPortPending(port: number, enabled: boolean): void {
    this.pendingPorts.set(port, enabled);
  }

  /** usbhub/reset: the stored settings take effect (USB devices would reconnect). */
  applyHub(): void {
    if (this.pendingHub !== null) this.hub = this.pendingHub ? 'enabled' : 'disabled';
    for (const [port, enabled] of this.pendingPorts) {
      if (this.ports[port] !== 'not available') this.ports[port] = enabled ? 'enabled' : 'disabled';
    }
    this.pendingHub = null;
    this.pendingPorts.clear();
  }

  setBootloader(enabled: boolean, timeoutMs: number): void {
    this.persist.bootloaderArmed = enabled;
    this.persist.bootloaderTimeoutMs = timeoutMs;
    if (!enabled) this.bootloaderUntil = null; // back to normal mode
  }

  get bootloaderActive(): boolean {
    return this.bootloaderUntil !== null;
  }

  buzzer(mode: number, durationMs: number, now: number): void {
    if (mode === 0 || mode === 1) this.soundsEnabled = mode === 1;
    else this.lastSound = { mode, durationMs, at: now };
  }

  snapshot(now: number) {
    return {
      service: this.service,
      session: this.session,
      world: { ...this.world },
      persistent: { ...this.persist },
      watchdog: { ...this.watchdog(now), deadline: this.watchdogDeadline },
      shutdown: { at: this.shutdownAt, leftMs: this.shutdownAt === null ? null : Math.max(0, this.shutdownAt - now) },
      usbhub: {
        applied: { hub: this.hub, ports: Object.fromEntries(this.ports.map((s, n) => [n, s])) },
        pending: { hub: this.pendingHub, ports: Object.fromEntries(this.pendingPorts) },
      },
      bootloader: { armed: this.persist.bootloaderArmed, activeUntil: this.bootloaderUntil },
      buzzer: { soundsEnabled: this.soundsEnabled, lastSound: this.lastSound },
    };
  }
}
