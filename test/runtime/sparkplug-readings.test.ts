/**
 * The msgs our reading nodes really send, on the test runtime against the simulator (API 0.9,
 * or 1.0 with MD_API), say the same Sparkplug metrics on both APIs (catalogue.ts
 * changesOfReading, changesOfAlert): each node's msg is taken as fleet-publish takes it (its
 * module and `what` from msg.request) and must name exactly the metrics listed here.
 */
import 'should';
import { changesOfAlert, changesOfReading } from '../../nodes/fleet/sparkplug/catalogue';
import type { MetricChange } from '../../nodes/fleet/sparkplug/types';
import { moduleOfRequest } from '../../nodes/fleet/scheme';
import type { Service } from '../../nodes/lib/pure/limits';
import type { NodeMessage } from '../../nodes/lib/base/node-red';
import { runtimeSuite } from '../helpers/runtime-suite';
import { waitFor } from '../helpers/node-red';
import { watchdogNode } from '../helpers/bmc-power';
import { ActionDef, loadActionsQuiet, raiseAlert, send, setPin } from '../helpers/io-nodes';

/** What fleet-publish's Sparkplug session makes of a msg of ours: an alert, or a reading (a write's answer too). */
function changesOf(msg: NodeMessage): MetricChange[] {
  const module = moduleOfRequest(msg.request)!;
  const m = msg as NodeMessage & { alerts?: unknown };
  return Array.isArray(m.alerts) || (typeof m.alerts === 'object' && m.alerts !== null)
    ? changesOfAlert(module.service as Service, msg.payload, m.alerts)
    : changesOfReading(module.service as Service, module.what, msg.payload, msg.request);
}

const names = (changes: MetricChange[]) => changes.map((c) => c.name);
const perPin = (...leaves: string[]) => [1, 2, 3, 4, 5, 6].flatMap((pin) => leaves.map((leaf) => `Pin ${pin}/${leaf}`));
const rails = (...leaves: string[]) => ['3V3', '5V0', '12V'].flatMap((rail) => leaves.map((leaf) => leaf.replace('/R/', `/${rail}/`)));
const reader = (id: string, type: string, settings: Record<string, unknown>): ActionDef => ({
  id,
  type,
  interval: '0',
  onlyOnChange: false,
  deadband: '0',
  output: 'record',
  ...settings,
});

describe('Sparkplug metrics of the real nodes msgs (runtime, simulator)', function () {
  this.timeout(20000);
  const { ctl } = runtimeSuite({ powered: true });

  it('io-read values and currents, notification-poll alerts', async () => {
    await setPin(ctl, 2, 2, { voltage_mV: 1234 });
    const np = { id: 'np', type: 'notification-poll', interval: '100', pins: '', alerts: '', combined: false };
    const actions = [reader('rv', 'io-read', { source: 'values', pin: 'all' }), reader('rc', 'io-read', { source: 'current', pin: 'all' }), np];
    const outcomes = await loadActionsQuiet(ctl, actions);
    await send(outcomes, 'rv', {});
    const values = changesOf(outcomes.sent('rv')[0]);
    names(values).should.eql(perPin('Mode', 'Voltage', 'Level', 'Frequency'));
    values.should.containDeep([{ name: 'Pin 2/Voltage', value: 1234 }]);
    await send(outcomes, 'rc', {});
    names(changesOf(outcomes.sent('rc')[0])).should.eql(perPin('Current'));
    await raiseAlert(ctl, 2, 4, 'high_current_alert');
    await waitFor(() => outcomes.sent('np').length > 0, 'the alert msg');
    changesOf(outcomes.sent('np')[0]).should.eql([{ name: 'Pin 4/Alerts/High Current', add: 1 }]);
  });

  it('bmc-readings, bmc-watchdog and bmc-usbhub reads', async () => {
    const usb = { id: 'usb', type: 'bmc-usbhub', operation: 'read', port: '2', state: true, confirm: false };
    const outcomes = await loadActionsQuiet(ctl, [reader('rd', 'bmc-readings', { voltage: true, temperature: true }), watchdogNode(), usb], { service: 'bmc' });
    for (const id of ['rd', 'wd', 'usb']) await send(outcomes, id, {});
    names(changesOf(outcomes.sent('rd')[0])).should.eql(['Rails/1V8/Voltage', 'Rails/RTC/Voltage', 'Temperatures/SoC', 'Temperatures/Ambient']);
    names(changesOf(outcomes.sent('wd')[0])).should.eql(['Watchdog/Timeout', 'Watchdog/Time Left', 'Watchdog/Shutdown Timeout', 'Watchdog/Emergency Mode']);
    names(changesOf(outcomes.sent('usb')[0])).should.eql(['USB Hub/State', ...[2, 3, 4, 5, 6, 7, 8].map((p) => `USB Hub/Port ${p}`)]);
  });

  it('power-readings (every record), power-fan read and rpm', async () => {
    const all = { source: true, protectionlog: true, stats: true, temperature: true };
    const fan = { id: 'fan', type: 'power-fan', operation: 'msg', fan_forced: true, fan_mode: '60', measurement_enabled: true, waitApplied: false, wait: '' };
    const outcomes = await loadActionsQuiet(ctl, [reader('pr', 'power-readings', all), fan], { service: 'power' });
    await send(outcomes, 'pr', {});
    await send(outcomes, 'fan', { operation: 'read' } as NodeMessage);
    await send(outcomes, 'fan', { operation: 'rpm' } as NodeMessage);
    names(changesOf(outcomes.sent('pr')[0]))
      .sort()
      .should.eql(
        [
          ...rails('Rails/R/Voltage', 'Rails/R/Current', 'Rails/R/Current Limit', 'Rails/R/Capacity', 'Rails/R/Efficiency'),
          ...rails('Protection/R/Over Voltage', 'Protection/R/Under Voltage', 'Protection/R/Over Current'),
          ...['Rails/Total Capacity', 'Protection/All', 'Protection/PMC Over Temperature', 'Protection/Total Power Overload'],
          ...['Temperatures/On Board', 'Temperatures/PMC'],
        ].sort(),
      );
    const [read, rpm] = outcomes.sent('fan');
    names(changesOf(read)).should.eql(['Fan/Forced', 'Fan/Mode', 'Fan/Forced Mode']);
    names(changesOf(rpm)).should.eql(['Fan/Speed', 'Fan/Speed Measured']);
  });
});
