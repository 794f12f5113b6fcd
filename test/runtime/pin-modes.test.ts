/**
 * The live view names each pin's mode truly, checked against the simulator's own
 * state (/sim/state): an output and a PWM the flows drive are said from the flows (the
 * device's pin_type voltage_mV cannot tell them from an analog input), with the level, and
 * the frequency and duty as the simulator computes them; a digital input from the device;
 * an untouched pin analog. After a reset of the module the flows' word is gone. API 0.9,
 * and 1.0 under MD_API=1.0.
 */
import { TEST_API } from '../helpers/api';
import { deviceNode, FlowNode, helper, waitConnected, waitFor, waitStatus } from '../helpers/node-red';
import { ALL_MODULES, SLOT } from '../helpers/reliability';
import { runtimeSuite } from '../helpers/runtime-suite';
import { pwmOutputHz } from '../../simulator/facts';
import type { LivePin } from '../../nodes/lib/pure/snapshot';
import sidebarPlugin = require('../../nodes/sidebar/modular-device-sidebar');

const MODULES = [...ALL_MODULES, sidebarPlugin as unknown as (typeof ALL_MODULES)[number]];
const at = (y: number) => ({ z: 'modes', x: 200, y, wires: [[]] });
const SIX = [1, 2, 3, 4, 5, 6].map(() => ({ rail: '5_volt', current: '100' }));
const OUTPUT = {
  type: 'io-output',
  device: 'dev-io',
  pinType: 'num',
  stateType: 'str',
  pwmInput: 'raw',
  prescaler: '47',
  period: '1000',
  time_on: '250',
  restore: false,
};

function flow(url: string): FlowNode[] {
  return [
    { id: 'modes', type: 'tab', label: 'modes' },
    deviceNode({ id: 'dev-io', url, service: 'io', slot: SLOT.io }),
    { id: 'power', type: 'io-power', name: '', device: 'dev-io', pins: SIX, applyOnConnect: true, ...at(20) },
    { id: 'lamp', name: 'Lamp', pin: '1', mode: 'state', state: 'high', ...OUTPUT, ...at(60) },
    { id: 'dim', name: 'Dimmer', pin: '2', mode: 'pwm', state: 'high', ...OUTPUT, ...at(100) },
    {
      id: 'button',
      type: 'io-input',
      name: '',
      device: 'dev-io',
      pin: '4',
      mode: 'digital',
      trigger: 'rising',
      debounce_time_ms: '20',
      counter: '',
      applyOnConnect: true,
      ...at(140),
    },
    { id: 'reset', type: 'io-reset', name: '', device: 'dev-io', confirm: true, ...at(180) },
  ];
}

describe(`the live view's pin modes against the simulator's state (runtime, API ${TEST_API})`, function () {
  this.timeout(30000);
  // The plugin lives as long as its process: stopped here, so later suites see no statuses of it.
  after(() => sidebarPlugin.close());
  const { ctl } = runtimeSuite();

  it('output and PWM from the flows (level; frequency and duty), digital input and analog from the device; forgotten after a module reset', async () => {
    await helper.load(MODULES, flow(ctl.url));
    await waitConnected('dev-io', 10000);
    await waitStatus('power', 'green', 'dot', /./, 10000);
    await waitStatus('button', 'green', 'dot', /./, 10000);
    helper.getNode('lamp').receive({ payload: {} });
    helper.getNode('dim').receive({ payload: {} });
    await waitStatus('lamp', 'green', 'dot', /./, 10000);
    await waitStatus('dim', 'green', 'dot', /./, 10000);
    const live = sidebarPlugin.liveService()!;
    const pins = async (): Promise<LivePin[]> => {
      const before = live.collector.readings.get('dev-io')?.readAt;
      await waitFor(() => live.collector.readings.get('dev-io')?.readAt !== before, 'a new live reading', 15000, 20);
      return live.snapshot().modules.find((m) => m.config === 'dev-io')!.io!.pins;
    };
    live.collector.start();
    try {
      const shown = await pins();
      const sim = await Promise.all([1, 2, 3, 4].map((n) => ctl.pinState(SLOT.io, n)));
      // The simulator's own state, and what the live view says of each pin.
      sim.map((p) => p.mode).should.eql(['output', 'pwm', 'analog', 'digital']);
      shown[0].should.match({ type: 'voltage_mV', driven: { kind: 'output', level: sim[0].output } });
      const pwm = sim[1].pwm!;
      shown[1].should.match({
        type: 'voltage_mV',
        driven: { kind: 'pwm', frequencyHz: pwmOutputHz(pwm.prescaler, pwm.period), dutyPercent: (pwm.timeOn / pwm.period) * 100 },
      });
      shown[2].should.match({ type: 'voltage_mV' });
      (shown[2].driven === undefined).should.be.true();
      shown[3].should.match({ type: 'digital_input' });
      (shown[3].driven === undefined).should.be.true();

      // A module reset: every pin analog again on the device, and the flows' word forgotten
      // (the digital input comes back by itself: io-input re-applies it).
      helper.getNode('reset').receive({ payload: {} });
      await waitStatus('reset', 'green', 'dot', /./, 10000);
      await waitFor(async () => (await ctl.pinState(SLOT.io, 1)).mode === 'analog', 'pin 1 analog on the device', 10000);
      const after = await pins();
      (await ctl.pinState(SLOT.io, 2)).mode.should.equal('analog');
      (after[0].driven === undefined && after[1].driven === undefined).should.be.true(JSON.stringify(after.slice(0, 2)));
    } finally {
      live.collector.stop();
    }
  });
});
