/**
 * One Node-RED serving several devices (a gateway): 20 simulated devices × 3 modules, one
 * fleet-publish node. Each config node names its Fleet device, so each module is published
 * under its own device, never all of them under the instance's name; every payload names its
 * device; an alert and a command reach the device they name and no other. On the embedded
 * broker, and on Mosquitto too where it is installed (as fleet-mqtt.test.ts).
 */
import 'should';
import fs from 'fs';
import { startFleet } from '../../simulator';
import type { Fleet } from '../../simulator';
import { Broker, instanceSuite, MOSQUITTO, Mosquitto, TestBroker, waitFor } from '../helpers/fleet-harness';
import { request } from '../helpers/http';
import { TEST_API } from '../helpers/api';

const DEVICES = 20;
const MODULES = [
  { service: 'io', slot: 2 },
  { service: 'bmc', slot: 0 },
  { service: 'power', slot: 1 },
];
const WAIT = 60_000;

/** The gateway's flow: per device three config nodes (Fleet device = its name), an alert poll that says whose it is, an io-read for commands. */
function gatewayFlow(fleet: Fleet, brokerPort: number, protocol: 4 | 5): unknown[] {
  const tab = 'gw0tab';
  const flow: Array<Record<string, unknown>> = [
    { id: tab, type: 'tab', label: 'gateway' },
    {
      id: 'gw0broker',
      type: 'mqtt-broker',
      broker: '127.0.0.1',
      port: String(brokerPort),
      clientid: 'gateway',
      autoConnect: true,
      protocolVersion: String(protocol),
      keepalive: '15',
      cleansession: true,
      birthTopic: 'plant/gateway/node-red',
      birthQos: '1',
      birthRetain: 'true',
      birthPayload: 'online',
      willTopic: 'plant/gateway/node-red',
      willQos: '1',
      willRetain: 'true',
      willPayload: 'offline',
    },
    { id: 'gw0pub', type: 'fleet-publish', z: tab, prefix: 'plant', deviceName: 'gateway', commands: 'io-read', wires: [['gw0out'], ['gw0route']] },
    { id: 'gw0out', type: 'mqtt out', z: tab, broker: 'gw0broker', topic: '', qos: '', retain: '', wires: [] },
    { id: 'gw0status', type: 'status', z: tab, scope: ['gw0out'], wires: [['gw0pub']] },
    // Every device's commands through one subscription: this Node-RED is the only one under plant/ here.
    {
      id: 'gw0in',
      type: 'mqtt in',
      z: tab,
      topic: 'plant/+/+/+/command',
      qos: '1',
      datatype: 'buffer',
      broker: 'gw0broker',
      rap: true,
      rh: 0,
      wires: [['gw0pub']],
    },
  ];
  const rules: unknown[] = [];
  const routes: string[][] = [];
  fleet.devices.forEach((device, i) => {
    const config = (m: (typeof MODULES)[number]) => `gw${i}${m.service}`;
    for (const m of MODULES) {
      flow.push({
        id: config(m),
        type: 'modular-device',
        url: device.url,
        service: m.service,
        slot: String(m.slot),
        apiVersion: 'auto',
        timeout: '5000',
        queueLimit: '100',
        answerLimit: '64',
        auth: 'none',
        tls: '',
        fleetDevice: device.name,
      });
    }
    const io = config(MODULES[0]);
    flow.push(
      { id: `gw${i}poll`, type: 'notification-poll', z: tab, device: io, interval: '1000', pins: [], alerts: [], combined: false, wires: [[`gw${i}whose`]] },
      // A msg of a module names its module by path only: msg.device says whose it is.
      { id: `gw${i}whose`, type: 'change', z: tab, rules: [{ t: 'set', p: 'device', pt: 'msg', to: device.name, tot: 'str' }], wires: [['gw0pub']] },
      {
        id: `gw${i}read`,
        type: 'io-read',
        z: tab,
        device: io,
        source: 'values',
        pin: 'all',
        interval: '0',
        onlyOnChange: false,
        deadband: '0',
        output: 'record',
        wires: [['gw0pub']],
      },
    );
    rules.push({ t: 'eq', v: device.name, vt: 'str' });
    routes.push([`gw${i}read`]);
  });
  // Commands go to the io-read of the device they name.
  flow.push({
    id: 'gw0route',
    type: 'switch',
    z: tab,
    property: 'fleetCommand.device',
    propertyType: 'msg',
    rules,
    checkall: 'false',
    outputs: rules.length,
    wires: routes,
  });
  return flow;
}

