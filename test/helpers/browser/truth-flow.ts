/**
 * The flow the truth test deploys over two simulators, one per API, every property
 * written out as the admin API deploys it: on each device an io module (slot 2) with its power
 * configuration, an output "Lamp" (pin 1, high), a PWM "Dimmer" (pin 2, 1 kHz, 25 %) and a
 * digital input "Button" (pin 4), each output fired by an inject; and on the 0.9 device the
 * conflicts: two notification-polls on the io module, two keep-alives on the bmc's watchdog,
 * two thresholds on pin 3 (2500 and 3000 mV), and an output on io slot 3, which no io-power
 * configures.
 */
import { configNode, FlowNode } from './config-node';

const TAB = 'truth-tab';
const SIX = [1, 2, 3, 4, 5, 6].map(() => ({ rail: '5_volt', current: 100 }));
/** The Dimmer's PWM: 48 MHz / (47 + 1) / 1000 = 1000 Hz, 250 / 1000 = 25 %. */
export const DIMMER = { prescaler: 47, period: 1000, time_on: 250 };

/** A config node named for its module and the API its device speaks. */
const config = (id: string, service: string, slot: number, url: string, api: string) => configNode(id, service, slot, url, `${service} ${slot} (${api})`);

const output = (id: string, name: string, device: string, pin: number, mode: string, y: number): FlowNode => ({
  id,
  type: 'io-output',
  z: TAB,
  name,
  device,
  pin: String(pin),
  pinType: 'num',
  mode,
  state: 'high',
  stateType: 'str',
  pwmInput: 'raw',
  prescaler: String(DIMMER.prescaler),
  period: String(DIMMER.period),
  time_on: String(DIMMER.time_on),
  frequency: '1000',
  duty: '25',
  restore: false,
  x: 420,
  y,
  wires: [[]],
});
const inject = (id: string, target: string, y: number): FlowNode => ({
  id,
  type: 'inject',
  z: TAB,
  name: '',
  props: [{ p: 'payload' }],
  repeat: '',
  crontab: '',
  once: false,
  onceDelay: 0.1,
  topic: '',
  payload: '',
  payloadType: 'date',
  x: 150,
  y,
  wires: [[target]],
});

function ioSet(p: string, device: string, y: number): FlowNode[] {
  return [
    { id: `${p}-power`, type: 'io-power', z: TAB, name: '', device, pins: SIX, applyOnConnect: true, x: 420, y, wires: [[]] },
    inject(`${p}-i-lamp`, `${p}-lamp`, y + 60),
    output(`${p}-lamp`, 'Lamp', device, 1, 'state', y + 60),
    inject(`${p}-i-dim`, `${p}-dim`, y + 120),
    output(`${p}-dim`, 'Dimmer', device, 2, 'pwm', y + 120),
    {
      id: `${p}-button`,
      type: 'io-input',
      z: TAB,
      name: 'Button',
      device,
      pin: '4',
      mode: 'digital',
      trigger: 'rising',
      debounce_time_ms: '20',
      counter: '',
      applyOnConnect: true,
      x: 420,
      y: y + 180,
      wires: [[]],
    },
  ];
}

export function truthFlow() {
  const ids = { io09: 'truth-io09', io10: 'truth-io10', bmc: 'truth-bmc', io3: 'truth-io3' };
  const poll = (id: string, name: string, y: number) => ({
    id,
    type: 'notification-poll',
    z: TAB,
    name,
    device: ids.io09,
    interval: '1000',
    pins: [],
    alerts: [],
    combined: false,
    x: 760,
    y,
    wires: [[]],
  });
  const keeper = (id: string, name: string, y: number) => ({
    id,
    type: 'bmc-watchdog',
    z: TAB,
    name,
    device: ids.bmc,
    operation: 'read',
    timeout: '60000',
    swShutdownTimeout: '60000',
    keepAlive: true,
    interval: '3000',
    confirm: true,
    x: 760,
    y,
    wires: [[]],
  });
  const threshold = (id: string, name: string, mv: number, y: number) => ({
    id,
    type: 'io-threshold',
    z: TAB,
    name,
    device: ids.io09,
    pin: '3',
    threshold_mV: String(mv),
    trigger: 'rising',
    analogFirst: true,
    applyOnConnect: true,
    x: 760,
    y,
    wires: [[]],
  });
  return {
    ...ids,
    tab: TAB,
    nodes: (url09: string, url10: string): FlowNode[] => [
      { id: TAB, type: 'tab', label: 'Truth', disabled: false, info: '' },
      config(ids.io09, 'io', 2, url09, '0.9'),
      config(ids.io10, 'io', 2, url10, '1.0'),
      config(ids.bmc, 'bmc', 0, url09, '0.9'),
      config(ids.io3, 'io', 3, url09, '0.9'),
      ...ioSet('t09', ids.io09, 40),
      ...ioSet('t10', ids.io10, 320),
      poll('poll-a', 'Alarms', 40),
      poll('poll-b', 'Mine', 100),
      keeper('keep-a', 'Keeper A', 180),
      keeper('keep-b', 'Keeper B', 240),
      threshold('thr-low', 'Low', 2500, 320),
      threshold('thr-high', 'High', 3000, 380),
      { ...output('orphan', 'Orphan', ids.io3, 1, 'state', 460), x: 760 },
    ],
  };
}
