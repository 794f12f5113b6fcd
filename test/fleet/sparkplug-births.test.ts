/**
 * Sparkplug B births, data and deaths of the modules, as a host application reads them (Eclipse
 * Tahu's sparkplug-payload decodes, not our code): one Node-RED as the edge node of a simulated
 * device (io 2, bmc 0, power 1), on the embedded broker and on Mosquitto where installed. The
 * NBIRTH and a DBIRTH per module declaring every metric of its kind (the catalogue's
 * metricsOf) with datatype, alias and unit; data by exception with aliases only; a DDEATH when
 * a module goes down and a DBIRTH when it is back; a rebirth on NCMD; `seq` on every payload,
 * wrapping past 255.
 */
import 'should';
import { metricsOf } from '../../nodes/fleet/sparkplug/catalogue';
import { DataType } from '../../nodes/fleet/sparkplug/types';
import type { Service } from '../../nodes/lib/pure/limits';
import { waitFor } from '../helpers/fleet-harness';
import { request } from '../helpers/http';
import { HostMessage, HostMetric } from '../helpers/sparkplug-host-app';
import { DEVICE_IDS, MODULES } from '../helpers/sparkplug-flow';
import { births, brokers, feed, readingTemplate, reported, sparkplugSuite, valueOf, WAIT } from '../helpers/sparkplug-suite';
import type { TestBroker } from '../helpers/fleet-harness';

const EDGE = 'cell-a';
const TYPE_NAMES = Object.fromEntries(Object.entries(DataType).map(([name, code]) => [code, name])) as Record<number, string>;

/** Whether a decoded value is of the declared type (sparkplug-payload gives 64-bit integers as numbers here, via plain()). */
function ofType(type: string, value: unknown): boolean {
  if (type === 'Boolean') return typeof value === 'boolean';
  if (type === 'String' || type === 'Text') return typeof value === 'string';
  return typeof value === 'number' && Number.isFinite(value);
}

/** The payloads that carry `seq` (all but NDEATH and STATE), of this edge node, from index `since` on. */
const sequenced = (all: HostMessage[], since: number) => all.slice(since).filter((m) => m.edge === EDGE && m.type !== 'NDEATH' && m.type !== 'STATE');

