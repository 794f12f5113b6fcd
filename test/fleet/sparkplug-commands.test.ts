/**
 * Sparkplug B commands on real engines: a host application (sparkplug-payload encodes) writes
 * to a module with a DCMD, by name or by alias, and the write reaches the simulated device as
 * a UNS command would (output 2, then the action node); a write off the allow-list and every
 * bad input (malformed protobuf, an undeclared metric, a wrong type, too many metrics, a
 * payload over the bound) is refused: on the node's status, at a Catch node, in the
 * Prometheus counter (kind sparkplug), with nothing sent and Node-RED alive. On the embedded
 * broker and on Mosquitto where installed.
 */
import 'should';
import { SPARKPLUG_BOUNDS } from '../../nodes/lib/pure/limits';
import { waitFor } from '../helpers/fleet-harness';
import { encode } from '../helpers/sparkplug-host-app';
import type { CommandMetric } from '../helpers/sparkplug-host-app';
import { DEVICE_IDS } from '../helpers/sparkplug-flow';
import { births, brokers, refusedCount, reported, sparkplugSuite, WAIT } from '../helpers/sparkplug-suite';
import type { TestBroker } from '../helpers/fleet-harness';

const EDGE = 'cell-c';
const DCMD = `spBv1.0/plant/DCMD/${EDGE}/io-2`;

