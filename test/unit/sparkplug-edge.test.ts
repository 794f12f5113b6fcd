/**
 * The Sparkplug edge node's session (nodes/fleet/sparkplug/edge-node.ts), driven through its
 * own interface: a link of the test's that records what is published (SpLink; the real MQTT
 * link is tested on a broker elsewhere), health events and msgs as fleet-publish hands them
 * in. Everything published is decoded by Eclipse Tahu's sparkplug-payload, not by ours.
 */
import should from 'should';
import { EdgeNode } from '../../nodes/fleet/sparkplug/edge-node';
import { metricNamed, metricsOf, writeOf } from '../../nodes/fleet/sparkplug/catalogue';
import type { CommandMsg } from '../../nodes/fleet/publisher';
import { FleetDevices } from '../../nodes/fleet/devices';
import { Scheme } from '../../nodes/fleet/scheme';
import type { HealthEvent } from '../../nodes/lib/config-node/health';
import { FLEET_BOUNDS, SPARKPLUG_BOUNDS } from '../../nodes/lib/pure/limits';
import { PendingCommands } from '../../nodes/fleet/sparkplug/pending-commands';
import { inLanguage, speak } from '../helpers/i18n';
import { hostEncode, hostEncodeFields, metricOf, Published, RecordingLink } from '../helpers/sparkplug-host';

const moduleAt = (slot: number) => ({ config: 'c1', service: 'io', slot, device: '127.0.0.1:1' });
const connection = (slot: number, state: string): HealthEvent =>
  ({ kind: 'connection', module: moduleAt(slot), cause: state, time: new Date().toISOString(), detail: { state } }) as HealthEvent;
const reading = (slot: number, pin: number, mV: number) => ({
  request: { method: 'GET', path: `/api/io/0.9/${slot}/input/values` },
  payload: { pins: [{ pin, pin_type: 'voltage_mV', value: mV }] },
});
const state = (online: boolean, timestamp: number) => Buffer.from(JSON.stringify({ online, timestamp }));

function edge(options: { primaryHost?: string; allowed?: string[]; deviceOf?: (config: string) => string | undefined } = {}) {
  const link = new RecordingLink();
  const commands: CommandMsg[] = [];
  const refused: string[] = [];
  const warnings: string[] = [];
  let bdSeq = 0;
  const fleet = new FleetDevices(new Scheme('plant', 'cell-01'), options.deviceOf ?? (() => undefined), (text) => warnings.push(text));
  const session = new EdgeNode(
    { group: 'plant', edgeNode: 'cell-01', primaryHost: options.primaryHost ?? '' },
    { next: () => bdSeq++ % 256 },
    new Set(options.allowed ?? ['io-output', 'io-threshold']),
    { command: (m) => commands.push(m as CommandMsg), refused: (r) => refused.push(r), warn: (w) => warnings.push(w) },
    fleet,
  );
  return { link, session, commands, refused, warnings };
}

/** A session up, with io-2 connected: the births taken. */
function born(options: { primaryHost?: string; allowed?: string[] } = {}) {
  const e = edge(options);
  e.session.will();
  e.session.up(e.link);
  e.session.health(connection(2, 'connected'));
  const births = e.link.take();
  const dbirth = births.find((p) => p.type === 'DBIRTH')!;
  const alias = (name: string) => metricOf(dbirth.payload, name)!.alias!;
  return { ...e, births, alias };
}

const types = (published: Published[]) => published.map((p) => p.type + (p.device ? ` ${p.device}` : ''));
const DCMD = 'spBv1.0/plant/DCMD/cell-01/io-2';
const NCMD = 'spBv1.0/plant/NCMD/cell-01';

