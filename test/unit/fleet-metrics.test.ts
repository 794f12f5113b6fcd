import 'should';
import path from 'path';
import { spawnSync } from 'child_process';
import { ModuleMetrics } from '../../nodes/fleet/metrics';
import { publish, tally } from '../../nodes/lib/config-node/health';
import { CONNECTION_STATES } from '../../nodes/lib/config-node/connection-state';

const parse = require('parse-prometheus-text-format') as (text: string) => Array<{
  name: string;
  type: string;
  metrics: Array<{ value?: string; labels?: Record<string, string>; buckets?: Record<string, string>; count?: string; sum?: string }>;
}>;

const io2 = { config: 'c1', service: 'io', slot: 2, device: '10.0.4.17' };
const bmc0 = { config: 'c2', service: 'bmc', slot: 0, device: '10.0.4.17' };

describe('Prometheus metrics (nodes/fleet/metrics.ts)', function () {
  let metrics: ModuleMetrics;
  beforeEach(() => (metrics = new ModuleMetrics()));
  afterEach(() => metrics.stop());

  async function families() {
    const all = parse(await metrics.text());
    return (name: string) => all.find((f) => f.name === name)!;
  }

  it('counts exchanges and errors by code, observes latency in seconds, keeps the queue depth, per module', async function () {
    tally(io2, { kind: 'exchange', method: 'GET', path: '/api/x', ms: 3, ok: true, queued: 2 });
    tally(io2, { kind: 'exchange', method: 'GET', path: '/api/x', ms: 5001, ok: false, code: 'TIMEOUT', queued: 0 });
    tally(bmc0, { kind: 'exchange', method: 'GET', path: '/api/x', ms: 1, ok: true, queued: 0 });
    const f = await families();
    const labels = { device: '10.0.4.17', service: 'io', slot: '2' };
    f('modular_device_requests_total')
      .metrics.find((m) => m.labels!.service === 'io')!
      .should.eql({ value: '2', labels });
    f('modular_device_request_errors_total').metrics.should.eql([{ value: '1', labels: { ...labels, code: 'TIMEOUT' } }]);
    f('modular_device_request_duration_seconds').type.should.equal('HISTOGRAM');
    // The parser keeps a histogram's buckets but not its labels: the series read from the text.
    const text = await metrics.text();
    text.should.containEql('modular_device_request_duration_seconds_bucket{le="0.005",device="10.0.4.17",service="io",slot="2"} 1\n'); // 3 ms
    text.should.containEql('modular_device_request_duration_seconds_bucket{le="10",device="10.0.4.17",service="io",slot="2"} 2\n'); // 5.001 s
    text.should.containEql('modular_device_request_duration_seconds_count{device="10.0.4.17",service="io",slot="2"} 2\n');
    f('modular_device_queue_depth')
      .metrics.find((m) => m.labels!.service === 'io')!
      .value!.should.equal('0');
  });

  it('turns health events into the connection state, resets, re-applies, lost notifications and keep-alive lateness; alerts from tallies', async function () {
    publish('connection', io2, 'connected (API 0.9)', { state: 'connected', apiVersion: '0.9' });
    publish('connection', io2, 'unreachable: connection refused', { state: 'unreachable' });
    publish('reset', io2, 'driver_session changed');
    publish('reapplied', io2, '2 settings', { settings: 2, failed: 0 });
    publish('notifications-lost', io2, 'read failed', { pins: [1], from: '2026-01-01T00:00:00.000Z', to: '2026-01-01T00:00:01.000Z' });
    publish('keepalive-late', bmc0, 'no alive for 7000 ms', { since_ms: 7000, timeout_ms: 10000, reset_in_ms: 3000 });
    tally(io2, { kind: 'alerts', count: 3 });
    const f = await families();
    const states = f('modular_device_connection_state').metrics.filter((m) => m.labels!.service === 'io');
    states
      .filter((m) => m.value === '1')
      .map((m) => m.labels!.state)
      .should.eql(['unreachable']);
    states.map((m) => m.labels!.state).should.eql([...CONNECTION_STATES]);
    f('modular_device_resets_total').metrics[0].value!.should.equal('1');
    f('modular_device_reapplies_total').metrics[0].value!.should.equal('1');
    f('modular_device_notifications_lost_total').metrics[0].value!.should.equal('1');
    f('modular_device_alerts_delivered_total').metrics[0].value!.should.equal('3');
    f('modular_device_keepalive_late_total').metrics[0].should.containEql({ value: '1' });
    f('modular_device_keepalive_lateness_seconds').metrics[0].value!.should.equal('7');
  });

  it("shows every connection state of the states' own list, so a state added there appears here too", async function () {
    for (const state of CONNECTION_STATES) {
      publish('connection', io2, state, state === 'connected' ? { state, apiVersion: '1.0' } : { state });
      const f = await families();
      f('modular_device_connection_state')
        .metrics.filter((m) => m.labels!.service === 'io' && m.value === '1')
        .map((m) => m.labels!.state)
        .should.eql([state]);
    }
  });

  it('counts refused fleet commands by kind: module, alarm, sparkplug (NCMD and DCMD)', async function () {
    metrics.refusedCommand('module');
    metrics.refusedCommand('sparkplug');
    metrics.refusedCommand('sparkplug');
    const f = await families();
    const byKind = Object.fromEntries(f('modular_device_fleet_commands_refused_total').metrics.map((m) => [m.labels!.kind, m.value]));
    byKind.should.eql({ module: '1', sparkplug: '2' });
  });

  it('stops hearing when stopped', async function () {
    metrics.stop();
    tally(io2, { kind: 'exchange', method: 'GET', path: '/api/x', ms: 3, ok: true, queued: 0 });
    const f = await families();
    f('modular_device_requests_total').metrics.should.eql([]);
  });

  it('shows the same totals at every scrape: counted once, never again per scrape', async function () {
    tally(io2, { kind: 'exchange', method: 'GET', path: '/api/x', ms: 3, ok: false, code: 'TIMEOUT', queued: 0 });
    tally(io2, { kind: 'alerts', count: 2 });
    publish('reset', io2, 'driver_session changed');
    metrics.refusedCommand('alarm');
    // The modules' lines: the alarm systems' figures (alarm-metrics.ts) are read from whatever
    // alarm systems this process holds, and their flood time grows between two scrapes.
    const modules = (text: string) =>
      text
        .split('\n')
        .filter((line) => !line.includes('modular_device_alarm'))
        .join('\n');
    const first = modules(await metrics.text());
    const second = modules(await metrics.text());
    first.should.containEql('modular_device_requests_total{device="10.0.4.17",service="io",slot="2"} 1\n');
    second.should.equal(first);
    tally(io2, { kind: 'exchange', method: 'GET', path: '/api/x', ms: 3, ok: true, queued: 0 });
    const f = await families();
    f('modular_device_requests_total').metrics[0].value!.should.equal('2');
    f('modular_device_request_errors_total').metrics[0].value!.should.equal('1');
    f('modular_device_alerts_delivered_total').metrics[0].value!.should.equal('2');
    f('modular_device_resets_total').metrics[0].value!.should.equal('1');
    f('modular_device_fleet_commands_refused_total').metrics.should.eql([{ value: '1', labels: { kind: 'alarm' } }]);
  });

  it('loads prom-client at the first scrape, not before: what was counted before it is in the first text', function () {
    const dist = path.join(__dirname, '..', '..', 'nodes');
    const script = `
      const { ModuleMetrics } = require(${JSON.stringify(path.join(dist, 'fleet', 'metrics.js'))});
      const { tally } = require(${JSON.stringify(path.join(dist, 'lib', 'config-node', 'health.js'))});
      const loaded = () => Object.keys(require.cache).some((f) => /node_modules[\\/](prom-client|@opentelemetry)[\\/]/.test(f));
      const metrics = new ModuleMetrics();
      tally(${JSON.stringify(io2)}, { kind: 'exchange', method: 'GET', path: '/api/x', ms: 3, ok: true, queued: 0 });
      const before = loaded();
      metrics.text().then((text) => {
        process.stdout.write(JSON.stringify({ before, after: loaded(), counted: text.includes('modular_device_requests_total{device="10.0.4.17",service="io",slot="2"} 1') }));
      });`;
    const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    run.status!.should.equal(0, run.stderr);
    JSON.parse(run.stdout).should.eql({ before: false, after: true, counted: true });
  });
});
