/**
 * Which TLS problem a failure is (nodes/lib/device/tls-failure.ts), for what the TLS servers of
 * test/reliability/tls.test.ts cannot make Node produce: TLS 1.2 alerts that come only by
 * name in Node's message (a Node server never sends "bad certificate" or "unknown CA"), and
 * the nginx statuses behind an error_page. And what is not TLS stays what it was.
 */
import should from 'should';
import { TransportError } from '../../nodes/lib/device/transport-error';
import { tlsFailure, tlsPage } from '../../nodes/lib/device/tls-failure';

const AT = { method: 'GET', path: '/api/io/1.0', host: '127.0.0.1:8443' };
/** A failed connection as the transport reports it: Node's code and words, what the handshake showed. */
const failed = (code: string, said = '', clientCert = false, peer = false) =>
  new TransportError('network', code, undefined, 0, { name: '127.0.0.1', clientCert, said, ...(peer ? { peer: { issuer: 'Plant CA' } } : {}) });
const problem = (error: TransportError) => tlsFailure(error, AT)?.cause.tls;

describe('tls-failure: which TLS problem it was', () => {
  it('TLS 1.2 alerts by OpenSSL name in an EPROTO: certificate required, refused; a plain handshake failure stays generic', () => {
    should(problem(failed('EPROTO', 'write EPROTO ...:SSL routines:ssl3_read_bytes:sslv3 alert bad certificate:...'))).equal('clientCertRefused');
    should(problem(failed('EPROTO', '...:tlsv1 alert unknown ca:...'))).equal('clientCertRefused');
    should(problem(failed('EPROTO', '...:tlsv13 alert certificate required:...'))).equal('clientCertRequired');
    should(problem(failed('EPROTO', '...:ssl/tls alert handshake failure:...'))).equal('handshake');
    should(problem(failed('EPROTO', '...:wrong version number:...'))).equal('notTls');
  });

  it('a hang-up after the handshake is a refused client certificate only when one was offered', () => {
    should(problem(failed('ECONNRESET', 'socket hang up', true, true))).equal('clientCertClosed');
    should(problem(failed('ECONNRESET', 'Client network socket disconnected before secure TLS connection was established', true))).equal('clientCertClosed');
    should(tlsFailure(failed('ECONNRESET', 'socket hang up', false, true), AT)).be.undefined();
    should(tlsFailure(failed('ECONNREFUSED', 'connect ECONNREFUSED'), AT)).be.undefined();
    should(tlsFailure(new TransportError('timeout'), AT)).be.undefined();
  });

  it('the error: code TLS, never sent, the sentence for Catch and the short words for the status', () => {
    const error = tlsFailure(failed('UNABLE_TO_GET_ISSUER_CERT_LOCALLY', '', false, true), AT)!;
    error.code.should.equal('TLS');
    error.neverSent.should.be.true();
    error.message.should.startWith('GET /api/io/1.0: TLS: ');
    error.message.should.endWith('(127.0.0.1:8443)');
    should(error.brief).be.a.String();
  });

  it("nginx's pages and statuses: client certificate missing or refused, plain HTTP to its HTTPS port; other 400s are not TLS", () => {
    should(tlsPage(400, 'No required SSL certificate was sent')).equal('clientCertRequired');
    should(tlsPage(400, 'The SSL certificate error')).equal('clientCertRefused');
    should(tlsPage(400, 'The plain HTTP request was sent to HTTPS port')).equal('plainHttp');
    should(tlsPage(496, 'anything')).equal('clientCertRequired');
    should(tlsPage(495, 'anything')).equal('clientCertRefused');
    should(tlsPage(497, 'anything')).equal('plainHttp');
    should(tlsPage(400, 'Version not compatible')).be.undefined();
    should(tlsPage(404, 'No required SSL certificate was sent')).be.undefined();
  });
});
