/**
 * The fleet tests' world, all real: an MQTT broker (aedes embedded, from npm; or Mosquitto
 * where Debian's package is installed), Node-RED instances as child processes (node-red from
 * node_modules, this package linked into each userDir) sharing one flow file with different
 * env, and an mqtt.js subscriber that keeps what arrives. Loopback only; every wait bounded.
 */
import fs from 'fs';
import net from 'net';
import os from 'os';
import path from 'path';
import { ChildProcess, spawn } from 'child_process';
import mqtt, { MqttClient } from 'mqtt';
import { freePort } from './http';

const root = path.resolve(__dirname, '..', '..', '..');

/** Polls `check` every 100 ms until it returns a value; fails after `ms` with `what`. */
export async function waitFor<T>(what: string, ms: number, check: () => T | undefined | false | Promise<T | undefined | false>): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A broker the fleet suite runs on: started, stopped as a crash (and started again with what it kept), its MQTT version. */
export interface TestBroker {
  readonly name: string;
  /** The highest MQTT version it speaks: 4 (3.1.1) or 5. */
  readonly protocol: 4 | 5;
  port: number;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Stopped: whatever it kept on disk goes. */
  remove(): void;
}

/**
 * examples/fleet-mqtt.json as a broker of `protocol` needs it: the example's broker node
 * speaks MQTT 5 (a retained command keeps its flag); aedes speaks 3.1.1 only, so the flows
 * that run on it say 3.1.1, which is all that differs.
 */
export function writeExampleFlow(flowFile: string, protocol: 4 | 5): void {
  const flow = JSON.parse(fs.readFileSync(path.join(root, 'examples', 'fleet-mqtt.json'), 'utf8')) as Array<Record<string, unknown>>;
  for (const node of flow) if (node.type === 'mqtt-broker') node.protocolVersion = String(protocol);
  fs.writeFileSync(flowFile, JSON.stringify(flow));
}

/** An aedes broker on a port; `restart` keeps its persistence (retained messages, sessions), as a broker with a disk does. */
export class Broker implements TestBroker {
  readonly name = 'aedes (embedded)';
  readonly protocol = 4;
  private server?: net.Server;
  private aedes?: {
    close(cb: () => void): void;
    handle: (socket: net.Socket) => void;
    on(e: string, l: (...a: any[]) => void): void;
    off(e: string, l: (...a: any[]) => void): void;
  };
  private readonly listeners: Array<[string, (...a: any[]) => void]> = [];
  private readonly sockets = new Set<net.Socket>();

  private readonly persistence = require('aedes-persistence')();
  port = 0;

