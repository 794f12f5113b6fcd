/** How a DeviceClient is set up: the config node's settings, credentials and TLS. */
import type { DeviceError } from '../base/errors';
import type { ExchangeInfo } from './exchange-info';
import type { ApiVersion, Service } from '../pure/limits';

export interface Credentials {
  username?: string;
  password?: string;
  token?: string;
}

/** TLS options as the core tls-config node's addTLSOptions fills them in. */
export interface TlsOptions {
  ca?: string | Buffer;
  cert?: string | Buffer;
  key?: string | Buffer;
  passphrase?: string;
  servername?: string;
  rejectUnauthorized?: boolean;
}

export interface ClientOptions {
  /** Base URL of the device, e.g. http://127.0.0.1:8080 (a path prefix is kept). */
  url: string;
  service: Service;
  slot: number;
  /** 'auto' detects the version from the version record. */
  apiVersion: 'auto' | ApiVersion;
  /** ms per request, from leaving the queue to the last byte of the answer. */
  timeout?: number;
  /** How many requests may wait in the queue. */
  queueLimit?: number;
  /** The most one answer may carry, KiB (limits.ts answer_limit). */
  answerLimitKiB?: number;
  auth?: 'none' | 'basic' | 'bearer';
  credentials?: Credentials;
  tls?: TlsOptions;
  /** Told after each request whether the device was reachable (for connection state). */
  onReachability?: (error?: DeviceError) => void;
  /**
   * An answer proved the module lost its settings (`cause`: the device's words). True when
   * they are being applied again (then the refused msg's error says so).
   */
  onSettingsLost?: (cause: string) => boolean;
  /**
   * A write that makes the driver re-read the module (API 1.0: power-management and reset,
   * real §3.1, §3.2, §4) goes on the wire ('sent') and has ended ('ended'), however: the
   * connection adopts the device_session that follows (config-node/sessions.ts).
   */
  onRenewing?: (step: 'sent' | 'ended') => void;
  /** Told after each HTTP exchange, for health and metrics (the config node); must not throw. */
  onExchange?: (info: ExchangeInfo) => void;
}

/** The headers of every request: JSON, and the credentials the auth setting asks for. */
export function requestHeaders(options: ClientOptions): Readonly<Record<string, string>> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const creds = options.credentials ?? {};
  if (options.auth === 'basic' && (creds.username || creds.password)) {
    headers.Authorization = `Basic ${Buffer.from(`${creds.username ?? ''}:${creds.password ?? ''}`).toString('base64')}`;
  } else if (options.auth === 'bearer' && creds.token) {
    headers.Authorization = `Bearer ${creds.token}`;
  }
  return headers;
}
