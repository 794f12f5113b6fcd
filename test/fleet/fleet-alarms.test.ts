/**
 * Alarms on the fleet's MQTT and in the Prometheus metrics, on real engines: one Node-RED (a
 * child process) with a device-alarm of its io module fed from MQTT, fleet-publish allowing
 * acknowledge and shelve only, a broker and a central subscriber (mqtt.js). What a plant
 * relies on: the alarm's state retained where a late subscriber finds it, an event per
 * transition, an acknowledge from the control room with who and why in the journal, a command
 * that is not allowed or retained refused with nothing changed (and caught in the flow), and
 * the alarm system's ISA-18.2 health scraped. On the embedded broker (aedes, MQTT 3.1.1), and
 * on Mosquitto (MQTT 5) where Debian's package is installed, as fleet-mqtt.test.ts.
 */
import 'should';
import fs from 'fs';
import path from 'path';
import { startSimulator } from '../../simulator';
import type { Simulator } from '../../simulator';
import { Broker, instanceSuite, MOSQUITTO, Mosquitto, Subscriber, TestBroker, waitFor } from '../helpers/fleet-harness';
import { getText } from '../helpers/http';
import { TEST_API } from '../helpers/api';

const parsePrometheus = require('parse-prometheus-text-format') as (text: string) => Array<{
  name: string;
  metrics: Array<{ value?: string; labels?: Record<string, string> }>;
}>;

const WAIT = 30_000;
const ALARM = 'tank.high';
const TOPIC = `plant/cell-a/alarms/${ALARM}`;

/** The instance's flow: the alarm's condition from test/cell-a/tank, the fleet's topics, a Catch of fleet-publish's refusals published on test/cell-a/caught. */
function alarmFlow(simUrl: string, brokerPort: number, protocol: 4 | 5): unknown[] {
  const z = 'al0tab';
  return [
    { id: z, type: 'tab', label: 'alarms on the fleet' },
    {
      id: 'al0broker',
      type: 'mqtt-broker',
      broker: '127.0.0.1',
      port: String(brokerPort),
      clientid: 'cell-a',
      autoConnect: true,
      protocolVersion: String(protocol),
      keepalive: '15',
      cleansession: true,
    },
    {
      id: 'al0io',
      type: 'modular-device',
      url: simUrl,
      service: 'io',
      slot: '2',
      apiVersion: 'auto',
      timeout: '5000',
      queueLimit: '100',
      answerLimit: '64',
      auth: 'none',
      tls: '',
    },
    { id: 'al0cond', type: 'mqtt in', z, topic: 'test/cell-a/tank', qos: '1', datatype: 'json', broker: 'al0broker', rap: true, rh: 0, wires: [['al0alarm']] },
    {
      id: 'al0alarm',
      type: 'device-alarm',
      z,
      alarmId: ALARM,
      priority: '1',
      message: 'Tank level high',
      area: 'tanks',
      device: 'al0io',
      source: 'condition',
      property: 'payload',
      wires: [[]],
    },
    { id: 'al0pub', type: 'fleet-publish', z, prefix: 'plant', deviceName: 'cell-a', commands: 'alarm-acknowledge, alarm-shelve', wires: [['al0out'], []] },
    { id: 'al0out', type: 'mqtt out', z, broker: 'al0broker', topic: '', qos: '', retain: '', wires: [] },
    { id: 'al0status', type: 'status', z, scope: ['al0out'], wires: [['al0pub']] },
    {
      id: 'al0in',
      type: 'mqtt in',
      z,
      topic: 'plant/cell-a/+/+/command',
      qos: '1',
      datatype: 'buffer',
      broker: 'al0broker',
      rap: true,
      rh: 0,
      wires: [['al0pub']],
    },
    { id: 'al0catch', type: 'catch', z, scope: ['al0pub'], uncaught: false, wires: [['al0said']] },
    { id: 'al0said', type: 'change', z, rules: [{ t: 'set', p: 'payload', pt: 'msg', to: 'error.message', tot: 'msg' }], wires: [['al0caught']] },
    { id: 'al0caught', type: 'mqtt out', z, broker: 'al0broker', topic: 'test/cell-a/caught', qos: '1', retain: 'false', wires: [] },
  ];
}

