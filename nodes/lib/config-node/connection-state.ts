/**
 * The state of one module as its config node knows it (connection.ts), told to every user
 * (action nodes, health) at each change; `restarted` and `moduleReset` are news told once.
 */
import type { ApiVersion } from '../pure/limits';
import type { Same } from '../pure/same-type';

/**
 * Every state a module can be in, the type's own list: whoever shows one series or row per
 * state (the Prometheus gauge, nodes/fleet/metrics.ts) reads it here, so none is missed.
 * The type below is checked against it both ways (EVERY_STATE_LISTED).
 */
export const CONNECTION_STATES = ['connecting', 'connected', 'unreachable', 'down', 'refused', 'tls', 'incompatible', 'invalid'] as const;

export type ConnectionStateName = (typeof CONNECTION_STATES)[number];

export type ConnectionState =
  | { state: 'connecting' }
  | {
      state: 'connected';
      apiVersion: ApiVersion;
      /** API 1.0's driver_session: changes whenever the device's REST service restarts (real §4). */
      session?: string;
      /** Told once: a new driver_session, the service restarted (its notification cache is gone, the module is not). */
      restarted?: boolean;
      /** API 1.0's device_session of this module: changes whenever the driver re-reads the module's descriptor. */
      deviceSession?: string;
      /** Told once: the module was reset or re-plugged (not re-read after the package's own write): settings and notifications gone. */
      moduleReset?: boolean;
    }
  | { state: 'unreachable'; reason: string }
  /** The device answered, but its service is not there (nginx's 502/503/504). */
  | { state: 'down'; reason: string }
  /** The device (its nginx) refused the config node's credentials. */
  | { state: 'refused'; reason: string }
  /** TLS stood between us and the device (certificate, client certificate): `reason` is the short words. */
  | { state: 'tls'; reason: string }
  | { state: 'incompatible'; reason: string }
  | { state: 'invalid'; reason: string };

/** Fails to compile when ConnectionState gains a state CONNECTION_STATES lacks, or the list one the type lacks. */
const EVERY_STATE_LISTED: Same<ConnectionState['state'], ConnectionStateName> = true;
void EVERY_STATE_LISTED;

export interface ConnectionUser {
  onConnectionState(state: ConnectionState): void;
}
