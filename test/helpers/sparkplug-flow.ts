/**
 * The flow of the Sparkplug fleet tests: one Node-RED as a Sparkplug B edge node (fleet-publish
 * with Protocol `sparkplug` or `both`) for the modules io 2, bmc 0 and power 1 of one
 * simulated device or several (a gateway: each further device's config nodes name their
 * Fleet device). Commands leave on output 2 to the action nodes, as examples/fleet-mqtt.json
 * wires them, and their answers (and a Catch of their failures) come back in.
 *
 * What the tests watch besides the host, on a core mqtt broker node, under test/<edge>/:
 * `status` (fleet-publish's status), `caught` (its errors at a Catch node), `sent` (every msg
 * it sends on output 2), `seen` (an io-read msg of the first device as the node sends it). And what they
 * drive: `read` (that io-read reads all pins), `feed` (a msg `{request, payload}` into fleet-publish,
 * as a reading node would send it: for more changes than a device makes quickly), its `n`
 * reported on `fed` once fleet-publish has it.
 */
import { deviceNode } from './device-node';

export const GROUP = 'plant';
/** The modules of each device, and their Sparkplug device ids (`<service>-<slot>`). */
export const MODULES = [
  { service: 'io', slot: 2 },
  { service: 'bmc', slot: 0 },
  { service: 'power', slot: 1 },
] as const;
export const DEVICE_IDS = MODULES.map((m) => `${m.service}-${m.slot}`);
/** The action nodes a command may go to, one of each per device. */
const ACTIONS = ['io-output', 'io-read'] as const;

export interface SpFlowOptions {
  /** The embedded or the Mosquitto broker's port, and its MQTT version (for the core mqtt nodes). */
  brokerPort: number;
  protocol: 4 | 5;
  mode?: 'sparkplug' | 'both';
  /** fleet-publish's Device: the edge node id. */
  edge: string;
  primaryHost?: string;
  /** fleet-publish's Commands (the allow-list). */
  commands?: string;
  /** The simulated devices: the first is the edge node's own, each further one a Fleet device of its own. */
  devices: Array<{ url: string; fleetDevice?: string }>;
}

/** fleet-publish's Sparkplug settings (the node's fields), in one place. */
export function sparkplugFields(o: SpFlowOptions): Record<string, unknown> {
  return {
    protocol: o.mode ?? 'sparkplug',
    broker: `mqtt://127.0.0.1:${o.brokerPort}`,
    tls: '',
    group: GROUP,
    edgeNode: '',
    primaryHost: o.primaryHost ?? '',
  };
}

const config = (d: number, service: string) => `sp${d}${service}`;

