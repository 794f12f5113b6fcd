import { FleetPublisher, CommandMsg, MqttMsg } from '../../nodes/fleet/publisher';
import should from 'should';
import { isLevel, jsonBytesWithin, moduleOfRequest, parseCommand, readAllowList, Scheme } from '../../nodes/fleet/scheme';
import { speak } from '../helpers/i18n';
import type { HealthEvent } from '../../nodes/lib/config-node/health';
import { FLEET_BOUNDS } from '../../nodes/lib/pure/limits';
import { AlarmSystem } from '../../nodes/alarms/alarm-system';
import fs from 'fs';
import os from 'os';
import path from 'path';

const io2 = { config: 'c1', service: 'io', slot: 2, device: '127.0.0.1:1' };
// The publisher's own view of an event, its facts trimmed to what each case reads (hence the cast).
const event = (kind: HealthEvent['kind'], cause: string, detail?: Record<string, unknown>): HealthEvent =>
  ({
    kind,
    module: io2,
    cause,
    time: '2026-01-01T00:00:00.000Z',
    ...(detail ? { detail } : {}),
  }) as HealthEvent;

function publisher(allowed = ['io-output']) {
  const mqtt: MqttMsg[] = [];
  const commands: CommandMsg[] = [];
  const warnings: string[] = [];
  const p = new FleetPublisher(new Scheme('plant', 'cell-01'), new Set(allowed), {
    mqtt: (m) => mqtt.push(m),
    command: (m) => commands.push(m),
    warn: (text) => warnings.push(text),
  });
  return { p, mqtt, commands, warnings };
}

