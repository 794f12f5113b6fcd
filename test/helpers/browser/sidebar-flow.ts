/**
 * The flow the sidebar test deploys: an io module (slot 2) with an analog io-input on pin 3
 * and one notification-poll on pins 1 and 2 (so a click on pin 3 selects the io-input
 * alone), and a bmc module (slot 0) with a bmc-readings node. Every property written out,
 * as the admin API deploys it without an editor filling defaults.
 */
import { configNode, FlowNode } from './config-node';

const TAB = 'sb-tab';

function poll(id: string, device: string, y: number): FlowNode {
  return { id, type: 'notification-poll', z: TAB, name: '', device, interval: 1000, pins: [1, 2], alerts: [], combined: false, x: 200, y, wires: [[]] };
}

export function sidebarFlow() {
  const ids = { io: 'sb-io2', ioSlot: 2, bmc: 'sb-bmc0', input: 'sb-in3', poll: 'sb-poll', bmcRead: 'sb-bmcread' };
  return {
    ...ids,
    nodes: (url: string): FlowNode[] => [
      { id: TAB, type: 'tab', label: 'Sidebar', disabled: false, info: '' },
      configNode(ids.io, 'io', ids.ioSlot, url),
      configNode(ids.bmc, 'bmc', 0, url),
      {
        id: ids.input,
        type: 'io-input',
        z: TAB,
        name: 'level sensor',
        device: ids.io,
        pin: 3,
        mode: 'analog',
        trigger: 'rising',
        debounce_time_ms: 250,
        counter: '',
        applyOnConnect: true,
        x: 200,
        y: 80,
        wires: [[]],
      },
      poll(ids.poll, ids.io, 160),
      {
        id: ids.bmcRead,
        type: 'bmc-readings',
        z: TAB,
        name: '',
        device: ids.bmc,
        voltage: true,
        temperature: true,
        interval: 0,
        onlyOnChange: false,
        deadband: 0,
        output: 'record',
        x: 200,
        y: 240,
        wires: [[]],
      },
    ],
    /** A second notification-poll on the io module, as pasted in the editor. */
    secondPoll: (id: string): FlowNode => ({ ...poll(id, ids.io, 320), pins: [] }),
  };
}