  async start(): Promise<void> {
    const aedes = require('aedes')({ persistence: this.persistence });
    this.aedes = aedes;
    for (const [event, listener] of this.listeners) aedes.on(event, listener);
    this.server = net.createServer((socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      aedes.handle(socket);
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  /** Listens to the broker's events (aedes': 'publish' ...), across restarts. */
  on(event: string, listener: (...a: any[]) => void): void {
    this.listeners.push([event, listener]);
    this.aedes?.on(event, listener);
  }

  off(event: string, listener: (...a: any[]) => void): void {
    const i = this.listeners.findIndex(([e, l]) => e === event && l === listener);
    if (i >= 0) this.listeners.splice(i, 1);
    this.aedes?.off(event, listener);
  }

  /** Its persistence is in memory: nothing to remove. */
  remove(): void {}

  /** Stops as a crashed broker does: every connection dropped at once. */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
    await new Promise<void>((resolve) => this.aedes!.close(() => resolve()));
  }
}

/** Debian's mosquitto package puts the broker here; the fleet suite runs on it too when it is. */
export const MOSQUITTO = '/usr/sbin/mosquitto';

/**
 * Mosquitto as a child process on a free loopback port, with a configuration of its own (not
 * the system's service): persistence in a temporary folder, so a stop and start keeps what was
 * retained. `stop` is SIGTERM (Mosquitto saves and drops every connection); stopped by PID.
 */
export class Mosquitto implements TestBroker {
  readonly name = 'mosquitto';
  readonly protocol = 5;
  port = 0;
  /** Its configuration and persistence: made at the first start, kept across restarts. */
  private dir?: string;
  private child?: ChildProcess;
  private log = '';

  async start(): Promise<void> {
    this.port ||= await freePort();
    this.dir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'md-fleet-mosquitto-'));
    const conf = path.join(this.dir, 'mosquitto.conf');
    fs.writeFileSync(
      conf,
      [
        `listener ${this.port} 127.0.0.1`,
        'allow_anonymous true',
        // Run as root, Mosquitto would drop to the user `mosquitto`, who cannot write the folder: stay who we are.
        `user ${os.userInfo().username}`,
        'persistence true',
        `persistence_location ${this.dir}/`,
        'log_dest stderr',
        'log_type error',
        'log_type warning',
        '',
      ].join('\n'),
    );
    const child = spawn(MOSQUITTO, ['-c', conf], { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    child.stdout!.on('data', (c) => (this.log += c));
    child.stderr!.on('data', (c) => (this.log += c));
    await waitFor('mosquitto to listen', 10_000, async () => {
      if (child.exitCode !== null) throw new Error(`mosquitto exited:\n${this.log}`);
      return new Promise<boolean>((resolve) => {
        const socket = net.connect(this.port, '127.0.0.1', () => {
          socket.destroy();
          resolve(true);
        });
        socket.on('error', () => resolve(false));
      });
    });
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await gone;
    clearTimeout(timer);
  }

  /** Stopped already: its folder (configuration, persistence) goes. */
  remove(): void {
    if (this.dir) fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A subscriber that keeps the last payload per topic and every payload in order. */
export class Subscriber {
  readonly last = new Map<string, any>();
  readonly all: Array<{ topic: string; payload: any; retain: boolean }> = [];
  client!: MqttClient;

  async connect(port: number, clientId: string, topic = 'plant/#'): Promise<void> {
    this.client = mqtt.connect(`mqtt://127.0.0.1:${port}`, { clientId, clean: false, reconnectPeriod: 200, connectTimeout: 5000 });
    this.client.on('message', (t, buffer, packet) => {
      const text = buffer.toString('utf8');
      let payload: any = text;
      try {
        payload = JSON.parse(text);
      } catch {
        /* online / offline */
      }
      this.last.set(t, payload);
      this.all.push({ topic: t, payload, retain: packet.retain });
    });
    await new Promise<void>((resolve, reject) => {
      this.client.once('connect', () => resolve());
      this.client.once('error', reject);
    });
    await this.client.subscribeAsync(topic, { qos: 1 });
  }

  publish(topic: string, payload: unknown, retain = false): Promise<unknown> {
    return this.client.publishAsync(topic, JSON.stringify(payload), { qos: 1, retain });
  }

  /** A payload as it is (an empty retained one clears what the broker retains on the topic). */
  publishRaw(topic: string, payload: string | Buffer, retain = false): Promise<unknown> {
    return this.client.publishAsync(topic, payload, { qos: 1, retain });
  }

  async close(): Promise<void> {
    await this.client?.endAsync(true);
  }
}

/** One Node-RED as a child process: `stop('SIGKILL')` is a crash, `start()` again the same instance. */
export class NodeRedInstance {
  readonly userDir: string;
  port = 0;
  private child?: ChildProcess;
  private log = '';

  constructor(
    readonly name: string,
    private readonly flowFile: string,
    private readonly env: Record<string, string>,
    private readonly extraSettings = '',
  ) {
    this.userDir = fs.mkdtempSync(path.join(os.tmpdir(), `md-fleet-${name}-`));
    // The package as a user installs it, linked: its dist/ and dependencies (prom-client) from here.
    const link = path.join(this.userDir, 'node_modules', '@modular-device', 'node-red');
    fs.mkdirSync(path.dirname(link), { recursive: true });
    fs.symlinkSync(root, link, 'dir');
    fs.writeFileSync(path.join(this.userDir, 'package.json'), JSON.stringify({ name: `md-fleet-${name}`, private: true }));
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The running Node-RED's process id (bench/fleet.js reads its CPU time). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  output(): string {
    return this.log;
  }

  async start(): Promise<void> {
    this.port ||= await freePort();
    fs.writeFileSync(
      path.join(this.userDir, 'settings.js'),
      `module.exports = {
  uiHost: '127.0.0.1', uiPort: ${this.port}, flowFile: ${JSON.stringify(this.flowFile)}, readOnly: true,
  credentialSecret: false, telemetry: { enabled: false }, diagnostics: { enabled: false },
  editorTheme: { tours: false, palette: { catalogues: [] }, projects: { enabled: false } },
  mqttReconnectTime: 300,
  logging: { console: { level: 'info', metrics: false, audit: false } },
  ${this.extraSettings}
};
`,
    );
    // MD_NODE_RED's Node-RED when set (the runtime-3.1/5.0 steps), else the devDependency.
    const red = process.env.MD_NODE_RED ? path.join(path.resolve(process.env.MD_NODE_RED), 'red.js') : require.resolve('node-red/red.js', { paths: [root] });
    const child = spawn(process.execPath, [red, '--userDir', this.userDir, '--settings', path.join(this.userDir, 'settings.js')], {
      cwd: this.userDir,
      env: { ...process.env, ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    child.stdout!.on('data', (c) => (this.log += c));
    child.stderr!.on('data', (c) => (this.log += c));
    await waitFor(`Node-RED ${this.name} to start its flows`, 60_000, () => {
      if (child.exitCode !== null) throw new Error(`Node-RED ${this.name} exited:\n${this.log}`);
      return /Started flows/.test(this.log) || undefined;
    });
  }

  async stop(signal: NodeJS.Signals = 'SIGINT'): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await gone;
    clearTimeout(timer);
    this.log += `\n--- stopped (${signal}) ---\n`;
  }

  remove(): void {
    fs.rmSync(this.userDir, { recursive: true, force: true });
  }
}

/**
 * The fixture of a fleet suite with one Node-RED: `broker` started, a central subscriber
 * (`clientId`, on `topic`) connected, then (after `beforeStart`, e.g. a retained command) one
 * Node-RED child process on the flow `flow()` returns, written to a fresh flow file; all of
 * it stopped and removed after the suite, and Node-RED's output printed when a test fails.
 * Register the devices' `before` ahead of this (the flow names them) and their `after` behind it.
 */
export function instanceSuite(
  broker: TestBroker,
  options: { name: string; clientId: string; topic?: string; flow: () => unknown; beforeStart?: (central: Subscriber) => Promise<unknown> },
): { central: Subscriber; red: () => NodeRedInstance } {
  const central = new Subscriber();
  let red: NodeRedInstance | undefined;
  let work: string | undefined;
  before(async function () {
    await broker.start();
    await central.connect(broker.port, options.clientId, options.topic);
    await options.beforeStart?.(central);
    work = fs.mkdtempSync(path.join(os.tmpdir(), `md-fleet-${options.name}-`));
    const flowFile = path.join(work, 'flows.json');
    fs.writeFileSync(flowFile, JSON.stringify(options.flow()));
    red = new NodeRedInstance(options.name, flowFile, {});
    await red.start();
  });
  after(async function () {
    await red?.stop();
    red?.remove();
    await central.close();
    await broker.stop();
    broker.remove();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });
  afterEach(function () {
    if (this.currentTest?.state === 'failed') console.log(`--- ${options.name}\n${red?.output().slice(-3000)}`);
  });
  return {
    central,
    red: () => {
      if (!red) throw new Error(`Node-RED ${options.name} is started in the suite's before hook`);
      return red;
    },
  };
}
