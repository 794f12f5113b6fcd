/**
 * The simulator as the runtime tests use it: started in-process on an ephemeral port,
 * driven through its HTTP control API (/sim/...), its request log read back to prove what
 * reached the wire. Plus small local HTTP servers for what the simulator cannot show
 * (request headers, a foreign API version) and a port where nothing listens.
 */
import http from 'http';
import net from 'net';
import { startSimulator, Simulator } from '../../simulator';
import type { LogEntry } from '../../simulator';
import { specView, TEST_API, wirePath, wireRequest } from './api';
import { helper } from './node-red';
import type { FaultRule } from '../../testing/device';

export type { Simulator, LogEntry };
export { startSimulator };

export interface JsonAnswer {
  status: number;
  body: any;
  text: string;
  headers: http.IncomingHttpHeaders;
}

/** One HTTP exchange with a JSON body, on a fresh connection (nothing kept alive after a test). */
export function httpJson(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<JsonAnswer> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      url,
      {
        method,
        agent: false,
        headers: { Accept: 'application/json', ...(data ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(data) } : {}), ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = undefined;
          }
          resolve({ status: res.statusCode ?? 0, body: parsed, text, headers: res.headers });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

/** Six pins on the 5 V rail at 100 mA: the configuration output/state and output/pwm need. */
export const POWER_CONFIG = [1, 2, 3, 4, 5, 6].map((pin) => ({ pin, rail: '5_volt', current: 100 }));

/** A fault rule of the simulator: the test kit's type, one definition for tests and users. */
export type { FaultRule };

/**
 * The config node's own reads on connect: the version record (`/api/<svc>/<ver>`) and the
 * descriptor read that proves the credentials. Tests of what nodes send leave them out.
 */
export function isProbe(e: Pick<LogEntry, 'method' | 'path'>): boolean {
  return /^\/api\/[a-z]+\/\d+\.\d+(\/\d+\/descriptor)?$/.test(e.path) && e.method === 'GET';
}

/**
 * The runtime tests' handle on one in-process simulator: drives it through its control API
 * (faults, services down, restart, reset) and reads back what it holds and what reached the
 * wire. Not the kit's DeviceControl (`t.device`), which a user's test drives.
 */
export class SimHarness {
  constructor(readonly sim: Simulator) {}

  get url(): string {
    return this.sim.url;
  }

  private async call(method: string, path: string, body?: unknown): Promise<any> {
    const answer = await httpJson(method, `${this.sim.url}${path}`, body);
    if (answer.status !== 200) throw new Error(`simulator ${method} ${path}: ${answer.status} ${answer.text}`);
    return answer.body;
  }

  /** Device API call (not control): e.g. the power-management configuration. */
  async powerConfig(slot = 2): Promise<void> {
    const wire = wireRequest({ method: 'POST', path: `/api/io/0.9/${slot}/power-management`, body: { config: POWER_CONFIG } });
    const answer = await httpJson(wire.method, `${this.sim.url}${wire.path}`, wire.body);
    if (answer.status !== 200 || answer.body?.status !== 'success') throw new Error(`power-management: ${answer.status} ${answer.text}`);
  }

  /** A fault rule; a spec path (`/api/<svc>/0.9/...`) is turned into the wire path of the API under test. */
  fault(rule: FaultRule): Promise<{ id: string }> {
    return this.call('POST', '/sim/faults', { ...rule, path: wirePath(rule.path) });
  }

  clearFaults(): Promise<void> {
    return this.call('DELETE', '/sim/faults');
  }

  clearLog(): Promise<void> {
    return this.call('DELETE', '/sim/log');
  }

  /** The request log in the spec's terms (test/helpers/api.ts specView): the same on 0.9 and 1.0. */
  async log(since = 0): Promise<LogEntry[]> {
    return specView(await this.wireLog(since));
  }

  /** The request log as the simulator saw it (the wire form of the API under test). */
  async wireLog(since = 0): Promise<LogEntry[]> {
    return (await this.call('GET', `/sim/log?since=${since}`)).entries;
  }

  /** Device requests other than the config node's connection probes (see isProbe). */
  async requests(): Promise<LogEntry[]> {
    return (await this.log()).filter((e) => !isProbe(e));
  }

  state(): Promise<any> {
    return this.call('GET', '/sim/state');
  }

  /** Reads an io pin's record (mode, output, pwm) from /sim/state; changes nothing. */
  async pinState(slot: number, pin: number): Promise<{ mode: string; output: string; pwm: { prescaler: number; period: number; timeOn: number } | null }> {
    const state = await this.state();
    const module = state.modules.find((m: { slot: number }) => m.slot === slot);
    return module.pins.find((p: { pin: number }) => p.pin === pin);
  }

  serviceDown(service: string): Promise<void> {
    return this.call('POST', `/sim/services/${service}/down`);
  }

  serviceUp(service: string): Promise<void> {
    return this.call('POST', `/sim/services/${service}/up`);
  }

  restart(): Promise<void> {
    return this.call('POST', '/sim/restart');
  }

  /** Back to a known state between tests: no faults, every service up, factory state, empty log. */
  async reset(): Promise<void> {
    await this.clearFaults();
    for (const service of ['io', 'bmc', 'power']) await this.serviceUp(service);
    await this.restart();
    await this.clearLog();
  }
}

// ---- small local servers -------------------------------------------------------------------

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface StubServer {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export type StubHandler = (req: RecordedRequest) => { status: number; body: unknown };

/**
 * A tiny device stand-in that records every request with its headers and answers what
 * `handler` returns (JSON).
 */
export function startStub(handler: StubHandler): Promise<StubServer> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const recorded = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(recorded);
      const answer = handler(recorded);
      const text = JSON.stringify(answer.body);
      res.writeHead(answer.status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
      res.end(text);
    });
  });
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        requests,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            for (const s of sockets) s.destroy();
          }),
      });
    });
  });
}

