/**
 * fleet-publish on the real Node-RED runtime against the simulator: the device's name from
 * FF_DEVICE_NAME when the setting is empty, the module state on its topic, and settings that
 * cannot make a topic refused with the field named as the dialog labels it.
 */
import 'should';
import fleetPublish = require('../../nodes/fleet-publish');
import { deploy } from '../helpers/reliability';
import { ALL_NODES, device, deviceNode, FlowNode, helper, lastStatus, loadFlow, NodeModule, TAB, waitConnected, waitFor } from '../helpers/node-red';
import { Simulator, simulatorSuite } from '../helpers/sim-control';
import type { NodeMessage } from '../../nodes/lib/base/node-red';

const NODES: NodeModule[] = [...ALL_NODES, fleetPublish as NodeModule];

function flow(url: string, settings: Record<string, unknown>): FlowNode[] {
  return [
    deviceNode({ url }),
    {
      id: 'pub',
      type: 'fleet-publish',
      z: TAB,
      x: 100,
      y: 100,
      name: '',
      prefix: 'plant',
      deviceName: '',
      commands: 'io-output',
      wires: [['mqtt'], ['cmd']],
      ...settings,
    },
    { id: 'mqtt', type: 'helper', z: TAB, x: 300, y: 100, wires: [] },
    { id: 'cmd', type: 'helper', z: TAB, x: 300, y: 200, wires: [] },
  ];
}

const errors = () =>
  (helper.log().args as unknown[][])
    .map((a) => a[0] as { level?: number; msg?: unknown })
    .filter((m) => m.level === 20)
    .map((m) => String(m.msg));

describe('fleet-publish (runtime, simulator)', function () {
  this.timeout(30000);
  const at = {} as { sim: Simulator };
  simulatorSuite((sim) => Object.assign(at, { sim }));
  afterEach(() => delete process.env.FF_DEVICE_NAME);

  it("takes the device's name from FF_DEVICE_NAME and publishes the module state retained on its topic", async () => {
    process.env.FF_DEVICE_NAME = 'line-3-cell-2';
    await loadFlow(flow(at.sim.url, {}), {}, NODES);
    const seen: NodeMessage[] = [];
    helper.getNode('mqtt').on('input', (msg: NodeMessage) => seen.push(msg));
    const isConnected = (m: NodeMessage) => (m.payload as { state?: string }).state === 'connected';
    await waitFor(() => seen.some(isConnected), 'the connected state');
    seen.find(isConnected)!.should.containEql({ topic: 'plant/line-3-cell-2/io/2/state', retain: true, qos: 1 });
    lastStatus(helper.getNode('pub'))!.should.containEql({ fill: 'green', text: 'plant/line-3-cell-2' });
  });

  it('redeployed on its own ("modified nodes"), it knows the modules connected before: their state again, commands accepted', async () => {
    const first = flow(at.sim.url, { deviceName: 'cell' });
    await loadFlow(first, {}, NODES);
    await waitConnected();
    const changed = first.map((n) => (n.id === 'pub' ? { ...n, name: 'renamed' } : n));
    await deploy(changed, 'nodes');
    const seen: NodeMessage[] = [];
    const commands: NodeMessage[] = [];
    helper.getNode('mqtt').on('input', (msg: NodeMessage) => seen.push(msg));
    helper.getNode('cmd').on('input', (msg: NodeMessage) => commands.push(msg));
    device().connection!.state.state.should.equal('connected'); // the config node was not restarted
    helper.getNode('pub').receive({ topic: 'plant/cell/io/2/command', payload: { id: 'c1', op: 'io-output', payload: { pin: 1, state: 'high' } } });
    await waitFor(() => commands.length === 1, 'the command on output 2');
    seen.filter((m) => m.topic === 'plant/cell/io/2/reply').should.eql([]);
  });

  for (const [settings, said] of [
    [{ prefix: 'plant/#' }, `Prefix must be 1 to 64 letters, digits, '.', '_' or '-', got "plant/#"`],
    [{ deviceName: '' }, `Device must be 1 to 64 letters, digits, '.', '_' or '-', got ""`],
    [{ deviceName: 'cell', commands: 'io-output, shell' }, 'Commands must list some of io-output, io-read,'],
  ] as Array<[Record<string, unknown>, string]>) {
    it(`refuses ${JSON.stringify(settings)}: the field named, a red status, nothing published`, async () => {
      await loadFlow(flow(at.sim.url, settings), {}, NODES);
      const seen: NodeMessage[] = [];
      helper.getNode('mqtt').on('input', (msg: NodeMessage) => seen.push(msg));
      await waitFor(() => errors().some((e) => e.includes(said)), `the error "${said}"`);
      lastStatus(helper.getNode('pub'))!.should.containEql({ fill: 'red', shape: 'ring', text: 'invalid settings' });
      seen.should.have.length(0);
    });
  }
});