/** The flow; its node ids start with `sp`. fleet-publish is `sp0pub`. */
export function sparkplugFlow(o: SpFlowOptions): Array<Record<string, unknown>> {
  const z = 'sp0tab';
  const t = (what: string) => `test/${o.edge}/${what}`;
  const out = (id: string, topic: string) => ({ id, type: 'mqtt out', z, broker: 'sp0broker', topic, qos: '1', retain: 'false', wires: [] });
  const names = o.devices.map((d) => d.fleetDevice ?? o.edge);
  const flow: Array<Record<string, unknown>> = [
    { id: z, type: 'tab', label: 'sparkplug' },
    {
      id: 'sp0broker',
      type: 'mqtt-broker',
      broker: '127.0.0.1',
      port: String(o.brokerPort),
      clientid: `${o.edge}-tests`,
      autoConnect: true,
      protocolVersion: String(o.protocol),
      keepalive: '15',
      cleansession: true,
    },
    {
      id: 'sp0pub',
      type: 'fleet-publish',
      z,
      prefix: 'plant',
      deviceName: o.edge,
      commands: o.commands ?? 'io-output',
      ...sparkplugFields(o),
      wires: [['sp0uns'], ['sp0route', 'sp0tapsent']],
    },
    // UNS (mode both): the fleet's JSON topics, as examples/fleet-mqtt.json publishes them.
    { id: 'sp0uns', type: 'mqtt out', z, broker: 'sp0broker', topic: '', qos: '', retain: '', wires: [] },
    { id: 'sp0unsstatus', type: 'status', z, scope: ['sp0uns'], wires: [['sp0pub']] },
    {
      id: 'sp0unsin',
      type: 'mqtt in',
      z,
      topic: 'plant/+/+/+/command',
      qos: '1',
      datatype: 'buffer',
      broker: 'sp0broker',
      rap: true,
      rh: 0,
      wires: [['sp0pub']],
    },
    // What the tests watch.
    { id: 'sp0status', type: 'status', z, scope: ['sp0pub'], wires: [['sp0statusjson']] },
    { id: 'sp0statusjson', type: 'change', z, rules: [{ t: 'set', p: 'payload', pt: 'msg', to: 'status', tot: 'msg' }], wires: [['sp0statusout']] },
    out('sp0statusout', t('status')),
    { id: 'sp0catch', type: 'catch', z, scope: ['sp0pub'], uncaught: false, wires: [['sp0caughtjson']] },
    { id: 'sp0caughtjson', type: 'change', z, rules: [{ t: 'set', p: 'payload', pt: 'msg', to: 'error.message', tot: 'msg' }], wires: [['sp0caughtout']] },
    out('sp0caughtout', t('caught')),
    {
      id: 'sp0tapsent',
      type: 'function',
      z,
      func: 'return { payload: { topic: msg.topic, payload: msg.payload, fleetCommand: msg.fleetCommand } };',
      outputs: 1,
      wires: [['sp0sentout']],
    },
    out('sp0sentout', t('sent')),
    // What the tests drive.
    { id: 'sp0read', type: 'mqtt in', z, topic: t('read'), qos: '1', datatype: 'json', broker: 'sp0broker', rap: true, rh: 0, wires: [['sp0io-read']] },
    { id: 'sp0tapseen', type: 'function', z, func: 'return { payload: { request: msg.request, payload: msg.payload } };', outputs: 1, wires: [['sp0seenout']] },
    out('sp0seenout', t('seen')),
    { id: 'sp0feed', type: 'mqtt in', z, topic: t('feed'), qos: '1', datatype: 'json', broker: 'sp0broker', rap: true, rh: 0, wires: [['sp0feedmsg']] },
    // Into fleet-publish, then its number `n` told (Node-RED hands the msgs on in order: once `fed` says n, fleet-publish has had it).
    {
      id: 'sp0feedmsg',
      type: 'function',
      z,
      func: 'return [{ request: msg.payload.request, payload: msg.payload.payload }, { payload: { n: msg.payload.n } }];',
      outputs: 2,
      wires: [['sp0pub'], ['sp0fedout']],
    },
    out('sp0fedout', t('fed')),
    // Commands to the action node of the device and op they name (msg.fleetCommand), as a switch would.
    {
      id: 'sp0route',
      type: 'function',
      z,
      func: [
        `const devices = ${JSON.stringify(names)}, ops = ${JSON.stringify(ACTIONS)};`,
        'const d = devices.indexOf(msg.fleetCommand && msg.fleetCommand.device), k = ops.indexOf(msg.fleetCommand && msg.fleetCommand.op);',
        'if (d < 0 || k < 0) return null;',
        'const out = new Array(devices.length * ops.length).fill(null);',
        'out[d * ops.length + k] = msg;',
        'return out;',
      ].join('\n'),
      outputs: names.length * ACTIONS.length,
      wires: names.flatMap((_, d) => ACTIONS.map((op) => [`sp${d}${op}`])),
    },
    // The own device's readings name it (msg.device), as a gateway's flows must (a reading names its module by path only);
    // the other devices' nodes only answer commands, whose msg.fleetCommand names the device.
    { id: 'sp0whose', type: 'change', z, rules: [{ t: 'set', p: 'device', pt: 'msg', to: o.edge, tot: 'str' }], wires: [['sp0pub']] },
    { id: 'sp0actioncatch', type: 'catch', z, scope: names.flatMap((_, d) => ACTIONS.map((op) => `sp${d}${op}`)), uncaught: false, wires: [['sp0pub']] },
  ];
  o.devices.forEach((device, d) => {
    for (const m of MODULES) {
      flow.push({
        ...deviceNode({ id: config(d, m.service), url: device.url, service: m.service, slot: m.slot }),
        answerLimit: '64',
        ...(device.fleetDevice ? { fleetDevice: device.fleetDevice } : {}),
      });
    }
    const io = config(d, 'io');
    flow.push(
      {
        id: `sp${d}io-output`,
        type: 'io-output',
        z,
        device: io,
        pin: '1',
        mode: 'state',
        state: 'high',
        pwmInput: 'frequency',
        frequency: '1000',
        duty: '50',
        wires: [[d === 0 ? 'sp0whose' : 'sp0pub']],
      },
      {
        id: `sp${d}io-read`,
        type: 'io-read',
        z,
        device: io,
        source: 'values',
        pin: 'all',
        interval: '0',
        onlyOnChange: false,
        deadband: '0',
        output: 'record',
        wires: [d === 0 ? ['sp0whose', 'sp0tapseen'] : ['sp0pub']],
      },
      // The outputs need a power configuration (spec, io rule 1): on connect, as the example does.
      {
        id: `sp${d}iopower`,
        type: 'io-power',
        z,
        device: io,
        pins: [1, 2, 3, 4, 5, 6].map(() => ({ rail: '5_volt', current: 100 })),
        applyOnConnect: true,
        wires: [[]],
      },
    );
  });
  return flow;
}
