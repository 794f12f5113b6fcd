import 'should';
import { FleetPublisher, CommandMsg, MqttMsg } from '../../nodes/fleet/publisher';
import { isLevel, moduleOfRequest, parseCommand, readAllowList, Scheme } from '../../nodes/fleet/scheme';
import type { HealthEvent } from '../../nodes/lib/module/health';
import { FLEET_BOUNDS } from '../../nodes/lib/pure/limits';

const io2 = { config: 'c1', service: 'io', slot: 2, device: '127.0.0.1:1' };
const event = (kind: HealthEvent['kind'], cause: string, detail?: Record<string, unknown>): HealthEvent => ({
  kind,
  module: io2,
  cause,
  time: '2026-01-01T00:00:00.000Z',
  ...(detail ? { detail } : {}),
});

function publisher(allowed = ['io-output']) {
  const mqtt: MqttMsg[] = [];
  const commands: CommandMsg[] = [];
  const p = new FleetPublisher(new Scheme('plant', 'cell-01'), new Set(allowed), { mqtt: (m) => mqtt.push(m), command: (m) => commands.push(m) });
  return { p, mqtt, commands };
}

describe('fleet scheme and publisher (nodes/fleet/)', function () {
  it('names topics <prefix>/<device>/<service>/<slot>/... and reads a command topic of its own device only', function () {
    const s = new Scheme('plant', 'cell-01');
    s.module({ service: 'io', slot: 2 }, 'state').should.equal('plant/cell-01/io/2/state');
    s.instance.should.equal('plant/cell-01/node-red');
    s.commands.should.equal('plant/cell-01/+/+/command');
    s.commandTarget('plant/cell-01/power/1/command')!.should.eql({ service: 'power', slot: 1 });
    (s.commandTarget('plant/cell-02/io/2/command') === undefined).should.be.true();
    (s.commandTarget('plant/cell-01/io/2/reply') === undefined).should.be.true();
    (s.commandTarget('plant/cell-01/usb/2/command') === undefined).should.be.true();
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
      `a command must be at most ${FLEET_BOUNDS.commandBytes} bytes, got ${FLEET_BOUNDS.commandBytes + 1}`,
    );
    readAllowList(['io-output', 'rm -rf']).should.eql({ unknown: ['rm -rf'] });
    readAllowList('').should.eql(new Set());
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
  });

  it('sends an allowed command to output 2 and its answer as the reply; refuses the rest with nothing sent', function () {
    const { p, mqtt, commands } = publisher();
    p.onMsg({ topic: 'plant/cell-01/io/2/command', payload: { id: 'c1', op: 'io-output', payload: { pin: 1, state: 'high' } } });
    commands.should.have.length(0); // no module of that kind seen here yet
    mqtt.at(-1)!.payload.should.containEql({ id: 'c1', ok: false, refused: 'no io module in slot 2 in this Node-RED' });
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
    reply.payload.should.containEql({ id: 'c3', op: 'io-output', ok: true, payload: { status: 'success' } });
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
    lost.payload.reason!.should.equal('3 alerts dropped while the broker was unreachable');
  });
});
