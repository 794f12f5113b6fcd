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
import type { ClientEvents, DeviceClient } from '../device/client';
import { DeviceError, isGone, isRefused, isServiceDown, statusText } from '../base/errors';
import { t } from '../base/i18n';
import { API_VERSIONS } from '../pure/limits';
import { apiText, slotProblem, VersionRecord } from '../device/version-record';
import { DesiredSetting, DesiredState } from './desired-state';
import { ModuleSessions, Sessions } from './sessions';
import { ConnectionOptions, HEALTH_INTERVAL_MS } from './connection-options';
import type { HealthModule } from './health';
import type { ConnectionState, ConnectionUser } from './connection-state';

export type { ConnectionState, ConnectionUser } from './connection-state';
export { HEALTH_INTERVAL_MS, healthInterval } from './connection-options';
export type { ConnectionOptions } from './connection-options';

/** API versions of the version record this package speaks, as major.minor. */
const SUPPORTED_API = new Set<string>(API_VERSIONS);

export const BACKOFF = { firstMs: 1000, maxMs: 30000 } as const;
/** TLS refused the connection: its own state, retried (a certificate gets renewed, a clock set). */
function tlsState(error: unknown): Extract<ConnectionState, { state: 'tls' }> | undefined {
  return error instanceof DeviceError && error.code === 'TLS' ? { state: 'tls', reason: error.brief ?? statusText(error) } : undefined;
}

/** The state for a module that is gone: unreachable, or its service down. */
function goneState(error: unknown): ConnectionState {
  const reason = error instanceof DeviceError ? statusText(error) : String(error);
  return isServiceDown(error) ? { state: 'down', reason } : { state: 'unreachable', reason };
}

export class Connection implements Pick<ClientEvents, 'reachability' | 'settingsLost' | 'renewing'> {
  private current: ConnectionState = { state: 'connecting' };
  private readonly users = new Set<ConnectionUser>();
  private retryTimer?: NodeJS.Timeout;
  private retryDelay: number = BACKOFF.firstMs;
  private probing = false;
  private closed = false;
  private healthTimer?: NodeJS.Timeout;
  /** API 1.0's sessions and the package's own writes that renew them (sessions.ts). */
  private readonly sessions: Sessions;
  private readonly healthIntervalMs: number;
  /** The first connect applied the settings (a deploy while the device is away applies them when it is back). */
  private everConnected = false;
  /** What the package set on this module, put back whenever the module forgot it. */
  readonly desired: DesiredState;
  /**
   * The credentials were accepted since the last connect. The version root is public behind
   * the device's nginx, so reading it proves nothing: on each connect one authenticated read
   * of the module (its descriptor) does, before any node shows green.
   */
  private proven = false;
  /** What the last connect learnt, for whoever shows it (the live sidebar): the version record. */
  record?: VersionRecord;
  /**
   * This module as health events and metrics name it: made once (its parts never change), not
   * per call. Metrics find a module's counts by this object, and every poll round that raised
   * an alert or lost one asks for it.
   */
  readonly healthModule: HealthModule;

