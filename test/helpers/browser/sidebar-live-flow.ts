/**
 * The flow the sidebar-live test deploys over two simulators: on an API 0.9 device a bmc
 * (slot 0, its watchdog armed by the test) and a power module (slot 1) whose power-readings
 * node reads only `source`, a record the sidebar never reads, every few hundred ms: the
 * witness that the runtime goes on while the sidebar is hidden; on an API 1.0 device an io
 * module (slot 2) with an io-power node, so the sidebar shows what it asks of each rail (the
 * limits are not reported). Every property written out, as the admin API deploys it.
 */
import { configNode, FlowNode } from './config-node';

const TAB = 'sbl-tab';

/** Witness reads of the power module's source record: often enough to stand for the passing of the sidebar's read turns. */
export const WITNESS_INTERVAL_MS = 200;

/** io-power's six entries: it asks 4×(50×5+200)+2×400 = 2600 mW of the 5 V rail, 2×200×12 = 4800 mW of the 12 V rail (real §3.2), which the simulator's budget daemon allows. */
export const POWER_PINS = [
  { rail: '5_volt', current: 50 },
  { rail: '5_volt', current: 50 },
  { rail: '5_volt', current: 50 },
  { rail: '5_volt', current: 50 },
  { rail: '12_volt', current: 200 },
  { rail: '12_volt', current: 200 },
];

export function sidebarLiveFlow() {
  const ids = { bmc: 'sbl-bmc0', power: 'sbl-power1', io: 'sbl-io2', ioSlot: 2, witness: 'sbl-source', ioPower: 'sbl-iopower' };
  return {
    ...ids,
    nodes: (url09: string, url10: string): FlowNode[] => [
      { id: TAB, type: 'tab', label: 'Sidebar live', disabled: false, info: '' },
      configNode(ids.bmc, 'bmc', 0, url09),
      configNode(ids.power, 'power', 1, url09),
      configNode(ids.io, 'io', ids.ioSlot, url10),
      {
        id: ids.witness,
        type: 'power-readings',
        z: TAB,
        name: 'source witness',
        device: ids.power,
        source: true,
        protectionlog: false,
        stats: false,
        temperature: false,
        interval: WITNESS_INTERVAL_MS,
        onlyOnChange: false,
        deadband: 0,
        output: 'record',
        x: 200,
        y: 80,
        wires: [[]],
      },
      { id: ids.ioPower, type: 'io-power', z: TAB, name: 'io power', device: ids.io, pins: POWER_PINS, applyOnConnect: true, x: 200, y: 160, wires: [[]] },
    ],
  };
}