function alarmCases(broker: TestBroker) {
  describe(`fleet: alarms on MQTT and in the metrics (${broker.name})`, function () {
    this.timeout(90_000);
    let sim: Simulator;
    before(async function () {
      sim = await startSimulator({ port: 0, api: TEST_API });
    });
    after(async function () {
      await central.publishRaw(`${TOPIC}/command`, '', true).catch(() => undefined);
    });
    const { central, red } = instanceSuite(broker, {
      name: 'alarms',
      clientId: 'central-alarms',
      topic: '#',
      // Retained before Node-RED subscribes: the broker hands it out (retain flag set) on the subscribe.
      beforeStart: (c) => c.publish(`${TOPIC}/command`, { id: 'retained-ack', op: 'alarm-acknowledge', payload: { user: 'nobody' } }, true),
      flow: () => alarmFlow(sim.url, broker.port, broker.protocol),
    });
    after(async function () {
      await sim?.close();
    });
    before(async function () {
      await waitFor('the io module connected', WAIT, () => central.last.get('plant/cell-a/io/2/state')?.state === 'connected');
    });
    const on = (topic: string) => central.all.filter((m) => m.topic === topic);
    const reply = (id: string) => waitFor(`the reply ${id}`, WAIT, () => on(`${TOPIC}/reply`).find((m) => m.payload.id === id)?.payload);
    const shown = () => central.last.get(`${TOPIC}/state`)?.shown;

    it('a retained command is never run: refused when Node-RED subscribes, the alarm unchanged', async function () {
      (await reply('retained-ack')).refused.should.match(/^a retained command is not run: the broker hands it out again on every \(re\)subscribe/);
      await waitFor('the refusal at Catch', WAIT, () => on('test/cell-a/caught').find((m) => /a retained command is not run/.test(m.payload)));
      await waitFor('the alarm normal', WAIT, () => shown() === 'normal');
      await central.publishRaw(`${TOPIC}/command`, '', true);
    });

    it('an alarm raised: its state retained (a late subscriber gets it), its transition an event', async function () {
      await central.publish('test/cell-a/tank', true);
      await waitFor('the alarm active and unacknowledged', WAIT, () => shown() === 'active-unack');
      const event = await waitFor('the raise event', WAIT, () => on(`${TOPIC}/event`).find((m) => m.payload.to === 'active-unack'));
      event.retain.should.be.false();
      event.payload.should.containEql({ device: 'cell-a', alarm: ALARM, from: 'normal', to: 'active-unack', priority: 1, message: 'Tank level high' });
      const late = new Subscriber();
      await late.connect(broker.port, 'late-alarms', 'plant/cell-a/alarms/#');
      try {
        const state = await waitFor('the retained state', WAIT, () => late.all.find((m) => m.topic === `${TOPIC}/state` && m.retain));
        state.payload.should.containEql({ device: 'cell-a', id: ALARM, shown: 'active-unack', annunciated: true, priority: 1, area: 'tanks' });
      } finally {
        await late.close();
      }
    });

    it('acknowledged over MQTT: replied, the state and an event say so, the journal keeps user and comment', async function () {
      await central.publish(`${TOPIC}/command`, { id: 'ack-1', op: 'alarm-acknowledge', payload: { user: 'ann', comment: 'valve closed' } });
      (await reply('ack-1')).should.containEql({ device: 'cell-a', op: 'alarm-acknowledge', ok: true });
      await waitFor('the alarm acknowledged', WAIT, () => shown() === 'active-ack');
      (await waitFor('the acknowledge event', WAIT, () => on(`${TOPIC}/event`).find((m) => m.payload.to === 'active-ack'))).payload.should.containEql({
        cause: 'acknowledge',
        user: 'ann',
        comment: 'valve closed',
      });
      const journal = path.join(red().userDir, 'modular-device-alarms.json');
      const entry = await waitFor('the acknowledge in the journal file', WAIT, () => {
        if (!fs.existsSync(journal)) return undefined;
        const entries = (JSON.parse(fs.readFileSync(journal, 'utf8')) as { entries: Array<Record<string, unknown>> }).entries;
        return entries.find((e) => e.alarm === ALARM && e.cause === 'acknowledge');
      });
      entry.should.containEql({ user: 'ann', comment: 'valve closed', from: 'active-unack', to: 'active-ack' });
    });

    it('a command off the allow-list is refused: nothing changed, caught in the flow', async function () {
      const events = on(`${TOPIC}/event`).length;
      await central.publish(`${TOPIC}/command`, { id: 'oos-1', op: 'alarm-remove-from-service', payload: { user: 'bob' } });
      (await reply('oos-1')).should.containEql({
        ok: false,
        refused: 'op "alarm-remove-from-service" is not allowed here (allowed: alarm-acknowledge, alarm-shelve)',
      });
      await waitFor('the refusal at Catch', WAIT, () => on('test/cell-a/caught').find((m) => /op "alarm-remove-from-service" is not allowed/.test(m.payload)));
      shown().should.equal('active-ack');
      on(`${TOPIC}/event`).length.should.equal(events);
    });

    it('the metrics carry the alarm system health: activations, flood, chattering, stale, the top alarms, states by priority, refusals', async function () {
      const scrape = await getText(`${red().url}/modular-device/metrics`);
      scrape.status.should.equal(200, scrape.body);
      const families = parsePrometheus(scrape.body);
      const values = (name: string) => families.find((f) => f.name === name)?.metrics ?? [];
      const value = (name: string, labels: Record<string, string> = {}) =>
        Number(values(name).find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v))?.value);
      value('modular_device_alarms_per_10_minutes').should.equal(1);
      value('modular_device_alarm_flood').should.equal(0);
      value('modular_device_alarm_flood_seconds_total').should.equal(0);
      value('modular_device_alarms_chattering').should.equal(0);
      value('modular_device_alarms_stale').should.equal(0);
      values('modular_device_alarm_top_activations').should.eql([{ value: '1', labels: { alarm: ALARM } }]);
      value('modular_device_alarms', { state: 'active-ack', priority: '1' }).should.equal(1);
      values('modular_device_alarms')
        .filter((m) => Number(m.value) > 0)
        .should.have.length(1);
      value('modular_device_alarm_journal_problem').should.equal(0);
      value('modular_device_alarm_journal_writes_total').should.be.above(0);
      value('modular_device_fleet_commands_refused_total', { kind: 'alarm' }).should.equal(2);
      scrape.body.should.match(/# HELP modular_device_alarms_per_10_minutes Alarm activations in the last 10 minutes/);
    });
  });
}

alarmCases(new Broker());
if (fs.existsSync(MOSQUITTO)) alarmCases(new Mosquitto());
else console.log(`fleet alarms: ${MOSQUITTO} is not installed: the alarm suite runs on the embedded broker only`);
