/**
 * The kit's handles on the simulated device, each seen from a user's flow: an alert, a
 * module unplugged and plugged again, a watchdog that expires, and a clear refusal when a
 * watchdog reset is asked of a device whose watchdog nobody armed.
 */
import fs from 'fs';
import path from 'path';
import should from 'should';
import { KitError, startFlows } from '../../testing';

const example = (name: string) => path.resolve(__dirname, '..', '..', '..', 'examples', name);

describe('the kit changes the device', function () {
  this.timeout(60_000);

  it('an alert reaches the flow; an unplugged module is an error at Catch, and plugged back it works again', async () => {
    const t = await startFlows({ flows: example('alarm-on-notification.json'), api: '1.0' });
    try {
      await t.until(async () => (await t.device.module(2)).pins[2].threshold !== null, { what: 'pin 3 armed' });
      t.mark();
      await t.device.alert(2, 3, 'under_voltage_alert');
      await t.nextMsg('under voltage', { where: { topic: 'pin/3' } });

      t.mark();
      await t.device.unplug('io');
      const caught = await t.nextError();
      should(caught.error.message).match(/502/);
      await t.device.plug('io');
      t.mark();
      await t.device.short(2, 5);
      await t.nextMsg('ALARM', { where: { topic: 'pin/5' } });
    } finally {
      await t.stop();
    }
  });

  it('a watchdog reset resets the device the flow armed', async () => {
    const t = await startFlows({ flows: example('watchdog-keep-alive.json') });
    try {
      await t.until(async () => (await t.device.module(0)).watchdog.timeoutMs === 10000, { what: 'the watchdog armed by the flow' });
      const before = (await t.device.state()).resets;
      await t.device.watchdogReset();
      // Down for the kit's default reboot time (the simulator's, as under npm start): it
      // refuses connections, its control API too, until it has booted.
      await t.until(
        () =>
          t.device.state().then(
            (state) => !state.down,
            () => false,
          ),
        { what: 'the device to boot after the reset' },
      );
      const after = await t.device.state();
      should(after.resets).equal(before + 1);
      should(after.modules.find((m: { slot: number }) => m.slot === 0).watchdog.timeoutMs).equal(0); // not saved: off after the reset
    } finally {
      await t.stop();
    }
  });

  it('a watchdog reset nobody armed is refused, saying why', async () => {
    // The same flow with its on-deploy inject disabled: nothing sets the watchdog.
    const flows = JSON.parse(fs.readFileSync(example('watchdog-keep-alive.json'), 'utf8')).map((n: { id: string }) =>
      n.id === 'wdgkeep0i1' ? { ...n, d: true } : n,
    );
    const t = await startFlows({ flows });
    try {
      const error = await t.device.watchdogReset().then(
        () => null,
        (e: Error) => e,
      );
      should(error)
        .be.instanceOf(KitError)
        .and.have.property('message', 'watchdogReset: the watchdog of the bmc in slot 0 is not armed (timeout 0): the flow has not set it');
      should((await t.device.state()).resets).equal(0);
    } finally {
      await t.stop();
    }
  });
});
