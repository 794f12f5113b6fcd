/**
 * TLS as a plant meets it, made by the test (selfsigned, EC P-256: nothing to install): a
 * private CA with an intermediate, a second CA nobody trusts, and server certificates that
 * are fine, expired, not yet valid, for other names or self-signed; client certificates of
 * the trusted CA and of the other one. And HTTPS servers of the test's own in front of a
 * plain-HTTP simulator: one that refuses at the TLS level (Node's requestCert and
 * rejectUnauthorized: a TLS alert, or a hang-up after the handshake), and one that answers
 * as nginx does with `ssl_verify_client on` (its 400 pages). Only loopback; bounded logs.
 */
import { X509Certificate } from 'crypto';
import http from 'http';
import https from 'https';
import type { TLSSocket } from 'tls';
import type { FlowNode } from './node-red';

type Generated = { private: string; cert: string };

export interface PkiSet {
  ca: Generated;
  otherCa: Generated;
  intermediate: Generated;
  /** Server certificates for localhost and 127.0.0.1 unless said otherwise. */
  leaf: Generated;
  /** Issued by the intermediate (send it with `chain`). */
  leafOfIntermediate: Generated;
  expired: Generated;
  notYetValid: Generated;
  /** For device.example and plc.example only. */
  otherNames: Generated;
  selfSigned: Generated;
  client: Generated;
  clientOfOtherCa: Generated;
}

const DAY = 86400000;
const LOCAL = {
  name: 'subjectAltName' as const,
  altNames: [
    { type: 2 as const, value: 'localhost' },
    { type: 7 as const, ip: '127.0.0.1' },
  ],
};
const CA_EXTENSIONS = [
  { name: 'basicConstraints' as const, cA: true, critical: true },
  { name: 'keyUsage' as const, keyCertSign: true, cRLSign: true, digitalSignature: true },
];

/** Every certificate the TLS tests use (about 0.2 s). */
export async function makePki(): Promise<PkiSet> {
  const { generate } = require('selfsigned') as typeof import('selfsigned');
  const make = (cn: string, options: Record<string, unknown>): Promise<Generated> =>
    generate([{ name: 'commonName', value: cn }], { keyType: 'ec', algorithm: 'sha256', ...options }) as Promise<Generated>;
  const leafExt = (names = LOCAL, client = false) => [
    { name: 'basicConstraints' as const, cA: false },
    { name: 'keyUsage' as const, digitalSignature: true, keyEncipherment: true },
    { name: 'extKeyUsage' as const, serverAuth: !client, clientAuth: client },
    names,
  ];
  const by = (issuer: Generated) => ({ ca: { key: issuer.private, cert: issuer.cert } });
  const ca = await make('Plant CA', { extensions: CA_EXTENSIONS });
  const otherCa = await make('Other CA', { extensions: CA_EXTENSIONS });
  const intermediate = await make('Plant intermediate', { extensions: CA_EXTENSIONS, ...by(ca) });
  const now = Date.now();
  return {
    ca,
    otherCa,
    intermediate,
    leaf: await make('localhost', { extensions: leafExt(), ...by(ca) }),
    leafOfIntermediate: await make('localhost', { extensions: leafExt(), ...by(intermediate) }),
    expired: await make('localhost', { extensions: leafExt(), ...by(ca), notBeforeDate: new Date(now - 30 * DAY), notAfterDate: new Date(now - 2 * DAY) }),
    notYetValid: await make('localhost', { extensions: leafExt(), ...by(ca), notBeforeDate: new Date(now + 2 * DAY), notAfterDate: new Date(now + 30 * DAY) }),
    otherNames: await make('device.example', {
      extensions: leafExt({
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'device.example' },
          { type: 2, value: 'plc.example' },
        ],
      } as unknown as typeof LOCAL),
      ...by(ca),
    }),
    selfSigned: await make('localhost', { extensions: leafExt() }),
    client: await make('node-red', { extensions: leafExt(LOCAL, true), ...by(ca) }),
    clientOfOtherCa: await make('node-red', { extensions: leafExt(LOCAL, true), ...by(otherCa) }),
  };
}

/** A certificate followed by its issuers, as a server sends its chain. */
export function chain(...certs: string[]): string {
  return certs.map((c) => c.trim()).join('\n') + '\n';
}

/** OpenSSL's date of a certificate (valid_to or valid_from) as the package says it: `2026-11-24 05:21 UTC`. */
export function certDate(cert: string, which: 'validTo' | 'validFrom'): string {
  const text = new X509Certificate(cert)[which];
  return `${new Date(Date.parse(text)).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export interface TlsFront {
  url: string;
  /** Paths that got through to the simulator (at most 1000). */
  readonly forwarded: string[];
  /** Paths nginx-like answered with its 400 page. */
  readonly refused: string[];
  /** New key and certificate for the handshakes from now on (a certificate renewed on the device). */
  renew(tls: https.ServerOptions): void;
  close(): Promise<void>;
}

/** nginx's own 400 page, as `ssl_verify_client on` answers it. */
export function nginxPage(words: string): string {
  return `<html>\r\n<head><title>400 ${words}</title></head>\r\n<body>\r\n<center><h1>400 Bad Request</h1></center>\r\n<center>${words}</center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
}

const LOG_MAX = 1000;

/**
 * An HTTPS server on 127.0.0.1 in front of the simulator at `target` (plain HTTP). `tls`:
 * its key, certificate chain and, for client certificates, `ca` with `requestCert`;
 * `nginx`: answer a missing or untrusted client certificate with nginx's 400 pages instead
 * of refusing the handshake.
 */
export async function startTlsFront(target: string, tls: https.ServerOptions, nginx = false): Promise<TlsFront> {
  const upstream = new URL(target);
  const forwarded: string[] = [];
  const refused: string[] = [];
  const log = (list: string[], path: string) => list.length < LOG_MAX && list.push(path);
  const server = https.createServer({ ...tls, ...(nginx ? { requestCert: true, rejectUnauthorized: false } : {}) }, (req, res) => {
    const socket = req.socket as TLSSocket;
    // A resumed TLS session without a client certificate counts as authorized in Node (no
    // certificate, nothing failed to verify): nginx asks for the certificate itself.
    const none = !Object.keys(socket.getPeerCertificate() ?? {}).length;
    if (nginx && (none || !socket.authorized)) {
      log(refused, req.url ?? '');
      res.writeHead(400, { 'Content-Type': 'text/html', Connection: 'close' });
      res.end(nginxPage(none ? 'No required SSL certificate was sent' : 'The SSL certificate error'));
      return;
    }
    log(forwarded, req.url ?? '');
    const up = http.request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers, agent: false },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  // A refused handshake is the point of these servers, not a problem of theirs.
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `https://127.0.0.1:${port}`,
    forwarded,
    refused,
    renew: (next) => server.setSecureContext({ ...tls, ...next }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A tls-config node as the editor saves it; its PEM texts go in as credentials (tlsCredentials). */
export function tlsConfigNode(id = 'tls', servername = ''): FlowNode {
  return {
    id,
    type: 'tls-config',
    name: '',
    cert: '',
    key: '',
    ca: '',
    certname: '',
    keyname: '',
    caname: '',
    servername,
    verifyservercert: true,
    alpnprotocol: '',
  };
}

/** The credentials of a tls-config node: CA, and a client certificate with its key. */
export function tlsCredentials(ca?: string, client?: Generated): Record<string, string> {
  return { ...(ca ? { cadata: ca } : {}), ...(client ? { certdata: client.cert, keydata: client.private } : {}) };
}