describe('Sparkplug edge node session (nodes/fleet/sparkplug/edge-node.ts)', function () {
  before(() => speak());

  it('births: NBIRTH (seq 0, bdSeq, Rebirth, counters), then a DBIRTH declaring every metric of the module', function () {
    const e = edge();
    const will = e.session.will();
    will.topic.should.equal('spBv1.0/plant/NDEATH/cell-01');
    e.session.up(e.link);
    e.link.subscribed.should.eql(['spBv1.0/plant/NCMD/cell-01', 'spBv1.0/plant/DCMD/cell-01/+']);
    e.session.health(connection(2, 'connected'));
    e.session.health(connection(3, 'connected'));
    const [nbirth, io2, io3] = e.link.take();
    types([nbirth, io2, io3]).should.eql(['NBIRTH', 'DBIRTH io-2', 'DBIRTH io-3']);
    [nbirth, io2, io3].map((p) => p.payload.seq).should.eql([0, 1, 2]);
    [nbirth, io2].map((p) => p.qos).should.eql([0, 0]);
    metricOf(nbirth.payload, 'bdSeq')!.should.containEql({ type: 'UInt64', value: 0 });
    metricOf(nbirth.payload, 'Node Control/Rebirth')!.should.containEql({ type: 'Boolean', value: false });
    for (const name of ['Store and Forward/Stored', 'Store and Forward/Dropped', 'Commands/Refused']) metricOf(nbirth.payload, name)!.value!.should.equal(0);
    const defs = metricsOf('io');
    io2.payload.metrics.map((m) => m.name).should.eql(defs.map((d) => d.name));
    for (const def of defs) {
      const m = metricOf(io2.payload, def.name)!;
      should(m.properties?.engUnit).eql(def.unit ? { type: 'String', value: def.unit } : undefined, def.name);
      if (def.name !== 'Connection/State') should(m.value).be.null();
    }
    metricOf(io2.payload, 'Connection/State')!.value!.should.equal('connected');
    const aliases = [nbirth, io2, io3].flatMap((p) => p.payload.metrics.filter((m) => m.alias !== undefined).map((m) => m.alias));
    new Set(aliases).size.should.equal(aliases.length, 'aliases unique across the edge node');
    e.session.stats().should.containEql({ born: true, devices: 2 });
  });

  it('DDATA by exception, by alias only; DDEATH when the module leaves connected, DBIRTH with its values when back', function () {
    const e = born();
    e.session.msg(reading(2, 1, 1200));
    e.session.msg(reading(2, 1, 1200));
    const [data, ...rest] = e.link.take();
    rest.should.eql([], 'the same value again says nothing');
    data.type.should.equal('DDATA');
    data.payload.metrics.should.matchEach((m: { name?: string }) => m.name === undefined);
    metricOf(data.payload, e.alias('Pin 1/Voltage'))!.value!.should.equal(1200);
    metricOf(data.payload, e.alias('Pin 1/Mode'))!.value!.should.equal('analog');
    e.session.health(connection(2, 'unreachable'));
    types(e.link.take()).should.eql(['DDEATH io-2']);
    e.session.msg(reading(2, 1, 1300));
    e.link.take().should.eql([], 'a dead device sends no data');
    e.session.health(connection(2, 'connected'));
    const [dbirth] = e.link.take();
    dbirth.type.should.equal('DBIRTH');
    metricOf(dbirth.payload, 'Pin 1/Voltage')!.should.containEql({ value: 1300, alias: e.alias('Pin 1/Voltage') });
    metricOf(dbirth.payload, 'Connection/State')!.value!.should.equal('connected');
  });

  it('counts seq 0-255 on every payload and wraps past 255', function () {
    const e = born();
    for (let mV = 100; mV < 400; mV++) e.session.msg(reading(2, 1, mV));
    const seqs = e.link.take().map((p) => p.payload.seq);
    seqs.length.should.equal(300);
    seqs.slice(252, 258).should.eql([254, 255, 0, 1, 2, 3]);
    seqs.forEach((seq, i) => seq!.should.equal((i + 2) % 256));
  });

  it('NCMD Node Control/Rebirth (by name or alias) gives NBIRTH with the same bdSeq and every DBIRTH again', function () {
    const e = born();
    const rebirthAlias = metricOf(e.births[0].payload, 'Node Control/Rebirth')!.alias!;
    e.session.message(NCMD, hostEncode({ metrics: [{ name: 'Node Control/Rebirth', type: 'Boolean', value: true }] }));
    const again = e.link.take();
    types(again).should.eql(['NBIRTH', 'DBIRTH io-2']);
    again[0].payload.seq!.should.equal(0);
    metricOf(again[0].payload, 'bdSeq')!.value!.should.equal(0);
    e.session.message(NCMD, hostEncodeFields({ metrics: [{ alias: rebirthAlias, booleanValue: true }] }));
    types(e.link.take()).should.eql(['NBIRTH', 'DBIRTH io-2']);
    e.refused.should.eql([]);
  });

  it('DCMD by name and by alias reaches the command output as UNS commands leave; its answer is taken', function () {
    const e = born();
    e.session.message(DCMD, hostEncode({ metrics: [{ name: 'Pin 1/Output', type: 'Boolean', value: true }] }));
    e.session.message(DCMD, hostEncodeFields({ metrics: [{ alias: e.alias('Pin 2/Threshold/Voltage'), intValue: 600 }] }));
    e.refused.should.eql([]);
    e.commands
      .map((c) => [c.topic, c.payload])
      .should.eql([
        ['io/2/io-output', { pin: 1, state: 'high' }],
        ['io/2/io-threshold', { pin: 2, threshold_mV: 600 }],
      ]);
    e.commands[0].fleetCommand.should.containEql({ via: 'sparkplug', op: 'io-output', device: 'cell-01', service: 'io', slot: 2 });
    e.link.take().should.eql([], 'a command publishes nothing by itself');
    // The output's answer: its msg.request tells the new value.
    const request = { method: 'POST', path: '/api/io/0.9/2/output/state', body: { pin: 1, state: 'high' } };
    e.session.msg({ ...e.commands[0], payload: { status: 'success' }, request });
    const [data] = e.link.take();
    metricOf(data.payload, e.alias('Pin 1/Output'))!.value!.should.be.true();
    // A failed one is told as refused.
    e.session.msg({ ...e.commands[1], error: { message: 'module said 409' } });
    e.refused.should.eql(['DCMD io-2 "Pin 2/Threshold/Voltage": io-threshold failed: module said 409']);
    e.session.close();
  });

  it('refuses an undeclared, read-only, mistyped, disallowed or out-of-range write, malformed, huge or too many: nothing sent', function () {
    const e = born({ allowed: ['io-threshold'] });
    const cases: Array<[Buffer, RegExp]> = [
      [hostEncode({ metrics: [{ name: 'Pin 9/Output', type: 'Boolean', value: true }] }), /"Pin 9\/Output" is not declared by io-2/],
      [hostEncode({ metrics: [{ name: 'Pin 1/Voltage', type: 'Double', value: 5 }] }), /"Pin 1\/Voltage" is read-only/],
      [hostEncode({ metrics: [{ name: 'Pin 2/Threshold/Voltage', type: 'String', value: '600' }] }), /is a UInt16, the command says String/],
      [hostEncodeFields({ metrics: [{ alias: e.alias('Pin 2/Threshold/Voltage'), stringValue: '600' }] }), /must come in intValue, got stringValue/],
      [hostEncode({ metrics: [{ name: 'Pin 1/Output', type: 'Boolean', value: true }] }), /written by io-output, which the Commands setting does not allow/],
      [hostEncode({ metrics: [{ name: 'Pin 2/Threshold/Voltage', type: 'UInt16', value: 9 }] }), /Pin 2\/Threshold\/Voltage.*50.*25000/],
      [hostEncodeFields({ metrics: [{ alias: 999999, booleanValue: true }] }), /alias 999999 is not declared here/],
      [Buffer.from([0x12, 0x05, 0x0a]), /not a Sparkplug B payload/],
      [Buffer.alloc(SPARKPLUG_BOUNDS.payloadBytes + 1), /at most 65536 bytes/],
      [
        hostEncode({
          metrics: Array.from({ length: SPARKPLUG_BOUNDS.commandMetrics + 1 }, () => ({ name: 'Pin 2/Threshold/Voltage', type: 'UInt16', value: 600 })),
        }),
        /at most 64 metrics/,
      ],
      // One good write and one bad: the whole command is refused.
      [
        hostEncode({
          metrics: [
            { name: 'Pin 2/Threshold/Voltage', type: 'UInt16', value: 600 },
            { name: 'Pin 9/Output', type: 'Boolean', value: true },
          ],
        }),
        /Pin 9/,
      ],
    ];
    for (const [bytes, reason] of cases) {
      e.session.message(DCMD, bytes);
      e.refused.pop()!.should.match(reason);
      e.refused.should.eql([]);
    }
    e.session.message('spBv1.0/plant/DCMD/cell-01/io-7', hostEncode({ metrics: [{ name: 'Pin 1/Output', type: 'Boolean', value: true }] }));
    e.refused.pop()!.should.match(/DCMD io-7: no such device/);
    e.commands.should.eql([], 'nothing sent');
    const published = e.link.take();
    published.map((p) => p.type).should.matchEach('NDATA');
    metricOf(published[published.length - 1].payload, metricOf(e.births[0].payload, 'Commands/Refused')!.alias!)!.value!.should.equal(cases.length + 1);
    e.session.stats().refused.should.equal(cases.length + 1);
  });

  it('with a primary host: births wait for online; offline stores; online again gives births, then the stored values as historical, in order', function () {
    const e = edge({ primaryHost: 'scada' });
    e.session.will();
    e.session.up(e.link);
    e.link.subscribed.should.containEql('spBv1.0/STATE/scada');
    e.session.health(connection(2, 'connected'));
    e.link.take().should.eql([], 'no birth before the host is online');
    e.session.message('spBv1.0/STATE/scada', state(true, 1000));
    types(e.link.take()).should.eql(['NBIRTH', 'DBIRTH io-2']);
    e.session.message('spBv1.0/STATE/scada', state(false, 2000));
    for (const mV of [100, 200, 300]) e.session.msg(reading(2, 1, mV));
    e.session.message('spBv1.0/STATE/scada', state(true, 1500)); // older than the offline: a stale one
    e.link.take().should.eql([]);
    // The first reading tells the pin's mode and its voltage, the others the voltage.
    e.session.stats().should.containEql({ hostOnline: false, stored: 4 });
    e.session.message('spBv1.0/STATE/scada', state(true, 3000));
    const after = e.link.take();
    types(after).should.eql(['NBIRTH', 'DBIRTH io-2', 'DDATA io-2', 'NDATA']);
    metricOf(after[0].payload, 'Store and Forward/Stored')!.value!.should.equal(4);
    const history = after[2].payload.metrics.filter((m) => m.alias === metricOf(after[1].payload, 'Pin 1/Voltage')!.alias);
    history.map((m) => m.value).should.eql([100, 200, 300]);
    history.should.matchEach((m: { isHistorical?: boolean }) => m.isHistorical === true);
    history.map((m) => m.timestamp!).should.eql([...history.map((m) => m.timestamp!)].sort((a, b) => a - b));
    e.session.stats().should.containEql({ hostOnline: true, stored: 0, dropped: 0 });
  });

  it('stores at most storedValues while the host is offline; what is dropped is counted and announced', function () {
    const e = edge({ primaryHost: 'scada' });
    e.session.up(e.link);
    e.session.health(connection(2, 'connected'));
    // Each reading changes one metric once the pin's mode is known.
    e.session.msg(reading(2, 1, 0));
    const first = e.session.stats().stored;
    for (let i = 1; i <= SPARKPLUG_BOUNDS.storedValues - first + 5; i++) e.session.msg(reading(2, 1, i));
    e.session.stats().should.containEql({ stored: SPARKPLUG_BOUNDS.storedValues, dropped: 5 });
    e.session.message('spBv1.0/STATE/scada', state(true, 1));
    const after = e.link.take();
    metricOf(after[0].payload, 'Store and Forward/Dropped')!.value!.should.equal(5);
    after
      .filter((p) => p.type === 'DDATA')
      .flatMap((p) => p.payload.metrics)
      .length.should.equal(SPARKPLUG_BOUNDS.storedValues);
  });

  it('a STATE that is not 3.0 JSON is said once and changes nothing; untrusted bytes never throw', function () {
    const e = edge({ primaryHost: 'scada' });
    e.session.up(e.link);
    e.session.message('spBv1.0/STATE/scada', Buffer.from('ONLINE'));
    e.session.message('spBv1.0/STATE/scada', Buffer.from('{"online":"yes"}'));
    e.warnings.should.have.length(1);
    e.warnings[0].should.match(/Sparkplug 3.0 JSON/);
    e.session.stats().should.containEql({ born: false });
    (() => e.session.message(NCMD, Buffer.from([0xff, 0xff]))).should.not.throw();
    e.refused.pop()!.should.match(/^NCMD: not a Sparkplug B payload/);
  });

  it('without a primary host, data while the broker is away is stored and follows the births when the link is up again', function () {
    const e = born();
    e.session.down();
    e.session.stats().born.should.be.false();
    e.session.msg(reading(2, 1, 700));
    e.session.msg(reading(2, 1, 800));
    e.session.will().payload.should.be.ok();
    e.session.up(e.link);
    const after = e.link.take();
    types(after).should.eql(['NBIRTH', 'DBIRTH io-2', 'DDATA io-2', 'NDATA']);
    metricOf(after[0].payload, 'bdSeq')!.value!.should.equal(1, 'a new connection, a new bdSeq');
    metricOf(after[1].payload, 'Pin 1/Voltage')!.value!.should.equal(800);
    after[2].payload.metrics
      .filter((m) => m.alias === e.alias('Pin 1/Voltage'))
      .map((m) => [m.value, m.isHistorical])
      .should.eql([
        [700, true],
        [800, true],
      ]);
  });

  it('names a module whose config node names another Fleet device <device>.<service>-<slot>', function () {
    const e = edge({ deviceOf: (config) => (config === 'c7' ? 'cell-07' : undefined) });
    e.session.up(e.link);
    e.session.health({ ...connection(2, 'connected'), module: { config: 'c7', service: 'io', slot: 2, device: '10.0.0.7:80' } } as HealthEvent);
    types(e.link.take()).should.eql(['NBIRTH', 'DBIRTH cell-07.io-2']);
  });

  it('close() publishes NDEATH with the bdSeq of the birth, then nothing more', function () {
    const e = born();
    e.session.close();
    const [death] = e.link.take();
    death.should.containEql({ type: 'NDEATH', qos: 1 });
    death.payload.should.not.have.property('seq');
    metricOf(death.payload, 'bdSeq')!.value!.should.equal(0);
    e.session.msg(reading(2, 1, 500));
    e.session.message(NCMD, hostEncode({ metrics: [{ name: 'Node Control/Rebirth', type: 'Boolean', value: true }] }));
    e.link.take().should.eql([]);
  });
});