  constructor(
    readonly client: DeviceClient,
    private readonly label: string,
    /** The config node's id, for health events. */
    readonly configId = '',
    options: ConnectionOptions = {},
  ) {
    this.healthIntervalMs = options.healthIntervalMs ?? HEALTH_INTERVAL_MS;
    this.healthModule = { config: configId, service: client.service, slot: client.slot, device: client.location };
    this.desired = new DesiredState(() => this.healthModule, BACKOFF);
    this.sessions = (options.modules ?? new ModuleSessions()).open(`${client.location}|${client.service}|${client.slot}`, (phase) => {
      // Why pins are put back after the package's own power-management (real §3.2 step 5, §4).
      if (!this.closed) void this.desired.restore(t('common.cause.ownRenewal'), { noticed: false, from: phase + 1, join: true, quiet: true });
    });
    client.listen(this);
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

  /**
   * A node's own exchange found its setting gone (a keep-alive's alive refused, the watchdog
   * not enabled): API 0.9's sign, which a read-back after it was set again would miss.
   */
  settingGone(setting: DesiredSetting, proof: string): void {
    if (!this.closed && this.client.apiVersion === '0.9') this.desired.lost(setting, proof);
  }

  /**
   * Own power-management accepted (API 1.0): the driver suspended the module as its reset
   * does (real §3.1, §3.2 steps 1, 5) and re-read it. Its new device_session is adopted
   * (sessions.ts); what comes after the power configuration (pins, outputs) is put back once,
   * with no `reset` event. The notification cache lives in the service: kept.
   */
  ownRenewal(phase: number): void {
    if (!this.closed && this.client.apiVersion === '1.0') this.sessions.accepted(phase);
  }

  /** The client's news of an own write that renews the device_session (sessions.ts). */
  renewing(step: 'sent' | 'ended'): void {
    this.sessions.renewing(step);
  }

  /** The package reset the module itself (io-reset, module_reset): a real reset, told once; its new device_session is adopted. */
  ownReset(cause: string): void {
    if (this.closed) return;
    void this.desired.restore(cause);
    if (this.current.state === 'connected') this.set({ ...this.current, moduleReset: true });
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
      // Not for tls (as not for refused): nginx's TLS pages are answers too, told as reachable
      // before they are judged; the retries find a fixed certificate.
      if (this.current.state === 'unreachable' || this.current.state === 'down') void this.probe();
      return;
    }
    const tls = tlsState(error);
    if (tls) {
      if (this.probing) return;
      if (this.current.state !== 'tls' || this.current.reason !== tls.reason) this.set(tls);
      this.scheduleRetry();
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
    this.sessions.close();
  }

  private set(state: ConnectionState): void {
    // restarted and moduleReset are news, told once: the state kept says what is now.
    const kept = { ...state };
    if (kept.state === 'connected') {
      delete kept.restarted;
      delete kept.moduleReset;
    }
    this.current = kept;
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
    /** Own renewing writes answered before this read left: a new device_session can be theirs. */
    const owned = this.sessions.owned;
    try {
      const { apiVersion, record } = await this.client.readVersionRecord();
      this.record = record;
      const api = record.version.api;
      const spoken = `${api.major}.${api.minor}`;
      const missing = slotProblem(record, this.client.service, this.client.slot);
      if (!SUPPORTED_API.has(spoken) || spoken !== apiVersion) {
        next = {
          state: 'incompatible',
          reason: t('common.apiUnsupported', { api: apiText(record), supported: [...SUPPORTED_API].join(', ') }),
        };
      } else if (missing) {
        next = { state: 'incompatible', reason: missing };
      } else {
        const news = this.sessions.judge(record, this.client.slot, owned);
        resetCause = news.resetCause;
        next = {
          state: 'connected',
          apiVersion,
          ...(news.session !== undefined ? { session: news.session } : {}),
          ...(news.deviceSession !== undefined ? { deviceSession: news.deviceSession } : {}),
          ...(news.restarted ? { restarted: true } : {}),
          ...(resetCause ? { moduleReset: true } : {}),
        };
        if (!this.proven) await this.proveCredentials();
      }
    } catch (error) {
      const reason = error instanceof DeviceError ? statusText(error) : String(error);
      // A 400 or 404 to the version root is an answer, not an outage: the released
      // services say "Version not compatible" to a version they do not speak.
      next = tlsState(error) ?? (isRefused(error) ? { state: 'refused', reason } : isGone(error) ? goneState(error) : { state: 'incompatible', reason });
      this.proven = false;
    } finally {
      this.probing = false;
    }
    if (this.closed) return;
    // A health check that finds everything as it was tells no one.
    const was = this.current.state;
    const same = next.state === 'connected' && was === 'connected' && !next.restarted && !next.moduleReset && next.apiVersion === this.current.apiVersion;
    if (!same) this.set(next);
    // Settings go on the module on the first connect and back after a reset the sessions
    // show (API 1.0: a service restart alone leaves the module as it was). API 0.9 has no
    // sessions: after an outage the read-backs tell whether the module forgot before anything
    // is sent (desired-state.ts verify), and a health check reads back what it can. Settings
    // still pending (they met the outage) are tried again now.
    if (next.state === 'connected') {
      if (resetCause) void this.desired.restore(resetCause);
      else if (!this.everConnected) void this.desired.restore(t('common.cause.connected'), { noticed: false, quiet: true });
      else if (was !== 'connected' && next.apiVersion === '0.9') void this.desired.verify();
      else if (was === 'connected' && next.apiVersion === '0.9') void this.desired.check();
      this.everConnected = true;
      this.desired.nudge();
    }
    if (next.state === 'connected') {
      this.retryDelay = BACKOFF.firstMs;
      clearTimeout(this.healthTimer);
      this.healthTimer = setTimeout(() => void this.probe(), this.healthIntervalMs);
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
      if (isRefused(error) || isGone(error) || tlsState(error)) throw error;
    }
    this.proven = true;
  }

  toString(): string {
    return this.label;
  }
}
