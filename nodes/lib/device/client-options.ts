/**
 * How a DeviceClient is set up: the config node's settings, credentials and TLS. What the
 * client tells its config node goes through its listeners (client-events.ts).
 */
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
