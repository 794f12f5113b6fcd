/**
 * TLS failures said plainly: which certificate problem it was, and what to do about it.
 *
 * Node reports a refused handshake as a code (CERT_HAS_EXPIRED, ...), a TLS 1.2 alert of the
 * device only by name in its message (EPROTO "... alert bad certificate"), and nginx answers
 * a missing or refused client certificate with its own 400 pages. Each becomes a DeviceError
 * of code TLS with a sentence for Catch (the certificate's dates and names included: read by
 * the transport during the handshake) and a short one for the status dot. Nothing of it is a
 * reason to think the device speaks another API version: it never reached the service.
 */
import { printable } from './answer';
import { DeviceError } from '../base/errors';
import { t } from '../base/i18n';
import type { PeerCertificate, TlsFacts, TransportError } from './transport-error';

export type TlsProblem =
  | 'untrusted'
  | 'selfSigned'
  | 'expired'
  | 'notYetValid'
  | 'hostName'
  | 'clientCertRequired'
  | 'clientCertRefused'
  /** The device hung up right after the handshake that offered a client certificate. */
  | 'clientCertClosed'
  /** https:// to a port that does not speak TLS. */
  | 'notTls'
  /** http:// to a port that speaks only HTTPS (nginx says so). */
  | 'plainHttp'
  | 'handshake';

/** Node's codes (OpenSSL's verify errors, Node's own, the TLS 1.3 alerts). */
const BY_CODE: Readonly<Record<string, TlsProblem>> = {
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'untrusted',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'untrusted',
  UNABLE_TO_GET_ISSUER_CERT: 'untrusted',
  SELF_SIGNED_CERT_IN_CHAIN: 'untrusted',
  CERT_UNTRUSTED: 'untrusted',
  CERT_SIGNATURE_FAILURE: 'untrusted',
  CERT_REJECTED: 'untrusted',
  INVALID_CA: 'untrusted',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'selfSigned',
  CERT_HAS_EXPIRED: 'expired',
  CERT_NOT_YET_VALID: 'notYetValid',
  ERR_TLS_CERT_ALTNAME_INVALID: 'hostName',
  ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED: 'clientCertRequired',
  ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE: 'clientCertRefused',
  ERR_SSL_TLSV1_ALERT_UNKNOWN_CA: 'clientCertRefused',
  ERR_SSL_SSLV3_ALERT_CERTIFICATE_UNKNOWN: 'clientCertRefused',
  ERR_SSL_SSLV3_ALERT_CERTIFICATE_EXPIRED: 'clientCertRefused',
  ERR_SSL_SSLV3_ALERT_CERTIFICATE_REVOKED: 'clientCertRefused',
  ERR_SSL_SSLV3_ALERT_UNSUPPORTED_CERTIFICATE: 'clientCertRefused',
  ERR_SSL_WRONG_VERSION_NUMBER: 'notTls',
  ERR_SSL_PACKET_LENGTH_TOO_LONG: 'notTls',
};

/** The same alerts by OpenSSL's name, for EPROTO (TLS 1.2 gives them no code of their own). */
const BY_ALERT: ReadonlyArray<[string, TlsProblem]> = [
  ['alert certificate required', 'clientCertRequired'],
  ['alert bad certificate', 'clientCertRefused'],
  ['alert unknown ca', 'clientCertRefused'],
  ['alert certificate unknown', 'clientCertRefused'],
  ['alert certificate expired', 'clientCertRefused'],
  ['alert certificate revoked', 'clientCertRefused'],
  ['alert unsupported certificate', 'clientCertRefused'],
  ['wrong version number', 'notTls'],
  ['packet length too long', 'notTls'],
];

/**
 * nginx's pages (by their words, as its title says them) and the statuses it uses for them
 * inside (495-497; an error_page may let them through as they are).
 */
const NGINX_PAGES: Readonly<Record<string, TlsProblem>> = {
  'No required SSL certificate was sent': 'clientCertRequired',
  'The SSL certificate error': 'clientCertRefused',
  'The plain HTTP request was sent to HTTPS port': 'plainHttp',
};
const NGINX_STATUSES: Readonly<Record<number, TlsProblem>> = { 495: 'clientCertRefused', 496: 'clientCertRequired', 497: 'plainHttp' };