function commandCases(broker: TestBroker) {
  describe(`fleet: Sparkplug B commands, allowed and refused (${broker.name})`, function () {
    this.timeout(90_000);
    // Only io-output is allowed: a threshold write (io-threshold) is refused.
    const world = sparkplugSuite(broker, { name: 'sp-commands', edge: EDGE, commands: 'io-output' });
    const { host } = world;
    const sim = () => world.sims[0];
    const logMark = () => sim().log.entries().at(-1)?.seq ?? 0;
    /** The device's writes since `since` (its log in the spec's terms): a refused command makes none. */
    const posts = async (since: number) => (await world.ctl[0].log(since)).filter((e) => e.method === 'POST');
    let alias: (name: string) => number;
    before(async function () {
      const { dbirths } = await births(host);
      alias = (name) => dbirths[0].payload!.metrics.find((m) => m.name === name)!.alias!;
    });
    after(function () {
      host.undecodable().should.eql([]);
    });

    /** Writes `Pin <pin>/Output` and waits for the pin's output in the simulator. */
    async function output(pin: number, on: boolean, byAlias = false) {
      const name = `Pin ${pin}/Output`;
      await host.dcmd(EDGE, 'io-2', [byAlias ? { alias: alias(name), type: 'Boolean', value: on } : { name, type: 'Boolean', value: on }]);
      await waitFor(
        `pin ${pin} ${on ? 'high' : 'low'} in the simulator`,
        WAIT,
        async () => (await world.ctl[0].pinState(2, pin)).output === (on ? 'high' : 'low'),
      );
    }

    it('a DCMD write by name reaches the module as a UNS command does; its answer comes back as DDATA', async function () {
      const sent = reported(world, 'sent').length;
      const mark = host.all.length;
      await output(3, true);
      const command = await waitFor('the command on output 2', WAIT, () => reported(world, 'sent').slice(sent)[0]);
      command.topic.should.equal('io/2/io-output');
      command.payload.should.eql({ pin: 3, state: 'high' });
      command.fleetCommand.should.containEql({ op: 'io-output', device: EDGE, service: 'io', slot: 2, via: 'sparkplug' });
      await waitFor('DDATA Pin 3/Output true', WAIT, () =>
        host.of('DDATA', 'io-2', mark).find((m) => host.named(m).some((x) => x.name === 'Pin 3/Output' && x.value === true)),
      );
    });

    it('a DCMD by alias only is the same write', async function () {
      await output(3, false, true);
      (await world.ctl[0].pinState(2, 3)).output.should.equal('low');
    });

    /** A bad or disallowed command: caught (the reason matching `reason`), status yellow, counted once, nothing sent (checked by the caller). */
    async function refused(what: string, publish: () => Promise<unknown>, reason: RegExp) {
      const caught = reported(world, 'caught').length;
      const statuses = reported(world, 'status').length;
      const count = await refusedCount(world.red(), 'sparkplug');
      await publish();
      const said = await waitFor(`${what} at Catch`, WAIT, () => reported(world, 'caught').slice(caught)[0]);
      said.should.match(reason, what);
      await waitFor(`${what} on the status`, WAIT, () =>
        reported(world, 'status')
          .slice(statuses)
          .find((s) => s.fill === 'yellow' && s.shape === 'ring'),
      );
      (await refusedCount(world.red(), 'sparkplug')).should.equal(count + 1, `${what} counted once`);
    }

    /** Nothing of the refused commands left: the only command and write since the marks is a valid one sent after them. */
    async function nothingSentSince(sent: number, since: number, pin: number) {
      await output(pin, true);
      const commands = await waitFor(
        'the valid command on output 2',
        WAIT,
        () => reported(world, 'sent').slice(sent).length > 0 && reported(world, 'sent').slice(sent),
      );
      commands.map((c) => c.payload).should.eql([{ pin, state: 'high' }]);
      const writes = await posts(since);
      writes.map((e) => e.path).should.eql(['/api/io/0.9/2/output/state']);
      (writes[0].body as Record<string, unknown>).should.containEql({ pin });
    }

    it('a write off the allow-list (a threshold: io-threshold) is refused: nothing sent, the device saw no POST', async function () {
      const [sent, since] = [reported(world, 'sent').length, logMark()];
      await refused(
        'the threshold write',
        () => host.dcmd(EDGE, 'io-2', [{ name: 'Pin 2/Threshold/Voltage', type: 'UInt16', value: 1000 }]),
        /Pin 2\/Threshold\/Voltage.*io-threshold|io-threshold.*Pin 2\/Threshold\/Voltage/,
      );
      await nothingSentSince(sent, since, 4);
    });

    it('bad input is refused, counted, nothing sent, Node-RED alive: malformed protobuf, undeclared metric, wrong type, too many, too big', async function () {
      const [sent, since] = [reported(world, 'sent').length, logMark()];
      // A length-delimited field (metrics, 2) that claims more bytes than there are.
      await refused('malformed protobuf', () => host.raw(DCMD, Buffer.from([0x12, 0xff, 0xff, 0xff, 0x0f, 0x01])), /./);
      await refused('an undeclared metric', () => host.dcmd(EDGE, 'io-2', [{ name: 'Pin 9/Output', type: 'Boolean', value: true }]), /Pin 9\/Output/);
      await refused('an unknown alias', () => host.dcmd(EDGE, 'io-2', [{ alias: 999_999, type: 'Boolean', value: true }]), /999999/);
      await refused('a wrong type', () => host.dcmd(EDGE, 'io-2', [{ name: 'Pin 3/Output', type: 'String', value: 'yes' }]), /Pin 3\/Output/);
      const many: CommandMetric[] = Array.from({ length: SPARKPLUG_BOUNDS.commandMetrics + 1 }, () => ({ name: 'Pin 3/Output', type: 'Boolean', value: true }));
      await refused('too many metrics', () => host.dcmd(EDGE, 'io-2', many), new RegExp(`${SPARKPLUG_BOUNDS.commandMetrics}`));
      const huge = encode([{ name: 'Pin 3/PWM/Setting', type: 'String', value: 'x'.repeat(SPARKPLUG_BOUNDS.payloadBytes) }]);
      await refused('a payload over the bound', () => host.raw(DCMD, huge), new RegExp(`${SPARKPLUG_BOUNDS.payloadBytes}`));
      await refused('a DCMD for a device not here', () => host.dcmd(EDGE, 'io-7', [{ name: 'Pin 3/Output', type: 'Boolean', value: true }]), /io-7/);
      await refused(
        'an NCMD for an unknown metric',
        () => host.ncmd(EDGE, [{ name: 'Node Control/Reboot', type: 'Boolean', value: true }]),
        /Node Control\/Reboot/,
      );
      // Alive: the process runs, a rebirth answers, and a valid write still goes through (and alone).
      process.kill(world.red().pid!, 0).should.be.true();
      await host.rebirth(EDGE, DEVICE_IDS);
      await nothingSentSince(sent, since, 5);
    });
  });
}

for (const broker of brokers('sparkplug commands')) commandCases(broker);
