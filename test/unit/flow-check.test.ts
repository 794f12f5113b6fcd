/**
 * The flow check, rule by rule, on hand-written flows: each finding appears for a flow with
 * the fault and is gone once the flow is fixed; disabled nodes, nodes on disabled tabs and
 * values only known at run time are never judged.
 */
import should from 'should';
import { checkFlows, FlowNode } from '../../nodes/lib/pure/flow-check';
import { deviceLocation } from '../../nodes/lib/pure/flow-nodes';
import { DeviceClient } from '../../nodes/lib/device/client';
import { briefly, config, device, HOST, liveModule, node, NO_LIVE, powerPins } from '../helpers/flows';

const DEVICE = device({ io: [2, 3], bmc: [1], power: [4] });

describe('flow check: device and service', () => {
  it('slot-missing: a slot the io version record does not list; gone when the slot is fixed', () => {
    const flows = [config('c1', 'io', 5), node('n1', 'io-read', 'c1')];
    const found = checkFlows(flows, { modules: [], devices: [DEVICE] });
    briefly(found).should.eql([{ key: 'finding.slotMissing', nodes: ['c1', 'n1'] }]);
    found[0].values.should.eql({ slot: 5, device: HOST, service: 'io' });
    checkFlows([config('c1', 'io', 2), flows[1]], { modules: [], devices: [DEVICE] }).should.eql([]);
  });

  it("slot-missing only when the service's list is known, and only for the device the URL names", () => {
    const flows = [config('c1', 'io', 5)];
    checkFlows(flows, { modules: [], devices: [device({ bmc: [1] })] }).should.eql([]);
    checkFlows(flows, { modules: [], devices: [device({ io: [2] }, '10.0.0.9')] }).should.eql([]);
    checkFlows(flows, NO_LIVE).should.eql([]);
  });

  it('wrong-service: the slot holds a module of another service', () => {
    const found = checkFlows([config('c1', 'io', 1)], { modules: [], devices: [DEVICE] });
    briefly(found).should.eql([{ key: 'finding.slotWrongService', nodes: ['c1'] }]);
    found[0].values.should.eql({ slot: 1, device: HOST, service: 'io', actual: 'bmc' });
  });

  it('wrong-service: an action node whose type needs another service than its module', () => {
    const flows = [
      config('c1', 'io', 2),
      node('w', 'bmc-watchdog', 'c1', { name: 'WD' }),
      node('p', 'notification-poll', 'c1'),
      node('i', 'device-info', 'c1'),
    ];
    const found = checkFlows(flows, NO_LIVE);
    briefly(found).should.eql([{ key: 'finding.nodeWrongService', nodes: ['w', 'c1'] }]);
    found[0].values.should.eql({ node: "bmc-watchdog 'WD'", service: 'bmc', module: `io slot 2 @ ${HOST}`, actual: 'io' });
    checkFlows([config('c1', 'bmc', 1), flows[1]], NO_LIVE).should.eql([]);
  });

  it('a ${VAR} in url or slot is skipped', () => {
    const live = { modules: [], devices: [DEVICE] };
    checkFlows([config('c1', 'io', '${SLOT}')], live).should.eql([]);
    checkFlows([config('c1', 'io', 5, { url: '${DEVICE_URL}' })], live).should.eql([]);
  });

  it('names a device as the runtime does (DeviceClient.location)', () => {
    for (const url of ['http://192.168.1.10', 'http://Dev.local:8080/', 'https://h:443/api/x//', 'http://[::1]:81/p']) {
      const client = new DeviceClient({ url, service: 'io', slot: 2, apiVersion: '0.9' });
      should(deviceLocation(url)).equal(client.location, url);
      void client.close();
    }
  });

  it('refuses the URLs the runtime refuses: one rule (query, hash, credentials, other schemes)', () => {
    const urls = [
      'http://h/?x=1',
      'http://h/#top',
      'http://u:p@h/',
      'http://h@x/',
      'ftp://h/',
      'h:8080',
      'http://h:8080/p?',
      ' http://h:81/ ',
      'https://h/a b',
    ];
    for (const url of urls) {
      let runtime: string | undefined;
      try {
        runtime = new DeviceClient({ url, service: 'io', slot: 2, apiVersion: '0.9' }).location;
      } catch {
        runtime = undefined;
      }
      should(deviceLocation(url)).equal(runtime, url);
    }
  });
});

