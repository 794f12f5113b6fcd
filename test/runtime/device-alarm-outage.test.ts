/**
 * device-alarm while its module cannot tell (issue #40: suppressed by design), against the
 * simulator: the module unreachable suppresses its notification alarms (shown
 * 'suppressed', grey ring; nothing raised or cleared by a guess meanwhile) and raises the
 * health alarm of kind unreachable; back, the alarms follow the device again (an alarm
 * whose alert stopped during the outage returns to normal unacknowledged once the device
 * has been read for clearAfter with no alert), and the unreachable alarm clears.
 */
import should from 'should';
import { sleep, waitStatus, withHealthInterval } from '../helpers/node-red';
import { runtimeSuite } from '../helpers/runtime-suite';
import { loadActions, Outcomes, raiseAlert } from '../helpers/io-nodes';
import { ALARM_MODULES, alarmNode, alarmUserDir, cause, listNode, listNow, pollNode, statesOf, waitTransition } from '../helpers/alarm-nodes';

const ID = 'pump.p3.high_voltage_alert';
const LINK = 'link.unreachable';

describe('device-alarm while the module is away (runtime, simulator)', function () {
  this.timeout(30000);
  const { sim, ctl } = runtimeSuite();
  alarmUserDir();
  // The outage seen and its end found within 200 ms of each check.
  withHealthInterval(200);

  function load(): Promise<Outcomes> {
    const pump = alarmNode('pump', { source: 'notification', pins: '3', flags: 'high_voltage_alert' });
    const link = alarmNode('link', { source: 'health', kinds: 'unreachable', priority: '1' });
    return loadActions(sim.url, [pollNode(), pump, link, listNode()], { modules: ALARM_MODULES, wires: { np: ['pump'] } });
  }

  it('unreachable: its alarms suppressed (grey), the unreachable alarm raised; back: they follow the device again, the unreachable alarm clears', async () => {
    const outcomes = await load();
    await waitStatus('link', 'green', 'dot', 'normal (1)');
    const alert = cause(ctl, 3, 'high_voltage_alert');
    await waitTransition(outcomes, 'pump', ID, 'active-unack');
    // The alert's cause goes as the device goes (the control API goes with it).
    await alert.stop();
    await sim.pause();
    const suppressed = await waitTransition(outcomes, 'pump', ID, 'suppressed');
    suppressed.should.containEql({ from: 'active-unack', cause: 'suppress', active: true });
    await waitStatus('pump', 'grey', 'ring', '1 suppressed: module cannot tell');
    const away = await waitTransition(outcomes, 'link', LINK, 'active-unack');
    away.should.containEql({ from: 'normal', active: true, value: null, cause: 'condition', priority: 1 });
    away.where.should.containEql({ config: 'dev', flag: 'unreachable' });
    away.message.should.equal('module unreachable');
    await waitStatus('link', 'red', 'dot', '1 unacknowledged');
    const during = (await listNow(outcomes)).alarms;
    during.find((a) => a.id === ID)!.should.containEql({ shown: 'suppressed', annunciated: false });
    during[0].id.should.equal(LINK, 'the annunciated alarm first');
    // Longer than clearAfter (1 s): the device cannot say the cause went, so nothing is cleared by a guess.
    await sleep(1500);
    statesOf(outcomes, 'pump', ID).should.eql(['normal', 'active-unack', 'suppressed']);

    await sim.resume();
    const back = await waitTransition(outcomes, 'pump', ID, 'active-unack', 2, 15000);
    back.should.containEql({ from: 'suppressed', cause: 'unsuppress' });
    // Read again with no alert for clearAfter: the device says the cause went.
    const returned = await waitTransition(outcomes, 'pump', ID, 'rtn-unack');
    returned.should.containEql({ from: 'active-unack', cause: 'condition', active: false });
    await waitStatus('pump', 'yellow', 'ring', '1 returned, unacknowledged');
    const linkBack = await waitTransition(outcomes, 'link', LINK, 'rtn-unack');
    linkBack.should.containEql({ from: 'active-unack', active: false });
    // And the device's next alert raises it again.
    await raiseAlert(ctl, 2, 3, 'high_voltage_alert');
    await waitTransition(outcomes, 'pump', ID, 'active-unack', 3);
    statesOf(outcomes, 'pump', ID).should.eql(['normal', 'active-unack', 'suppressed', 'active-unack', 'rtn-unack', 'active-unack']);
    // The outage's errors are notification-poll's; the alarm nodes report none.
    should(outcomes.caught.filter((m) => m.error.source.id !== 'np')).have.length(0);
  });
});
