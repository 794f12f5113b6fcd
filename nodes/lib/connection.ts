/**
 * Connection: the state of one module as its config node knows it, shared by every node
 * that uses it.
 *
 * On start it reads the version record, checks the API version and that the slot is
 * there. While the device cannot be reached it tries again with capped exponential
 * backoff, for as long as it is deployed, and recovers by itself. A request of any node
 * that fails to reach the device moves the state to "unreachable" at once and starts the
 * retries; the next answer moves it back. Users (action nodes) register and deregister
 * as with the core MQTT broker node and are told every change.
 */
import { DeviceClient } from './client';
import { DeviceError, isRefused, statusText } from './errors';
import { API_VERSIONS, ApiVersion } from './limits';
import { apiText, slotProblem, VersionRecord } from './version-record';
import { DesiredState } from './desired-state';
import type { HealthModule } from './health';

export type ConnectionState =
  | { state: 'connecting' }
  | {
      state: 'connected';
      apiVersion: ApiVersion;
      /** API 1.0's driver_session: changes whenever the device's service restarts. */
      session?: string;
      /** The session changed since the last look: state kept on the device (notifications, settings) is gone. */
      restarted?: boolean;
      /** API 1.0's device_session of this module: changes whenever the driver re-reads the device (a reset). */
      deviceSession?: string;
    }
  | { state: 'unreachable'; reason: string }
  /** The device answered, but its service is not there (nginx's 502/503/504). */
  | { state: 'down'; reason: string }
  /** The device (its nginx) refused the config node's credentials. */
  | { state: 'refused'; reason: string }
  | { state: 'incompatible'; reason: string }
  | { state: 'invalid'; reason: string };

export interface ConnectionUser {
  onConnectionState(state: ConnectionState): void;
}

/** API versions of the version record this package speaks, as major.minor. */
const SUPPORTED_API = new Set<string>(API_VERSIONS);

export const BACKOFF = { firstMs: 1000, maxMs: 30000 } as const;
/**
 * While connected, the version record is read again this often: an idle flow learns of an
 * outage, and (API 1.0) of a service restart through a new driver_session, without a msg.
 */
export const HEALTH_INTERVAL_MS = 10000;

/** Whether an error means the device cannot be reached: no answer came (a transport failure). */
function isUnreachable(error: unknown): boolean {
  if (!(error instanceof DeviceError)) return true;
  return error.code === 'TIMEOUT' || error.code === 'UNREACHABLE';
}

/**
 * Whether the device answered that its service is not there: nginx's 502/503/504 (also when
 * its page is too odd to read: then the code is BAD_RESPONSE, the status still says it).
 * The device is reachable; the status says "service down", not "unreachable".
 */
function isServiceDown(error: unknown): boolean {
  return error instanceof DeviceError && [502, 503, 504].includes(error.statusCode ?? 0);
}

/** Whether the module is not there right now, either way: retried until it is back. */
function isGone(error: unknown): boolean {
  return isUnreachable(error) || isServiceDown(error);
}

/** The state for a module that is gone: unreachable, or its service down. */
function goneState(error: unknown): ConnectionState {
  const reason = error instanceof DeviceError ? statusText(error) : String(error);
  return isServiceDown(error) ? { state: 'down', reason } : { state: 'unreachable', reason };
}

export class Connection {
  private current: ConnectionState = { state: 'connecting' };
  private readonly users = new Set<ConnectionUser>();
  private retryTimer?: NodeJS.Timeout;
  private retryDelay: number = BACKOFF.firstMs;
  private probing = false;
  private closed = false;
  private healthTimer?: NodeJS.Timeout;
  /** The last driver_session seen (API 1.0). */
  private session?: string;
  /** The last device_session of this module seen (API 1.0). */
  private deviceSession?: string;
  /** What the package set on this module, put back whenever the module forgot it. */
  readonly desired: DesiredState;
  /**
   * The credentials were accepted since the last connect. The version root is public behind
   * the device's nginx, so reading it proves nothing: on each connect one authenticated read
   * of the module (its descriptor) does, before any node shows green.
   */
  private proven = false;
  /**
   * What the last connect learnt of the device, kept for whoever shows it (the live sidebar
   * reads nothing of its own for it): the last version record read.
   */
  record?: VersionRecord;

  constructor(
    readonly client: DeviceClient,
    private readonly label: string,
    /** The config node's id, for health events. */
    readonly configId = '',
  ) {
    this.desired = new DesiredState(() => this.healthModule);
  }

  /** This module as health events name it. */
  get healthModule(): HealthModule {
    return { config: this.configId, service: this.client.service, slot: this.client.slot, device: this.client.location };
  }

  /**
   * An answer proved the module lost its settings (an output refused for a missing power
   * configuration): they are applied again. Returns whether they are (the refused msg says so).
   */
  settingsLost(cause: string): boolean {
    if (this.closed || !this.desired.size) return false;
    void this.desired.restore(cause);
    return true;
  }

  get state(): ConnectionState {
    return this.current;
  }

  start(): void {
    void this.probe();
  }

  register(user: ConnectionUser): void {
    this.users.add(user);
    user.onConnectionState(this.current);
  }

  deregister(user: ConnectionUser): void {
    this.users.delete(user);
  }

