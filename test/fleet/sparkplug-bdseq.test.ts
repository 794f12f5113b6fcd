/**
 * bdSeq ties an NBIRTH to its NDEATH, across the ends of a Node-RED, on real engines: a
 * Node-RED killed (SIGKILL: no clean disconnect) leaves the broker to publish the NDEATH it
 * registered as its will, with the bdSeq of its NBIRTH; a redeploy and a restart end the
 * session with that NDEATH, and the next NBIRTH carries the next bdSeq (kept in the userDir,
 * modular-device-sparkplug.json). On the embedded broker and on Mosquitto where installed.
 */
import 'should';
import fs from 'fs';
import path from 'path';
import { waitFor } from '../helpers/fleet-harness';
import type { HostMessage } from '../helpers/sparkplug-host-app';
import { births, brokers, redeploy, sparkplugSuite, valueOf, WAIT } from '../helpers/sparkplug-suite';
import type { TestBroker } from '../helpers/fleet-harness';

const EDGE = 'cell-d';

const bdSeq = (m: HostMessage) => valueOf(m.payload, 'bdSeq') as number;

function bdSeqCases(broker: TestBroker) {
  describe(`fleet: Sparkplug B bdSeq across a kill, a redeploy and a restart of Node-RED (${broker.name})`, function () {
    this.timeout(120_000);
    const world = sparkplugSuite(broker, { name: 'sp-bdseq', edge: EDGE });
    const { host } = world;
    after(function () {
      host.undecodable().should.eql([]);
    });

    /** The last NBIRTH's bdSeq, an NDEATH after it with the same, then births with the next. */
    async function deathThenBirth(end: () => Promise<void>, what: string) {
      const born = host.of('NBIRTH').at(-1) ?? (await births(host)).nbirth;
      const mark = host.all.length;
      await end();
      const death = await host.next('NDEATH', '', mark, WAIT);
      death.topic.should.equal(`spBv1.0/plant/NDEATH/${EDGE}`);
      bdSeq(death).should.equal(bdSeq(born), `${what}: the NDEATH's bdSeq is its NBIRTH's`);
      (death.payload!.seq === undefined).should.be.true('an NDEATH carries no seq');
      const { nbirth } = await births(host, host.all.indexOf(death) + 1);
      bdSeq(nbirth).should.equal((bdSeq(born) + 1) % 256, `${what}: the next NBIRTH has the next bdSeq`);
      nbirth.payload!.seq!.should.equal(0);
      return nbirth;
    }

    it("killed (SIGKILL): the broker publishes the NDEATH will with the NBIRTH's bdSeq; started again, the next bdSeq", async function () {
      await deathThenBirth(async () => {
        await world.red().stop('SIGKILL');
        // The will, from the broker, while Node-RED is gone; then Node-RED again on the same userDir.
        await waitFor('the NDEATH will', WAIT, () => host.of('NDEATH').length > 0);
        await world.red().start();
      }, 'a kill');
    });

    it('a redeploy ends the session with its NDEATH; the new one is born with the next bdSeq', async function () {
      await deathThenBirth(() => redeploy(world.red(), world.flow()), 'a redeploy');
    });

    it('a restart (the runtime stopped, started again) too; the bdSeq is kept in the userDir', async function () {
      const nbirth = await deathThenBirth(async () => {
        const deaths = host.of('NDEATH').length;
        await world.red().stop('SIGINT');
        await waitFor('the NDEATH of the stop', WAIT, () => host.of('NDEATH').length > deaths);
        await world.red().start();
      }, 'a restart');
      const file = JSON.parse(fs.readFileSync(path.join(world.red().userDir, 'modular-device-sparkplug.json'), 'utf8'));
      JSON.stringify(file).should.containEql(`"${EDGE}":${bdSeq(nbirth)}`);
    });
  });
}

for (const broker of brokers('sparkplug bdSeq')) bdSeqCases(broker);
