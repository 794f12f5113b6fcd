/**
 * Store and forward that follows the primary host (Sparkplug 3.0 `spBv1.0/STATE/<host>`), on
 * real engines: the edge node's births wait for the host's STATE online; while the host is
 * offline the session stays up (commands still run) and data is stored; once the host is
 * online again, the births come again, then the stored values as historical DDATA with their
 * own timestamps, in order; over the bound, what was dropped is counted. On the embedded
 * broker and on Mosquitto where installed.
 */
import 'should';
import { SPARKPLUG_BOUNDS } from '../../nodes/lib/pure/limits';
import { waitFor } from '../helpers/fleet-harness';
import type { HostMessage, HostMetric } from '../helpers/sparkplug-host-app';
import { births, brokers, feed, readingTemplate, reported, sparkplugSuite, valueOf, WAIT } from '../helpers/sparkplug-suite';
import type { TestBroker } from '../helpers/fleet-harness';

const EDGE = 'cell-s';
const HOST = 'scada';

function storeCases(broker: TestBroker) {
  describe(`fleet: Sparkplug B store and forward with a primary host (${broker.name})`, function () {
    this.timeout(120_000);
    const world = sparkplugSuite(broker, { name: 'sp-store', edge: EDGE, primaryHost: HOST, commands: 'io-output' });
    const { host } = world;
    after(function () {
      host.undecodable().should.eql([]);
    });

    /** The historical metrics (named) of the DDATA of io-2 from index `since`, in the order they came. */
    const historical = (since: number): HostMetric[] =>
      host
        .of('DDATA', 'io-2', since)
        .flatMap((m) => host.named(m))
        .filter((m) => m.isHistorical);

    /**
     * The host goes offline; the edge node has taken it once a command published after the
     * STATE (on the host's connection, so in order) has reached the device: commands still
     * run while the host is offline.
     */
    async function offline(pin: number): Promise<number> {
      await host.publishState(false);
      await host.dcmd(EDGE, 'io-2', [{ name: `Pin ${pin}/Output`, type: 'Boolean', value: true }]);
      await waitFor(`pin ${pin} high while the host is offline`, WAIT, async () => (await world.ctl[0].pinState(2, pin)).output === 'high');
      return host.all.length;
    }

    it('births wait for the primary host: none before its STATE online, then the NBIRTH and every DBIRTH', async function () {
      // Connected to the broker and waiting (its status says so), the io module read: still nothing born.
      await waitFor('fleet-publish waiting for the primary host', WAIT, () => reported(world, 'status').find((s) => /primary host/.test(s.text)));
      await readingTemplate(world);
      host.of('NBIRTH').should.eql([]);
      const mark = host.all.length;
      const online = Date.now();
      await host.publishState(true, online);
      const { nbirth } = await births(host, mark);
      host.all
        .slice(0, host.all.indexOf(nbirth))
        .filter((m) => m.edge === EDGE)
        .should.eql([]);
      nbirth.payload!.timestamp!.should.be.aboveOrEqual(online);
    });

    it('host offline: the session stays up, values are stored; online again: births, then the stored values as historical, in order', async function () {
      const reading = await readingTemplate(world);
      const mark = await offline(6);
      await feed(
        world,
        reading.request,
        [1, 2, 3, 4, 5].map((i) => reading.valued(7000 + i)),
      );
      const stateAt = Date.now();
      await host.publishState(true, stateAt);
      const { nbirth, dbirths } = await births(host, mark);
      // Nothing of the edge node while the host was offline: no NDEATH (the session stayed up), no data.
      host.all
        .slice(mark, host.all.indexOf(nbirth))
        .filter((m) => m.edge === EDGE)
        .map((m) => m.type)
        .should.eql([]);
      // The births hold the values of now; the stored ones follow them.
      (dbirths[0].payload!.metrics.find((m) => m.name === reading.metric)!.value as number).should.equal(7005);
      dbirths[0].payload!.metrics.find((m) => m.name === 'Pin 6/Output')!.value!.should.equal(true);
      const from = host.all.indexOf(dbirths.at(-1)!);
      await waitFor('the stored values forwarded', WAIT, () => historical(from).filter((m) => m.name === reading.metric).length >= 5);
      const voltages = historical(from).filter((m) => m.name === reading.metric);
      voltages.map((m) => m.value).should.eql([7001, 7002, 7003, 7004, 7005]);
      const written = historical(from).find((m) => m.name === 'Pin 6/Output');
      written!.value!.should.equal(true);
      // Each with its own timestamp (when it was read), in order, before the host came back.
      const times = historical(from).map((m) => m.timestamp!);
      for (let i = 1; i < times.length; i++) times[i].should.be.aboveOrEqual(times[i - 1]);
      times.at(-1)!.should.be.belowOrEqual(stateAt);
      // Live again: a new value is sent at once, not historical.
      const live = host.all.length;
      await feed(world, reading.request, [reading.valued(7100)]);
      const data = await waitFor('a live DDATA', WAIT, () => host.of('DDATA', 'io-2', live).find((m) => host.named(m).some((x) => x.name === reading.metric)));
      host
        .named(data)
        .find((x) => x.name === reading.metric)!
        .should.containEql({ value: 7100, isHistorical: false });
    });

    it(`over ${SPARKPLUG_BOUNDS.storedValues} values stored, the rest is dropped and counted; what was kept comes in order, in bounded payloads`, async function () {
      const reading = await readingTemplate(world);
      const mark = await offline(5);
      const over = 50;
      const fed = SPARKPLUG_BOUNDS.storedValues + over;
      const first = 10_000;
      await feed(
        world,
        reading.request,
        Array.from({ length: fed }, (_, i) => reading.valued(first + i)),
      );
      await host.publishState(true);
      const { nbirth, dbirths } = await births(host, mark);
      // The write's answer (Pin 5/Output) was stored too, before the fed values: one value, or a few.
      (valueOf(nbirth.payload, 'Store and Forward/Dropped') as number).should.be.within(over, over + 4);
      // The birth holds the value of now, whatever was dropped.
      valueOf(dbirths[0].payload, reading.metric)!.should.equal(first + fed - 1);
      const from = host.all.indexOf(dbirths.at(-1)!);
      await waitFor('every stored value forwarded', WAIT, () => historical(from).length >= SPARKPLUG_BOUNDS.storedValues);
      historical(from).length.should.equal(SPARKPLUG_BOUNDS.storedValues);
      // Kept in order, a run of the fed values without a gap (the oldest or the newest, as the store keeps them).
      const values = historical(from)
        .filter((m) => m.name === reading.metric)
        .map((m) => m.value as number);
      values.should.eql(Array.from({ length: values.length }, (_, i) => values[0] + i));
      (values[0] === first || values.at(-1) === first + fed - 1).should.be.true(`kept ${values[0]} to ${values.at(-1)}`);
      const payloads: HostMessage[] = host.of('DDATA', 'io-2', from).filter((m) => m.payload!.metrics.some((x) => x.isHistorical));
      for (const p of payloads) p.bytes.should.be.belowOrEqual(SPARKPLUG_BOUNDS.payloadBytes);
      reported(world, 'caught').should.eql([]);
    });
  });
}

for (const broker of brokers('sparkplug store and forward')) storeCases(broker);
