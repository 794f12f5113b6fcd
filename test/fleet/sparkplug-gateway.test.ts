/**
 * A gateway in Protocol `both`, on real engines: one Node-RED serving two simulated devices,
 * its own (`gw`) and `cell-b` (whose config nodes name their Fleet device). In Sparkplug each
 * module is a device of the edge node `gw`: `io-2` for its own, `cell-b.io-2` for the other's;
 * an outage and a command reach the device they name and no other. Side by side, the UNS JSON
 * topics are what they are in UNS mode: each module's retained state under its own device, a
 * reading by exception, a command over UNS answered on its reply topic. On the embedded
 * broker and on Mosquitto where installed.
 */
import 'should';
import { waitFor } from '../helpers/fleet-harness';
import { DEVICE_IDS, MODULES } from '../helpers/sparkplug-flow';
import { births, brokers, reported, sparkplugSuite, valueOf, WAIT } from '../helpers/sparkplug-suite';
import type { TestBroker } from '../helpers/fleet-harness';

const EDGE = 'gw';
const OTHER = 'cell-b';
const OTHER_IDS = DEVICE_IDS.map((id) => `${OTHER}.${id}`);

function gatewayCases(broker: TestBroker) {
  describe(`fleet: a Sparkplug B gateway, UNS beside it (Protocol both) (${broker.name})`, function () {
    this.timeout(90_000);
    const world = sparkplugSuite(broker, { name: 'sp-gateway', edge: EDGE, mode: 'both', fleetDevices: [OTHER], commands: 'io-output, io-read' });
    const { host, central } = world;
    before(async function () {
      await central.client.subscribeAsync('plant/#', { qos: 1 });
    });
    after(function () {
      host.undecodable().should.eql([]);
    });
    const uns = (topic: string) => central.last.get(topic);

    it("each module is a device of the edge node: its own `<svc>-<slot>`, the other device's `<device>.<svc>-<slot>`", async function () {
      const { nbirth, dbirths } = await births(host, 0, [...DEVICE_IDS, ...OTHER_IDS]);
      nbirth.topic.should.equal(`spBv1.0/plant/NBIRTH/${EDGE}`);
      dbirths.map((d) => d.topic).should.eql([...DEVICE_IDS, ...OTHER_IDS].map((id) => `spBv1.0/plant/DBIRTH/${EDGE}/${id}`));
      // The same kinds, the same metrics; aliases unique across the edge node.
      dbirths.slice(3).forEach((d, i) => d.payload!.metrics.map((m) => m.name).should.eql(dbirths[i].payload!.metrics.map((m) => m.name)));
      const aliases = dbirths.flatMap((d) => d.payload!.metrics.map((m) => m.alias));
      new Set(aliases).size.should.equal(aliases.length);
      for (const d of dbirths) valueOf(d.payload, 'Connection/State')!.should.equal('connected');
      host.all.filter((m) => m.device !== undefined && ![...DEVICE_IDS, ...OTHER_IDS].includes(m.device)).should.eql([]);
    });

    it('UNS beside it: every module of both devices has its retained state under its own device', async function () {
      await waitFor('six modules connected on UNS', WAIT, () =>
        [EDGE, OTHER].every((d) => MODULES.every((m) => uns(`plant/${d}/${m.service}/${m.slot}/state`)?.state === 'connected')),
      );
      for (const d of [EDGE, OTHER]) for (const m of MODULES) uns(`plant/${d}/${m.service}/${m.slot}/state`).device.should.equal(d);
    });

    it("an outage of the other device's io: DDEATH of cell-b.io-2 only, its UNS state unreachable; DBIRTH and connected when back", async function () {
      const mark = host.all.length;
      await world.ctl[1].serviceDown('io');
      try {
        await host.next('DDEATH', `${OTHER}.io-2`, mark);
        await waitFor('its UNS state not connected', WAIT, () => uns(`plant/${OTHER}/io/2/state`)?.state !== 'connected');
      } finally {
        await world.ctl[1].serviceUp('io');
      }
      await host.next('DBIRTH', `${OTHER}.io-2`, mark);
      await waitFor('its UNS state connected again', WAIT, () => uns(`plant/${OTHER}/io/2/state`)?.state === 'connected');
      host.all
        .slice(mark)
        .filter((m) => m.type === 'DDEATH' || m.type === 'NDEATH')
        .map((m) => m.topic)
        .should.eql([`spBv1.0/plant/DDEATH/${EDGE}/${OTHER}.io-2`]);
      uns(`plant/${EDGE}/io/2/state`).state.should.equal('connected');
    });

    it("a DCMD to cell-b.io-2 reaches cell-b's device only; its answer is DDATA of cell-b.io-2", async function () {
      const [sent, mark] = [reported(world, 'sent').length, host.all.length];
      const [own, other] = world.sims.map((s) => s.log.entries().at(-1)?.seq ?? 0);
      await host.dcmd(EDGE, `${OTHER}.io-2`, [{ name: 'Pin 2/Output', type: 'Boolean', value: true }]);
      await waitFor("cell-b's pin 2 high", WAIT, async () => (await world.ctl[1].pinState(2, 2)).output === 'high');
      const command = await waitFor('the command on output 2', WAIT, () => reported(world, 'sent').slice(sent)[0]);
      command.fleetCommand.should.containEql({ device: OTHER, op: 'io-output', via: 'sparkplug' });
      (await world.ctl[0].pinState(2, 2)).output.should.not.equal('high');
      world.sims[0].log
        .entries(own)
        .filter((e) => e.method === 'POST')
        .should.eql([]);
      world.sims[1].log
        .entries(other)
        .filter((e) => e.method === 'POST')
        .should.have.length(1);
      // Its answer names no device but by its command: the write's value is DDATA of that module.
      await waitFor(`DDATA of ${OTHER}.io-2 Pin 2/Output true`, WAIT, () =>
        host.of('DDATA', `${OTHER}.io-2`, mark).find((m) => host.named(m).some((x) => x.name === 'Pin 2/Output' && x.value === true)),
      );
    });

    it("beside it, a UNS command to cell-b's io is answered on its reply topic as in UNS mode; nothing caught", async function () {
      const caught = reported(world, 'caught').length;
      await central.publish(`plant/${OTHER}/io/2/command`, { id: 'uns-read', op: 'io-read', payload: {} });
      const reply = await waitFor('the UNS reply', WAIT, () =>
        central.all.filter((m) => m.topic === `plant/${OTHER}/io/2/reply`).find((m) => m.payload.id === 'uns-read'),
      );
      reply.payload.should.containEql({ device: OTHER, op: 'io-read', ok: true });
      reported(world, 'caught', caught).should.eql([]);
    });

    it('a reading is on both: UNS reading retained under its device, Sparkplug DDATA of its module', async function () {
      const mark = host.all.length;
      await world.central.publish(`test/${EDGE}/read`, {});
      await waitFor('the UNS reading', WAIT, () => uns(`plant/${EDGE}/io/2/reading/input/values`));
      uns(`plant/${EDGE}/io/2/reading/input/values`).device.should.equal(EDGE);
      await host.next('DDATA', 'io-2', mark);
    });
  });
}

for (const broker of brokers('sparkplug gateway')) gatewayCases(broker);
