/**
 * device-info against the simulator: the version record and the module's descriptor for
 * io, bmc and power config nodes; the fallback to the slot-less descriptor path on 404;
 * device errors reach Catch.
 */
import should from 'should';
import { expectCode, waitStatus } from '../helpers/node-red';
import { runtimeSuite } from '../helpers/runtime-suite';
import { IS_API10, TEST_API, wirePath } from '../helpers/api';
import { ActionDef, httpStatus, loadActions, send } from '../helpers/io-nodes';

const [MAJOR, MINOR] = TEST_API.split('.').map(Number);
const API = { major: MAJOR, minor: MINOR, patch: 0 };

describe('device-info (runtime, simulator)', function () {
  this.timeout(15000);
  const { sim, ctl } = runtimeSuite();

  const info = (id: string, dev: string): ActionDef => ({ id, type: 'device-info', device: dev });

  async function loadThree() {
    const outcomes = await loadActions(sim.url, [info('io', 'dev'), info('bmc', 'dev-bmc'), info('power', 'dev-power')], {
      devices: [
        { url: sim.url, id: 'dev', service: 'io', slot: 2 },
        { url: sim.url, id: 'dev-bmc', service: 'bmc', slot: 0 },
        { url: sim.url, id: 'dev-power', service: 'power', slot: 1 },
      ],
    });
    await ctl.clearLog();
    return outcomes;
  }

  for (const [service, slot] of [
    ['io', 2],
    ['bmc', 0],
    ['power', 1],
  ] as Array<[string, number]>) {
    it(`${service} (slot ${slot}): version record and descriptor, msg properties kept`, async () => {
      const outcomes = await loadThree();
      should(await send(outcomes, service, { payload: 'info', topic: 'who', keep: 'me' })).be.undefined();
      const log = await ctl.log();
      log
        .map((e) => [e.method, e.path, e.status])
        .should.eql([
          ['GET', `/api/${service}/0.9`, 200],
          ['GET', `/api/${service}/0.9/${slot}/descriptor`, 200],
        ]);
      const [out] = outcomes.sent(service);
      out.should.containEql({ topic: 'who', keep: 'me' });
      const payload = out.payload as Record<string, any>;
      payload.should.containEql({ apiVersion: TEST_API, slot, service });
      should(payload.version.version.api).eql(API);
      if (IS_API10) {
        // API 1.0 names the run of the service and of the module.
        payload.sessions.driver_session.should.match(/^[A-Z0-9]{64}$/);
        payload.sessions.device_session.should.match(/^[A-Z0-9]{64}$/);
        payload.sessions.driver_session.should.equal(payload.version.driver_session);
      } else payload.sessions.should.eql({ driver_session: undefined, device_session: undefined });
      payload.version.devices.map((d: { slot_number: number }) => d.slot_number).should.eql(service === 'io' ? [2, 3] : [slot]);
      payload.descriptor.slot_number.should.equal(slot);
      for (const field of ['vendor_product_id', 'product_name', 'vendor_name', 'serial_code', 'bootloader_state']) {
        payload.descriptor[field].should.be.a.String().and.not.be.empty();
      }
      should(payload.descriptor.protocol_version).have.keys('major', 'minor', 'patch');
      // Two wire calls, both named: the version record, then the descriptor.
      should(out.request).eql([
        { method: 'GET', path: wirePath(`/api/${service}/0.9`) },
        { method: 'GET', path: wirePath(`/api/${service}/0.9/${slot}/descriptor`) },
      ]);
      await waitStatus(service, 'green', 'dot', `${payload.descriptor.product_name} ${payload.descriptor.serial_code}`);
      // The three modules are different products.
      outcomes.caught.should.have.length(0);
    });
  }

  it('the three services answer three different descriptors', async () => {
    const outcomes = await loadThree();
    for (const id of ['io', 'bmc', 'power']) await send(outcomes, id, {});
    const names = ['io', 'bmc', 'power'].map((id) => (outcomes.sent(id)[0].payload as any).descriptor.serial_code);
    new Set(names).size.should.equal(3);
  });

  describe('errors', () => {
    it('404 on the slot form: the node tries the slot-less form, and reports the first answer when both fail', async () => {
      const outcomes = await loadThree();
      await ctl.fault({ path: wirePath('/api/io/0.9/2/descriptor'), status: 404, message: 'Could not find device on this slot', count: 1 });
      const caught = await send(outcomes, 'io', { topic: 'x' });
      should(caught).be.ok();
      caught!.topic!.should.equal('x');
      (await ctl.log())
        .map((e) => [e.path, e.status])
        .should.eql([
          ['/api/io/0.9', 200],
          ['/api/io/0.9/2/descriptor', 404],
          ['/api/io/0.9/descriptor', 404],
        ]);
      expectCode(caught!.error, 'DEVICE_ERROR');
      caught!.error.cause!.should.containEql({
        statusCode: 404,
        deviceMessage: 'Could not find device on this slot',
        path: wirePath('/api/io/0.9/2/descriptor'),
      });
    });

    it('a failing version record stops the read: one error, no descriptor request', async () => {
      const outcomes = await loadThree();
      await ctl.fault({ path: '*', method: 'GET', status: 503, message: 'Service Unavailable', count: 1 });
      const caught = await send(outcomes, 'bmc', {});
      caught!.error.cause!.should.containEql({ statusCode: 503, path: `/api/bmc/${TEST_API}` });
      (await ctl.log()).map((e) => e.path).should.eql(['/api/bmc/0.9']);
      await waitStatus('bmc', 'red', 'ring', httpStatus(503));
    });

    it('a slot without a module: the device says so, through Catch', async () => {
      const outcomes = await loadActions(sim.url, [info('io', 'dev')], { devices: [{ url: sim.url, id: 'dev', service: 'io', slot: 5 }], waitFor: [] });
      const caught = await send(outcomes, 'io', {});
      should(caught).be.ok();
      caught!.error.cause!.should.containEql({
        statusCode: 404,
        deviceMessage: 'Could not find device on this slot',
        path: wirePath('/api/io/0.9/5/descriptor'),
      });
      outcomes.sent('io').should.have.length(0);
    });
  });
});