/** Names a message lists at most (a certificate may carry hundreds). */
const LISTED_NAMES = 6;
const NAME_CHARS = 64;

/** Which TLS problem a failed connection was, or undefined when it was not one. */
function problemOf(error: TransportError): TlsProblem | undefined {
  const code = error.code ?? '';
  const facts = error.tls;
  if (BY_CODE[code]) return BY_CODE[code];
  const said = (facts?.said ?? '').toLowerCase();
  const alert = BY_ALERT.find(([words]) => said.includes(words));
  if (alert) return alert[1];
  // A device that drops the connection during or right after the handshake that offered a
  // client certificate (a Node server does: it checks the certificate after the handshake)
  // most likely refused that certificate; without one, a reset stays a reset.
  if (code === 'ECONNRESET' && facts?.clientCert && (facts.peer || said.includes('before secure tls connection'))) return 'clientCertClosed';
  if (code === 'EPROTO' || code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_') || code.startsWith('CERT_')) return 'handshake';
  return undefined;
}

/** `2026-11-24 05:21 UTC` from OpenSSL's `Nov 24 05:21:48 2026 GMT`; the raw words if they do not parse. */
function when(text: string | undefined): string {
  const time = Date.parse(text ?? '');
  if (Number.isNaN(time)) return printable(text ?? '?', 40);
  return `${new Date(time).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** `localhost, 127.0.0.1`: the names a certificate is for (its SANs, else its subject). */
function namesOf(peer: PeerCertificate | undefined): string {
  const sans = (peer?.altNames ?? '')
    .split(',')
    .map((name) => name.trim().replace(/^(DNS|IP Address):/, ''))
    .filter(Boolean);
  const names = sans.length ? sans : peer?.subject ? [peer.subject] : [];
  if (!names.length) return '?';
  const listed = names.slice(0, LISTED_NAMES).map((name) => printable(name, NAME_CHARS));
  return names.length > LISTED_NAMES ? `${listed.join(', ')}, ... (${names.length})` : listed.join(', ');
}

interface At {
  method: string;
  path: string;
  /** host[:port] of the device. */
  host: string;
}

/** The DeviceError of a TLS problem: the sentence for Catch, the short words for the status. */
export function tlsError(problem: TlsProblem, at: At, facts: Partial<TlsFacts> = {}, answered?: { statusCode: number; deviceMessage: string }): DeviceError {
  const peer = facts.peer;
  const date = problem === 'expired' ? when(peer?.validTo) : problem === 'notYetValid' ? when(peer?.validFrom) : undefined;
  const vars = {
    issuer: printable(peer?.issuer ?? '?', NAME_CHARS),
    subject: printable(peer?.subject ?? '?', NAME_CHARS),
    names: namesOf(peer),
    name: printable(facts.name ?? at.host, NAME_CHARS),
    date: date ?? '',
    day: date?.slice(0, 10) ?? '',
    said: printable(facts.said ?? '', 120) || '?',
  };
  const detail: Record<string, unknown> = { tls: problem };
  if (problem === 'expired') detail.validTo = date;
  if (problem === 'notYetValid') detail.validFrom = date;
  if (problem === 'hostName') detail.names = vars.names;
  return new DeviceError(`${at.method} ${at.path}: TLS: ${t(`common.tls.${problem}`, vars)} (${at.host})`, {
    code: 'TLS',
    method: at.method,
    path: at.path,
    neverSent: true,
    brief: t(`common.tlsBrief.${problem}`, vars),
    words: { key: `runtime.common.tls.${problem}`, vars },
    ...answered,
    detail,
  });
}

/** A failed connection as a TLS DeviceError, or undefined when TLS was not what failed. */
export function tlsFailure(error: TransportError, at: At): DeviceError | undefined {
  const problem = error.failure === 'network' ? problemOf(error) : undefined;
  return problem && tlsError(problem, at, error.tls ?? {});
}

/** nginx's answer about TLS (a client certificate missing or refused, plain HTTP to its HTTPS port). */
export function tlsPage(status: number, words: string): TlsProblem | undefined {
  if (NGINX_STATUSES[status]) return NGINX_STATUSES[status];
  return status === 400 ? NGINX_PAGES[words] : undefined;
}
