/**
 * The Sparkplug catalogue (nodes/fleet/sparkplug/catalogue.ts): the metrics each kind of
 * module declares, what our nodes' msgs and the health bus say about them, what a DCMD write
 * becomes; and docs/sparkplug.md's table, which must list exactly the catalogue's metrics.
 *
 * The msgs below have the shapes our nodes really send: msg.payload and msg.request as
 * io-read, io-output, io-threshold, io-input, notification-poll, bmc-readings, bmc-watchdog,
 * bmc-usbhub, power-readings, power-fan and power-limits sent them on the test runtime against
 * the simulator, on API 0.9 and on API 1.0 (where 1.0 differs: its paths, its names in write
 * bodies, its six notification reads), with some values changed to show more (a digital pin,
 * a protection counter that rose). test/runtime/sparkplug-writes.test.ts feeds real answers.
 */
import fs from 'fs';
import path from 'path';
import should from 'should';
import { changesOfAlert, changesOfHealth, changesOfReading, metricNamed, metricsOf, writeOf } from '../../nodes/fleet/sparkplug/catalogue';
import { DataType, MetricChange, MetricDef, MetricValue } from '../../nodes/fleet/sparkplug/types';
import { moduleOfRequest } from '../../nodes/fleet/scheme';
import { FLEET_COMMAND_OPS } from '../../nodes/lib/pure/facts';
import { SERVICES, Service } from '../../nodes/lib/pure/limits';
import type { HealthEvent } from '../../nodes/lib/config-node/health';
import { speak } from '../helpers/i18n';
import { REPO } from '../helpers/source-files';

type Call = { method: string; path: string; body?: Record<string, unknown> };
const get = (api: string, svc: string, slot: number, leaf: string): Call => ({ method: 'GET', path: `/api/${svc}/${api}/${slot}/${leaf}` });
const post = (api: string, svc: string, slot: number, leaf: string, body: Record<string, unknown>): Call => ({
  method: 'POST',
  path: `/api/${svc}/${api}/${slot}/${leaf}`,
  body,
});

/** A msg into fleet-publish as publisher.ts reads it: its module and `what` from msg.request. */
function reading(payload: unknown, request: Call | Call[]): MetricChange[] {
  const module = moduleOfRequest(request)!;
  return changesOfReading(module.service as Service, module.what, payload, request);
}

const volts = (pin: number, value: number) => ({ pin, pin_type: 'voltage_mV', value });
const SUCCESS = { status: 'success' };
const APIS = ['0.9', '1.0'] as const;

