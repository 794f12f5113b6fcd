/**
 * The fixture of a Sparkplug fleet test file: simulated devices, a broker (embedded aedes, or
 * Mosquitto), a host application (sparkplug-host-app.ts) connected before Node-RED starts (it sees
 * the first births), a central subscriber on `test/#` for what the flow reports
 * (sparkplug-flow.ts), and one Node-RED child process for the whole file. Plus what the cases
 * ask of it: the refusals counted in the metrics, a redeploy, the births of the edge node.
 */
import fs from 'fs';
import { startSimulator } from '../../simulator';
import type { Simulator } from '../../simulator';
import { TEST_API } from './api';
import { Broker, instanceSuite, MOSQUITTO, Mosquitto, NodeRedInstance, Subscriber, TestBroker, waitFor } from './fleet-harness';
import { request } from './http';
import { SimHarness } from './sim-control';
import { SparkplugHost } from './sparkplug-host-app';
import { DEVICE_IDS, GROUP, SpFlowOptions, sparkplugFlow } from './sparkplug-flow';

export const WAIT = 30_000;

const parsePrometheus = require('parse-prometheus-text-format') as (text: string) => Array<{
  name: string;
  metrics: Array<{ value?: string; labels?: Record<string, string> }>;
}>;

export interface SparkplugWorld {
  host: SparkplugHost;
  central: Subscriber;
  red(): NodeRedInstance;
  /** The simulated devices, in the order of the flow's devices, and their control. */
  sims: Simulator[];
  ctl: SimHarness[];
  /** The flow as deployed (a redeploy sends it again). */
  flow(): Array<Record<string, unknown>>;
  edge: string;
}

/** Each broker the fleet suite runs on: the embedded one always, Mosquitto where installed. */
export function brokers(file: string): TestBroker[] {
  if (fs.existsSync(MOSQUITTO)) return [new Broker(), new Mosquitto()];
  console.log(`${file}: ${MOSQUITTO} is not installed: the cases run on the embedded broker only`);
  return [new Broker()];
}

/**
 * Registers the file's fixture in the enclosing describe: `devices` simulators (the first
 * the edge node's own, the others Fleet devices `fleetDevices[i - 1]`), then the broker,
 * host and Node-RED on `options`' flow. `beforeStart` runs once the host is connected.
 */
export function sparkplugSuite(
  broker: TestBroker,
  options: Omit<SpFlowOptions, 'brokerPort' | 'protocol' | 'devices'> & {
    name: string;
    fleetDevices?: string[];
    beforeStart?: (host: SparkplugHost) => Promise<unknown>;
  },
): SparkplugWorld {
  const host = new SparkplugHost(GROUP, options.primaryHost || 'scada');
  const world = { host, sims: [] as Simulator[], ctl: [] as SimHarness[], edge: options.edge } as SparkplugWorld;
  let flow: Array<Record<string, unknown>> = [];
  before(async function () {
    for (const name of [options.edge, ...(options.fleetDevices ?? [])]) {
      const sim = await startSimulator({ port: 0, api: TEST_API, name });
      world.sims.push(sim);
      world.ctl.push(new SimHarness(sim));
    }
  });
  const { central, red } = instanceSuite(broker, {
    name: options.name,
    clientId: `central-${options.name}`,
    topic: 'test/#',
    beforeStart: async () => {
      await host.connect(broker.port, `host-${options.name}`);
      await options.beforeStart?.(host);
    },
    flow: () =>
      (flow = sparkplugFlow({
        ...options,
        brokerPort: broker.port,
        protocol: broker.protocol,
        devices: world.sims.map((sim, i) => ({ url: sim.url, ...(i > 0 ? { fleetDevice: options.fleetDevices![i - 1] } : {}) })),
      })),
  });
  after(async function () {
    await host.close();
    for (const sim of world.sims) await sim.close();
  });
  afterEach(function () {
    if (this.currentTest?.state !== 'failed') return;
    const lines = (list: Array<{ topic: string; payload: unknown }>) => list.map((m) => `${m.topic} ${JSON.stringify(m.payload).slice(0, 200)}`).join('\n');
    console.log(`--- the flow reported:\n${lines(world.central.all.slice(-20))}`);
    console.log(
      `--- host saw:\n${host.all
        .slice(-30)
        .map((m) => `${m.topic} seq=${m.payload?.seq} ${m.error ?? ''}`)
        .join('\n')}`,
    );
  });
  world.central = central;
  world.red = red;
  world.flow = () => flow;
  return world;
}

