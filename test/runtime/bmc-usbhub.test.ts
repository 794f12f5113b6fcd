/**
 * bmc-usbhub against the simulator: read, hub and port settings on the wire (msg.operation
 * with "from msg.operation", msg.payload overrides, bare defaults), settings pending until
 * the hub reset (read back through the node before and after), the reset refused without
 * "confirm" from the dialog and from a msg, a msg.operation the dialog does not allow
 * refused, ports 2..8 only, and device errors.
 */
import should from 'should';
import {
  apiPath,
  deviceErrorStatus,
  expectFailed,
  expectRefused,
  needsConfirm,
  operationFixed,
  sendOk,
  sendOne,
  simModule,
  wireSince,
} from '../helpers/bmc-power';
import { loadActionsQuiet } from '../helpers/io-nodes';
import { expectCode, waitStatus } from '../helpers/node-red';
import { runtimeSuite } from '../helpers/runtime-suite';
import { IS_API10, wirePath, wireRequest } from '../helpers/api';

const HUB = apiPath('bmc', 'usbhub');
/** The dialog's label of the confirm checkbox, as the refusal quotes it. */
const CONFIRM = 'Allow this node to reset the USB hub';
const FACTORY = {
  hub_state: 'enabled',
  port_slot_2: 'enabled',
  port_slot_3: 'enabled',
  port_slot_4: 'enabled',
  port_slot_5: 'enabled',
  port_slot_6: 'enabled',
  port_slot_7: 'enabled',
  port_slot_8: 'not available',
};

