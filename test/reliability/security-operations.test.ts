/**
 * Security, operations: dangerous operations never run on deploy and need their node's
 * confirmation; path segments come only from validated integers and fixed words.
 */
import should from 'should';
import { DeviceClient } from '../../nodes/lib/device/client';
import { DeviceError } from '../../nodes/lib/base/errors';
import type { NodeMessage } from '../../nodes/lib/base/node-red';
import { helper, sleep, waitConnected } from '../helpers/node-red';
import { SimHarness, Simulator, startSimulator } from '../helpers/sim-control';
import { deploy, fire, kindDevices, kindNode, KINDS, loadCollect, reliabilityFlow, serverSuite, settle } from '../helpers/reliability';

describe('reliability: security, dangerous operations and path segments (runtime, simulator)', function () {
  this.timeout(60000);
  serverSuite();

  describe('dangerous operations and path segments', () => {
    let sim: Simulator;
    let ctl: SimHarness;
    before(async () => {
      sim = await startSimulator({ port: 0 });
      ctl = new SimHarness(sim);
    });
    after(async () => {
      await sim.close();
    });
    beforeEach(async () => {
      await ctl.reset();
    });

    // Every operation that needs confirm; the hard reset last of the bmc ones, as it restarts the device.
    const DANGEROUS = [
      { id: 'reset', type: 'io-reset', device: 'dev-io3', path: '/reset' },
      { id: 'boot', type: 'bmc-system', device: 'dev-bmc', operation: 'usb_bootloader', path: '/usb_bootloader' },
      { id: 'save', type: 'bmc-watchdog', device: 'dev-bmc', operation: 'save', keepAlive: false, timeout: '0', path: '/watchdog/save' },
      { id: 'hub', type: 'bmc-usbhub', device: 'dev-bmc', operation: 'reset', path: '/usbhub/reset' },
      { id: 'shutdown', type: 'bmc-watchdog', device: 'dev-bmc', operation: 'shutdown', keepAlive: false, timeout: '0', path: '/watchdog/shutdown' },
      // The module resets of bmc and power: API 1.0 only, so on this 0.9 device refused even with confirm.
      { id: 'bmcreset', type: 'bmc-system', device: 'dev-bmc', operation: 'module_reset', path: '/0/reset' },
      { id: 'powerreset', type: 'power-limits', device: 'dev-power', operation: 'module_reset', path: '/1/reset' },
      { id: 'hard', type: 'bmc-system', device: 'dev-bmc', operation: 'hard_reset', path: '/hard_reset' },
    ];
    const dangerousFlow = (confirm: boolean) =>
      reliabilityFlow(
        DANGEROUS.map(({ path: _p, ...d }) => ({ ...d, confirm })),
        kindDevices(sim.url),
      );
    const touched = async () => (await ctl.log()).filter((e) => DANGEROUS.some((d) => e.path.endsWith(d.path))).map((e) => `${e.method} ${e.path}`);

    it('never on deploy, redeploy or reconnection, even with confirm on', async () => {
      const flow = dangerousFlow(true);
      await loadCollect(flow);
      for (const id of ['dev-io3', 'dev-bmc', 'dev-power']) await waitConnected(id);
      await deploy(flow, 'full');
      await sim.pause();
      await sleep(300);
      await sim.resume();
      await sleep(1500); // the retry finds the device again
      for (const id of ['dev-io3', 'dev-bmc', 'dev-power']) await waitConnected(id);
      (await touched()).should.eql([]);
    });

    it("refused without the node's confirm setting (nothing sent); sent with it", async () => {
      let outcomes = await loadCollect(dangerousFlow(false));
      for (const id of ['dev-io3', 'dev-bmc', 'dev-power']) await waitConnected(id);
      let ids = fire(DANGEROUS.map((d) => [d.id, { payload: { confirm: true, reset: 'yes' }, operation: d.operation }]));
      let fates = await settle(
        outcomes,
        DANGEROUS.map((d, i) => [d.id, ids[i]]),
      );
      for (const fate of fates) {
        should(fate.errors[0]?.error.code).equal('INVALID_INPUT');
        fate.errors[0].error.message.should.match(/^InvalidInputError: "[^"]+" refused: tick ".+" in the node's dialog to allow it$/);
      }
      (await touched()).should.eql([]);
      await helper.unload();
      outcomes = await loadCollect(dangerousFlow(true));
      for (const id of ['dev-io3', 'dev-bmc', 'dev-power']) await waitConnected(id);
      ids = fire(DANGEROUS.map((d) => [d.id, { payload: {}, operation: d.operation }]));
      fates = await settle(
        outcomes,
        DANGEROUS.map((d, i) => [d.id, ids[i]]),
      );
      // On this 0.9 device the bmc and power module resets are refused before sending, confirm or not.
      for (const [i, d] of DANGEROUS.entries()) {
        if (d.operation === 'module_reset') should(fates[i].errors[0]?.error.message).match(/needs a device with API 1\.0/);
      }
      (await touched())
        .sort()
        .should.eql([
          'GET /api/bmc/0.9/0/watchdog/save',
          'GET /api/io/0.9/3/reset',
          'POST /api/bmc/0.9/0/hard_reset',
          'POST /api/bmc/0.9/0/usb_bootloader',
          'POST /api/bmc/0.9/0/usbhub/reset',
          'POST /api/bmc/0.9/0/watchdog/shutdown',
        ]);
    });

    it('path segments only from validated integers and fixed words: a crafted pin, port, slot or operation sends nothing', async () => {
      const outcomes = await loadCollect(reliabilityFlow(KINDS.map(kindNode), kindDevices(sim.url)));
      for (const id of ['dev-io', 'dev-io3', 'dev-bmc', 'dev-power']) await waitConnected(id);
      await sleep(300);
      const since = (await ctl.log()).reduce((max, e) => Math.max(max, e.seq), 0);
      const crafted = ['1/../../hard_reset', '0?x', '../reset', '2%2F..%2Fhard_reset', '3#x', '1 ', ' 1'];
      const sent: Array<[string, string]> = [];
      for (const value of crafted) {
        for (const kind of KINDS) {
          const msg = {
            payload: { pin: value, port: value, slot: value, path: value, endpoint: value },
            operation: kind.type === 'bmc-usbhub' ? 'port' : undefined,
          } as NodeMessage;
          if (msg.operation === undefined) delete msg.operation;
          sent.push([kind.type, fire([[kind.type, msg]])[0]]);
          const op = { payload: {}, operation: value } as NodeMessage;
          sent.push([kind.type, fire([[kind.type, op]])[0]]);
        }
      }
      const fates = await settle(outcomes, sent, 30000);
      // Nodes that take a pin or port refuse the msg; the others ignore what they do not read.
      for (const [i, fate] of fates.entries()) {
        const type = sent[i][0];
        const takesPin = i % 2 === 0 && ['io-output', 'io-threshold', 'io-input', 'io-read', 'bmc-usbhub'].includes(type);
        const takesOperation = i % 2 === 1 && ['bmc-usbhub', 'bmc-watchdog', 'bmc-system', 'power-fan', 'power-limits'].includes(type);
        if (takesPin || takesOperation) {
          should(fate.errors[0]?.error.code).equal('INVALID_INPUT', `${type} msg ${i}`);
        }
      }
      const log = (await ctl.log(since)).filter((e) => e.seq > since);
      const bad = log.filter(
        (e) =>
          /\.\.|\?|%|#|hard_reset|\/reset$/.test(e.path) ||
          !/^\/api\/(io\/0\.9(\/[23](\/[a-z_/0-9-]+)?)?|bmc\/0\.9(\/0\/[a-z_/0-9-]+)?|power\/0\.9(\/1\/[a-z_/0-9-]+)?)$/.test(e.path),
      );
      // io-reset (confirm on) may send its own fixed `reset`: the crafted values changed nothing of its path.
      bad
        .filter((e) => e.path !== '/api/io/0.9/3/reset')
        .map((e) => `${e.method} ${e.path}`)
        .should.eql([]);

      // And the client itself refuses such a segment if a node ever forgot to validate.
      const client = new DeviceClient({ url: sim.url, service: 'io', slot: 2, apiVersion: '0.9', timeout: 1000 });
      try {
        for (const endpoint of [['input', '1/../../hard_reset'], ['usbhub', 'port', 3.5], ['x?y'], ['..'], [-1]] as Array<Array<string | number>>) {
          const error = await client.request({ method: 'GET', endpoint }).then(
            () => undefined,
            (e: unknown) => e,
          );
          should(error).be.instanceOf(DeviceError);
          should((error as DeviceError).code).equal('INVALID_INPUT');
        }
      } finally {
        client.close();
      }
      (await ctl.log(since)).filter((e) => /\.\.|\?|hard_reset/.test(e.path)).should.eql([]);
    });
  });
});
