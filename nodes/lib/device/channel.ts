/**
 * Where a client's exchanges go and what they share (transport.ts sends them): the device's
 * origin, its agent and TLS options, worked out once per client, and one request as it goes
 * on the wire.
 */
import type http from 'http';
import type https from 'https';

/**
 * Where exchanges go: the device's origin and the agent whose sockets they share, worked
 * out once per client (`targetOf`), not once per request.
 */
export interface Target {
  secure: boolean;
  /** URL keeps IPv6 hosts in brackets; http.request wants them bare. */
  hostname: string;
  port?: string;
  agent: http.Agent;
  /** The agent's TLS options: what a fresh connection borrows (HTTPS only). */
  tls?: https.RequestOptions;
  /** The name the certificate is checked against, and whether a client certificate is offered (HTTPS only). */
  tlsName?: string;
  clientCert?: boolean;
}

export function targetOf(base: URL, agent: http.Agent): Target {
  const secure = base.protocol === 'https:';
  const hostname = base.hostname.replace(/^\[|\]$/g, '');
  const port = base.port || undefined;
  if (!secure) return { secure, hostname, port, agent };
  const { ca, cert, key, passphrase, pfx, servername, rejectUnauthorized } = tlsOptionsOf(agent);
  return {
    secure,
    hostname,
    port,
    agent,
    tls: { ca, cert, key, passphrase, servername, rejectUnauthorized },
    tlsName: servername || hostname,
    clientCert: !!(cert || pfx),
  };
}

/**
 * What every exchange of one client shares, made once per client: where exchanges go, their
 * headers, the answer's cap. A request then adds only its own object (method, path, body).
 */
export interface Channel {
  target: Target;
  headers: Readonly<Record<string, string>>;
  /** The most bytes the answer's body may have. */
  maxBytes: number;
}

/** One request as it goes on the wire. */
export interface Outgoing {
  method: string;
  path: string;
  body?: unknown;
}

/** The agent's TLS options: what a fresh connection borrows, and what a failure is judged against. */
function tlsOptionsOf(agent: http.Agent): https.RequestOptions {
  return (agent as unknown as { options?: https.RequestOptions }).options ?? {};
}