describe('bmc-usbhub (runtime, simulator)', function () {
  this.timeout(20000);
  const { ctl } = runtimeSuite({ server: true });

  const usbhub = (settings: Record<string, unknown> = {}) => ({
    id: 'hub',
    type: 'bmc-usbhub',
    operation: 'read',
    port: '2',
    state: true,
    confirm: false,
    ...settings,
  });

  it('read: GET usbhub, the record as the device sends it', async () => {
    const outcomes = await loadActionsQuiet(ctl, [usbhub()], { service: 'bmc' });
    const out = await sendOne(outcomes, 'hub', { payload: 1, topic: 'usb' });
    out.payload!.should.eql(FACTORY);
    should(out.topic).equal('usb');
    out.request!.should.eql(wireRequest({ method: 'GET', path: HUB }));
    (await wireSince(ctl)).should.eql([['GET', HUB, null]]);
  });

  it('hub and port settings stay pending until the reset; read through the node before and after', async () => {
    const outcomes = await loadActionsQuiet(ctl, [usbhub({ operation: 'msg', confirm: true })], { service: 'bmc' });
    await sendOk(outcomes, 'hub', { operation: 'port', payload: { port: 3, state: false } });
    await sendOk(outcomes, 'hub', { operation: 'port', payload: { port: 7, state: false } });
    await sendOk(outcomes, 'hub', { operation: 'hub', payload: { state: false } });
    await waitStatus('hub', 'green', 'dot', 'hub off (after reset)');

    const before = await sendOne(outcomes, 'hub', { operation: 'read' });
    before.payload!.should.eql(FACTORY, 'nothing applied before the reset');
    const pending = (await simModule(ctl, 'bmc')).usbhub.pending;
    pending.should.eql({ hub: false, ports: { 3: false, 7: false } });

    const reset = await sendOne(outcomes, 'hub', { operation: 'reset' });
    reset.payload!.should.eql({ status: 'success' });
    await waitStatus('hub', 'green', 'dot', 'hub reset: settings applied');
    const after = await sendOne(outcomes, 'hub', { operation: 'read' });
    after.payload!.should.eql({ ...FACTORY, hub_state: 'disabled', port_slot_3: 'disabled', port_slot_7: 'disabled' });

    (await wireSince(ctl)).should.eql([
      ['POST', `${HUB}/port/3`, { state: false }],
      ['POST', `${HUB}/port/7`, { state: false }],
      ['POST', HUB, { state: false }],
      ['GET', HUB, null],
      ['POST', `${HUB}/reset`, { reset: 'yes' }],
      ['GET', HUB, null],
    ]);
    outcomes.caught.should.have.length(0);
  });

  it('bare msgs use the settings: port 5 off, hub on', async () => {
    const outcomes = await loadActionsQuiet(
      ctl,
      [usbhub({ id: 'port', operation: 'port', port: '5', state: false }), usbhub({ id: 'on', operation: 'hub', state: true })],
      { service: 'bmc' },
    );
    await sendOk(outcomes, 'port', { payload: 1732170000000 });
    await sendOk(outcomes, 'on', { payload: '' });
    (await wireSince(ctl)).should.eql([
      ['POST', `${HUB}/port/5`, { state: false }],
      ['POST', HUB, { state: true }],
    ]);
  });

  it('ports 2..8 are accepted (2..7 on API 1.0); 1, 9, 0, text and fractions are refused with nothing sent', async () => {
    const outcomes = await loadActionsQuiet(ctl, [usbhub({ operation: 'port' })], { service: 'bmc' });
    const ports = IS_API10 ? [2, 3, 4, 5, 6, 7] : [2, 3, 4, 5, 6, 7, 8];
    for (const port of ports) await sendOk(outcomes, 'hub', { payload: { port, state: port % 2 === 0 } });
    (await wireSince(ctl)).should.eql(ports.map((port) => ['POST', `${HUB}/port/${port}`, { state: port % 2 === 0 }]));
    if (IS_API10) {
      (await ctl.wireLog()).map((e) => e.path).should.eql(ports.map((port) => `/api/bmc/1.0/0/usbhub/slot/${port}`));
      // The released service has USB ports 2..7: port 8 is refused before anything is sent.
      await expectRefused(
        ctl,
        outcomes,
        'hub',
        { payload: { port: 8, state: true } },
        'Port (port) must be an integer from 2 to 7, got 8 (API 1.0 devices have USB ports 2 to 7)',
      );
    }
    await ctl.clearLog();
    const range = 'Port (port) must be an integer from 2 to 8';
    await expectRefused(ctl, outcomes, 'hub', { payload: { port: 9, state: true } }, `${range}, got 9`);
    await expectRefused(ctl, outcomes, 'hub', { payload: { port: 1, state: true } }, `${range}, got 1`);
    await expectRefused(ctl, outcomes, 'hub', { payload: { port: 0, state: true } }, `${range}, got 0`);
    await expectRefused(ctl, outcomes, 'hub', { payload: { port: '3', state: true } }, `${range}, got "3"`);
    await expectRefused(ctl, outcomes, 'hub', { payload: { port: 2.5, state: true } }, `${range}, got 2.5`);
    await waitStatus('hub', 'red', 'ring', range);
    outcomes.caught.should.have.length(IS_API10 ? 6 : 5);
  });

  it('state must be a boolean; msg.operation is required with "from msg.operation" and must be one of the node\'s', async () => {
    const outcomes = await loadActionsQuiet(ctl, [usbhub({ operation: 'msg' })], { service: 'bmc' });
    await expectRefused(ctl, outcomes, 'hub', { operation: 'hub', payload: { state: 'off' } }, 'State (state) must be true or false, got "off"');
    await expectRefused(ctl, outcomes, 'hub', { operation: 'hub', payload: { state: 0 } }, 'State (state) must be true or false, got 0');
    await expectRefused(ctl, outcomes, 'hub', { operation: 'port', payload: { port: 4, state: 'yes' } }, 'State (state) must be true or false, got "yes"');
    const ops = 'read, hub, port, reset, devices';
    await expectRefused(ctl, outcomes, 'hub', { operation: 'reboot' }, `Operation (msg.operation) must be one of ${ops}, got "reboot"`);
    await expectRefused(ctl, outcomes, 'hub', { payload: { state: true } }, `Operation (msg.operation) must be one of ${ops}, got nothing`);
  });

  it("a msg.operation other than the dialog's is refused, even reset with confirm ticked: nothing sent", async () => {
    const outcomes = await loadActionsQuiet(ctl, [usbhub({ id: 'read', confirm: true }), usbhub({ id: 'port', operation: 'port', confirm: true })], {
      service: 'bmc',
    });
    await expectRefused(ctl, outcomes, 'read', { operation: 'reset' }, operationFixed('bmc-usbhub', '"reset"', 'read'));
    await expectRefused(ctl, outcomes, 'read', { operation: 'hub', payload: { state: false } }, operationFixed('bmc-usbhub', '"hub"', 'read'));
    await expectRefused(ctl, outcomes, 'port', { operation: 'reset' }, operationFixed('bmc-usbhub', '"reset"', 'port'));
    await waitStatus('port', 'red', 'ring', 'msg.operation "reset" refused');
    (await wireSince(ctl)).should.eql([]);
    (await simModule(ctl, 'bmc')).usbhub.pending.should.eql({ hub: null, ports: {} });
    // The dialog's own operation, also when the msg names it.
    await sendOk(outcomes, 'port', { operation: 'port', payload: { port: 4, state: false } });
    (await wireSince(ctl)).should.eql([['POST', `${HUB}/port/4`, { state: false }]]);
  });

  it('the hub reset is refused without "confirm", from the dialog and from a msg: nothing sent, settings stay pending; sent with it', async () => {
    const outcomes = await loadActionsQuiet(
      ctl,
      [
        usbhub({ operation: 'reset', confirm: false }),
        usbhub({ id: 'msg', operation: 'msg', confirm: false }),
        usbhub({ id: 'yes', operation: 'reset', confirm: true }),
      ],
      { service: 'bmc' },
    );
    // Storing a setting is no reset: it needs no confirm.
    await sendOk(outcomes, 'msg', { operation: 'hub', payload: { state: false } });
    await ctl.clearLog();
    await expectRefused(ctl, outcomes, 'hub', { payload: true }, needsConfirm('bmc-usbhub', 'reset', CONFIRM));
    await expectRefused(ctl, outcomes, 'hub', { operation: 'reset', payload: { reset: 'yes', confirm: true } }, needsConfirm('bmc-usbhub', 'reset', CONFIRM));
    await expectRefused(ctl, outcomes, 'msg', { operation: 'reset' }, needsConfirm('bmc-usbhub', 'reset', CONFIRM));
    await waitStatus('hub', 'red', 'ring', '"reset the hub: apply the settings" refused: tick');
    const bmc = await simModule(ctl, 'bmc');
    bmc.usbhub.pending.hub.should.equal(false);
    bmc.usbhub.applied.hub.should.equal('enabled');
    // With confirm the dialog's reset is sent and applies what was stored.
    await sendOk(outcomes, 'yes', { payload: true });
    (await wireSince(ctl)).should.eql([['POST', `${HUB}/reset`, { reset: 'yes' }]]);
    (await simModule(ctl, 'bmc')).usbhub.applied.hub.should.equal('disabled');
  });

  if (IS_API10) {
    it('API 1.0: devices lists the USB devices of enabled ports (GET usbhub/devices)', async () => {
      const outcomes = await loadActionsQuiet(ctl, [usbhub({ operation: 'devices' })], { service: 'bmc' });
      const out = await sendOne(outcomes, 'hub', { topic: 'usb' });
      const devices = (out.payload as { devices: Array<Record<string, unknown>> }).devices;
      devices.length.should.be.above(0);
      for (const d of devices) d.should.have.keys('slot', 'usb_port', 'manufacturer', 'product', 'serial_code', 'system_path');
      out.request!.should.eql({ method: 'GET', path: '/api/bmc/1.0/0/usbhub/devices' });
      (await wireSince(ctl)).should.eql([['GET', `${HUB}/devices`, null]]);
      await waitStatus('hub', 'green', 'dot', 'devices listed');
    });
  } else {
    it('API 0.9: devices is refused before sending (the spec has no USB device list)', async () => {
      const outcomes = await loadActionsQuiet(ctl, [usbhub({ operation: 'devices' })], { service: 'bmc' });
      await expectRefused(ctl, outcomes, 'hub', { topic: 'usb' }, 'the USB device list needs a device with API 1.0 (this one speaks 0.9)');
    });
  }

  it('device errors: 500 from the hub reset, 502 with the service down', async () => {
    const outcomes = await loadActionsQuiet(ctl, [usbhub({ operation: 'msg', confirm: true })], { service: 'bmc' });
    await ctl.fault({ path: `${HUB}/reset`, status: 500, message: 'Failed setting usb hub state', count: 1 });
    const failed = await expectFailed(outcomes, 'hub', { operation: 'reset', payload: true });
    expectCode(failed.error, 'DEVICE_ERROR');
    failed.error.cause!.should.containEql({ statusCode: 500, deviceMessage: 'Failed setting usb hub state', method: 'POST', path: wirePath(`${HUB}/reset`) });
    await waitStatus('hub', 'red', 'ring', deviceErrorStatus(500, 'Failed setting usb'));
    await ctl.serviceDown('bmc');
    const down = await expectFailed(outcomes, 'hub', { operation: 'read' });
    down.error.cause!.should.containEql({ statusCode: 502, method: 'GET', path: wirePath(HUB) });
    outcomes.caught.should.have.length(2);
  });
});
