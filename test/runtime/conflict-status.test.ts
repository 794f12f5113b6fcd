/**
 * Conflicts shown where they are made: deployed on the real Node-RED runtime
 * against the simulator, each conflict turns the action nodes it names yellow, naming the
 * other node, once their module is connected: two notification-polls on one module (on
 * API 1.0 only when their pins overlap), two keep-alives on one watchdog, two thresholds on
 * one pin, an io-output on a module no io-power node configures. Redeployed without the
 * conflict, the nodes show their own status again.
 */
import { TEST_API } from '../helpers/api';
import { deviceNode, FlowNode, helper, lastStatus, statusHistory, waitConnected, waitFor, waitStatus } from '../helpers/node-red';
import { ALL_MODULES, SLOT } from '../helpers/reliability';
import { runtimeSuite } from '../helpers/runtime-suite';
import sidebarPlugin = require('../../nodes/sidebar/modular-device-sidebar');

const MODULES = [...ALL_MODULES, sidebarPlugin as unknown as (typeof ALL_MODULES)[number]];
const TAB = 'conflicts';
const at = (y: number) => ({ z: TAB, x: 200, y, wires: [[]] });

function devices(url: string): FlowNode[] {
  return [
    { id: TAB, type: 'tab', label: 'conflicts' },
    deviceNode({ id: 'dev-io', url, service: 'io', slot: SLOT.io }),
    deviceNode({ id: 'dev-io3', url, service: 'io', slot: SLOT.io2 }),
    deviceNode({ id: 'dev-bmc', url, service: 'bmc', slot: SLOT.bmc }),
  ];
}

const poll = (id: string, name: string, pins: string) => ({
  id,
  type: 'notification-poll',
  name,
  device: 'dev-io',
  interval: '1000',
  pins,
  alerts: '',
  combined: false,
  ...at(40),
});
const keeper = (id: string, name: string) => ({
  id,
  type: 'bmc-watchdog',
  name,
  device: 'dev-bmc',
  operation: 'read',
  timeout: '60000',
  keepAlive: true,
  interval: '3000',
  confirm: true,
  swShutdownTimeout: '60000',
  ...at(80),
});
const threshold = (id: string, name: string, mv: string) => ({
  id,
  type: 'io-threshold',
  name,
  device: 'dev-io',
  pin: '3',
  threshold_mV: mv,
  trigger: 'rising',
  analogFirst: true,
  applyOnConnect: true,
  ...at(120),
});
const output = {
  id: 'out',
  type: 'io-output',
  name: 'Lamp',
  device: 'dev-io3',
  pin: '1',
  pinType: 'num',
  mode: 'state',
  state: 'high',
  stateType: 'str',
  pwmInput: 'raw',
  prescaler: '47',
  period: '1000',
  time_on: '500',
  ...at(160),
};

const isConflict = (id: string) => /conflict|Konflikt|io-power/.test(lastStatus(helper.getNode(id))?.text ?? '');

describe(`conflicts as yellow statuses after deploy (runtime, simulator, API ${TEST_API})`, function () {
  this.timeout(20000);
  // The plugin lives as long as its process: stopped here, so later suites see no statuses of it.
  after(() => sidebarPlugin.close());
  const { ctl } = runtimeSuite();

  it('two polls, two keep-alives, two thresholds on one pin, an output without power: yellow, naming the other node; gone after a redeploy without them', async () => {
    const flow = [
      ...devices(ctl.url),
      poll('p1', 'Alarms', ''),
      poll('p2', 'Mine', '3'),
      keeper('k1', 'Keeper A'),
      keeper('k2', 'Keeper B'),
      threshold('t1', 'Low', '2500'),
      threshold('t2', 'High', '3000'),
      output,
    ];
    await helper.load(MODULES, flow);
    for (const id of ['dev-io', 'dev-io3', 'dev-bmc']) await waitConnected(id, 10000);
    await waitStatus('p1', 'yellow', 'ring', "conflict: notification-poll 'Mine' reads these alerts too");
    await waitStatus('p2', 'yellow', 'ring', "conflict: notification-poll 'Alarms' reads these alerts too");
    await waitStatus('k1', 'yellow', 'ring', "conflict: bmc-watchdog 'Keeper B' keeps it alive too");
    await waitStatus('k2', 'yellow', 'ring', "conflict: bmc-watchdog 'Keeper A' keeps it alive too");
    await waitStatus('t1', 'yellow', 'ring', "conflict: io-threshold 'High' sets pin 3 otherwise");
    await waitStatus('t2', 'yellow', 'ring', "conflict: io-threshold 'Low' sets pin 3 otherwise");
    await waitStatus('out', 'yellow', 'ring', 'no io-power node configures this module');

    // Without the conflicts: each node its own status again.
    const fixed = [...devices(ctl.url), poll('p1', 'Alarms', ''), keeper('k1', 'Keeper A'), threshold('t1', 'Low', '2500')];
    await helper.unload();
    await helper.load(MODULES, fixed);
    for (const id of ['dev-io', 'dev-bmc']) await waitConnected(id, 10000);
    await waitStatus('t1', 'green', 'dot', 'pin 3');
    await waitFor(() => ['p1', 'k1', 't1'].every((id) => lastStatus(helper.getNode(id)) !== undefined && !isConflict(id)), 'the conflicts cleared', 10000);
  });

  it(`two polls of disjoint pins: ${TEST_API === '1.0' ? 'no conflict on API 1.0 (a read clears only its pins)' : 'a conflict on API 0.9 (a read clears every pin)'}`, async () => {
    await helper.load(MODULES, [...devices(ctl.url), poll('p1', 'Left', '1,2'), poll('p2', 'Right', '3,4')]);
    await waitConnected('dev-io', 10000);
    if (TEST_API === '1.0') {
      // Both polling (their rounds run after the connection, whose event ran the check with
      // the API known): no conflict was ever shown.
      for (const id of ['p1', 'p2']) await waitStatus(id, 'green', 'dot', /./, 10000);
      for (const id of ['p1', 'p2'])
        statusHistory(helper.getNode(id))
          .filter((s) => s.fill === 'yellow' && /conflict/.test(s.text ?? ''))
          .should.eql([]);
    } else {
      await waitStatus('p1', 'yellow', 'ring', "conflict: notification-poll 'Right'");
      await waitStatus('p2', 'yellow', 'ring', "conflict: notification-poll 'Left'");
    }
  });
});