function birthCases(broker: TestBroker) {
  describe(`fleet: Sparkplug B births, data and deaths (${broker.name})`, function () {
    this.timeout(90_000);
    const world = sparkplugSuite(broker, { name: 'sp-births', edge: EDGE });
    const { host } = world;
    let first: Awaited<ReturnType<typeof births>>;
    before(async function () {
      first = await births(host);
    });
    after(function () {
      host.undecodable().should.eql([]);
    });

    it('an NBIRTH (bdSeq, Node Control/Rebirth), then a DBIRTH per module declaring every metric of its kind: datatype, alias, unit', async function () {
      const { nbirth, dbirths } = first;
      nbirth.topic.should.equal(`spBv1.0/plant/NBIRTH/${EDGE}`);
      nbirth.payload!.seq!.should.equal(0); // Sparkplug 3.0: an NBIRTH's seq is 0
      const node = new Map(nbirth.payload!.metrics.map((m) => [m.name, m]));
      node.get('bdSeq')!.type.should.match(/^U?Int64$/);
      node.get('Node Control/Rebirth')!.should.containEql({ type: 'Boolean', value: false });
      const aliases = new Set<number>();
      for (const m of nbirth.payload!.metrics) if (m.alias !== undefined) aliases.add(m.alias);
      dbirths.map((d) => d.topic).should.eql(DEVICE_IDS.map((id) => `spBv1.0/plant/DBIRTH/${EDGE}/${id}`));
      MODULES.forEach((module, i) => {
        const declared = metricsOf(module.service as Service);
        const got = new Map(dbirths[i].payload!.metrics.map((m) => [m.name!, m]));
        [...got.keys()].sort().should.eql(declared.map((d) => d.name).sort(), `${DEVICE_IDS[i]}'s metrics`);
        for (const def of declared) {
          const m = got.get(def.name)!;
          m.type.should.equal(TYPE_NAMES[def.datatype], def.name);
          if (def.unit) m.properties.engUnit.should.eql({ type: 'String', value: def.unit }, def.name);
          (m.isNull || ofType(m.type, m.value)).should.be.true(`${def.name}: ${JSON.stringify(m.value)} of ${m.type}`);
          m.alias!.should.be.a.Number();
          aliases.has(m.alias!).should.be.false(`alias ${m.alias} of ${def.name} is another metric's too`);
          aliases.add(m.alias!);
        }
        // Born once connected: the state says so.
        valueOf(dbirths[i].payload, 'Connection/State')!.should.equal('connected');
      });
      // From the NBIRTH (seq 0) on, every payload the next seq: the DBIRTHs among them.
      const upToBirths = sequenced(host.all, host.all.indexOf(nbirth)).filter(
        (m) => host.all.indexOf(m) <= Math.max(...dbirths.map((d) => host.all.indexOf(d))),
      );
      upToBirths.map((m) => m.payload!.seq).should.eql(upToBirths.map((_, i) => i));
    });

    it('DDATA by exception, by alias: a reading unchanged sends nothing, a change sends that metric only', async function () {
      const ctl = world.ctl[0];
      const io = (since: number) => host.of('DDATA', 'io-2', since);
      const pinName = 'Pin 4/Voltage';
      // The simulator's pins read as analog inputs until told otherwise.
      (await request(ctl.url, 'POST', '/sim/io/2/pins/4', { voltage_mV: 1111 })).status.should.equal(200);
      const mark = host.all.length;
      const seen = reported(world, 'seen').length;
      await world.central.publish(`test/${EDGE}/read`, {});
      const firstData = await waitFor('DDATA with Pin 4/Voltage 1111', WAIT, () =>
        io(mark).find((m) => host.named(m).some((x) => x.name === pinName && x.value === 1111)),
      );
      // The same reading again: nothing to say. Then one pin changed: that metric alone.
      await world.central.publish(`test/${EDGE}/read`, {});
      await waitFor('the second read', WAIT, () => reported(world, 'seen').length >= seen + 2);
      (await request(ctl.url, 'POST', '/sim/io/2/pins/4', { voltage_mV: 2222 })).status.should.equal(200);
      await world.central.publish(`test/${EDGE}/read`, {});
      const change = await waitFor('DDATA with Pin 4/Voltage 2222', WAIT, () =>
        io(mark).find((m) => host.named(m).some((x) => x.name === pinName && x.value === 2222)),
      );
      const between = io(host.all.indexOf(firstData) + 1);
      between[0].should.equal(change, 'a DDATA between the two changes: the unchanged read was published');
      const [metric] = change.payload!.metrics;
      change.payload!.metrics.should.have.length(1);
      (metric.name === undefined).should.be.true('DDATA carries aliases only');
      metric.alias!.should.equal(first.dbirths[0].payload!.metrics.find((m) => m.name === pinName)!.alias);
      metric.type.should.equal('Double');
    });

    it("a DDEATH when a module's service goes down, a DBIRTH with every metric when it is back; the other modules untouched", async function () {
      const ctl = world.ctl[0];
      const mark = host.all.length;
      await ctl.serviceDown('io');
      try {
        const death = await host.next('DDEATH', 'io-2', mark);
        death.payload!.seq!.should.be.a.Number();
        death.topic.should.equal(`spBv1.0/plant/DDEATH/${EDGE}/io-2`);
      } finally {
        await ctl.serviceUp('io');
      }
      const back = await host.next('DBIRTH', 'io-2', mark);
      host.all.indexOf(back).should.be.above(host.all.indexOf(host.of('DDEATH', 'io-2', mark)[0]));
      back.payload!.metrics.map((m) => m.name).should.eql(first.dbirths[0].payload!.metrics.map((m) => m.name));
      valueOf(back.payload, 'Connection/State')!.should.equal('connected');
      // The aliases are the node's for its life: the same as at the first birth.
      const aliases = (p: HostMessage) => p.payload!.metrics.map((m: HostMetric) => [m.name, m.alias]);
      aliases(back).should.eql(aliases(first.dbirths[0]));
      host.of('DDEATH', 'bmc-0', mark).should.eql([]);
      host.of('DDEATH', 'power-1', mark).should.eql([]);
      host.of('NDEATH', '', mark).should.eql([]);
    });

    it('NCMD Node Control/Rebirth: the NBIRTH and every DBIRTH again, seq from 0, the same aliases and bdSeq', async function () {
      const { nbirth, dbirths } = await host.rebirth(EDGE, DEVICE_IDS);
      nbirth.payload!.seq!.should.equal(0);
      valueOf(nbirth.payload, 'bdSeq')!.should.equal(valueOf(first.nbirth.payload, 'bdSeq'));
      dbirths.forEach((d, i) => d.payload!.metrics.map((m) => [m.name, m.alias]).should.eql(first.dbirths[i].payload!.metrics.map((m) => [m.name, m.alias])));
    });

    it('seq counts every payload of the edge node and wraps from 255 to 0', async function () {
      // A reading as io-read sends it, its voltage changed 300 times: 300 DDATA, more than seq counts.
      const reading = await readingTemplate(world);
      const mark = host.all.length;
      await feed(
        world,
        reading.request,
        Array.from({ length: 300 }, (_, i) => reading.valued(5001 + i)),
      );
      await waitFor('the 300th value', WAIT, () =>
        host.of('DDATA', 'io-2', mark).find((m) => host.named(m).some((x) => x.name === reading.metric && x.value === 5300)),
      );
      const seqs = sequenced(host.all, mark).map((m) => m.payload!.seq!);
      seqs.length.should.be.aboveOrEqual(300);
      for (let i = 1; i < seqs.length; i++) seqs[i].should.equal((seqs[i - 1] + 1) % 256, `seq after ${seqs[i - 1]} (payload ${i})`);
      seqs.should.containEql(255);
      seqs.slice(seqs.indexOf(255) + 1).should.containEql(0);
      Math.max(...seqs).should.equal(255);
    });
  });
}

for (const broker of brokers('sparkplug births')) birthCases(broker);
