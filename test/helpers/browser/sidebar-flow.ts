/**
 * The flow the sidebar test deploys: an io module (slot 2) with an analog io-input on pin 3
 * and one notification-poll on pins 1 and 2 (so a click on pin 3 selects the io-input
 * alone), and a bmc module (slot 0) with a bmc-readings node. Every property written out,
 * as the admin API deploys it without an editor filling defaults.
 */
type FlowNode = Record<string, unknown> & { id: string; type: string };

const TAB = 'sb-tab';

function config(id: string, service: string, slot: number, url: string): FlowNode {
  return {
    id,
    type: 'modular-device',
    name: `${service} slot ${slot}`,
    url,
    service,
    slot: String(slot),
    apiVersion: 'auto',
    timeout: '5000',
    queueLimit: '100',
    auth: 'none',
    tls: '',
  };
}

function poll(id: string, device: string, y: number): FlowNode {
  return { id, type: 'notification-poll', z: TAB, name: '', device, interval: 1000, pins: [1, 2], alerts: [], combined: false, x: 200, y, wires: [[]] };
}

export function sidebarFlow() {
  const ids = { io: 'sb-io2', ioSlot: 2, bmc: 'sb-bmc0', input: 'sb-in3', poll: 'sb-poll', bmcRead: 'sb-bmcread' };
  return {
    ...ids,
    nodes: (url: string): FlowNode[] => [
      { id: TAB, type: 'tab', label: 'Sidebar', disabled: false, info: '' },
      config(ids.io, 'io', ids.ioSlot, url),
      config(ids.bmc, 'bmc', 0, url),
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