/** PendingCommands whose writes time out after `ms`: the refusals said, and the first of them awaited. */
function timingOut(ms: number) {
  const refused: string[] = [];
  let timedOut: () => void = () => undefined;
  const told = new Promise<void>((resolve) => (timedOut = resolve));
  const pending = new PendingCommands((reason) => {
    refused.push(reason);
    timedOut();
  }, ms);
  return { pending, refused, told };
}

describe('Sparkplug DCMD writes waiting for their answer (nodes/fleet/sparkplug/pending-commands.ts)', function () {
  before(() => speak());

  it('a write with no answer in time is told as refused; its late answer is ignored; the bound is maxPending', async function () {
    const { pending, refused, told } = timingOut(5);
    pending.room.should.equal(FLEET_BOUNDS.maxPending);
    const ref = pending.add('io-2', 'Pin 1/Output', 'io-output');
    pending.room.should.equal(FLEET_BOUNDS.maxPending - 1);
    await told;
    refused.should.eql(['DCMD io-2 "Pin 1/Output": no answer within 0.005 s: is the command output wired to the io-output node, and its output back?']);
    pending.answer(ref, { message: 'late' });
    refused.should.have.length(1);
    pending.room.should.equal(FLEET_BOUNDS.maxPending);
  });
});

describe('Sparkplug refusals in the runtime language: German', function () {
  // A German operator meets no English: the status and Catch show these reasons as they are.
  before(() => speak(inLanguage('de')));
  after(() => speak());

  /** English giveaways; a German reason has none (the protobuf reader's own words in brackets aside). */
  const ENGLISH = /\b(is|the|not|must|got|no|needs|command|metric|payload|written|allowed|outside|at most)\b/;

  it('a refused DCMD or NCMD says why in German: undeclared, read-only, wrong type, not allowed, out of range, malformed, too big', function () {
    const e = born({ allowed: ['io-threshold'] });
    const cases: Array<[Buffer, string]> = [
      [hostEncode({ metrics: [{ name: 'Pin 9/Output', type: 'Boolean', value: true }] }), 'DCMD io-2: "Pin 9/Output" ist von io-2 nicht deklariert'],
      [hostEncode({ metrics: [{ name: 'Pin 1/Voltage', type: 'Double', value: 5 }] }), 'DCMD io-2: "Pin 1/Voltage" ist schreibgeschützt'],
      [
        hostEncode({ metrics: [{ name: 'Pin 2/Threshold/Voltage', type: 'String', value: '600' }] }),
        'DCMD io-2: "Pin 2/Threshold/Voltage" ist vom Typ UInt16, der Befehl nennt String',
      ],
      [
        hostEncodeFields({ metrics: [{ alias: e.alias('Pin 2/Threshold/Voltage'), stringValue: '600' }] }),
        'DCMD io-2: "Pin 2/Threshold/Voltage": ein Wert vom Typ UInt16 muss in intValue stehen, erhalten: stringValue',
      ],
      [
        hostEncode({ metrics: [{ name: 'Pin 1/Output', type: 'Boolean', value: true }] }),
        'DCMD io-2: "Pin 1/Output" wird von io-output geschrieben, den die Einstellung Befehle nicht erlaubt (erlaubt: io-threshold)',
      ],
      [
        hostEncode({ metrics: [{ name: 'Pin 2/Threshold/Voltage', type: 'UInt16', value: 9 }] }),
        'DCMD io-2: Pin 2/Threshold/Voltage muss eine ganze Zahl von 50 bis 25000 mV sein, erhalten: 9',
      ],
      [hostEncodeFields({ metrics: [{ alias: 999999, booleanValue: true }] }), 'DCMD io-2: Alias 999999 ist hier nicht deklariert'],
      [
        hostEncode({ metrics: [{ name: 'Pin 2/Threshold/Voltage', type: 'Int8', value: 300 }] }),
        'DCMD io-2: Metrik "Pin 2/Threshold/Voltage": 300 liegt außerhalb des Bereichs von Int8',
      ],
      [hostEncode({ metrics: [] }), 'DCMD io-2: ein DCMD ohne Metrik'],
      [
        Buffer.alloc(SPARKPLUG_BOUNDS.payloadBytes + 1),
        `DCMD io-2: die Nutzdaten dürfen höchstens ${SPARKPLUG_BOUNDS.payloadBytes} Bytes groß sein, erhalten: ${SPARKPLUG_BOUNDS.payloadBytes + 1}`,
      ],
      [
        hostEncode({
          metrics: Array.from({ length: SPARKPLUG_BOUNDS.commandMetrics + 1 }, () => ({ name: 'Pin 2/Threshold/Voltage', type: 'UInt16', value: 600 })),
        }),
        `DCMD io-2: höchstens ${SPARKPLUG_BOUNDS.commandMetrics} Metriken in einer Nachricht, erhalten: ${SPARKPLUG_BOUNDS.commandMetrics + 1}`,
      ],
    ];
    for (const [bytes, reason] of cases) {
      e.session.message(DCMD, bytes);
      should(e.refused.pop()).equal(reason);
    }
    e.session.message(DCMD, Buffer.from([0x12, 0x05, 0x0a]));
    const malformed = e.refused.pop()!;
    malformed.should.startWith('DCMD io-2: keine Sparkplug-B-Nutzdaten (');
    e.session.message(NCMD, hostEncode({ metrics: [{ name: 'Pin 1/Output', type: 'Boolean', value: true }] }));
    should(e.refused.pop()).equal('NCMD: "Pin 1/Output" ist keine Metrik, die ein Befehl schreiben darf (nur Node Control/Rebirth)');
    e.session.message(NCMD, hostEncodeFields({ metrics: [{ name: 'Node Control/Rebirth', datatype: 11, isNull: true }] }));
    should(e.refused.pop()).equal('NCMD: "Node Control/Rebirth" braucht einen Wert, der Befehl setzt is_null');
    e.session.message('spBv1.0/plant/DCMD/cell-01/io-7', hostEncode({ metrics: [{ name: 'Pin 1/Output', type: 'Boolean', value: true }] }));
    should(e.refused.pop()).equal('DCMD io-7: kein solches Device am Edge-Node cell-01');
    // A write the module refused comes back as its answer with msg.error.
    e.session.message(DCMD, hostEncode({ metrics: [{ name: 'Pin 2/Threshold/Voltage', type: 'UInt16', value: 600 }] }));
    e.session.msg({ ...e.commands[0], error: { message: 'Modul antwortet 409' } });
    should(e.refused.pop()).equal('DCMD io-2 "Pin 2/Threshold/Voltage": io-threshold fehlgeschlagen: Modul antwortet 409');
    e.session.health(connection(2, 'unreachable'));
    e.session.message(DCMD, hostEncode({ metrics: [{ name: 'Pin 2/Threshold/Voltage', type: 'UInt16', value: 600 }] }));
    should(e.refused.pop()).equal('DCMD io-2: das Device ist nicht verbunden (Zustand unreachable)');
    e.refused.should.eql([]);
    for (const [, reason] of cases) reason.should.not.match(ENGLISH);
    malformed.replace(/\(.*\)$/, '').should.not.match(ENGLISH);
    e.session.close();
  });

  it("the catalogue's refusals, a STATE not believed and a write with no answer are German too", async function () {
    const io = (name: string) => metricNamed('io', name)!;
    writeOf('io', io('Pin 1/PWM/Setting'), 'fast').should.eql({
      refused: 'Pin 1/PWM/Setting muss Frequenz und Tastverhältnis in der Form "1000 Hz 25 %" nennen, erhalten: "fast"',
    });
    writeOf('io', io('Pin 2/Output'), 1).should.eql({ refused: 'Pin 2/Output nimmt einen Wert vom Typ Boolean, erhalten: 1' });
    writeOf('io', io('Pin 2/Voltage'), 5).should.eql({ refused: 'Pin 2/Voltage ist schreibgeschützt' });
    writeOf('io', metricNamed('bmc', 'Watchdog/Timeout')!, 1000).should.eql({ refused: 'Watchdog/Timeout ist keine Metrik eines io-Moduls' });
    const e = edge({ primaryHost: 'scada' });
    e.session.up(e.link);
    e.session.message('spBv1.0/STATE/scada', Buffer.from('ONLINE'));
    e.warnings.should.eql(['spBv1.0/STATE/scada: ein STATE muss Sparkplug-3.0-JSON sein: {"online": true|false, "timestamp": <ms>}']);
    const { pending, refused, told } = timingOut(5);
    pending.add('io-2', 'Pin 1/Output', 'io-output');
    await told;
    refused.should.eql([
      'DCMD io-2 "Pin 1/Output": keine Antwort innerhalb von 0,005 s: ist der Befehlsausgang mit dem Node io-output verdrahtet und dessen Ausgang zurück?',
    ]);
  });
});