describe('flow check: io', () => {
  it('two-polls: two enabled notification-polls on one module, also through two config nodes', () => {
    const flows = [
      config('c1', 'io', 2),
      config('c2', 'io', 2, { name: 'same module' }),
      node('p1', 'notification-poll', 'c1'),
      node('p2', 'notification-poll', 'c2', { name: 'Alarms' }),
    ];
    const found = checkFlows(flows, NO_LIVE);
    briefly(found).should.eql([{ key: 'finding.twoPolls', nodes: ['p1', 'p2'] }]);
    found[0].values.should.containEql({ count: 2, first: 'notification-poll', second: "notification-poll 'Alarms'" });
    checkFlows([...flows.slice(0, 3), { ...flows[3], d: true }], NO_LIVE).should.eql([]);
    checkFlows([...flows.slice(0, 3), { ...flows[3], device: 'c3' }, config('c3', 'io', 3)], NO_LIVE).should.eql([]);
  });

  it('two-polls: on API 1.0 polls of disjoint pins do not meet (a read clears only its pins); on 0.9 they do', () => {
    const flows = [config('c1', 'io', 2), node('p1', 'notification-poll', 'c1', { pins: ['1', '2'] }), node('p2', 'notification-poll', 'c1', { pins: '3,4' })];
    checkFlows(flows, { modules: [liveModule('c1', 'io', 2)], devices: [] }).should.eql([]);
    checkFlows(flows, { modules: [liveModule('c1', 'io', 2, { apiVersion: '0.9' })], devices: [] }).should.have.length(1);
    const overlapping = [flows[0], flows[1], { ...flows[2], pins: [] }];
    checkFlows(overlapping, { modules: [liveModule('c1', 'io', 2)], devices: [] }).should.have.length(1);
  });

  it('output-as-input: an io-output pin that an io-input or io-threshold also sets up', () => {
    const flows = [
      config('c1', 'io', 2),
      node('o', 'io-output', 'c1', { name: 'Pump', pin: 2, pinType: 'num' }),
      node('i', 'io-input', 'c1', { name: 'Button', pin: '2' }),
      node('t', 'io-threshold', 'c1', { pin: 2 }),
      node('o3', 'io-output', 'c1', { pin: 3 }),
      node('pw', 'io-power', 'c1'),
    ];
    const found = checkFlows(flows, NO_LIVE);
    briefly(found).should.eql([{ key: 'finding.outputAsInput', nodes: ['o', 'i', 't'] }]);
    found[0].values.should.eql({ output: "io-output 'Pump'", input: "io-input 'Button'", pin: 2 });
    checkFlows([flows[0], { ...flows[1], pin: 1 }, flows[2], flows[3], flows[5]], NO_LIVE).should.eql([]);
  });

  it('output-as-input: a pin from msg, flow, global or env, or a ${VAR}, is not known: skipped', () => {
    for (const more of [{ pin: 'pin', pinType: 'msg' }, { pin: 'P', pinType: 'env' }, { pin: 'p', pinType: 'flow' }, { pin: '${PIN}' }]) {
      checkFlows(
        [config('c1', 'io', 2), node('o', 'io-output', 'c1', more), node('i', 'io-input', 'c1', { pin: 2 }), node('pw', 'io-power', 'c1')],
        NO_LIVE,
      ).should.eql([], JSON.stringify(more));
    }
  });

  it("over-budget: a pin's current over its rail's bound (limits.ts)", () => {
    const pins = powerPins([
      ['5_volt', 301],
      ['12_volt', 500],
      ['5_volt', 0],
      ['5_volt', 0],
      ['5_volt', 0],
      ['12_volt', '501'],
    ]);
    const found = checkFlows([config('c1', 'io', 2), node('p', 'io-power', 'c1', { pins })], NO_LIVE);
    briefly(found).should.eql([
      { key: 'finding.pinOverRail', nodes: ['p'] },
      { key: 'finding.pinOverRail', nodes: ['p'] },
    ]);
    found
      .map((f) => f.values)
      .should.eql([
        { node: 'io-power', pin: 1, current: 301, rail: '5_volt', max: 300 },
        { node: 'io-power', pin: 6, current: 501, rail: '12_volt', max: 500 },
      ]);
  });

  it('over-budget: no module sum, on either API: no answer reports the limits it is judged against', () => {
    // 5V0: 6 × (300×5 + 200) = 10200 mW, far above anything the descriptor lists: still no finding,
    // the device's budget daemon decides (real §3.2) and says so itself (a denied answer).
    const pins = powerPins(Array(6).fill(['5_volt', 300]));
    const flows = [config('c1', 'io', 2), node('p', 'io-power', 'c1', { pins, name: 'Power' })];
    for (const apiVersion of ['0.9', '1.0'])
      checkFlows(flows, { modules: [liveModule('c1', 'io', 2, { apiVersion })], devices: [] }).should.eql([], apiVersion);
  });
});

