/**
 * fleet-publish on the real Node-RED runtime against the simulator: the device's name from
 * FF_DEVICE_NAME when the setting is empty, the module state on its topic, and settings that
 * cannot make a topic refused with the field named as the dialog labels it.
 */
import 'should';
import fleetPublish = require('../../nodes/fleet-publish');
import metricsPlugin = require('../../nodes/modular-device-metrics');
import { deploy } from '../helpers/reliability';
import { ALL_NODES, device, deviceNode, FlowNode, helper, lastStatus, loadFlow, NodeModule, TAB, waitConnected, waitFor } from '../helpers/node-red';
import { runtimeSuite } from '../helpers/runtime-suite';
import type { NodeMessage } from '../../nodes/lib/base/node-red';
import deviceAlarm = require('../../nodes/device-alarm');
import { alarmSystems, AlarmSystem } from '../../nodes/alarms/alarm-system';

const parsePrometheus = require('parse-prometheus-text-format') as (text: string) => Array<{
  name: string;
  metrics: Array<{ value?: string; labels?: Record<string, string> }>;
}>;

// The metrics plugin beside: fleet-publish counts the commands it refuses into its registry.
const NODES: NodeModule[] = [...ALL_NODES, fleetPublish as NodeModule, metricsPlugin as NodeModule];

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
  const at = runtimeSuite();
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

/**
 * The alarms on the fleet's topics, in the real runtime: a device-alarm of the io module,
 * another of a second Fleet device (a gateway's), fleet-publish allowing only acknowledge.
 * The mqtt out and in nodes are the helper's: the broker's side is test/fleet/fleet-alarms.
 */
