import 'should';
import { Aliases } from '../../nodes/fleet/sparkplug/aliases';
import { NODE_METRICS } from '../../nodes/fleet/sparkplug/births';
import { metricsOf } from '../../nodes/fleet/sparkplug/catalogue';
import { SERVICES } from '../../nodes/lib/pure/limits';

describe('Sparkplug aliases (nodes/fleet/sparkplug/aliases.ts)', function () {
  const nodeMetrics = Object.values(NODE_METRICS);

  it('gives the edge node its own metrics 1, 2, ... in NODE_METRICS order', function () {
    const aliases = new Aliases(nodeMetrics);
    nodeMetrics.map((name) => aliases.of('', name)).should.eql(nodeMetrics.map((_, i) => i + 1));
  });

  it('computes a module metric as service × 2^24 + slot × 2^8 + catalogue index, the same in every session', function () {
    const first = new Aliases(nodeMetrics);
    const io = metricsOf('io');
    first.of('io-2', io[5].name).should.equal(1 * 2 ** 24 + 2 * 256 + 5);
    first.of('power-65535', metricsOf('power')[0].name).should.equal(3 * 2 ** 24 + 65535 * 256);
    // A new session (a redeploy, a restart) declares the same alias, in any order of first use.
    const second = new Aliases(nodeMetrics);
    second.of('bmc-0', metricsOf('bmc')[3].name);
    second.of('io-2', io[5].name).should.equal(first.of('io-2', io[5].name));
    (second.named(1 * 2 ** 24 + 2 * 256 + 5) ?? {}).should.eql({ device: 'io-2', name: io[5].name });
  });

  it('keeps every alias unique across kinds, slots, the node and a gateway’s devices', function () {
    const aliases = new Aliases(nodeMetrics);
    const seen = new Map<number, string>();
    const add = (device: string, name: string) => {
      const alias = aliases.of(device, name);
      const key = `${device} ${name}`;
      (seen.get(alias) ?? key).should.equal(key, `alias ${alias}`);
      seen.set(alias, key);
    };
    for (const name of nodeMetrics) add('', name);
    for (const device of ['', 'cell-7.', 'line.3.'])
      for (const service of SERVICES)
        for (const slot of [0, 1, 255, 256, 65535]) for (const def of metricsOf(service)) add(`${device}${service}-${slot}`, def.name);
    for (const service of SERVICES) metricsOf(service).length.should.be.below(256, `${service} declares under 256 metrics`);
  });

  it('numbers a gateway’s other devices in the order first seen, after the own device', function () {
    const aliases = new Aliases(nodeMetrics);
    const name = metricsOf('io')[0].name;
    aliases.of('b.io-1', name).should.equal(1 * 2 ** 32 + 2 ** 24 + 256);
    aliases.of('a.io-1', name).should.equal(2 * 2 ** 32 + 2 ** 24 + 256);
    aliases.of('b.io-1', name).should.equal(1 * 2 ** 32 + 2 ** 24 + 256);
  });

  it('has no alias for an undeclared metric or a device id not of ours', function () {
    const aliases = new Aliases(nodeMetrics);
    (() => aliases.of('io-2', 'Pin 9/Nothing')).should.throw(/undeclared metric/);
    (() => aliases.of('', 'Nothing')).should.throw(/undeclared metric/);
    (() => aliases.of('modbus-2', 'x')).should.throw(/not a device id/);
  });
});
