/**
 * API 1.0's session ids in the version record, and what a change of each means (real §4):
 *  - driver_session is made when the REST service starts: a new one is a service restart.
 *    The service's in-memory notification cache is gone; the module and its settings are not.
 *  - device_session is made whenever the driver re-reads a module's descriptor: a re-plug, a
 *    reset, a restarted driver, or a re-enumeration after an accepted power-management
 *    (§3.2 step 5). The package's own renewing writes are counted here, so the session that
 *    follows them is adopted; any other new one is the module reset by something else.
 * API 0.9 has no sessions: nothing changes here.
 */
import type { VersionRecord } from './version-record';

export interface SessionNews {
  session?: string;
  deviceSession?: string;
  /** The service restarted (driver_session changed). */
  restarted: boolean;
  /** Why the module lost its settings (device_session changed, not by the package's own write); else undefined. */
  resetCause?: string;
}

export class Sessions {
  /** The last driver_session seen. */
  private session?: string;
  /** The last device_session of the module seen. */
  private deviceSession?: string;
  /**
   * The package's own writes answered since the last look that renew the module's
   * device_session (power-management, its own module reset): the next new one is theirs.
   */
  private own = 0;

  /** One more own renewing write was answered. */
  renewing(): void {
    this.own++;
  }

  /** How many own renewing writes were answered so far: taken before a read goes out. */
  get owned(): number {
    return this.own;
  }

  /** Judges a version record read after `owned` own writes were answered. */
  judge(record: VersionRecord, slot: number, owned: number): SessionNews {
    const session = typeof record.driver_session === 'string' ? record.driver_session : undefined;
    const restarted = session !== undefined && this.session !== undefined && session !== this.session;
    if (session !== undefined) this.session = session;
    const deviceSession = record.devices.find((d) => d.slot_number === slot)?.device_session;
    const renewed = deviceSession !== undefined && this.deviceSession !== undefined && deviceSession !== this.deviceSession;
    if (deviceSession !== undefined) this.deviceSession = deviceSession;
    // The same service and own writes answered: the new device_session is theirs. Writes
    // answered before this read that renewed nothing are forgotten (they never will).
    const own = renewed && !restarted && this.own > 0;
    if (own) this.own = 0;
    else if (!renewed) this.own -= Math.min(owned, this.own);
    const resetCause = !renewed || own
      ? undefined
      : restarted
        ? 'driver_session and device_session changed: the device or its driver restarted, the module starts anew'
        : 'device_session changed: the module was reset, re-plugged or re-enumerated';
    return { session, deviceSession, restarted, resetCause };
  }
}