describe('fleet scheme and publisher (nodes/fleet/)', function () {
  before(() => speak());

  it('names topics <prefix>/<device>/<service>/<slot>/...; every topic <prefix>/+/+/+/command is a command with its reply topic', function () {
    const s = new Scheme('plant', 'cell-01');
    s.module({ device: 'cell-07', service: 'io', slot: 2 }, 'state').should.equal('plant/cell-07/io/2/state');
    s.instance.should.equal('plant/cell-01/node-red');
    s.commands.should.equal('plant/cell-01/+/+/command');
    s.commandTopic('plant/cell-01/power/1/command')!.should.eql({ reply: 'plant/cell-01/power/1/reply', device: 'cell-01', service: 'power', slot: 1 });
    s.commandTopic('plant/cell-02/io/2/command')!.should.containEql({ device: 'cell-02', service: 'io', slot: 2 });
    s.commandTopic('plant/cell-01/foo/2/command')!.should.eql({
      reply: 'plant/cell-01/foo/2/reply',
      device: 'cell-01',
      refused:
        '"foo/2" names no module or alarm: a command\'s topic is plant/<device>/<io|bmc|power>/<slot>/command or plant/<device>/alarms/<alarm id or *>/command',
    });
    s.commandTopic('plant/cell-01/alarms/tank.high:1/command')!.should.eql({
      reply: 'plant/cell-01/alarms/tank.high:1/reply',
      device: 'cell-01',
      alarm: 'tank.high:1',
    });
    s.commandTopic('plant/cell-01/alarms/*/command')!.should.containEql({ alarm: '*' });
    s.commandTopic('plant/cell-01/alarms/a b/command')!.should.have.property('refused');
    s.alarm('cell-07', 'tank.high', 'state').should.equal('plant/cell-07/alarms/tank.high/state');
    s.commandTopic('plant/cell-01/io/x/command')!.should.have.properties({ reply: 'plant/cell-01/io/x/reply' });
    s.commandTopic('plant/cell-01//2/command')!.should.have.property('refused');
    for (const other of ['plant/cell-01/io/2/reply', 'plant/cell-01/io/2/x/command', 'other/cell-01/io/2/command', 'plant/io/2/command', 42])
      (s.commandTopic(other) === undefined).should.be.true(String(other));
  });

  it('takes a topic level of letters, digits, dot, underscore and dash only: no wildcard, separator, space, nothing empty or too long', function () {
    isLevel('plant-1.a_b').should.be.true();
    isLevel('x'.repeat(FLEET_BOUNDS.levelChars)).should.be.true();
    for (const bad of ['a/b', '', '#', '+', 'x'.repeat(FLEET_BOUNDS.levelChars + 1), 'a b']) isLevel(bad).should.be.false(bad);
  });

  it('reads the module and the reading from a msg.request path, with a base path and a list of calls', function () {
    moduleOfRequest({ method: 'GET', path: '/api/io/0.9/2/input/values' })!.should.eql({ service: 'io', slot: 2, what: 'input/values' });
    moduleOfRequest([{ method: 'GET', path: '/dev/api/bmc/1.0/0/voltage' }, { path: '/x' }])!.should.eql({ service: 'bmc', slot: 0, what: 'voltage' });
    moduleOfRequest({ path: '/api/bmc/0.9/0/usbhub/port/3' })!.what.should.equal('usbhub/port');
    (moduleOfRequest({ path: '/api/usb/0.9/0/x' }) === undefined).should.be.true();
    (moduleOfRequest(undefined) === undefined).should.be.true();
  });

  it('parses commands and refuses what the allow-list lacks, malformed JSON and oversized ones', function () {
    const allowed = readAllowList('io-output, power-fan') as Set<string>;
    parseCommand('{"id":"a","op":"io-output","payload":{"pin":1}}', allowed).should.eql({ id: 'a', op: 'io-output', payload: { pin: 1 } });
    parseCommand({ id: 7, op: 'io-reset' }, allowed).should.eql({ id: '7', refused: 'op "io-reset" is not allowed here (allowed: io-output, power-fan)' });
    parseCommand('nope', allowed).should.have.property('refused', 'a command must be a JSON object {"op": ..., "payload": ...}');
    parseCommand([1], allowed).should.have.property('refused');
    parseCommand('x'.repeat(FLEET_BOUNDS.commandBytes + 1), allowed).should.have.property(
      'refused',
      `a command must be at most ${FLEET_BOUNDS.commandBytes} bytes, got at least ${FLEET_BOUNDS.commandBytes + 1}`,
    );
    // Bytes, not characters: 2100 two-byte characters are 4200 bytes (plus the JSON around them).
    parseCommand(JSON.stringify({ op: 'io-output', payload: 'ä'.repeat(2100) }), allowed).should.have.property('refused');
    const big = Buffer.from(JSON.stringify({ op: 'io-output', payload: 'x'.repeat(5000) }));
    parseCommand(big, allowed).should.have.property('refused', `a command must be at most ${FLEET_BOUNDS.commandBytes} bytes, got ${big.length}`);
    parseCommand(Buffer.from('{"op":"io-output","payload":{"pin":1}}'), allowed).should.eql({ id: '', op: 'io-output', payload: { pin: 1 } });
    readAllowList(['io-output', 'rm -rf']).should.eql({ unknown: ['rm -rf'] });
    readAllowList('').should.eql(new Set());
  });

  it("measures a parsed command as its JSON text would be, and stops counting once past the bound (1 MB in about the bound's steps)", function () {
    const allowed = new Set(['io-output']);
    const limit = FLEET_BOUNDS.commandBytes;
    for (const size of [5 * 1024, 1024 * 1024]) {
      parseCommand({ op: 'io-output', payload: { text: 'x'.repeat(size) } }, allowed)
        .should.have.property('refused')
        .match(/at most 4096 bytes/);
      parseCommand({ op: 'io-output', payload: Array.from({ length: size / 8 }, (_, i) => ({ pin: i })) }, allowed).should.have.property('refused');
    }
    // Exactly at the bound passes, one byte more does not (escapes and UTF-8 counted).
    const at = (n: number) => ({ op: 'io-output', payload: 'é'.repeat(n) });
    const fits = Math.floor((limit - JSON.stringify(at(0)).length) / 2);
    jsonBytesWithin(at(fits), limit)!.should.be.within(limit - 1, limit);
    (jsonBytesWithin({ ...at(fits), x: 1 }, limit) === undefined).should.be.true();
    (jsonBytesWithin({ text: '"'.repeat(limit / 2) }, limit) === undefined).should.be.true(); // each quote escaped: two bytes
    jsonBytesWithin(JSON.parse('{"a":[1,true,null,"x"]}'), limit)!.should.equal(23);
    (jsonBytesWithin({ op: 'io-output', payload: Buffer.alloc(1024 * 1024) }, limit) === undefined).should.be.true();
    jsonBytesWithin({ b: Buffer.from([1, 2]) }, limit)!.should.equal(JSON.stringify({ b: Buffer.from([1, 2]) }).length);
    const cycle: Record<string, unknown> = { op: 'io-output' };
    cycle.self = cycle;
    (jsonBytesWithin(cycle, limit) === undefined).should.be.true();
    // Bounded work: a wide object is not walked to its end. Its first keys use up the bound; a
    // getter past them would throw if it were read.
    const wide: Record<string, unknown> = { op: 'io-output' };
    for (let i = 0; i < 100; i++) wide[`${'k'.repeat(100)}${i}`] = i;
    Object.defineProperty(wide, 'late', { enumerable: true, get: () => should.fail('read past the bound', '') });
    (jsonBytesWithin(wide, limit) === undefined).should.be.true();
  });

  it('keeps the module state retained, marks a reset with its cause until the next change, and sends other health as events', function () {
    const { p, mqtt } = publisher();
    p.onHealth(event('connection', 'connected (API 0.9)', { state: 'connected' }));
    p.onHealth(event('reset', 'driver_session changed'));
    p.onHealth(event('reapplied', '1 setting', { settings: 1 }));
    mqtt
      .map((m) => [m.topic, m.retain, m.payload.state])
      .should.eql([
        ['plant/cell-01/io/2/state', true, 'connected'],
        ['plant/cell-01/io/2/state', true, 'reset'],
        ['plant/cell-01/io/2/event/reset', false, undefined],
        ['plant/cell-01/io/2/event/reapplied', false, undefined],
      ]);
    p.onHealth(event('connection', 'unreachable: connection refused', { state: 'unreachable' }));
    mqtt.at(-1)!.payload.should.eql({
      device: 'cell-01',
      state: 'unreachable',
      cause: 'unreachable: connection refused',
      time: '2026-01-01T00:00:00.000Z',
      lastReset: { cause: 'driver_session changed', time: '2026-01-01T00:00:00.000Z' },
    });
  });

  it('publishes a reading only when it changed (by exception), retained with its time', function () {
    const { p, mqtt } = publisher();
    const read = (value: number) => p.onMsg({ payload: { pins: [{ pin: 1, value }] }, request: { method: 'GET', path: '/api/io/0.9/2/input/values' } });
    read(1);
    read(1);
    read(2);
    mqtt
      .map((m) => [m.topic, m.retain, (m.payload.value as { pins: Array<{ value: number }> }).pins[0].value])
      .should.eql([
        ['plant/cell-01/io/2/reading/input/values', true, 1],
        ['plant/cell-01/io/2/reading/input/values', true, 2],
      ]);
    mqtt[0].payload.device!.should.equal('cell-01');
  });

  it('sends an allowed command to output 2 and its answer as the reply; refuses the rest with nothing sent', function () {
    const { p, mqtt, commands } = publisher();
    p.onMsg({ topic: 'plant/cell-01/io/2/command', payload: { id: 'c1', op: 'io-output', payload: { pin: 1, state: 'high' } } });
    commands.should.have.length(0); // no module of that kind seen here yet
    mqtt.at(-1)!.payload.should.containEql({ device: 'cell-01', id: 'c1', ok: false, refused: 'no io module in slot 2 of cell-01 in this Node-RED' });
    p.onHealth(event('connection', 'connected (API 0.9)', { state: 'connected' }));
    p.onMsg({ topic: 'plant/cell-01/io/2/command', payload: { id: 'c2', op: 'io-reset' } });
    commands.should.have.length(0);
    p.onMsg({ topic: 'plant/cell-01/io/2/command', payload: { id: 'c3', op: 'io-output', payload: { pin: 1, state: 'high' } } });
    commands.should.have.length(1);
    commands[0].topic.should.equal('io/2/io-output');
    commands[0].payload!.should.eql({ pin: 1, state: 'high' });
    p.onMsg({ ...commands[0], payload: { status: 'success' }, request: { method: 'POST', path: '/api/io/0.9/2/output/state' } });
    const reply = mqtt.at(-1)!;
    reply.topic.should.equal('plant/cell-01/io/2/reply');
    reply.payload.should.containEql({ device: 'cell-01', id: 'c3', op: 'io-output', ok: true, payload: { status: 'success' } });
    // A Catch node's copy of the same command after the answer: already answered, nothing more.
    const count = mqtt.length;
    p.onMsg({ ...commands[0], error: { message: 'late' } });
    mqtt.length.should.equal(count);
    p.close();
  });

  it('answers a failed command with the error, and a command still open when the node closes', function () {
    const { p, mqtt, commands } = publisher();
    p.onHealth(event('connection', 'connected (API 0.9)', { state: 'connected' }));
    p.onMsg({ topic: 'plant/cell-01/io/2/command', payload: { id: 'e', op: 'io-output' } });
    p.onMsg({ ...commands[0], error: { message: 'Power config missing', code: 'DEVICE_ERROR' } });
    mqtt.at(-1)!.payload.should.containEql({ id: 'e', ok: false, error: { message: 'Power config missing', code: 'DEVICE_ERROR' } });
    p.onMsg({ topic: 'plant/cell-01/io/2/command', payload: { id: 'open', op: 'io-output' } });
    p.close();
    mqtt
      .at(-1)!
      .payload.should.containEql({ id: 'open', ok: false, error: { message: 'Node-RED stopped the flow before the command was answered', code: 'CLOSED' } });
  });

  it('holds events while the broker is away, republishes states when it is back, and announces alerts beyond the bound', function () {
    const { p, mqtt } = publisher();
    p.onHealth(event('connection', 'connected (API 0.9)', { state: 'connected' }));
    const status = (fill: string) => p.onMsg({ status: { fill, shape: 'dot', text: 'x', source: { id: 'out', type: 'mqtt out' } } });
    const alert = (pin: number) =>
      p.onMsg({
        topic: `pin/${pin}`,
        payload: { pin, high_current_alert: true },
        alerts: ['high_current_alert'],
        request: { method: 'GET', path: '/api/io/0.9/2/notification' },
      });
    // Another node's status (a status node scoped to more than the mqtt out) is not the broker's.
    p.onMsg({ status: { fill: 'red', shape: 'ring', text: 'error', source: { id: 'x', type: 'io-read' } } });
    alert(1);
    mqtt.at(-1)!.topic.should.equal('plant/cell-01/io/2/alert');
    status('red');
    const before = mqtt.length;
    for (let i = 0; i < FLEET_BOUNDS.maxHeld + 3; i++) alert((i % 6) + 1);
    mqtt.length.should.equal(before); // nothing into a dead link
    status('green');
    const after = mqtt.slice(before);
    after[0].topic.should.equal('plant/cell-01/io/2/state');
    after.filter((m) => m.topic.endsWith('/alert')).length.should.equal(FLEET_BOUNDS.maxHeld);
    const lost = after.at(-1)!;
    lost.topic.should.equal('plant/cell-01/io/2/notifications-lost');
    lost.payload.should.containEql({ device: 'cell-01', reason: '3 alerts dropped while the broker was unreachable' });
    // The alerts dropped were the last three: pins 5, 6 and 1 ((1000 .. 1002) % 6 + 1), in order.
    lost.payload.pins!.should.eql([1, 5, 6]);
    Date.parse(lost.payload.from as string).should.be.belowOrEqual(Date.parse(lost.payload.to as string));
    lost.payload.time!.should.equal(lost.payload.to);
  });
});

