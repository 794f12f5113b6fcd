/**
 * The API dialects (nodes/lib/device/dialects.ts) against the table of real §0: every
 * row about requests and answers, both ways (the spec's request → the wire, the wire's
 * answer → the spec's answer), and API 0.9 as the identity. Then what the nodes do with
 * the versions: `auto` detection, a fixed version against the other device, the restart
 * of a 1.0 service (driver_session), and the sessions in device-info.
 */
import http from 'http';
import net from 'net';
import should from 'should';
import { API09_DIALECT, API10_DIALECT, dialectFor, Translation } from '../../nodes/lib/device/dialects';
import type { DeviceRequest as Call, SentRequest } from '../../nodes/lib/device/request';
import { DeviceError } from '../../nodes/lib/base/errors';
import { DeviceClient } from '../../nodes/lib/device/client';
import { HEALTH_INTERVAL_MS } from '../../nodes/lib/config-node/connection';
import { device, helper, waitFor, waitStatus } from '../helpers/node-red';
import { SimHarness, Simulator, startSimulator } from '../helpers/sim-control';
import { loadActions, Outcomes, send } from '../helpers/io-nodes';
import { speak } from '../helpers/i18n';

const NO_ALERTS = { under_voltage_alert: false, high_voltage_alert: false, high_current_alert: false, custom_voltage_alert: false };
/** A wire call as msg-life hands it with an answer (the dialect only passes it on). */
const SENT: SentRequest = { method: 'GET', path: '/api/io/1.0/2/notification/3' };

/** Translates and checks that the call goes out unchanged; returns the translation. */
function identity(call: Call) {
  const t = API09_DIALECT.translate(call);
  t.calls.should.eql([call]);
  return t;
}

/** The translation's answer to `answers`, its calls sent under `/wire/` (the client's part). */
/** The translation's answer to `answers`, each first kept as msg-life keeps it as it arrives (`arrived`). */
function answered(t: Translation, answers: unknown[]): unknown {
  const sent = t.calls.map((c) => ({ method: c.method, path: `/wire/${c.endpoint.join('/')}` }));
  return t.answer(
    answers.map((a, i) => (t.arrived ? t.arrived(i, a, sent[i]) : a)),
    sent,
  );
}

function refusal(action: () => unknown): DeviceError {
  try {
    action();
  } catch (error) {
    should(error).be.instanceOf(DeviceError);
    return error as DeviceError;
  }
  throw new Error('no error thrown');
}