describe('flow check: bmc and confirm', () => {
  const bmc = config('b', 'bmc', 1);
  const arm = node('w1', 'bmc-watchdog', 'b', { name: 'Arm', operation: 'timeout', timeout: 10000, confirm: true });

  it('watchdog-unkept: a node arms the watchdog with no keep-alive on the module', () => {
    const found = checkFlows([bmc, arm], NO_LIVE);
    briefly(found).should.eql([{ key: 'finding.watchdogUnkept', nodes: ['w1'] }]);
    found[0].values.should.eql({ node: "bmc-watchdog 'Arm'", timeout: 10000, module: `bmc slot 1 @ ${HOST}` });
    // Kept by another node's alive, by a built-in keep-alive, or possibly by a msg-chosen operation.
    for (const keeper of [{ operation: 'alive' }, { operation: 'read', keepAlive: true, confirm: true }, { operation: 'msg' }]) {
      checkFlows([bmc, arm, node('w2', 'bmc-watchdog', 'b', keeper)], NO_LIVE).should.eql([], JSON.stringify(keeper));
    }
    checkFlows([bmc, { ...arm, timeout: 0 }], NO_LIVE).should.eql([]);
    checkFlows([bmc, { ...arm, timeout: '${T}' }], NO_LIVE).should.eql([]);
  });

  it('watchdog-unkept: the live watchdog runs and nothing in the flows keeps it', () => {
    const live = (timeout: number) => ({ modules: [liveModule('b', 'bmc', 1, { bmc: { watchdog: { timeout, timeout_left: 5000 } } })], devices: [] });
    const found = checkFlows([bmc, node('r', 'bmc-readings', 'b')], live(10000));
    briefly(found).should.eql([{ key: 'finding.watchdogLive', nodes: ['b'] }]);
    found[0].values.should.eql({ module: `bmc slot 1 @ ${HOST}`, timeout: 10000 });
    checkFlows([bmc, node('k', 'bmc-watchdog', 'b', { operation: 'alive' })], live(10000)).should.eql([]);
    checkFlows([bmc], live(0)).should.eql([]);
    // A module known at run time alone (a ${VAR} URL) is found by its config node's id.
    const envBmc = { ...bmc, url: '${BMC_URL}' };
    briefly(checkFlows([envBmc], live(10000))).should.eql([{ key: 'finding.watchdogLive', nodes: ['b'] }]);
    checkFlows([envBmc, node('k', 'bmc-watchdog', 'b', { operation: 'alive' })], live(10000)).should.eql([]);
  });

  it('no-confirm: a dangerous operation (lib/dangerous.ts) without the confirm box', () => {
    const flows = [
      bmc,
      config('p', 'power', 4),
      config('i', 'io', 2),
      node('s', 'bmc-system', 'b', { operation: 'hard_reset', confirm: false }),
      node('u', 'bmc-usbhub', 'b', { operation: 'reset' }),
      node('l', 'power-limits', 'p', { operation: 'module_reset', confirm: 'false' }),
      node('r', 'io-reset', 'i', { confirm: false }),
      node('k', 'bmc-watchdog', 'b', { operation: 'alive', keepAlive: true, timeout: 10000, confirm: false }),
    ];
    const found = checkFlows(flows, NO_LIVE);
    found
      .map((f) => [f.kind, f.nodes[0], f.values.operation])
      .should.eql([
        ['no-confirm', 'k', 'keep-alive'],
        ['no-confirm', 'l', 'module_reset'],
        ['no-confirm', 'r', 'reset'],
        ['no-confirm', 's', 'hard_reset'],
        ['no-confirm', 'u', 'reset'],
      ]);
    const confirmed = flows.map((n) => (n.type === 'modular-device' ? n : { ...n, confirm: true }));
    checkFlows(confirmed, NO_LIVE).should.eql([]);
    // Safe operations, and a msg-chosen one (the runtime refuses a dangerous one without confirm).
    checkFlows([bmc, node('s', 'bmc-system', 'b', { operation: 'buzzer' }), node('m', 'bmc-system', 'b', { operation: 'msg' })], NO_LIVE).should.eql([]);
  });
});