describe('fleet publisher: retained commands, topics that name no module, several devices in one Node-RED', function () {
  before(() => speak());
  const module = (config: string, device: string, service = 'io', slot = 2) => ({ config, service, slot, device });
  const connected = (m: HealthEvent['module']): HealthEvent => ({
    kind: 'connection',
    module: m,
    cause: 'connected',
    time: 't',
    detail: { state: 'connected', apiVersion: '0.9' },
  });

  it('refuses a retained command with a sentence saying why, and nothing is sent', function () {
    const { p, mqtt, commands } = publisher();
    p.onHealth(event('connection', 'connected (API 0.9)', { state: 'connected' }));
    p.onMsg({ topic: 'plant/cell-01/io/2/command', retain: true, payload: { id: 'r1', op: 'io-output', payload: { pin: 1 } } });
    commands.should.have.length(0);
    const reply = mqtt.at(-1)!;
    reply.topic.should.equal('plant/cell-01/io/2/reply');
    reply.payload.should.containEql({ id: 'r1', ok: false });
    (reply.payload.refused as string).should.match(/^a retained command is not run: the broker hands it out again on every \(re\)subscribe/);
    p.onMsg({ topic: 'plant/cell-01/io/2/command', retain: false, payload: { id: 'r2', op: 'io-output', payload: { pin: 1 } } });
    commands.should.have.length(1);
    p.close();
  });

  it('answers every topic under the subscription: a level that names no module, another device', function () {
    const { p, mqtt, commands } = publisher();
    p.onHealth(event('connection', 'connected (API 0.9)', { state: 'connected' }));
    p.onMsg({ topic: 'plant/cell-01/foo/2/command', payload: { id: 'f', op: 'io-output' } });
    mqtt.at(-1)!.should.containEql({ topic: 'plant/cell-01/foo/2/reply', retain: false });
    mqtt.at(-1)!.payload.should.containEql({ id: 'f', ok: false });
    p.onMsg({ topic: 'plant/cell-01/io/x/command', payload: '{"id":"x","op":"io-output"}' });
    mqtt.at(-1)!.topic.should.equal('plant/cell-01/io/x/reply');
    (mqtt.at(-1)!.payload.refused as string).should.startWith('"io/x" names no module');
    p.onMsg({ topic: 'plant/cell-09/io/2/command', payload: { id: 'd', op: 'io-output' } });
    mqtt.at(-1)!.topic.should.equal('plant/cell-09/io/2/reply');
    mqtt.at(-1)!.payload.refused!.should.equal('no device "cell-09" in this Node-RED (its devices: cell-01)');
    commands.should.have.length(0);
  });

  it("publishes each module under its config node's Fleet device, with the device in every payload; commands reach the module of their device", function () {
    const names: Record<string, string> = { a: 'cell-07', b: 'cell-08' };
    const mqtt: MqttMsg[] = [];
    const commands: CommandMsg[] = [];
    const warnings: string[] = [];
    const p = new FleetPublisher(
      new Scheme('plant', 'gateway'),
      new Set(['io-read']),
      { mqtt: (m) => mqtt.push(m), command: (m) => commands.push(m), warn: (w) => warnings.push(w) },
      (config) => names[config],
    );
    p.onHealth(connected(module('a', '10.0.0.7')));
    p.onHealth(connected(module('b', '10.0.0.8')));
    p.onHealth(connected(module('c', '10.0.0.9', 'bmc', 0))); // no Fleet device: the instance's
    mqtt
      .map((m) => [m.topic, m.payload.device])
      .should.eql([
        ['plant/cell-07/io/2/state', 'cell-07'],
        ['plant/cell-08/io/2/state', 'cell-08'],
        ['plant/gateway/bmc/0/state', 'gateway'],
      ]);
    // A reading names its module by path only: msg.device says whose; the one bmc/0 needs none.
    const read = { payload: 1, request: { method: 'GET', path: '/api/io/1.0/2/input/values' } };
    (() => p.onMsg(read)).should.throw(/io\/2 is a module of several devices here \(cell-07, cell-08\)/);
    p.onMsg({ ...read, device: 'cell-08' });
    mqtt.at(-1)!.should.containEql({ topic: 'plant/cell-08/io/2/reading/input/values' });
    (() => p.onMsg({ ...read, device: 'cell-99' })).should.throw(/cell-99/);
    p.onMsg({ payload: { pin: 3 }, alerts: ['high_current_alert'], device: 'cell-07', request: { path: '/api/io/1.0/2/notification/3' } });
    mqtt.at(-1)!.should.containEql({ topic: 'plant/cell-07/io/2/alert' });
    mqtt.at(-1)!.payload.should.containEql({ device: 'cell-07', pin: 3 });
    p.onMsg({ payload: { temp: 1 }, request: { path: '/api/bmc/1.0/0/temperature' } });
    mqtt.at(-1)!.payload.device!.should.equal('gateway');
    p.onMsg({ topic: 'plant/cell-08/io/2/command', payload: { id: 'q', op: 'io-read' } });
    commands.at(-1)!.fleetCommand.should.containEql({ device: 'cell-08', service: 'io', slot: 2 });
    p.onMsg({ ...commands.at(-1)!, payload: { pins: [] } });
    mqtt.at(-1)!.should.containEql({ topic: 'plant/cell-08/io/2/reply' });
    mqtt.at(-1)!.payload.should.containEql({ device: 'cell-08', id: 'q', ok: true });
    warnings.should.eql([]);
  });

  it("never publishes two devices' modules on one topic: the second is refused and said once", function () {
    const { p, mqtt, warnings } = publisher();
    p.onHealth(connected(module('a', '10.0.0.7')));
    p.onHealth(connected(module('b', '10.0.0.8')));
    p.onHealth(connected(module('b', '10.0.0.8')));
    mqtt.should.have.length(1);
    warnings.should.have.length(1);
    warnings[0].should.match(/plant\/cell-01\/io\/2\/state/).and.match(/10\.0\.0\.8/);
    // A second config node for the same module (same device location) is the same module.
    p.onHealth(connected(module('a2', '10.0.0.7')));
    mqtt.should.have.length(2);
  });

  it('alarms: an alarm op only on an alarm topic and the reverse, * only for acknowledge-all, the topic names the alarm; a Catch copy of a refused command is not run again', async function () {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'md-fleet-unit-')), 'alarms.json');
    const system = new AlarmSystem({ file });
    system.define({ id: 'tank.high', priority: 2, message: 'high', where: { config: 'c1' }, owner: 'n1' }).should.have.property('id');
    system.define({ id: 'other', priority: 2, message: 'other', where: { config: 'c9' }, owner: 'n1' }).should.have.property('id');
    system.apply('tank.high', { type: 'condition', active: true });
    system.apply('other', { type: 'condition', active: true });
    const mqtt: MqttMsg[] = [];
    const p = new FleetPublisher(
      new Scheme('plant', 'cell-01'),
      new Set(['io-output', 'alarm-acknowledge', 'alarm-acknowledge-all']),
      { mqtt: (m) => mqtt.push(m), command: () => undefined, warn: () => undefined },
      (config) => (config === 'c9' ? 'cell-09' : undefined),
      system,
    );
    const stop = p.alarms!.start();
    try {
      const refusal = (topic: string, body: unknown) => p.onMsg({ topic, payload: body });
      refusal('plant/cell-01/io/2/command', { op: 'alarm-acknowledge' })!.should.startWith('op "alarm-acknowledge" does not fit the topic');
      refusal('plant/cell-01/alarms/tank.high/command', { op: 'io-output' })!.should.startWith('op "io-output" does not fit the topic');
      refusal('plant/cell-01/alarms/*/command', { op: 'alarm-acknowledge' })!.should.startWith('alarm-acknowledge does not act on alarms/*');
      refusal('plant/cell-01/alarms/tank.high/command', { op: 'alarm-acknowledge-all' })!.should.startWith(
        'alarm-acknowledge-all does not act on alarms/tank.high',
      );
      refusal('plant/cell-01/alarms/tank.high/command', { op: 'alarm-acknowledge', payload: { alarm: 'other' } })!.should.startWith(
        "an alarm command's payload has no field alarm",
      );
      refusal('plant/cell-01/alarms/tank.high/command', { op: 'alarm-acknowledge', payload: { usr: 'x' } })!.should.match(/usr/);
      refusal('plant/cell-01/alarms/nothing/command', { op: 'alarm-acknowledge' })!.should.match(/nothing/);
      refusal('plant/cell-02/alarms/tank.high/command', { op: 'alarm-acknowledge' })!.should.startWith('no device "cell-02" in this Node-RED');
      system.get('tank.high')!.shown.should.equal('active-unack');
      // A Catch node's copy (msg.error) of a refused command comes back: nothing run, nothing answered.
      const replies = mqtt.length;
      (
        p.onMsg({ topic: 'plant/cell-01/alarms/tank.high/command', payload: { op: 'alarm-acknowledge' }, error: { message: 'x' } }) === undefined
      ).should.be.true();
      mqtt.length.should.equal(replies);
      system.get('tank.high')!.shown.should.equal('active-unack');
      // acknowledge-all of cell-01: its alarm only, not cell-09's.
      (
        p.onMsg({ topic: 'plant/cell-01/alarms/*/command', payload: { id: 'all', op: 'alarm-acknowledge-all', payload: { user: 'ann' } } }) === undefined
      ).should.be.true();
      system.get('tank.high')!.shown.should.equal('active-ack');
      system.get('other')!.shown.should.equal('active-unack');
      mqtt
        .map((m) => m.topic)
        .should.containDeep(['plant/cell-01/alarms/tank.high/event', 'plant/cell-01/alarms/tank.high/state', 'plant/cell-01/alarms/*/reply']);
    } finally {
      stop();
      system.release('n1', true);
      await system.journal.flush(); // nothing left to write once the folder goes
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
  });
});
