/**
 * How an exchange failed (transport.ts), said as facts the verdict (verdict.ts) and the TLS
 * reading (tls-failure.ts) turn into a DeviceError: which step failed, Node's code, and for
 * HTTPS what the handshake showed of the device's certificate.
 */
import type { TLSSocket } from 'tls';

export type TransportFailure =
  /** Nothing came back within the time (not even the status line). */
  | 'timeout'
  /** The status line came, the rest of the answer not within the time. */
  | 'incomplete'
  /** The body is larger than the cap. */
  | 'too-large'
  /** The connection closed in the middle of the answer. */
  | 'cut-off'
  /** What came back is not HTTP (a broken status line or headers). */
  | 'malformed'
  /** Connecting or sending failed: refused, reset, host not found, TLS; `code` is Node's. */
  | 'network';

/** The device's certificate as its handshake showed it (not verified: for a message only). */
export interface PeerCertificate {
  subject?: string;
  issuer?: string;
  validFrom?: string;
  validTo?: string;
  /** subjectAltName as Node gives it: `DNS:a, IP Address:10.0.0.1`. */
  altNames?: string;
}

/** What a failed HTTPS exchange knew of TLS: enough to tell the user which certificate problem it was. */
export interface TlsFacts {
  /** The name the certificate was checked against: the TLS configuration's server name, else the URL's host. */
  name: string;
  /** A client certificate was offered (the TLS configuration has one). */
  clientCert: boolean;
  /** A handshake of this exchange reached the device's certificate (set even when verifying it failed). */
  peer?: PeerCertificate;
  /** Node's own words for the failure (a TLS 1.2 alert has no code of its own, only its name here). */
  said?: string;
}

/** Node's words are ours, but OpenSSL's carry file names and line numbers: enough of them for a reason. */
const SAID_CHARS = 200;

export class TransportError extends Error {
  constructor(
    readonly failure: TransportFailure,
    /** Node's error code for 'network' (ECONNREFUSED, ...). */
    readonly code?: string,
    /** The HTTP status when the status line had arrived. */
    readonly status?: number,
    /** Body bytes received (or announced by Content-Length, for 'too-large'). */
    readonly bytes = 0,
    /** For 'network' over HTTPS: what the handshake showed. */
    readonly tls?: TlsFacts,
  ) {
    super(failure);
    this.name = 'TransportError';
  }
}

/** Node's HTTP parser errors (HPE_*) mean the peer does not speak HTTP properly. */
export function fromNode(error: unknown, tls?: TlsFacts): TransportError {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && code.startsWith('HPE_')) return new TransportError('malformed', code);
  const said = String((error as Error)?.message ?? '').slice(0, SAID_CHARS);
  return new TransportError('network', typeof code === 'string' ? code : undefined, undefined, 0, tls && { ...tls, said });
}

export function peerOf(socket: TLSSocket): PeerCertificate | undefined {
  const cert = socket.getPeerCertificate();
  if (!cert || !Object.keys(cert).length) return undefined;
  const cn = (name: { CN?: string | string[] } | undefined) => [name?.CN ?? []].flat()[0];
  return { subject: cn(cert.subject), issuer: cn(cert.issuer), validFrom: cert.valid_from, validTo: cert.valid_to, altNames: cert.subjectaltname };
}