describe('flow check: what is not judged', () => {
  const faulty: FlowNode[] = [
    config('c1', 'io', 2),
    { id: 'tab1', type: 'tab', disabled: false },
    { id: 'tab2', type: 'tab', disabled: true },
    node('p1', 'notification-poll', 'c1'),
    node('p2', 'notification-poll', 'c1', { z: 'tab1' }),
  ];

  it('finds the fault while every node is enabled', () => {
    checkFlows(faulty, NO_LIVE).should.have.length(1);
  });

  it('ignores disabled nodes', () => {
    checkFlows(
      faulty.map((n) => (n.id === 'p2' ? { ...n, d: true } : n)),
      NO_LIVE,
    ).should.eql([]);
  });

  it('ignores nodes on a disabled tab', () => {
    checkFlows(
      faulty.map((n) => (n.id === 'p2' ? { ...n, z: 'tab2' } : n)),
      NO_LIVE,
    ).should.eql([]);
  });

  it('ignores a disabled config node and the nodes using it', () => {
    checkFlows(
      faulty.map((n) => (n.id === 'c1' ? { ...n, d: true } : n)),
      { modules: [], devices: [device({ io: [7] })] },
    ).should.eql([]);
  });
});

describe('flow check: conflicts', () => {
  it('two-keepalives: two bmc-watchdogs keeping one watchdog alive; one is fine', () => {
    const keeper = (id: string, name: string) => node(id, 'bmc-watchdog', 'c1', { name, keepAlive: true, confirm: true });
    const flows = [config('c1', 'bmc', 0), keeper('k1', 'A'), keeper('k2', 'B')];
    const found = checkFlows(flows, NO_LIVE);
    briefly(found).should.eql([{ key: 'finding.twoKeepAlives', nodes: ['k1', 'k2'] }]);
    found[0].values.should.containEql({ first: "bmc-watchdog 'A'", second: "bmc-watchdog 'B'" });
    checkFlows(flows.slice(0, 2), NO_LIVE).should.eql([]);
  });

  it('pin-conflict: two thresholds on one pin, or an analog and a digital set-up; the same set-up twice is none', () => {
    const t = (id: string, mv: unknown, more = {}) => node(id, 'io-threshold', 'c1', { pin: 3, threshold_mV: mv, trigger: 'rising', ...more });
    const base = [config('c1', 'io', 2)];
    const found = checkFlows([...base, t('t1', 2500), t('t2', 3000)], NO_LIVE);
    briefly(found).should.eql([{ key: 'finding.pinThreshold', nodes: ['t1', 't2'] }]);
    found[0].values.should.eql({ first: 'io-threshold', second: 'io-threshold', pin: 3, a: 'rising 2500 mV', b: 'rising 3000 mV' });
    checkFlows([...base, t('t1', 2500), t('t2', '2500')], NO_LIVE).should.eql([]);
    checkFlows([...base, t('t1', 2500), t('t2', '${MV}')], NO_LIVE).should.eql([]);
    checkFlows([...base, t('t1', 2500), t('t2', 3000, { pin: 4 })], NO_LIVE).should.eql([]);
    const mixed = checkFlows([...base, t('t1', 2500), node('i', 'io-input', 'c1', { pin: 3, mode: 'digital' })], NO_LIVE);
    briefly(mixed).should.eql([{ key: 'finding.pinMode', nodes: ['i', 't1'] }]);
    mixed[0].values.should.containEql({ a: 'digital', b: 'analog', pin: 3 });
  });

  it('no-power-config: an io-output on a module no io-power node configures, linked to its config node', () => {
    const flows = [config('c1', 'io', 2), node('o', 'io-output', 'c1', { pin: 1 })];
    const found = checkFlows(flows, NO_LIVE);
    briefly(found).should.eql([{ key: 'finding.noPowerConfig', nodes: ['o', 'c1'] }]);
    checkFlows([...flows, node('pw', 'io-power', 'c1')], NO_LIVE).should.eql([]);
    // An io-power through another config node of the same module counts too.
    checkFlows([...flows, config('c2', 'io', 2), node('pw', 'io-power', 'c2')], NO_LIVE).should.eql([]);
    checkFlows([...flows, { ...node('pw', 'io-power', 'c1'), d: true }], NO_LIVE).should.have.length(1);
  });
});