describe('API dialects (real §0)', function () {
  // The refusals are said in the runtime's language, as a loaded node would have set it.
  before(() => speak());
  describe('0.9: the spec, nothing translated', function () {
    const calls: Call[] = [
      { method: 'GET', endpoint: ['reset'] },
      { method: 'GET', endpoint: ['notification'] },
      { method: 'POST', endpoint: ['input', 'analog', 'threshold'], body: { pin: 1, threshold_mV: 2000, trigger: 'rising' } },
      { method: 'POST', endpoint: ['input', 'digital', 'interrupt'], body: { pin: 2, debounce_time_ms: 20, trigger: 'pulse' } },
      { method: 'POST', endpoint: ['power-management'], body: { config: [{ pin: 2, rail: '5_volt', current: 10 }] } },
      { method: 'GET', endpoint: ['input', 'values'] },
      { method: 'POST', endpoint: ['usbhub', 'port', 8], body: { state: true } },
      { method: 'GET', endpoint: ['usbhub'] },
      { method: 'GET', endpoint: [], scope: 'service' },
    ];
    for (const call of calls) {
      it(`${call.method} ${call.endpoint.join('/') || '(root)'} goes out as it is and its answer comes back as it is`, function () {
        const t = identity(call);
        const answer = { anything: [1, 2], status: 'success' };
        should(answered(t, [answer])).equal(answer);
      });
    }

    it('usbhub/devices does not exist in 0.9: refused before sending (INVALID_INPUT)', function () {
      const error = refusal(() => API09_DIALECT.translate({ method: 'GET', endpoint: ['usbhub', 'devices'] }));
      error.code.should.equal('INVALID_INPUT');
      error.message.should.equal('the USB device list needs a device with API 1.0 (this one speaks 0.9)');
    });

    it('POST reset (bmc and power module reset) does not exist in 0.9: refused before sending (INVALID_INPUT)', function () {
      const error = refusal(() => API09_DIALECT.translate({ method: 'POST', endpoint: ['reset'], body: { reset: 'yes' } }));
      error.code.should.equal('INVALID_INPUT');
      error.message.should.equal(
        'the module reset of bmc and power modules needs a device with API 1.0 (this one speaks 0.9, where only io modules have a reset)',
      );
    });

    it('dialectFor picks the dialect of a version', function () {
      dialectFor('0.9').should.equal(API09_DIALECT);
      dialectFor('1.0').should.equal(API10_DIALECT);
    });
  });

  describe('did the POST succeed: judged once, by the dialect, the same on 0.9 and 1.0', function () {
    const posts: Call[] = [
      { method: 'POST', endpoint: ['output', 'state'], body: { pin: 1, state: 'high' } },
      { method: 'POST', endpoint: ['power-management'], body: { config: [{ pin: 1, rail: '5_volt', current: 10 }] } },
      { method: 'GET', endpoint: ['reset'] },
    ];
    for (const dialect of [API09_DIALECT, API10_DIALECT]) {
      for (const call of posts.filter((c) => dialect.translate(c).calls[0].method === 'POST')) {
        it(`${dialect.version} ${call.method} ${call.endpoint.join('/')}: an answer without "status": "success" is BAD_RESPONSE naming the call`, function () {
          const t = dialect.translate(call);
          for (const answer of [{ status: 'maybe' }, {}, null, 'success', [{ status: 'success' }]]) {
            const error = refusal(() => answered(t, [answer]));
            error.code.should.equal('BAD_RESPONSE');
            should(error.statusCode).equal(200);
            const path = `/wire/${t.calls[0].endpoint.join('/')}`;
            error.message.should.equal(`POST ${path}: the device did not answer "status": "success"`);
            should(error.cause).containEql({ method: 'POST', path });
          }
          should(answered(t, [{ status: 'success' }])).eql({ status: 'success' });
        });
      }
    }
    it('a GET answer has no status to judge', function () {
      should(answered(API09_DIALECT.translate({ method: 'GET', endpoint: ['output', 'state'] }), [{ pins: [] }])).eql({ pins: [] });
    });
  });

  describe('1.0: the released services', function () {
    const v1 = (call: Call) => API10_DIALECT.translate(call);

    it('module reset: GET reset → POST reset {"reset":"yes"}; its answer as it is', function () {
      const t = v1({ method: 'GET', endpoint: ['reset'] });
      t.calls.should.eql([{ method: 'POST', endpoint: ['reset'], body: { reset: 'yes' } }]);
      should(answered(t, [{ status: 'success' }])).eql({ status: 'success' });
    });

    it('notifications: one GET notification → GET notification/1..6; six flat records → {notification: [6 with pin]}', function () {
      const t = v1({ method: 'GET', endpoint: ['notification'] });
      t.calls.should.eql([1, 2, 3, 4, 5, 6].map((pin) => ({ method: 'GET', endpoint: ['notification', pin] })));
      const answers = [1, 2, 3, 4, 5, 6].map((pin) => ({ ...NO_ALERTS, high_current_alert: pin === 4 }));
      should(answered(t, answers)).eql({ notification: [1, 2, 3, 4, 5, 6].map((pin) => ({ pin, ...NO_ALERTS, high_current_alert: pin === 4 })), unread: [] });
    });

    it('notifications: only the pins asked for; a failed pin read leaves the others delivered and names the pin unread', function () {
      const t = v1({ method: 'GET', endpoint: ['notification'], pins: [2, 4, 5] });
      t.calls.should.eql([2, 4, 5].map((pin) => ({ method: 'GET', endpoint: ['notification', pin] })));
      t.independent!.should.be.true();
      const error = new DeviceError('GET .../notification/4: no answer', { code: 'TIMEOUT' });
      const kept = [t.arrived!(0, { ...NO_ALERTS, under_voltage_alert: true }, SENT), undefined, t.arrived!(2, NO_ALERTS, SENT)];
      const data = t.answer(kept, [], [{ index: 1, error }]);
      should(data).eql({
        notification: [
          { pin: 2, ...NO_ALERTS, under_voltage_alert: true },
          { pin: 5, ...NO_ALERTS },
        ],
        unread: [{ pin: 4, error }],
      });
    });

    it("notifications: each pin's record goes to the request's reader as it arrives, the same record the answer lists", function () {
      const seen: Array<{ record: object; sent: SentRequest }> = [];
      const t = v1({ method: 'GET', endpoint: ['notification'], pins: [3, 6], arrived: (record, sent) => seen.push({ record, sent }) });
      const first = t.arrived!(0, { ...NO_ALERTS, high_voltage_alert: true }, SENT);
      seen.should.eql([{ record: { pin: 3, ...NO_ALERTS, high_voltage_alert: true }, sent: SENT }]);
      const second = t.arrived!(1, NO_ALERTS, SENT);
      seen.should.have.length(2);
      const data = t.answer([first, second], []) as { notification: object[] };
      data.notification[0].should.equal(seen[0].record);
      data.notification[1].should.equal(seen[1].record);
    });

    it('threshold: threshold_mV → threshold_millivolt, the other fields kept', function () {
      const t = v1({ method: 'POST', endpoint: ['input', 'analog', 'threshold'], body: { pin: 3, threshold_mV: 2000, trigger: 'falling' } });
      t.calls.should.eql([{ method: 'POST', endpoint: ['input', 'analog', 'threshold'], body: { pin: 3, threshold_millivolt: 2000, trigger: 'falling' } }]);
      should(answered(t, [{ status: 'success' }])).eql({ status: 'success' });
    });

    it('interrupt: debounce_time_ms → debounce_time_milliseconds', function () {
      const t = v1({ method: 'POST', endpoint: ['input', 'digital', 'interrupt'], body: { pin: 2, debounce_time_ms: 250, trigger: 'rising' } });
      t.calls.should.eql([
        { method: 'POST', endpoint: ['input', 'digital', 'interrupt'], body: { pin: 2, debounce_time_milliseconds: 250, trigger: 'rising' } },
      ]);
    });

    describe('power-management', function () {
      const spec = [6, 5, 4, 3, 2, 1].map((pin) => ({ pin, rail: pin % 2 ? '12_volt' : '5_volt', current: pin * 10 }));
      const call: Call = { method: 'POST', endpoint: ['power-management'], body: { config: spec } };

      it('entries {pin, rail, current} → {rail, current_milliampere} in pin order (position = pin), no pin field', function () {
        const t = v1(call);
        t.calls.should.eql([
          {
            method: 'POST',
            endpoint: ['power-management'],
            body: { config: [1, 2, 3, 4, 5, 6].map((pin) => ({ rail: pin % 2 ? '12_volt' : '5_volt', current_milliampere: pin * 10 })) },
          },
        ]);
        (t.calls[0].body!.config as object[]).should.have.length(6);
        for (const entry of t.calls[0].body!.config as object[]) entry.should.have.only.keys('rail', 'current_milliampere');
      });

      it('answer "success" with too_much_power: the answer as it is', function () {
        const answer = { status: 'success', too_much_power: { rail_3v3_milliwatt: 0, rail_5v0_milliwatt: 0, rail_12v_milliwatt: 0 } };
        should(answered(v1(call), [answer])).eql(answer);
      });

      it('answer "denied": a DEVICE_ERROR naming the mW over budget per rail, too_much_power in the cause', function () {
        const over = { rail_3v3_milliwatt: 0, rail_5v0_milliwatt: 4200, rail_12v_milliwatt: 120 };
        const error = refusal(() => answered(v1(call), [{ status: 'denied', too_much_power: over }]));
        error.code.should.equal('DEVICE_ERROR');
        error.message.should.match(/denied/);
        error.message.should.match(/5V0 4200 mW/);
        error.message.should.match(/12V 120 mW/);
        error.message.should.match(/3V3 0 mW/);
        should(error.cause.too_much_power).eql(over);
        should(error.deviceMessage).equal('denied');
      });

      it('any other answer: BAD_RESPONSE', function () {
        refusal(() => answered(v1(call), [{ status: 'maybe' }])).code.should.equal('BAD_RESPONSE');
        refusal(() => answered(v1(call), [null])).code.should.equal('BAD_RESPONSE');
      });
    });

    it('pin_type: voltage_millivolt, current_milliampere, frequency_hertz → the spec names; digital_input and Invalid as they are', function () {
      for (const endpoint of [
        ['input', 'values'],
        ['input', 'values', 'current'],
      ]) {
        const t = v1({ method: 'GET', endpoint });
        t.calls.should.eql([{ method: 'GET', endpoint }]);
        const wire = ['voltage_millivolt', 'current_milliampere', 'digital_input', 'frequency_hertz', 'Invalid', 'voltage_millivolt'];
        const answer = { pins: wire.map((pin_type, i) => ({ pin: i + 1, pin_type, value: i })) };
        should(answered(t, [answer])).eql({
          pins: ['voltage_mV', 'current_mA', 'digital_input', 'frequency_hz', 'Invalid', 'voltage_mV'].map((pin_type, i) => ({
            pin: i + 1,
            pin_type,
            value: i,
          })),
        });
      }
    });

    it('USB port path: usbhub/port/<2..7> → usbhub/slot/<n>; 8 (and 1) refused before sending', function () {
      for (const port of [2, 3, 4, 5, 6, 7]) {
        v1({ method: 'POST', endpoint: ['usbhub', 'port', port], body: { state: false } }).calls.should.eql([
          { method: 'POST', endpoint: ['usbhub', 'slot', port], body: { state: false } },
        ]);
      }
      for (const port of [1, 8]) {
        const error = refusal(() => v1({ method: 'POST', endpoint: ['usbhub', 'port', port], body: { state: true } }));
        error.code.should.equal('INVALID_INPUT');
        error.message.should.equal(`Port (port) must be an integer from 2 to 7, got ${port} (API 1.0 devices have USB ports 2 to 7)`);
      }
    });

    it('USB hub record: port_slot_0..7 → the spec record hub_state, port_slot_2..8 (8 not available)', function () {
      const wire: Record<string, string> = { hub_state: 'enabled' };
      for (let n = 0; n <= 7; n++) wire[`port_slot_${n}`] = n < 2 ? 'not available' : n === 4 ? 'disabled' : 'enabled';
      should(answered(v1({ method: 'GET', endpoint: ['usbhub'] }), [wire])).eql({
        hub_state: 'enabled',
        port_slot_2: 'enabled',
        port_slot_3: 'enabled',
        port_slot_4: 'disabled',
        port_slot_5: 'enabled',
        port_slot_6: 'enabled',
        port_slot_7: 'enabled',
        port_slot_8: 'not available',
      });
    });

    it('POST reset (bmc and power module reset): sent as it is, its success judged', function () {
      const call = { method: 'POST' as const, endpoint: ['reset'], body: { reset: 'yes' } };
      const t = v1(call);
      t.calls.should.eql([call]);
      should(answered(t, [{ status: 'success' }])).eql({ status: 'success' });
    });

    it('usbhub/devices: sent and answered as they are', function () {
      const t = v1({ method: 'GET', endpoint: ['usbhub', 'devices'] });
      t.calls.should.eql([{ method: 'GET', endpoint: ['usbhub', 'devices'] }]);
      const answer = { devices: [{ slot: 3, usb_port: 1, manufacturer: 'm', product: 'p', serial_code: 's', system_path: '/x' }] };
      should(answered(t, [answer])).eql(answer);
    });

    it('version record: driver_session and device_session kept as they are', function () {
      const record = {
        driver_session: 'A'.repeat(64),
        version: { api: { major: 1, minor: 0, patch: 0 } },
        devices: [{ slot_number: 2, sdbp_version: { major: 1, minor: 0, patch: 0 }, device_session: 'B'.repeat(64) }],
      };
      const t = v1({ method: 'GET', endpoint: [], scope: 'service' });
      t.calls.should.eql([{ method: 'GET', endpoint: [], scope: 'service' }]);
      should(answered(t, [record])).eql(record);
    });

    it('everything else goes out and comes back unchanged', function () {
      for (const call of [
        { method: 'POST', endpoint: ['output', 'state'], body: { pin: 1, state: 'high' } },
        { method: 'POST', endpoint: ['limits'], body: { limit_3v3: 1000, limit_5v0: 1000, limit_12v: 100 } },
        { method: 'POST', endpoint: ['usbhub', 'reset'], body: { reset: 'yes' } },
        { method: 'GET', endpoint: ['descriptor'] },
      ] as Call[]) {
        const t = v1(call);
        t.calls.should.eql([call]);
        const answer = { status: 'success', a: 1 };
        should(answered(t, [answer])).eql(answer);
      }
    });
  });

  describe('an error body that is not valid JSON (a quote in the message, real §2)', function () {
    let server: http.Server;
    let url: string;
    const BODY = '{\n "status": "error",\n "code": 422,\n "message": "Slot 2 failed: "Power management request failed""\n}';

    before(async () => {
      server = http.createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          const record = req.url === '/api/io/1.0';
          const body = record
            ? JSON.stringify({ driver_session: 'S'.repeat(64), version: { api: { major: 1, minor: 0, patch: 0 } }, devices: [{ slot_number: 2 }] })
            : BODY;
          res.writeHead(record ? 200 : 422, { 'Content-Type': 'application/json', Connection: 'close' });
          res.end(body);
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
    });
    after(async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });

    it('the client reads the message anyway: DEVICE_ERROR 422 with the driver text', async function () {
      (() => JSON.parse(BODY)).should.throw();
      const client = new DeviceClient({ url, service: 'io', slot: 2, apiVersion: '1.0' });
      try {
        const config = [1, 2, 3, 4, 5, 6].map((pin) => ({ pin, rail: '5_volt', current: 10 }));
        const error = await client.request({ method: 'POST', endpoint: ['power-management'], body: { config } }).then(
          () => {
            throw new Error('no error');
          },
          (e: unknown) => e as DeviceError,
        );
        error.should.be.instanceOf(DeviceError);
        error.code.should.equal('DEVICE_ERROR');
        should(error.statusCode).equal(422);
        should(error.deviceMessage).equal('Slot 2 failed: "Power management request failed"');
        error.message.should.equal('POST /api/io/1.0/2/power-management failed: 422 Slot 2 failed: "Power management request failed"');
      } finally {
        client.close();
      }
    });
  });
});