describe('fleet-publish: alarms (runtime, simulator)', function () {
  this.timeout(30000);
  const at = runtimeSuite();
  /** Ids of their own per test: the process's alarm system keeps a state across tests, as across redeploys. */
  let n = 0;
  const ids = () => ({ a: `tank${++n}.high`, b: `press${n}.low` });

  function alarmFlow(url: string, a: string, b: string): FlowNode[] {
    const alarm = (id: string, alarmId: string, device: string) => ({
      id,
      type: 'device-alarm',
      z: TAB,
      x: 100,
      y: 300,
      name: '',
      alarmId,
      priority: '2',
      message: `${alarmId} raised`,
      area: 'tanks',
      device,
      source: 'condition',
      property: 'payload',
      wires: [[]],
    });
    return [
      { id: TAB, type: 'tab', label: 'alarms' },
      ...flow(url, { deviceName: 'cell', commands: 'io-output, alarm-acknowledge, alarm-acknowledge-all' }),
      { ...deviceNode({ url, id: 'dev2', slot: 3 }), fleetDevice: 'cell-b' },
      alarm('alm', a, 'dev'),
      alarm('alm2', b, 'dev2'),
      { id: 'catch', type: 'catch', z: TAB, x: 100, y: 400, scope: ['pub'], uncaught: false, wires: [['caught']] },
      { id: 'caught', type: 'helper', z: TAB, x: 300, y: 400, wires: [] },
    ];
  }

  async function start() {
    const { a, b } = ids();
    const nodes = alarmFlow(at.sim.url, a, b);
    await loadFlow(nodes, {}, [...NODES, deviceAlarm as NodeModule]);
    const seen: NodeMessage[] = [];
    const caught: Array<NodeMessage & { error: { message: string } }> = [];
    helper.getNode('mqtt').on('input', (msg: NodeMessage) => seen.push(msg));
    helper.getNode('caught').on('input', (msg: NodeMessage & { error: { message: string } }) => caught.push(msg));
    const on = (topic: string) => seen.filter((m) => m.topic === topic);
    const command = (alarm: string, body: unknown, device = 'cell') =>
      helper.getNode('pub').receive({ topic: `plant/${device}/alarms/${alarm}/command`, payload: Buffer.from(JSON.stringify(body)) });
    const reply = async (alarm: string, id: string, device = 'cell') => {
      let found: Record<string, unknown> | undefined;
      await waitFor(
        () =>
          !!(found = on(`plant/${device}/alarms/${alarm}/reply`)
            .map((m) => m.payload as Record<string, unknown>)
            .find((p) => p.id === id)),
        `the reply ${id}`,
      );
      return found!;
    };
    return { a, b, nodes, caught, on, command, reply };
  }

  it("an alarm raised: its state retained under its module's device, its transition an event; acknowledged over the command topic with user and comment", async () => {
    const { a, b, on, command, reply } = await start();
    helper.getNode('alm').receive({ payload: true });
    helper.getNode('alm2').receive({ payload: true });
    await waitFor(() => on(`plant/cell/alarms/${a}/event`).length === 1, 'the raise event');
    const event = on(`plant/cell/alarms/${a}/event`)[0];
    event.should.containEql({ retain: false, qos: 1 });
    (event.payload as Record<string, unknown>).should.containEql({ device: 'cell', alarm: a, from: 'normal', to: 'active-unack', priority: 2 });
    const state = on(`plant/cell/alarms/${a}/state`).at(-1)!;
    state.should.containEql({ retain: true, qos: 1 });
    (state.payload as Record<string, unknown>).should.containEql({ device: 'cell', id: a, shown: 'active-unack', annunciated: true, area: 'tanks' });
    // The alarm of the module whose config node names Fleet device cell-b is published under cell-b.
    await waitFor(() => on(`plant/cell-b/alarms/${b}/state`).length > 0, "cell-b's alarm state");
    command(a, { id: 'ack-1', op: 'alarm-acknowledge', payload: { user: 'ann', comment: 'valve closed' } });
    (await reply(a, 'ack-1')).should.containEql({
      device: 'cell',
      op: 'alarm-acknowledge',
      ok: true,
      payload: { transitions: [{ alarm: a, from: 'active-unack', to: 'active-ack' }] },
    });
    (on(`plant/cell/alarms/${a}/state`).at(-1)!.payload as Record<string, unknown>).shown!.should.equal('active-ack');
    (on(`plant/cell/alarms/${a}/event`).at(-1)!.payload as Record<string, unknown>).should.containEql({
      to: 'active-ack',
      cause: 'acknowledge',
      user: 'ann',
      comment: 'valve closed',
    });
    systemWith(a)
      .recent(5)
      .find((r) => r.alarm === a && r.cause === 'acknowledge')!
      .should.containEql({ user: 'ann', comment: 'valve closed' });
  });

  it('a command off the allow-list, or for an alarm of another device, is refused: nothing changed, on the node, at Catch, in the metrics', async () => {
    const { a, b, caught, command, reply } = await start();
    helper.getNode('alm').receive({ payload: true });
    helper.getNode('alm2').receive({ payload: true });
    await waitFor(() => systemWith(a).get(a)?.shown === 'active-unack' && systemWith(b).get(b)?.shown === 'active-unack', 'both raised');
    const refusedBefore = await refusedCount();
    const journalled = systemWith(a).recent(500).length;
    command(a, { id: 'oos-1', op: 'alarm-remove-from-service', payload: { user: 'bob' } });
    (await reply(a, 'oos-1')).refused!.should.equal(
      'op "alarm-remove-from-service" is not allowed here (allowed: io-output, alarm-acknowledge, alarm-acknowledge-all)',
    );
    await waitFor(() => caught.length === 1, 'the refusal at Catch');
    caught[0].error.message.should.match(/op "alarm-remove-from-service" is not allowed here/);
    lastStatus(helper.getNode('pub'))!.should.containEql({ fill: 'yellow', shape: 'ring' });
    // cell's topic, cell-b's alarm (a gateway serves both): refused, cell-b's alarm not acknowledged.
    command(b, { id: 'other-1', op: 'alarm-acknowledge', payload: { user: 'bob' } });
    (await reply(b, 'other-1')).refused!.should.equal(`alarm ${b} is an alarm of cell-b, not of cell: nothing changed`);
    // Read as every alarm command is (pure/alarm-command.ts): a comment past its bound.
    command(a, { id: 'long-1', op: 'alarm-acknowledge', payload: { comment: 'x'.repeat(501) } });
    (await reply(a, 'long-1')).refused!.should.match(/^comment must be/);
    await waitFor(() => caught.length === 3, 'every refusal at Catch');
    systemWith(a).get(a)!.shown.should.equal('active-unack');
    systemWith(b).get(b)!.shown.should.equal('active-unack');
    systemWith(a).recent(500).length.should.equal(journalled);
    (await refusedCount()).should.equal(refusedBefore + 3);
    // acknowledge-all of cell acknowledges cell's alarms only; the node is green again.
    command('*', { id: 'all-1', op: 'alarm-acknowledge-all', payload: { user: 'ann', comment: 'shift start' } });
    (await reply('*', 'all-1')).should.containEql({ ok: true, payload: { transitions: [{ alarm: a, from: 'active-unack', to: 'active-ack' }] } });
    systemWith(b).get(b)!.shown.should.equal('active-unack');
    lastStatus(helper.getNode('pub'))!.should.containEql({ fill: 'green', text: 'plant/cell' });
  });

  it('the states are published again when the broker is back (the mqtt out status turns green) and after a redeploy of the node', async () => {
    const { a, nodes, on } = await start();
    helper.getNode('alm').receive({ payload: true });
    const raised = () => on(`plant/cell/alarms/${a}/state`).filter((m) => (m.payload as { shown?: string }).shown === 'active-unack');
    await waitFor(() => raised().length === 1, 'the state');
    const pub = helper.getNode('pub');
    const status = (fill: string) => ({ status: { fill, shape: 'dot', text: '', source: { id: 'out', type: 'mqtt out' } } });
    pub.receive(status('red'));
    pub.receive(status('green'));
    await waitFor(() => raised().length === 2, 'the state again');
    raised()[1].should.containEql({ retain: true, qos: 1 });
    // A redeploy of the node alone ("modified nodes"): the state once more.
    const changed = nodes.map((n) => (n.id === 'pub' ? { ...n, name: 'renamed' } : n));
    await deploy(changed, 'nodes');
    await waitFor(() => raised().length === 3, 'the state after the redeploy');
  });
});

/** The alarm system that holds an alarm (the runtime's; a test process may hold others). */
function systemWith(alarm: string): AlarmSystem {
  const system = alarmSystems().find((s) => s.get(alarm));
  if (!system) throw new Error(`no alarm system holds ${alarm}`);
  return system;
}

/** modular_device_fleet_commands_refused_total{kind="alarm"}, scraped from the admin route. */
async function refusedCount(): Promise<number> {
  const res = await helper.request().get('/modular-device/metrics').expect(200);
  const family = parsePrometheus(res.text).find((f) => f.name === 'modular_device_fleet_commands_refused_total');
  return Number(family?.metrics.find((m) => m.labels?.kind === 'alarm')?.value ?? 0);
}
