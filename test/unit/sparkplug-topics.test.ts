/**
 * Sparkplug B topics (nodes/fleet/sparkplug/topics.ts): the edge node's and its devices'
 * topics, the primary host's STATE, and which incoming topics are ours (bounded).
 */
import 'should';
import { deviceId, isSpId, SpTopics } from '../../nodes/fleet/sparkplug/topics';
import { FLEET_BOUNDS, SPARKPLUG_BOUNDS } from '../../nodes/lib/pure/limits';

describe('Sparkplug B topics (nodes/fleet/sparkplug/topics.ts)', function () {
  const topics = new SpTopics({ group: 'plant', edgeNode: 'cell-01', primaryHost: 'scada' });

  it('names spBv1.0/<group>/<type>/<edge node>[/<device>] and the host STATE', function () {
    topics.node('NBIRTH').should.equal('spBv1.0/plant/NBIRTH/cell-01');
    topics.node('NDEATH').should.equal('spBv1.0/plant/NDEATH/cell-01');
    topics.device('DDATA', 'io-2').should.equal('spBv1.0/plant/DDATA/cell-01/io-2');
    topics.state!.should.equal('spBv1.0/STATE/scada');
    topics.subscriptions().should.eql(['spBv1.0/plant/NCMD/cell-01', 'spBv1.0/plant/DCMD/cell-01/+', 'spBv1.0/STATE/scada']);
    const noHost = new SpTopics({ group: 'plant', edgeNode: 'cell-01', primaryHost: '' });
    (noHost.state === undefined).should.be.true();
    noHost.subscriptions().should.eql(['spBv1.0/plant/NCMD/cell-01', 'spBv1.0/plant/DCMD/cell-01/+']);
  });

  it('names a module <service>-<slot> on its own device, <device>.<service>-<slot> on another', function () {
    deviceId({ device: 'cell-01', service: 'io', slot: 2 }, 'cell-01').should.equal('io-2');
    deviceId({ device: 'cell-07', service: 'power', slot: 0 }, 'cell-01').should.equal('cell-07.power-0');
  });

  it('reads its NCMD, its devices DCMD and the host STATE; nothing else', function () {
    topics.parse('spBv1.0/plant/NCMD/cell-01')!.should.eql({ kind: 'NCMD' });
    topics.parse('spBv1.0/plant/DCMD/cell-01/io-2')!.should.eql({ kind: 'DCMD', device: 'io-2' });
    topics.parse('spBv1.0/plant/DCMD/cell-01/cell-07.power-0')!.should.eql({ kind: 'DCMD', device: 'cell-07.power-0' });
    topics.parse('spBv1.0/STATE/scada')!.should.eql({ kind: 'STATE' });
    for (const other of [
      'spBv1.0/plant/NCMD/cell-02',
      'spBv1.0/plant/DCMD/cell-02/io-2',
      'spBv1.0/other/DCMD/cell-01/io-2',
      'spBv1.0/plant/DCMD/cell-01/',
      'spBv1.0/plant/DCMD/cell-01/io-2/x',
      'spBv1.0/STATE/other',
      'spBv1.0/plant/DDATA/cell-01/io-2',
      `spBv1.0/plant/DCMD/cell-01/${'x'.repeat(2 * FLEET_BOUNDS.levelChars + 2)}`,
      '',
    ])
      (topics.parse(other) === undefined).should.be.true(other);
    topics.parse(`spBv1.0/plant/DCMD/cell-01/${'x'.repeat(2 * FLEET_BOUNDS.levelChars + 1)}`)!.should.have.property('kind', 'DCMD');
  });

  it('takes an id of one topic level, at most idChars', function () {
    isSpId('cell-01').should.be.true();
    isSpId('x'.repeat(SPARKPLUG_BOUNDS.idChars)).should.be.true();
    for (const bad of ['', 'a/b', '+', '#', 'a b', 'x'.repeat(SPARKPLUG_BOUNDS.idChars + 1), 5]) isSpId(bad).should.be.false(String(bad));
  });
});