/** The births of the edge node with its own modules: the NBIRTH and each module's DBIRTH after it (from index `since`). */
export async function births(host: SparkplugHost, since = 0, devices: string[] = DEVICE_IDS) {
  const nbirth = await host.next('NBIRTH', '', since, WAIT);
  const from = host.all.indexOf(nbirth);
  const dbirths = await waitFor(`the DBIRTHs of ${devices.join(', ')}`, WAIT, () => {
    const found = devices.map((d) => host.of('DBIRTH', d, from)[0]);
    return found.every(Boolean) ? found : undefined;
  });
  return { nbirth, dbirths };
}

/** A metric's value in a payload, by name (births name every metric). */
export function valueOf(payload: { metrics: Array<{ name?: string; value: unknown }> } | undefined, name: string): unknown {
  return payload?.metrics.find((m) => m.name === name)?.value;
}

/** The Prometheus counter of refused commands of `kind`, scraped from the instance (0 before the first). */
export async function refusedCount(red: NodeRedInstance, kind: string): Promise<number> {
  const scrape = await request(red.url, 'GET', '/modular-device/metrics', undefined, { agent: false });
  if (scrape.status !== 200) throw new Error(`metrics: ${scrape.status} ${scrape.text}`);
  const family = parsePrometheus(scrape.text).find((f) => f.name === 'modular_device_fleet_commands_refused_total');
  return Number(family?.metrics.find((m) => m.labels?.kind === kind)?.value ?? 0);
}

/**
 * Feeds `payloads` (an io-read payload each, with `request` the template's) into fleet-publish,
 * numbered from `from`, in rounds of at most 200 that each wait for Node-RED to have them (a
 * broker queues only so much for a slow subscriber); resolves once fleet-publish has the last.
 */
export async function feed(world: SparkplugWorld, request: unknown, payloads: unknown[]): Promise<void> {
  const start = reported(world, 'fed').length;
  for (let i = 0; i < payloads.length; i += 200) {
    const round = payloads.slice(i, i + 200);
    await Promise.all(round.map((payload, j) => world.central.publish(`test/${world.edge}/feed`, { request, payload, n: i + j })));
    await waitFor(`Node-RED to have fed ${i + round.length} msgs`, WAIT, () => reported(world, 'fed').length - start >= i + round.length);
  }
}

/**
 * An io-read msg of the edge node's io module as the node sent it (read once if none yet), to
 * feed variations of: `valued(v)` is its payload with the first analog pin at `v` mV, `metric`
 * that pin's metric name.
 */
export async function readingTemplate(world: SparkplugWorld): Promise<{ request: unknown; metric: string; valued(v: number): unknown }> {
  if (!reported(world, 'seen').length) await world.central.publish(`test/${world.edge}/read`, {});
  const template = await waitFor('a reading of io-read', WAIT, () => reported(world, 'seen').at(-1));
  const pins = template.payload.pins as Array<{ pin: number; pin_type: string; value: number }>;
  const analog = pins.find((p) => /^voltage/.test(p.pin_type));
  if (!analog) throw new Error(`no analog pin in ${JSON.stringify(template.payload)}`);
  return {
    request: template.request,
    metric: `Pin ${analog.pin}/Voltage`,
    valued: (v) => ({ ...template.payload, pins: pins.map((p) => (p.pin === analog.pin ? { ...p, value: v } : p)) }),
  };
}

/** A full deploy of `flow` through the admin API, as the editor's Deploy does; resolves once Node-RED has taken it. */
export async function redeploy(red: NodeRedInstance, flow: unknown[]): Promise<void> {
  const answer = await request(red.url, 'POST', '/flows', flow, { agent: false, headers: { 'Node-RED-Deployment-Type': 'full' } });
  if (answer.status !== 204 && answer.status !== 200) throw new Error(`deploy: ${answer.status} ${answer.text}`);
}

/** What the flow reported on test/<edge>/<what> from index `since` of the central subscriber on. */
export function reported(world: SparkplugWorld, what: 'status' | 'caught' | 'sent' | 'seen' | 'fed', since = 0): any[] {
  return world.central.all
    .slice(since)
    .filter((m) => m.topic === `test/${world.edge}/${what}`)
    .map((m) => m.payload);
}