  /** Called by the client after every request: reachable or not. */
  reachability(error?: DeviceError): void {
    if (this.closed) return;
    if (!error) {
      if (this.current.state === 'unreachable' || this.current.state === 'down') void this.probe();
      return;
    }
    if (isRefused(error)) {
      // A probe on its way judges its own answers (it may be the one asking).
      if (this.probing) return;
      this.proven = false;
      if (this.current.state !== 'refused') this.set({ state: 'refused', reason: statusText(error) });
      this.scheduleRetry();
      return;
    }
    if (isGone(error)) {
      const gone = goneState(error);
      if (this.current.state !== gone.state) this.set(gone);
      this.scheduleRetry();
    }
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.retryTimer);
    clearTimeout(this.healthTimer);
    this.retryTimer = undefined;
    this.healthTimer = undefined;
    this.users.clear();
    this.desired.close();
  }

  private set(state: ConnectionState): void {
    this.current = state;
    for (const user of this.users) user.onConnectionState(state);
  }

  private scheduleRetry(): void {
    if (this.closed || this.retryTimer || this.probing) return;
    const delay = this.retryDelay;
    this.retryDelay = Math.min(BACKOFF.maxMs, this.retryDelay * 2);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.probe();
    }, delay);
  }

  /** Reads the version record and judges it; never throws. */
  private async probe(): Promise<void> {
    if (this.closed || this.probing) return;
    this.probing = true;
    let next: ConnectionState;
    /** Why the module's settings are gone, when the record shows it (API 1.0 sessions). */
    let resetCause: string | undefined;
    /** Whether that reset may have left the pins as they were (lib/driven-pins.ts). */
    let pinsKept = false;
    try {
      const { apiVersion, record } = await this.client.readVersionRecord();
      this.record = record;
      const api = record.version.api;
      const spoken = `${api.major}.${api.minor}`;
      const missing = slotProblem(record, this.client.service, this.client.slot);
      if (!SUPPORTED_API.has(spoken) || spoken !== apiVersion) {
        next = {
          state: 'incompatible',
          reason: `the device reports API ${apiText(record)}, this package supports ${[...SUPPORTED_API].join(', ')}`,
        };
      } else if (missing) {
        next = { state: 'incompatible', reason: missing };
      } else {
        const session = typeof record.driver_session === 'string' ? record.driver_session : undefined;
        const restarted = session !== undefined && this.session !== undefined && session !== this.session;
        if (session !== undefined) this.session = session;
        const deviceSession = record.devices.find((d) => d.slot_number === this.client.slot)?.device_session;
        const reset = !restarted && deviceSession !== undefined && this.deviceSession !== undefined && deviceSession !== this.deviceSession;
        if (deviceSession !== undefined) this.deviceSession = deviceSession;
        next = {
          state: 'connected',
          apiVersion,
          ...(session !== undefined ? { session } : {}),
          ...(deviceSession !== undefined ? { deviceSession } : {}),
          ...(restarted || reset ? { restarted: true } : {}),
        };
        resetCause = restarted ? 'driver_session changed (the service restarted)' : reset ? 'device_session changed (the module was reset)' : undefined;
        pinsKept = restarted || (reset && this.desired.driven.reenumerated());
        if (!this.proven) await this.proveCredentials();
      }
    } catch (error) {
      const reason = error instanceof DeviceError ? statusText(error) : String(error);
      // A 400 or 404 to the version root is an answer, not an outage: the released
      // services say "Version not compatible" to a version they do not speak.
      next = isRefused(error) ? { state: 'refused', reason } : isGone(error) ? goneState(error) : { state: 'incompatible', reason };
      this.proven = false;
    } finally {
      this.probing = false;
    }
    if (this.closed) return;
    // A health check that finds everything as it was tells no one.
    const was = this.current.state;
    const same = next.state === 'connected' && was === 'connected' && !next.restarted && next.apiVersion === this.current.apiVersion;
    if (!same) this.set(next);
    // Settings go back on the module on connect, after an outage, and after a reset the
    // sessions show; on API 0.9 (no sessions) a health check reads back what it can.
    if (next.state === 'connected') {
      if (resetCause) void this.desired.restore(resetCause, true, !pinsKept);
      else if (was !== 'connected') void this.desired.restore(was === 'connecting' ? 'connected' : 'reconnected after an outage', false);
      else if (next.apiVersion === '0.9') void this.desired.check();
    }
    if (next.state === 'connected') {
      this.retryDelay = BACKOFF.firstMs;
      clearTimeout(this.healthTimer);
      this.healthTimer = setTimeout(() => void this.probe(), HEALTH_INTERVAL_MS);
    } else {
      // Incompatible devices get updated too; keep looking, at the capped pace.
      this.scheduleRetry();
    }
  }

  /**
   * One authenticated read. Any answer but 401/403 proves the credentials: nginx refuses
   * them before the service is asked, so even a service's own error passed the check.
   */
  private async proveCredentials(): Promise<void> {
    try {
      await this.client.readDescriptor();
    } catch (error) {
      if (isRefused(error) || isGone(error)) throw error;
    }
    this.proven = true;
  }

  toString(): string {
    return this.label;
  }
}
