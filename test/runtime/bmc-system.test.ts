/**
 * bmc-system against the simulator: the buzzer (a duration for every mode, 0 and 1
 * included), the USB bootloader (timeout 0..3600000) and the hard reset, both refused
 * without "confirm" from the dialog and from a msg, on the wire and in the simulated device;
 * a msg.operation the dialog does not allow refused, "from msg.operation" letting a msg
 * choose; validation failures (one error at Catch, nothing sent) and device errors.
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
import { wirePath } from '../helpers/api';

const BUZZER = apiPath('bmc', 'buzzer');
const BOOTLOADER = apiPath('bmc', 'usb_bootloader');
const HARD_RESET = apiPath('bmc', 'hard_reset');
/** The dialog's label of the confirm checkbox, as the refusal quotes it. */
const CONFIRM = 'Allow this node to hard reset the device, to reset the bmc module and to switch the USB bootloader';

describe('bmc-system (runtime, simulator)', function () {
  this.timeout(20000);
  const { ctl } = runtimeSuite({ server: true });

  const system = (settings: Record<string, unknown> = {}) => ({
    id: 'sys',
    type: 'bmc-system',
    operation: 'buzzer',
    mode: '2',
    duration: '200',
    enabled: false,
    timeout: '0',
    confirm: false,
    ...settings,
  });

  describe('buzzer', () => {
    it('sends {mode, duration} for every mode, 0 and 1 included; payload fields override the settings', async () => {
      const outcomes = await loadActionsQuiet(ctl, [system()], { service: 'bmc' });
      const out = await sendOne(outcomes, 'sys', { payload: 1732170000000, topic: 'beep' });
      out.payload!.should.eql({ status: 'success' });
      should(out.topic).equal('beep');
      await sendOk(outcomes, 'sys', { payload: { mode: 5, duration: 1000 } });
      await sendOk(outcomes, 'sys', { payload: { mode: 0, duration: 1 } });
      await sendOk(outcomes, 'sys', { payload: { mode: 1 } });
      await waitStatus('sys', 'green', 'dot', 'buzzer mode 1, 200 ms');
      (await wireSince(ctl)).should.eql([
        ['POST', BUZZER, { mode: 2, duration: 200 }],
        ['POST', BUZZER, { mode: 5, duration: 1000 }],
        ['POST', BUZZER, { mode: 0, duration: 1 }],
        ['POST', BUZZER, { mode: 1, duration: 200 }],
      ]);
      const buzzer = (await simModule(ctl, 'bmc')).buzzer;
      buzzer.soundsEnabled.should.equal(true);
      buzzer.lastSound.should.containEql({ mode: 5, durationMs: 1000 });
    });

    it('refuses modes outside 0..5 and durations outside 1..1000, also for modes 0 and 1', async () => {
      const outcomes = await loadActionsQuiet(ctl, [system(), system({ id: 'nodur', mode: '0', duration: '0' })], { service: 'bmc' });
      const mode = 'Mode (mode) must be an integer from 0 to 5';
      const duration = 'Duration (duration) must be an integer from 1 to 1000 ms';
      await expectRefused(ctl, outcomes, 'sys', { payload: { mode: 6, duration: 100 } }, `${mode}, got 6`);
      await expectRefused(ctl, outcomes, 'sys', { payload: { mode: -1, duration: 100 } }, `${mode}, got -1`);
      await expectRefused(ctl, outcomes, 'sys', { payload: { mode: '2' } }, `${mode}, got "2"`);
      await expectRefused(ctl, outcomes, 'sys', { payload: { mode: 0, duration: 0 } }, `${duration}, got 0`);
      await expectRefused(ctl, outcomes, 'sys', { payload: { mode: 1, duration: 0 } }, `${duration}, got 0`);
      await expectRefused(ctl, outcomes, 'sys', { payload: { mode: 3, duration: 1001 } }, `${duration}, got 1001`);
      // A node set to mode 0 without a usable duration refuses too: the device needs one.
      await expectRefused(ctl, outcomes, 'nodur', { payload: true }, `${duration}, got 0`);
      await expectRefused(ctl, outcomes, 'nodur', { payload: { mode: 1 } }, `${duration}, got 0`);
      await expectRefused(ctl, outcomes, 'sys', { operation: 'beep' }, operationFixed('bmc-system', '"beep"', 'buzzer'));
      outcomes.caught.should.have.length(9);
    });
  });

  describe('USB bootloader', () => {
    it('sends {enabled, timeout}; 0 and 3600000 pass, the device arms the bootloader', async () => {
      const outcomes = await loadActionsQuiet(ctl, [system({ operation: 'usb_bootloader', enabled: true, timeout: '60000', confirm: true })], {
        service: 'bmc',
      });
      await sendOk(outcomes, 'sys', { payload: true });
      await sendOk(outcomes, 'sys', { payload: { timeout: 3600000 } });
      await sendOk(outcomes, 'sys', { payload: { enabled: false, timeout: 0 } });
      await sendOk(outcomes, 'sys', { operation: 'usb_bootloader', payload: { enabled: true, timeout: 0 } });
      (await wireSince(ctl)).should.eql([
        ['POST', BOOTLOADER, { enabled: true, timeout: 60000 }],
        ['POST', BOOTLOADER, { enabled: true, timeout: 3600000 }],
        ['POST', BOOTLOADER, { enabled: false, timeout: 0 }],
        ['POST', BOOTLOADER, { enabled: true, timeout: 0 }],
      ]);
      (await simModule(ctl, 'bmc')).bootloader.armed.should.equal(true);
    });

    it('refuses timeouts above 3600000 or below 0 and a non-boolean enabled', async () => {
      const outcomes = await loadActionsQuiet(ctl, [system({ operation: 'usb_bootloader', enabled: true, timeout: '1000', confirm: true })], {
        service: 'bmc',
      });
      const range = 'Timeout (timeout) must be an integer from 0 to 3600000 ms';
      await expectRefused(ctl, outcomes, 'sys', { payload: { timeout: 3600001 } }, `${range}, got 3600001`);
      await expectRefused(ctl, outcomes, 'sys', { payload: { timeout: -1 } }, `${range}, got -1`);
      await expectRefused(ctl, outcomes, 'sys', { payload: { timeout: '1000' } }, `${range}, got "1000"`);
      await expectRefused(
        ctl,
        outcomes,
        'sys',
        { payload: { enabled: 'true' } },
        'Start the USB bootloader at the next reset (enabled) must be true or false, got "true"',
      );
      (await simModule(ctl, 'bmc')).bootloader.armed.should.equal(false);
    });
  });

  describe('hard reset', () => {
    it('is refused without "confirm" (nothing sent, no reset), sent as {reset: "yes"} with it', async () => {
      const outcomes = await loadActionsQuiet(
        ctl,
        [system({ id: 'no', operation: 'hard_reset' }), system({ id: 'yes', operation: 'hard_reset', confirm: true })],
        { service: 'bmc' },
      );
      await expectRefused(ctl, outcomes, 'no', { payload: true }, needsConfirm('bmc-system', 'hard_reset', CONFIRM));
      await expectRefused(
        ctl,
        outcomes,
        'no',
        { operation: 'hard_reset', payload: { reset: 'yes', confirm: true } },
        needsConfirm('bmc-system', 'hard_reset', CONFIRM),
      );
      await waitStatus('no', 'red', 'ring', '"hard reset the device" refused: tick');
      (await simModule(ctl, 'bmc')).resets.should.equal(0);

      await sendOk(outcomes, 'yes', { payload: true });
      (await wireSince(ctl)).should.eql([['POST', HARD_RESET, { reset: 'yes' }]]);
      const bmc = await simModule(ctl, 'bmc');
      bmc.resets.should.equal(1);
      bmc.lastReset.cause.should.equal('hard_reset');
      await waitStatus('yes', 'green', 'dot', 'hard reset sent');
    });
  });

  describe('which operation a msg may choose', () => {
    it('a buzzer node refuses usb_bootloader with a one-hour window and hard_reset by msg, even with confirm ticked', async () => {
      const outcomes = await loadActionsQuiet(ctl, [system({ confirm: true })], { service: 'bmc' });
      await expectRefused(
        ctl,
        outcomes,
        'sys',
        { operation: 'usb_bootloader', payload: { enabled: true, timeout: 3600000 } },
        operationFixed('bmc-system', '"usb_bootloader"', 'buzzer'),
      );
      await expectRefused(ctl, outcomes, 'sys', { operation: 'hard_reset' }, operationFixed('bmc-system', '"hard_reset"', 'buzzer'));
      await waitStatus('sys', 'red', 'ring', 'msg.operation "hard_reset" refused');
      (await wireSince(ctl)).should.eql([]);
      const bmc = await simModule(ctl, 'bmc');
      bmc.bootloader.armed.should.equal(false);
      bmc.resets.should.equal(0);
      await sendOk(outcomes, 'sys', { operation: 'buzzer' });
      (await wireSince(ctl)).should.eql([['POST', BUZZER, { mode: 2, duration: 200 }]]);
    });

    it('"from msg.operation": msg.operation required; buzzer without confirm; bootloader and hard reset only with it', async () => {
      const outcomes = await loadActionsQuiet(ctl, [system({ id: 'no', operation: 'msg' }), system({ id: 'yes', operation: 'msg', confirm: true })], {
        service: 'bmc',
      });
      const ops = 'buzzer, usb_bootloader, hard_reset, module_reset';
      await expectRefused(ctl, outcomes, 'no', { payload: true }, `Operation (msg.operation) must be one of ${ops}, got nothing`);
      await expectRefused(ctl, outcomes, 'no', { operation: 'beep' }, `Operation (msg.operation) must be one of ${ops}, got "beep"`);
      await expectRefused(
        ctl,
        outcomes,
        'no',
        { operation: 'usb_bootloader', payload: { enabled: true, timeout: 60000 } },
        needsConfirm('bmc-system', 'usb_bootloader', CONFIRM),
      );
      await expectRefused(ctl, outcomes, 'no', { operation: 'hard_reset' }, needsConfirm('bmc-system', 'hard_reset', CONFIRM));
      await sendOk(outcomes, 'no', { operation: 'buzzer', payload: { mode: 3 } });
      (await wireSince(ctl)).should.eql([['POST', BUZZER, { mode: 3, duration: 200 }]]);
      (await simModule(ctl, 'bmc')).bootloader.armed.should.equal(false);

      await ctl.clearLog();
      await sendOk(outcomes, 'yes', { operation: 'usb_bootloader', payload: { enabled: true, timeout: 60000 } });
      await sendOk(outcomes, 'yes', { operation: 'hard_reset' });
      (await wireSince(ctl)).should.eql([
        ['POST', BOOTLOADER, { enabled: true, timeout: 60000 }],
        ['POST', HARD_RESET, { reset: 'yes' }],
      ]);
      (await simModule(ctl, 'bmc')).resets.should.equal(1);
    });

    it('the USB bootloader set in the dialog is refused without "confirm": nothing sent', async () => {
      const outcomes = await loadActionsQuiet(ctl, [system({ operation: 'usb_bootloader', enabled: true, timeout: '3600000' })], { service: 'bmc' });
      await expectRefused(ctl, outcomes, 'sys', { payload: true }, needsConfirm('bmc-system', 'usb_bootloader', CONFIRM));
      await expectRefused(ctl, outcomes, 'sys', { payload: { enabled: false, timeout: 0 } }, needsConfirm('bmc-system', 'usb_bootloader', CONFIRM));
      await waitStatus('sys', 'red', 'ring', '"USB bootloader" refused: tick');
      (await simModule(ctl, 'bmc')).bootloader.armed.should.equal(false);
    });
  });

  describe('device errors', () => {
    it('DEVICE_ERROR with statusCode and message: 422 from the buzzer, 502 with the bmc down', async () => {
      const outcomes = await loadActionsQuiet(ctl, [system()], { service: 'bmc' });
      await ctl.fault({ path: BUZZER, status: 422, message: 'duration out of range', count: 1 });
      const refused = await expectFailed(outcomes, 'sys', { payload: true });
      expectCode(refused.error, 'DEVICE_ERROR');
      refused.error.cause!.should.containEql({ statusCode: 422, deviceMessage: 'duration out of range', method: 'POST', path: wirePath(BUZZER) });
      await waitStatus('sys', 'red', 'ring', deviceErrorStatus(422, 'duration out of range'));
      await ctl.serviceDown('bmc');
      const down = await expectFailed(outcomes, 'sys', { payload: true });
      down.error.cause!.should.containEql({ statusCode: 502, path: wirePath(BUZZER) });
      outcomes.caught.should.have.length(2);
    });
  });
});