describe('Sparkplug catalogue (nodes/fleet/sparkplug/catalogue.ts)', function () {
  before(() => speak());

  it('declares every kind: names unique, datatypes of Sparkplug, the common metrics first, writes only to command nodes', function () {
    const codes = new Set<number>(Object.values(DataType));
    for (const service of SERVICES) {
      const defs = metricsOf(service);
      defs.length.should.be.above(10);
      new Set(defs.map((d) => d.name)).size.should.equal(defs.length);
      defs
        .slice(0, 4)
        .map((d) => d.name)
        .should.eql(['Connection/State', 'Connection/Resets', 'Connection/Last Reset', 'Notifications Lost']);
      for (const d of defs) {
        codes.has(d.datatype).should.be.true(d.name);
        d.name.should.match(/^[A-Za-z0-9][A-Za-z0-9 ./-]*[A-Za-z0-9]$/);
        if (d.writes) (FLEET_COMMAND_OPS as readonly string[]).should.containEql(d.writes);
        should(metricNamed(service, d.name)).equal(d);
      }
    }
    metricsOf('io')
      .filter((d) => d.writes)
      .length.should.equal(6 * 4);
    metricsOf('bmc')
      .some((d) => d.writes)
      .should.be.false();
    metricsOf('power')
      .some((d) => d.writes)
      .should.be.false();
    metricsOf('nonsense' as Service).should.eql([]);
  });

  for (const api of APIS) {
    describe(`io msgs of API ${api}`, function () {
      it('io-read values, all pins and one: mode and the quantity of the mode, the others null', function () {
        const pins = { pins: [volts(1, 0), volts(2, 1234), { pin: 5, pin_type: 'digital_input', value: 1 }, { pin: 6, pin_type: 'frequency_hz', value: 50 }] };
        const changes = reading(pins, get(api, 'io', 2, 'input/values'));
        changes.should.containDeep([
          { name: 'Pin 2/Mode', value: 'analog' },
          { name: 'Pin 2/Voltage', value: 1234 },
          { name: 'Pin 2/Level', value: null },
          { name: 'Pin 5/Mode', value: 'digital' },
          { name: 'Pin 5/Level', value: true },
          { name: 'Pin 5/Voltage', value: null },
          { name: 'Pin 6/Frequency', value: 50 },
          { name: 'Pin 6/Level', value: null },
        ]);
        changes.length.should.equal(16);
        reading(volts(2, 1234), get(api, 'io', 2, 'input/values')).should.eql([
          { name: 'Pin 2/Mode', value: 'analog' },
          { name: 'Pin 2/Voltage', value: 1234 },
          { name: 'Pin 2/Level', value: null },
          { name: 'Pin 2/Frequency', value: null },
        ]);
      });

      it('io-read currents', function () {
        const pins = { pins: [1, 2, 3, 4, 5, 6].map((pin) => ({ pin, pin_type: 'current_mA', value: pin * 10 })) };
        reading(pins, get(api, 'io', 2, 'input/values/current')).should.eql([1, 2, 3, 4, 5, 6].map((pin) => ({ name: `Pin ${pin}/Current`, value: pin * 10 })));
      });

      it('io-output state and PWM: the values its write sent (the device answers success only)', function () {
        reading(SUCCESS, post(api, 'io', 2, 'output/state', { pin: 1, state: 'high' })).should.eql([
          { name: 'Pin 1/Output', value: true },
          { name: 'Pin 1/PWM/Setting', value: null },
          { name: 'Pin 1/PWM/Frequency', value: null },
          { name: 'Pin 1/PWM/Duty', value: null },
        ]);
        reading(SUCCESS, post(api, 'io', 2, 'output/pwm', { pin: 4, prescaler: 1, period: 24000, time_on: 6000 })).should.eql([
          { name: 'Pin 4/Output', value: null },
          { name: 'Pin 4/PWM/Setting', value: '1000 Hz 25 %' },
          { name: 'Pin 4/PWM/Frequency', value: 1000 },
          { name: 'Pin 4/PWM/Duty', value: 25 },
        ]);
      });

      it('io-threshold (mode first, then the threshold: 1.0 names it threshold_millivolt) and io-input', function () {
        const threshold = api === '0.9' ? { pin: 3, threshold_mV: 2000, trigger: 'rising' } : { pin: 3, trigger: 'rising', threshold_millivolt: 2000 };
        reading(SUCCESS, [post(api, 'io', 2, 'input/mode', { pin: 3, mode: 'analog' }), post(api, 'io', 2, 'input/analog/threshold', threshold)]).should.eql([
          { name: 'Pin 3/Mode', value: 'analog' },
          { name: 'Pin 3/Threshold/Voltage', value: 2000 },
          { name: 'Pin 3/Threshold/Trigger', value: 'rising' },
        ]);
        const debounce = api === '0.9' ? { debounce_time_ms: 250 } : { debounce_time_milliseconds: 250 };
        const input = [
          post(api, 'io', 2, 'input/mode', { pin: 6, mode: 'digital' }),
          post(api, 'io', 2, 'input/digital/interrupt', { pin: 6, trigger: 'rising', ...debounce }),
          post(api, 'io', 2, 'input/digital/counter', { pin: 6, state: 'enabled' }),
        ];
        reading(SUCCESS, input).should.eql([{ name: 'Pin 6/Mode', value: 'digital' }]);
      });

      it('notification-poll, a msg per pin and combined: every alert counts, two alike too; its notifications-lost msg counts none', function () {
        const request = api === '0.9' ? get(api, 'io', 2, 'notification') : [1, 2, 3, 4, 5, 6].map((n) => get(api, 'io', 2, `notification/${n}`));
        const pin2 = { pin: 2, under_voltage_alert: true, high_voltage_alert: false, high_current_alert: true, custom_voltage_alert: false };
        const pin4 = { pin: 4, under_voltage_alert: false, high_voltage_alert: false, high_current_alert: false, custom_voltage_alert: true };
        moduleOfRequest(request)!.should.containEql({ service: 'io', what: 'notification' });
        changesOfAlert('io', pin2, ['under_voltage_alert', 'high_current_alert']).should.eql([
          { name: 'Pin 2/Alerts/Under Voltage', add: 1 },
          { name: 'Pin 2/Alerts/High Current', add: 1 },
        ]);
        const combined = { 2: ['under_voltage_alert', 'high_current_alert'], 4: ['custom_voltage_alert'] };
        changesOfAlert('io', [pin2, pin4], combined).should.eql([
          { name: 'Pin 2/Alerts/Under Voltage', add: 1 },
          { name: 'Pin 2/Alerts/High Current', add: 1 },
          { name: 'Pin 4/Alerts/Custom Voltage', add: 1 },
        ]);
        // The next read's alert of the same flag is one more; a flag its list names twice is one.
        changesOfAlert('io', [pin4], { 4: ['custom_voltage_alert', 'custom_voltage_alert'] }).should.eql([{ name: 'Pin 4/Alerts/Custom Voltage', add: 1 }]);
        changesOfAlert('io', { pins: [2], from: 'a', to: 'b', reason: 'r' }, []).should.eql([]);
      });
    });

    describe(`bmc and power msgs of API ${api}`, function () {
      it('bmc-readings (both records merged, or temperature alone), bmc-watchdog, bmc-usbhub', function () {
        const both = [get(api, 'bmc', 0, 'voltage'), get(api, 'bmc', 0, 'temperature')];
        reading({ voltage_1v8: 1804, voltage_rtc: 3012, ntc_0: 48.7, ntc_1: 31.2 }, both).should.eql([
          { name: 'Rails/1V8/Voltage', value: 1804 },
          { name: 'Rails/RTC/Voltage', value: 3012 },
          { name: 'Temperatures/SoC', value: 48.7 },
          { name: 'Temperatures/Ambient', value: 31.2 },
        ]);
        reading({ ntc_0: 48.7, ntc_1: 31.2 }, get(api, 'bmc', 0, 'temperature')).length.should.equal(2);
        reading({ timeout: 0, timeout_left: 0, shutdown_timeout: 30000, emergency_mode: false }, get(api, 'bmc', 0, 'watchdog')).should.eql([
          { name: 'Watchdog/Timeout', value: 0 },
          { name: 'Watchdog/Time Left', value: 0 },
          { name: 'Watchdog/Shutdown Timeout', value: 30000 },
          { name: 'Watchdog/Emergency Mode', value: false },
        ]);
        reading(SUCCESS, post(api, 'bmc', 0, 'watchdog', { timeout: 60000 })).should.eql([{ name: 'Watchdog/Timeout', value: 60000 }]);
        reading(SUCCESS, post(api, 'bmc', 0, 'watchdog/sw_shutdown_timeout', { timeout: 20000 })).should.eql([
          { name: 'Watchdog/Shutdown Timeout', value: 20000 },
        ]);
        const hub = { hub_state: 'enabled', port_slot_2: 'enabled', port_slot_3: 'disabled', port_slot_8: 'not available' };
        reading(hub, get(api, 'bmc', 0, 'usbhub')).should.eql([
          { name: 'USB Hub/State', value: 'enabled' },
          { name: 'USB Hub/Port 2', value: 'enabled' },
          { name: 'USB Hub/Port 3', value: 'disabled' },
          { name: 'USB Hub/Port 8', value: 'not available' },
        ]);
      });

      it('power-readings (all four records merged), power-limits read and set, power-fan read, rpm, set, measurement', function () {
        const records = ['source', 'protectionlog', 'stats', 'temperature'].map((r) => get(api, 'power', 1, r));
        const merged = {
          ...{ source_3v3: 19635, source_5v0: 24750, source_12v: 28800, source_total: 60000, efficiency_factor_3v3: 90, efficiency_factor_5v0: 92 },
          ...{ efficiency_factor_12v: 94, opp_protection_cnt: 1, ovp_cnt_3v3: 0, uvp_cnt_3v3: 0, ovp_cnt_5v0: 0, uvp_cnt_5v0: 0, ovp_cnt_12v: 0 },
          ...{ uvp_cnt_12v: 0, ocp_cnt_3v3: 0, ocp_cnt_5v0: 1, ocp_cnt_12v: 0, pmc_temperature: 0, total_power_overload: 0 },
          ...{ voltage_3v3: 3324, voltage_5v0: 4862, voltage_12v: 12007, current_3v3: 802, current_5v0: 1203, current_12v: 397 },
          ...{ limit_3v3: 5950, limit_5v0: 4950, limit_12v: 2400, on_board_temp: 38.5, pmc_temp: 52.2 },
        };
        const all = reading(merged, records);
        all.length.should.equal(Object.keys(merged).length);
        all.should.containDeep([
          { name: 'Rails/5V0/Current', value: 1203 },
          { name: 'Protection/5V0/Over Current', value: 1 },
          { name: 'Rails/Total Capacity', value: 60000 },
          { name: 'Temperatures/PMC', value: 52.2 },
        ]);
        const stats = { voltage_3v3: 3324, voltage_5v0: 4862, voltage_12v: 12007, current_3v3: 802, current_5v0: 1203, current_12v: 398 };
        reading({ ...stats, limit_3v3: 5950, limit_5v0: 4950, limit_12v: 2400 }, get(api, 'power', 1, 'stats')).length.should.equal(9);
        reading(SUCCESS, post(api, 'power', 1, 'limits', { limit_3v3: 3000, limit_5v0: 2500, limit_12v: 1200 })).should.eql([
          { name: 'Rails/3V3/Current Limit', value: 3000 },
          { name: 'Rails/5V0/Current Limit', value: 2500 },
          { name: 'Rails/12V/Current Limit', value: 1200 },
        ]);
        reading({ fan_forced: false, fan_current_mode: 60, fan_setting_mode: 0 }, get(api, 'power', 1, 'fan')).should.eql([
          { name: 'Fan/Forced', value: false },
          { name: 'Fan/Mode', value: 60 },
          { name: 'Fan/Forced Mode', value: 0 },
        ]);
        reading({ enabled: true, rpm: 2400 }, get(api, 'power', 1, 'fan/rpm')).should.eql([
          { name: 'Fan/Speed', value: 2400 },
          { name: 'Fan/Speed Measured', value: true },
        ]);
        reading(SUCCESS, post(api, 'power', 1, 'fan', { fan_forced: true, fan_mode: 80 })).should.eql([
          { name: 'Fan/Forced', value: true },
          { name: 'Fan/Forced Mode', value: 80 },
        ]);
        reading(SUCCESS, post(api, 'power', 1, 'fan/rpm', { measurement_enabled: true })).should.eql([{ name: 'Fan/Speed Measured', value: true }]);
      });
    });
  }

  it('the health bus: the connection state, a reset counted with its time, a notification window lost counted; other kinds nothing', function () {
    const module = { config: 'c1', service: 'io', slot: 2, device: '127.0.0.1:1' };
    const at = (kind: string, detail?: unknown) => ({ kind, module, cause: 'x', time: '2026-01-01T00:00:00.000Z', detail }) as HealthEvent;
    changesOfHealth(at('connection', { state: 'unreachable' })).should.eql([{ name: 'Connection/State', value: 'unreachable' }]);
    changesOfHealth(at('reset')).should.eql([
      { name: 'Connection/Resets', add: 1 },
      { name: 'Connection/Last Reset', value: Date.parse('2026-01-01T00:00:00.000Z') },
    ]);
    changesOfHealth(at('notifications-lost', { pins: [2], from: 'a', to: 'b' })).should.eql([{ name: 'Notifications Lost', add: 1 }]);
    changesOfHealth(at('queue', { queued: 90, limit: 100, rise: 80, fall: 50 })).should.eql([]);
  });

  it('a payload of another shape says nothing and never throws; a huge one costs a bounded walk', function () {
    const hostile: unknown[] = [
      ...[undefined, null, 0, 'x', true, [], {}, { pins: 'no' }, { pins: [null, 7, { pin: 9, pin_type: 'voltage_mV', value: 1 }] }],
      ...[
        { pin: 2, pin_type: 'voltage_mV', value: '1234' },
        { pin: 2, pin_type: 'voltage_mV', value: NaN },
        { pin: '2', pin_type: 'voltage_mV', value: 1 },
      ],
      ...[
        { pin: 2, pin_type: 'pressure', value: 1 },
        { ntc_0: 'hot', timeout: -1, fan_mode: 300, rpm: 1.5, hub_state: 'x'.repeat(1000) },
      ],
      new Proxy({}, { get: () => { throw new Error('a getter that throws'); }, has: () => { throw new Error('has'); } }), // prettier-ignore
    ];
    const whats = ['input/values', 'input/values/current', 'output/state', 'voltage', 'watchdog', 'usbhub', 'stats', 'fan', 'fan/rpm', 'limits', 'nope'];
    for (const service of SERVICES)
      for (const what of whats)
        for (const [i, payload] of hostile.entries()) {
          changesOfReading(service, what, payload, payload).should.eql([], `${service} ${what} hostile[${i}]`);
          changesOfAlert(service, payload, payload).should.eql([]);
        }
    reading(SUCCESS, post('0.9', 'io', 2, 'output/state', { pin: 2, state: 'on' })).should.eql([]);
    reading(SUCCESS, post('0.9', 'io', 2, 'output/pwm', { pin: 2, prescaler: 1, period: 0, time_on: 1 })).should.eql([]);
    // A million pins or alerts: only the first few are looked at.
    let reads = 0;
    const counted = <T extends object>(target: T) => new Proxy(target, { get: (t, k) => (reads++, Reflect.get(t, k)) });
    const many = counted(Array.from({ length: 1_000_000 }, () => volts(2, 1)));
    changesOfReading('io', 'input/values', { pins: many }).length.should.equal(6 * 4);
    changesOfAlert('io', counted(Array.from({ length: 1_000_000 }, () => ({ pin: 2 }))), ['under_voltage_alert']).length.should.be.belowOrEqual(24);
    reads.should.be.below(200);
  });

  describe('writeOf', function () {
    const write = (name: string, value: MetricValue) => writeOf('io', metricNamed('io', name)!, value);

    it('outputs, PWM and thresholds become the payload the action node takes', function () {
      write('Pin 2/Output', true).should.eql({ op: 'io-output', payload: { pin: 2, state: 'high' } });
      write('Pin 6/Output', false).should.eql({ op: 'io-output', payload: { pin: 6, state: 'low' } });
      write('Pin 4/PWM/Setting', '1000 Hz 25 %').should.eql({ op: 'io-output', payload: { pin: 4, prescaler: 1, period: 24000, time_on: 6000 } });
      write('Pin 3/Threshold/Voltage', 2000).should.eql({ op: 'io-threshold', payload: { pin: 3, threshold_mV: 2000 } });
      write('Pin 3/Threshold/Trigger', 'falling').should.eql({ op: 'io-threshold', payload: { pin: 3, trigger: 'falling' } });
    });

    it('refuses a value out of its limits, naming the metric, the value and the allowed range', function () {
      write('Pin 3/Threshold/Voltage', 25001).should.eql({ refused: 'Pin 3/Threshold/Voltage must be an integer from 50 to 25000 mV, got 25001' });
      write('Pin 3/Threshold/Voltage', 49).should.eql({ refused: 'Pin 3/Threshold/Voltage must be an integer from 50 to 25000 mV, got 49' });
      (write('Pin 3/Threshold/Trigger', 'pulse') as { refused: string }).refused.should.match(
        /^Pin 3\/Threshold\/Trigger must be one of .*disabled.*rising.*falling.*, got "pulse"$/,
      );
      (write('Pin 1/PWM/Setting', '2000000 Hz 50 %') as { refused: string }).refused.should.match(
        /^Pin 1\/PWM\/Setting must be an integer from 1 to 1000000 Hz, got 2000000$/,
      );
      (write('Pin 1/PWM/Setting', '1000 Hz 101 %') as { refused: string }).refused.should.match(
        /^Pin 1\/PWM\/Setting must be an integer from 0 to 100 %, got 101$/,
      );
      write('Pin 1/PWM/Setting', 'fast').should.eql({ refused: 'Pin 1/PWM/Setting must be a frequency and a duty cycle as "1000 Hz 25 %", got "fast"' });
      (write('Pin 1/PWM/Setting', `1000 Hz 25 %${' '.repeat(40)}0`) as { refused: string }).refused.should.startWith('Pin 1/PWM/Setting must be a frequency');
    });

    it('refuses a read-only metric, a value of another type, a metric of another kind', function () {
      write('Pin 2/Voltage', 5).should.eql({ refused: 'Pin 2/Voltage is read-only' });
      write('Pin 2/Output', 1).should.eql({ refused: 'Pin 2/Output takes a Boolean, got 1' });
      write('Pin 2/Threshold/Voltage', 1000.5).should.eql({ refused: 'Pin 2/Threshold/Voltage takes a UInt16, got 1000.5' });
      write('Pin 2/Threshold/Voltage', '1000').should.eql({ refused: 'Pin 2/Threshold/Voltage takes a UInt16, got "1000"' });
      const def: MetricDef = { name: 'Watchdog/Timeout', datatype: DataType.UInt32, writes: 'bmc-watchdog' };
      writeOf('io', def, 1000).should.eql({ refused: 'Watchdog/Timeout is no metric of an io module' });
      writeOf('bmc', def, 1000).should.eql({ refused: 'Watchdog/Timeout is read-only' });
    });
  });

  it('docs/sparkplug.md lists exactly the catalogue: name, type, unit, the node a write goes to and the alias index', function () {
    const page = fs.readFileSync(path.join(REPO, 'docs', 'sparkplug.md'), 'utf8');
    const section = page.split(/^## Metrics$/m)[1].split(/^## /m)[0];
    const listed: Record<string, string[]> = { every: [], io: [], bmc: [], power: [] };
    let kind = '';
    for (const line of section.split('\n')) {
      const heading = /^### (.+)$/.exec(line);
      if (heading) kind = heading[1] === 'Every module' ? 'every' : heading[1];
      const cells = line.split('|').map((c) => c.trim());
      if (!/^`[^`]+`$/.test(cells[1] ?? '')) continue;
      const [name, type, unit, writes, index] = [cells[1].slice(1, -1), cells[2], cells[3], cells[4], cells[5]];
      // The alias index (aliases.ts): `i`, `i+k(N-1)` per pin, `i+kr` per rail r = 0, 1, 2, `i+(N-2)` per port.
      const at = (value: string, n: number, r: number) =>
        value
          .slice(1, -1)
          .replace(/^(\d+)\+(\d*)\(N-(\d)\)$/, (_, i, k, o) => String(Number(i) + Number(k || 1) * (n - Number(o))))
          .replace(/^(\d+)\+(\d+)r$/, (_, i, k) => String(Number(i) + Number(k) * r));
      // `Pin N/...` stands for pins 1 to 6, `Rails/R/...` for each rail, `Port N` for ports 2 to 8.
      const names: Array<[string, string]> = name.startsWith('Pin N/')
        ? [1, 2, 3, 4, 5, 6].map((n) => [name.replace('Pin N/', `Pin ${n}/`), at(index, n, 0)])
        : /\/R\//.test(name)
          ? ['3V3', '5V0', '12V'].map((r, i) => [name.replace('/R/', `/${r}/`), at(index, 0, i)])
          : name.endsWith('Port N')
            ? [2, 3, 4, 5, 6, 7, 8].map((n) => [name.replace('Port N', `Port ${n}`), at(index, n, 0)])
            : [[name, at(index, 0, 0)]];
      for (const [n, i] of names) listed[kind].push(`${n} | ${type} | ${unit} | ${writes} | ${i}`);
    }
    const said = (d: MetricDef, i: number) =>
      `${d.name} | ${Object.entries(DataType).find(([, c]) => c === d.datatype)![0]} | ${d.unit ?? ''} | ${d.writes ?? ''} | ${i}`;
    for (const service of SERVICES) [...listed.every, ...listed[service]].sort().should.eql(metricsOf(service).map(said).sort(), service);
  });
});