describe('nodes on API 0.9 and 1.0 devices (runtime, simulator)', function () {
  this.timeout(30000);
  const sims: Record<'0.9' | '1.0', Simulator> = {} as never;
  const ctls: Record<'0.9' | '1.0', SimHarness> = {} as never;

  before(async () => {
    for (const api of ['0.9', '1.0'] as const) {
      sims[api] = await startSimulator({ port: 0, api });
      ctls[api] = new SimHarness(sims[api]);
    }
  });
  after(async () => {
    for (const sim of Object.values(sims)) await sim.close();
  });
  beforeEach(async () => {
    for (const ctl of Object.values(ctls)) await ctl.reset();
  });
  afterEach(async () => {
    await helper.unload();
  });

  for (const api of ['0.9', '1.0'] as const) {
    it(`auto picks ${api} on a ${api} device: status "connected (API ${api})"`, async function () {
      await loadActions(sims[api].url, [{ id: 'info', type: 'device-info' }]);
      await waitStatus('info', 'green', 'ring', `connected (API ${api})`);
      device().connection!.state.should.containEql({ state: 'connected', apiVersion: api });
      // Newest first: a 0.9 device answers 1.0 with 400 and is asked again in 0.9.
      (await ctls[api].wireLog())
        .map((e) => `${e.path} ${e.status}`)
        .should.eql(
          api === '1.0' ? ['/api/io/1.0 200', '/api/io/1.0/2/descriptor 200'] : ['/api/io/1.0 400', '/api/io/0.9 200', '/api/io/0.9/2/descriptor 200'],
        );
    });
  }

  it('a fixed API 0.9 against a 1.0 device is incompatible (400 Version not compatible)', async function () {
    await loadActions(sims['1.0'].url, [{ id: 'info', type: 'device-info' }], { devices: [{ url: sims['1.0'].url, apiVersion: '0.9' }], waitFor: [] });
    await waitStatus('info', 'red', 'ring', 'incompatible: 400 Version not compatible');
    device().connection!.state.state.should.equal('incompatible');
  });

  it('a fixed API 1.0 against a 0.9 device is incompatible too', async function () {
    await loadActions(sims['0.9'].url, [{ id: 'info', type: 'device-info' }], { devices: [{ url: sims['0.9'].url, apiVersion: '1.0' }], waitFor: [] });
    await waitStatus('info', 'red', 'ring', 'incompatible: 400 Version not compatible');
  });

  it('device-info shows payload.sessions on 1.0 (and none on 0.9)', async function () {
    for (const api of ['1.0', '0.9'] as const) {
      const outcomes = await loadActions(sims[api].url, [{ id: 'info', type: 'device-info' }]);
      should(await send(outcomes, 'info', {})).be.undefined();
      const payload = outcomes.sent('info')[0].payload as {
        sessions: Record<string, unknown>;
        version: { driver_session?: string; devices: Array<{ device_session?: string }> };
      };
      if (api === '1.0') {
        payload.sessions.driver_session!.should.equal(payload.version.driver_session);
        payload.sessions.device_session!.should.equal(payload.version.devices[0].device_session);
        String(payload.sessions.driver_session).should.match(/^[A-Z0-9]{64}$/);
      } else payload.sessions.should.eql({ driver_session: undefined, device_session: undefined });
      await helper.unload();
    }
  });

  it(`a restarted 1.0 service (new driver_session, no outage) is noticed within the health interval (${HEALTH_INTERVAL_MS} ms): io-power applies its config again, notification-poll says notifications-lost`, async function () {
    this.timeout(HEALTH_INTERVAL_MS + 15000);
    const ctl = ctls['1.0'];
    const rows = [1, 2, 3, 4, 5, 6].map(() => ({ rail: '5_volt', current: '100' }));
    const outcomes: Outcomes = await loadActions(sims['1.0'].url, [
      { id: 'pw', type: 'io-power', pins: rows, applyOnConnect: true },
      { id: 'np', type: 'notification-poll', interval: '500', pins: '', alerts: '', combined: false },
    ]);
    const configured = async () => (await ctl.state()).modules.find((m: { slot: number }) => m.slot === 2).powerConfig !== null;
    await waitFor(configured, 'the power configuration applied on deploy');
    const session = (device().connection!.state as { session?: string }).session;
    await ctl.restart(); // the service restarts: factory state, a new driver_session, the connection never drops
    (await configured()).should.be.false();
    const restarted = Date.now();
    await waitFor(configured, 'the configuration applied again', HEALTH_INTERVAL_MS + 3000, 50);
    const took = Date.now() - restarted;
    took.should.be.belowOrEqual(HEALTH_INTERVAL_MS + 2000);
    (device().connection!.state as { session?: string }).session!.should.not.equal(session);
    (await ctl.log()).filter((e) => e.path.endsWith('/power-management')).should.have.length(2);
    await waitFor(() => outcomes.sent('np').some((m) => m.topic === 'notifications-lost'), 'the notifications-lost msg', 3000);
    const lost = outcomes.sent('np').filter((m) => m.topic === 'notifications-lost');
    lost.should.have.length(1);
    (lost[0].payload as { reason: string }).reason.should.match(/restarted/);
    outcomes.caughtFrom('pw').should.have.length(0);
  });
});