/** A version record as the spec describes it, with the given api version and io slots. */
export function versionRecord(api: [number, number, number], slots: number[] = [2]): unknown {
  const v = (major: number, minor: number, patch: number) => ({ major, minor, patch });
  return {
    version: { api: v(...api), service: v(2, 0, 0), module_driver: v(1, 0, 0), kernel_driver: v(1, 3, 0) },
    devices: slots.map((slot_number) => ({ slot_number, sdbp_version: v(1, 0, 0) })),
  };
}

/** A loopback port where nothing listens (bound once, then released). */
export function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * The one simulator fixture of the tests: a simulator speaking the API under test (and,
 * when asked, the test helper's HTTP server) for the whole suite, a clean simulator before
 * each test, the flow unloaded after it. `use` receives the simulator and its control.
 * The simulator's own tests (test/simulator/setup.ts) bring their own `reset` (they reboot
 * the device and change its config) and no Node-RED (`nodeRed: false`).
 */
export function simulatorSuite(
  use: (sim: Simulator, ctl: SimHarness) => void,
  options: {
    server?: boolean;
    simulator?: Parameters<typeof startSimulator>[0];
    reset?: (sim: Simulator, ctl: SimHarness) => Promise<void>;
    nodeRed?: boolean;
  } = {},
): void {
  let sim: Simulator;
  let ctl: SimHarness;
  before(async () => {
    sim = await startSimulator({ port: 0, api: TEST_API, ...options.simulator });
    ctl = new SimHarness(sim);
    use(sim, ctl);
    if (options.server) await helper.startServer();
  });
  after(async () => {
    if (options.server) await helper.stopServer();
    await sim?.close();
  });
  beforeEach(async () => {
    if (options.reset) return options.reset(sim, ctl);
    // Listening again first, in case a test failed while the simulator was paused.
    await sim.resume();
    await ctl.reset();
  });
  if (options.nodeRed !== false) {
    afterEach(async () => {
      await helper.unload();
    });
  }
}