function gatewaySuite(broker: TestBroker) {
  describe(`fleet: one Node-RED serving ${DEVICES} devices × 3 modules (a gateway), broker ${broker.name}`, function () {
    this.timeout(120_000);
    let fleet: Fleet;
    before(async function () {
      fleet = await startFleet({ devices: DEVICES, namePrefix: 'cell', api: TEST_API });
    });
    const { central } = instanceSuite(broker, {
      name: 'gateway',
      clientId: 'central-gateway',
      flow: () => gatewayFlow(fleet, broker.port, broker.protocol),
    });
    after(async function () {
      await fleet?.close();
    });
    const state = (device: string, module: string) => central.last.get(`plant/${device}/${module}/state`);

    it("publishes each of the 60 modules under its own device, the device in its payload; nothing under the instance's name", async function () {
      const names = fleet.devices.map((d) => d.name);
      await waitFor('all 60 modules connected', WAIT, () =>
        names.every((d) => MODULES.every((m) => state(d, `${m.service}/${m.slot}`)?.state === 'connected')),
      );
      const states = central.all.filter((m) => m.topic.endsWith('/state'));
      new Set(states.map((m) => m.topic)).size.should.equal(DEVICES * MODULES.length);
      for (const m of states) m.payload.device.should.equal(m.topic.split('/')[1]);
      central.all.filter((m) => m.topic.startsWith('plant/gateway/') && m.topic !== 'plant/gateway/node-red').should.eql([]);
    });

    it('an alert of one device is published under that device only, naming it', async function () {
      const device = fleet.devices[6];
      const seen = central.all.length;
      (await request(device.url, 'POST', '/sim/io/2/pins/3/alert', { alert: 'high_current_alert' })).status.should.equal(200);
      const alert = await waitFor('the alert of cell-07', WAIT, () => central.all.slice(seen).find((m) => m.topic.endsWith('/alert')));
      alert.topic.should.equal('plant/cell-07/io/2/alert');
      alert.payload.should.containEql({ device: 'cell-07', pin: 3 });
      alert.payload.alerts.should.containEql('high_current_alert');
      central.all
        .slice(seen)
        .filter((m) => m.topic.endsWith('/alert') && m.topic !== 'plant/cell-07/io/2/alert')
        .should.eql([]);
    });

    it('a command reaches the device its topic names, and its reply names it; a device not here is refused', async function () {
      const [eleven, twelve] = [fleet.devices[10], fleet.devices[11]];
      const seq = (d: typeof eleven) => d.log.entries().at(-1)?.seq ?? 0;
      const [since11, since12] = [seq(eleven), seq(twelve)];
      await central.publish('plant/cell-12/io/2/command', { id: 'gw-read', op: 'io-read', payload: {} });
      const replies = (topic: string) => central.all.filter((m) => m.topic === topic).map((m) => m.payload);
      const reply = await waitFor('the reply of cell-12', WAIT, () => replies('plant/cell-12/io/2/reply').find((r) => r.id === 'gw-read'));
      reply.should.containEql({ device: 'cell-12', op: 'io-read', ok: true });
      reply.payload.pins.should.have.length(6);
      twelve.log
        .entries(since12)
        .some((e) => /\/input\//.test(e.path))
        .should.be.true();
      eleven.log
        .entries(since11)
        .some((e) => /\/input\//.test(e.path))
        .should.be.false();
      await central.publish('plant/cell-99/io/2/command', { id: 'gw-none', op: 'io-read', payload: {} });
      const refused = await waitFor('the refusal for cell-99', WAIT, () => replies('plant/cell-99/io/2/reply').find((r) => r.id === 'gw-none'));
      refused.refused.should.startWith('no device "cell-99" in this Node-RED (its devices: gateway, cell-01');
    });
  });
}

gatewaySuite(new Broker());
if (fs.existsSync(MOSQUITTO)) gatewaySuite(new Mosquitto());
else console.log(`fleet gateway: ${MOSQUITTO} is not installed: the gateway suite runs on the embedded broker only`);
