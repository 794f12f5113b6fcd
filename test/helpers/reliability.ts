/**
 * Shared by the reliability suite (test/reliability/*.test.ts): every action node kind with
 * a configuration that works against the simulator, a flow builder for many kinds and
 * config nodes at once (each action node → helper `<id>-out`, one Catch → `caught`, one
 * Complete → `completed`), a crash guard that fails a test on an unhandled rejection or an
 * uncaught exception, deploys through Node-RED's own setFlows, resource and heap probes,
 * and certificates made in the test (selfsigned, no system package).
 *
 * Built on the other helpers (node-red.ts, io-nodes.ts, sim-control.ts): the real Node-RED
 * 4.1 runtime, the real core nodes, our compiled nodes, the simulator over loopback.
 */
import path from 'path';
import v8 from 'v8';
import vm from 'vm';
import modularDevice = require('../../nodes/modular-device');
import ioOutput = require('../../nodes/io-output');
import ioThreshold = require('../../nodes/io-threshold');
import ioInput = require('../../nodes/io-input');
import ioRead = require('../../nodes/io-read');
import ioPower = require('../../nodes/io-power');
import ioReset = require('../../nodes/io-reset');
import notificationPoll = require('../../nodes/notification-poll');
import deviceInfo = require('../../nodes/device-info');
import bmcWatchdog = require('../../nodes/bmc-watchdog');
import bmcReadings = require('../../nodes/bmc-readings');
import bmcUsbhub = require('../../nodes/bmc-usbhub');
import bmcSystem = require('../../nodes/bmc-system');
import powerFan = require('../../nodes/power-fan');
import powerLimits = require('../../nodes/power-limits');
import powerReadings = require('../../nodes/power-readings');
import deviceAlarm = require('../../nodes/device-alarm');
import deviceAlarmList = require('../../nodes/device-alarm-list');
import type { NodeMessage, NodeStatus } from '../../nodes/lib/base/node-red';
import { ActionDef, CaughtMsg, Outcomes } from './io-nodes';
import { actionFlow, deviceNode, DeviceOptions, FlowNode, helper, NodeModule, nodeRedPackage, lastStatus, sleep, waitFor } from './node-red';

export { Outcomes };
export type { ActionDef, CaughtMsg };

// ---- node modules ---------------------------------------------------------------------------

export const ACTION_MODULES: Record<string, NodeModule> = {
  'io-output': ioOutput as NodeModule,
  'io-threshold': ioThreshold as NodeModule,
  'io-input': ioInput as NodeModule,
  'io-read': ioRead as NodeModule,
  'io-power': ioPower as NodeModule,
  'io-reset': ioReset as NodeModule,
  'notification-poll': notificationPoll as NodeModule,
  'device-info': deviceInfo as NodeModule,
  'bmc-watchdog': bmcWatchdog as NodeModule,
  'bmc-readings': bmcReadings as NodeModule,
  'bmc-usbhub': bmcUsbhub as NodeModule,
  'bmc-system': bmcSystem as NodeModule,
  'power-fan': powerFan as NodeModule,
  'power-limits': powerLimits as NodeModule,
  'power-readings': powerReadings as NodeModule,
};

/** The core tls-config node, loaded from Node-RED's own package. */
export const TLS_MODULE: NodeModule = require(path.join(nodeRedPackage('@node-red/nodes'), 'core/network/05-tls.js'));

/** Every node type of the package: the action nodes and the alarms (which talk to no module themselves). */
export const ALL_MODULES: NodeModule[] = [
  modularDevice as NodeModule,
  ...Object.values(ACTION_MODULES),
  deviceAlarm as NodeModule,
  deviceAlarmList as NodeModule,
];

/** The simulator's default modules. */
export const SLOT = { io: 2, io2: 3, bmc: 0, power: 1 } as const;

/** The config nodes every kind below uses: io slot 2, io slot 3 (for io-reset), bmc, power. */
export function kindDevices(url: string, extra: Partial<DeviceOptions> = {}): FlowNode[] {
  return [
    deviceNode({ id: 'dev-io', url, service: 'io', slot: SLOT.io, ...extra }),
    deviceNode({ id: 'dev-io3', url, service: 'io', slot: SLOT.io2, ...extra }),
    deviceNode({ id: 'dev-bmc', url, service: 'bmc', slot: SLOT.bmc, ...extra }),
    deviceNode({ id: 'dev-power', url, service: 'power', slot: SLOT.power, ...extra }),
  ];
}

/** One node kind as the fault tests use it: settings, a msg that succeeds, whether it polls. */
export interface Kind {
  type: string;
  device: 'dev-io' | 'dev-io3' | 'dev-bmc' | 'dev-power';
  settings: Record<string, unknown>;
  /** A msg that succeeds on a healthy device. */
  msg: () => NodeMessage;
  /** Poll interval (ms) when the node polls by itself. */
  poll?: number;
  /** Wire path (suffix) its poll rounds hit. */
  pollPath?: string;
}

const SIX = [1, 2, 3, 4, 5, 6].map(() => ({ rail: '5_volt', current: '100' }));

/**
 * Every action node kind, configured to work against the simulator's defaults. The io
 * reset runs on the second io module (slot 3) so it does not undo the others' settings.
 */
export const KINDS: Kind[] = [
  { type: 'io-power', device: 'dev-io', settings: { pins: SIX, applyOnConnect: true }, msg: () => ({ payload: {} }) },
  {
    type: 'io-output',
    device: 'dev-io',
    settings: { pin: '1', mode: 'state', state: 'high', pwmInput: 'raw', prescaler: '47', period: '1000', time_on: '500' },
    msg: () => ({ payload: { pin: 1, state: 'high' } }),
  },
  {
    type: 'io-threshold',
    device: 'dev-io',
    settings: { pin: '2', threshold_mV: '1000', trigger: 'rising', analogFirst: true, applyOnConnect: true },
    msg: () => ({ payload: {} }),
  },
  {
    type: 'io-input',
    device: 'dev-io',
    settings: { pin: '3', mode: 'digital', trigger: 'rising', debounce_time_ms: '20', counter: '', applyOnConnect: true },
    msg: () => ({ payload: {} }),
  },
  {
    type: 'io-read',
    device: 'dev-io',
    settings: { source: 'values', pin: 'all', interval: '200', onlyOnChange: false, deadband: '0', output: 'record' },
    msg: () => ({ payload: {} }),
    poll: 200,
    pollPath: '/input/values',
  },
  {
    type: 'notification-poll',
    device: 'dev-io',
    settings: { interval: '200', pins: '', alerts: '', combined: false },
    msg: () => ({ payload: 'now' }),
    poll: 200,
    pollPath: '/notification',
  },
  { type: 'device-info', device: 'dev-io', settings: {}, msg: () => ({ payload: {} }) },
  { type: 'io-reset', device: 'dev-io3', settings: { confirm: true }, msg: () => ({ payload: {} }) },
  // The keep-alive arms the watchdog: it runs only with confirm.
  {
    type: 'bmc-watchdog',
    device: 'dev-bmc',
    settings: { operation: 'read', timeout: '60000', keepAlive: true, interval: '300', confirm: true, swShutdownTimeout: '60000' },
    msg: () => ({ payload: {} }),
    poll: 300,
    pollPath: '/watchdog/alive',
  },
  {
    type: 'bmc-readings',
    device: 'dev-bmc',
    settings: { voltage: true, temperature: true, interval: '200', deadband: '0', onlyOnChange: false, output: 'record' },
    msg: () => ({ payload: {} }),
    poll: 200,
    pollPath: '/temperature',
  },
  // "from msg.operation": its msgs name the operation, so a crafted port reaches the port check.
  {
    type: 'bmc-usbhub',
    device: 'dev-bmc',
    settings: { operation: 'msg', port: '2', state: true, confirm: false },
    msg: () => ({ operation: 'read', payload: {} }),
  },
  { type: 'bmc-system', device: 'dev-bmc', settings: { operation: 'buzzer', mode: '2', duration: '50', confirm: false }, msg: () => ({ payload: {} }) },
  {
    type: 'power-fan',
    device: 'dev-power',
    settings: { operation: 'read', fan_mode: '60', fan_forced: true, waitApplied: false },
    msg: () => ({ payload: {} }),
  },
  {
    type: 'power-limits',
    device: 'dev-power',
    settings: { operation: 'set', limit_3v3: '3000', limit_5v0: '3000', limit_12v: '1000' },
    msg: () => ({ payload: {} }),
  },
  {
    type: 'power-readings',
    device: 'dev-power',
    settings: { stats: true, interval: '200', deadband: '0', onlyOnChange: false, output: 'record' },
    msg: () => ({ payload: {} }),
    poll: 200,
    pollPath: '/stats',
  },
];

/** The action node of a kind, its id being its type. */
export function kindNode(kind: Kind): ActionDef {
  return { id: kind.type, type: kind.type, device: kind.device, ...kind.settings };
}

// ---- flows ------------------------------------------------------------------------------------

/** The reliability flows: the shared action flow (node-red.ts's actionFlow). */
export function reliabilityFlow(actions: ActionDef[], devices: FlowNode[]): FlowNode[] {
  return actionFlow(actions, devices, { label: 'reliability' });
}

export interface CollectOptions {
  /** Keep every output msg (default true); off for floods, where only counts matter. */
  keep?: boolean;
}

/** Outcomes plus plain counters (for floods, where keeping every msg would cost memory). */
export class Counted extends Outcomes {
  outputs = 0;
  errors = 0;
  completes = 0;
  readonly errorCodes = new Map<string, number>();
  /** The first error message of each code, kept even when msgs are not: what a miscount ended with. */
  readonly errorSamples = new Map<string, string>();

  /** Errors by code with the first message of each, e.g. `QUEUE_FULL 98950 (queue full: ...)`. */
  errorSummary(): string {
    return [...this.errorCodes].map(([code, n]) => `${code} ${n} (${this.errorSamples.get(code)})`).join('; ') || 'no errors';
  }
}

/** Loads a flow and collects what reaches the helper nodes. */
export async function loadCollect(
  flow: FlowNode[],
  credentials: Record<string, Record<string, string>> = {},
  modules: NodeModule[] = ALL_MODULES,
  options: CollectOptions = {},
): Promise<Counted> {
  await helper.load(modules, flow, credentials);
  return attach(flow, options);
}

/** Attaches collectors to the helper nodes of a running flow (again after a redeploy). */
export function attach(flow: FlowNode[], options: CollectOptions = {}): Counted {
  const keep = options.keep ?? true;
  const outcomes = new Counted();
  for (const n of flow) {
    if (n.type !== 'helper' || !n.id.endsWith('-out')) continue;
    const id = n.id.slice(0, -'-out'.length);
    const list: NodeMessage[] = [];
    outcomes.out.set(id, list);
    helper.getNode(n.id)?.on('input', (msg: NodeMessage) => {
      outcomes.outputs++;
      if (keep) list.push(msg);
    });
  }
  helper.getNode('caught')?.on('input', (msg: CaughtMsg) => {
    outcomes.errors++;
    const code = msg.error?.code ?? '?';
    outcomes.errorCodes.set(code, (outcomes.errorCodes.get(code) ?? 0) + 1);
    if (!outcomes.errorSamples.has(code))
      outcomes.errorSamples.set(code, `${msg.error?.message ?? '?'}${msg.n === undefined ? '' : ` [msg n=${String(msg.n)}]`}`);
    if (keep) outcomes.caught.push(msg);
  });
  helper.getNode('completed')?.on('input', (msg: NodeMessage) => {
    outcomes.completes++;
    if (keep) outcomes.completed.push(msg);
  });
  return outcomes;
}

let sequence = 0;

/** Sends msgs into nodes without waiting; returns their ids. */
export function fire(targets: Array<[string, NodeMessage]>, tag = 'rel'): string[] {
  return targets.map(([id, msg]) => {
    msg._msgid = `${tag}-${++sequence}`;
    helper.getNode(id).receive(msg);
    return msg._msgid;
  });
}

/** What happened to one msg: its outputs, errors at Catch, completions. */
export interface Fate {
  id: string;
  outputs: NodeMessage[];
  errors: CaughtMsg[];
  completes: number;
}

export function fateOf(outcomes: Outcomes, node: string, msgid: string): Fate {
  return {
    id: msgid,
    outputs: outcomes.sent(node).filter((m) => m._msgid === msgid),
    errors: outcomes.caught.filter((m) => m._msgid === msgid),
    completes: outcomes.completed.filter((m) => m._msgid === msgid).length,
  };
}

/**
 * Waits until every msg has ended (done() seen by Complete, or done(err) seen by Catch),
 * then checks each ended exactly once: one error and no output, or a completion and no
 * error. Returns the fates in the order given.
 */
export async function settle(outcomes: Outcomes, sent: Array<[string, string]>, timeoutMs = 10000): Promise<Fate[]> {
  const ended = (id: string) => outcomes.caught.some((m) => m._msgid === id) || outcomes.completed.some((m) => m._msgid === id);
  await waitFor(() => sent.every(([, id]) => ended(id)), `${sent.length} msg(s) to end`, timeoutMs, 20).catch((error: Error) => {
    const open = sent.filter(([, id]) => !ended(id)).map(([node, id]) => `${node} ${id}`);
    throw new Error(`${error.message}; not ended: ${open.join(', ')}`);
  });
  // Anything late (a second outcome) would arrive within a few ticks: give it the chance.
  await sleep(50);
  const fates = sent.map(([node, id]) => fateOf(outcomes, node, id));
  for (const [i, fate] of fates.entries()) {
    const where = `${sent[i][0]} msg ${fate.id}`;
    const ends = fate.errors.length + fate.completes;
    if (ends !== 1) throw new Error(`${where} ended ${ends} times (errors ${fate.errors.length}, completions ${fate.completes})`);
    if (fate.errors.length && fate.outputs.length) throw new Error(`${where} got an error and an output: ${fate.errors[0].error.message}`);
  }
  return fates;
}

// ---- deploys ----------------------------------------------------------------------------------

/** Node-RED's runtime as the test helper holds it (internal, typed loosely). */
export function runtime(): { nodes: any; events: any } {
  const h = helper as unknown as { _redNodes: any; _events: any };
  return { nodes: h._redNodes, events: h._events };
}

/**
 * A deploy as the editor's Deploy button makes it (`full`, `nodes`, `flows`), through the
 * runtime's own setFlows; resolves once the flows have started again.
 */
export async function deploy(flow: FlowNode[], type: 'full' | 'nodes' | 'flows', credentials?: Record<string, Record<string, string>>): Promise<void> {
  const { nodes, events } = runtime();
  const started = new Promise<void>((resolve) => events.once('flows:started', () => resolve()));
  await nodes.setFlows(flow, credentials ?? null, type);
  await started;
}

// ---- process guards ---------------------------------------------------------------------------

/**
 * Records unhandled rejections and uncaught exceptions while the enclosing describe runs,
 * and fails the test during which one occurred (in afterEach). Mocha alone would let an
 * unhandled rejection pass silently: it re-emits it to other listeners and goes on.
 */
export function guardProcess(): void {
  const seen: string[] = [];
  const onRejection = (reason: unknown) => seen.push(`unhandled rejection: ${(reason as Error)?.stack ?? String(reason)}`);
  const onException = (error: unknown) => seen.push(`uncaught exception: ${(error as Error)?.stack ?? String(error)}`);
  before(() => {
    process.on('unhandledRejection', onRejection);
    process.on('uncaughtException', onException);
  });
  afterEach(async () => {
    await sleep(20); // a rejection is reported a tick after it happened
    if (seen.length) throw new Error(seen.splice(0).join('\n'));
  });
  after(() => {
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtException', onException);
  });
}

/**
 * The hooks of a suite on the test helper's Node-RED with its HTTP server (admin routes,
 * adminAuth): the crash guard, the server up for the whole suite, the flow unloaded after
 * each test.
 */
export function serverSuite(): void {
  guardProcess();
  before(async () => {
    await helper.startServer();
  });
  after(async () => {
    await helper.stopServer();
  });
  afterEach(async () => {
    await helper.unload();
  });
}

// ---- resources and memory ---------------------------------------------------------------------

/**
 * process.getActiveResourcesInfo() counted by type, taken in the check phase of the event
 * loop: read from inside a timer's callback, it would still count that timer.
 */
export async function resources(): Promise<Record<string, number>> {
  await new Promise((resolve) => setImmediate(resolve));
  const counts: Record<string, number> = {};
  for (const type of process.getActiveResourcesInfo()) counts[type] = (counts[type] ?? 0) + 1;
  return counts;
}

/** Types whose count grew from `before` to `after` by more than `slack`. */
export function grown(before: Record<string, number>, after: Record<string, number>, slack = 0): string[] {
  return Object.keys(after)
    .filter((type) => after[type] - (before[type] ?? 0) > slack)
    .map((type) => `${type}: ${before[type] ?? 0} → ${after[type]}`);
}

let gcFn: (() => void) | undefined;

/**
 * A full garbage collection: global.gc when node runs with --expose-gc, else the same
 * function obtained at run time (v8 flag + a fresh context), which needs no node option.
 */
export function collectGarbage(): void {
  if (!gcFn) {
    const g = (globalThis as { gc?: () => void }).gc;
    if (typeof g === 'function') gcFn = g;
    else {
      v8.setFlagsFromString('--expose-gc');
      gcFn = vm.runInNewContext('gc') as () => void;
    }
  }
  gcFn();
  gcFn();
}

/** Heap in use after a full collection, bytes. */
export function settledHeap(): number {
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

/**
 * The test helper spies on Node.prototype.send/status/error/... and on the log with sinon,
 * which keeps every call: a flood of 100,000 msgs would measure the spies, not the nodes.
 * Drops what they kept so far.
 */
export function dropSpyHistory(): void {
  const h = helper as unknown as { _NodePrototype: Record<string, { resetHistory?: () => void }>; _logSpy?: { resetHistory?: () => void } };
  for (const name of ['log', 'status', 'warn', 'error', 'debug', 'trace', 'send']) h._NodePrototype[name]?.resetHistory?.();
  h._logSpy?.resetHistory?.();
}

// ---- status -----------------------------------------------------------------------------------

/** Waits until every listed node's last status matches; returns how long it took (ms). */
export async function waitAllStatus(ids: string[], match: (s: NodeStatus | undefined) => boolean, what: string, timeoutMs = 10000): Promise<number> {
  const start = Date.now();
  await waitFor(() => ids.every((id) => match(lastStatus(helper.getNode(id)))), what, timeoutMs, 10).catch((error: Error) => {
    const now = ids.map((id) => `${id}: ${JSON.stringify(lastStatus(helper.getNode(id)))}`).join('\n  ');
    throw new Error(`${error.message}\n  ${now}`);
  });
  return Date.now() - start;
}

export const isRed = (text?: RegExp) => (s: NodeStatus | undefined) => !!s && s.fill === 'red' && (!text || text.test(s.text ?? ''));
export const isGreen = (s: NodeStatus | undefined) => !!s && s.fill === 'green';

// ---- certificates -----------------------------------------------------------------------------

export interface TestCerts {
  /** The CA's certificate (PEM): what a tls-config node is given to trust the server. */
  ca: string;
  /** The server's key and certificate for 127.0.0.1 and localhost, signed by the CA. */
  key: string;
  cert: string;
  /** A certificate for the same names signed by itself (no CA). */
  selfKey: string;
  selfCert: string;
}

/** A CA and a server certificate for 127.0.0.1/localhost, made now (EC P-256, ~30 ms). */
export async function makeCerts(): Promise<TestCerts> {
  const { generate } = require('selfsigned') as typeof import('selfsigned');
  const names = {
    name: 'subjectAltName' as const,
    altNames: [
      { type: 2 as const, value: 'localhost' },
      { type: 7 as const, ip: '127.0.0.1' },
    ],
  };
  const ca = await generate([{ name: 'commonName', value: 'modular-device test CA' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true },
    ],
  });
  const server = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      names,
    ],
  });
  const self = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      names,
    ],
  });
  return { ca: ca.cert, key: server.private, cert: server.cert, selfKey: self.private, selfCert: self.cert };
}

// ---- Node-RED adminAuth -----------------------------------------------------------------------

const editorApi = nodeRedPackage('@node-red/editor-api');
const realAuth = require(path.join(editorApi, 'lib/auth'));
const passport = require(require.resolve('passport', { paths: [editorApi] }));
const authStorage = { getSessions: async () => ({}), saveSessions: async () => undefined };
// bcrypt of "password"; logins are not exercised: static API tokens stand for sessions.
const HASH = '$2b$08$wuAqPiKJlVN27eF5qJp.RuQYuy6ZYONW7a/UWYxDTtwKFCdB8F19y';

/**
 * Turns Node-RED's real adminAuth on: an admin (ADMIN-TOKEN), a read-only user
 * (READER-TOKEN), a user who may read and change only this package's config nodes
 * (WRITER-TOKEN: read + modular-device.write) and one who may only write (WRITE-ONLY-TOKEN).
 */
export function adminAuthOn(): void {
  realAuth.init(
    {
      adminAuth: {
        type: 'credentials',
        users: [
          { username: 'admin', password: HASH, permissions: '*' },
          { username: 'reader', password: HASH, permissions: 'read' },
          { username: 'writer', password: HASH, permissions: ['read', 'modular-device.write'] },
          { username: 'write-only', password: HASH, permissions: 'write' },
        ],
        tokens: [
          { token: 'ADMIN-TOKEN', user: 'admin', scope: '*' },
          { token: 'READER-TOKEN', user: 'reader', scope: 'read' },
          { token: 'WRITER-TOKEN', user: 'writer', scope: ['read', 'modular-device.write'] },
          { token: 'WRITE-ONLY-TOKEN', user: 'write-only', scope: 'write' },
        ],
      },
    },
    authStorage,
  );
}

export function adminAuthOff(): void {
  realAuth.init({}, authStorage);
}

/** Any node or plugin module given Node-RED's real needsPermission (with withRealAuth's config node, which starts passport). */
export function guardedByRealAuth(module: NodeModule): NodeModule {
  return (RED) => module({ ...RED, auth: { needsPermission: realAuth.needsPermission } });
}

/**
 * The config node module with Node-RED's real needsPermission (the test helper gives nodes a
 * pass-through stub), so its admin routes are guarded as in a real runtime.
 */
export function withRealAuth(modules: NodeModule[] = ALL_MODULES): NodeModule[] {
  const configNode: NodeModule = (RED) => {
    RED.httpAdmin.use(passport.initialize());
    (modularDevice as NodeModule)({ ...RED, auth: { needsPermission: realAuth.needsPermission } });
  };
  return [configNode, ...modules.filter((m) => m !== (modularDevice as NodeModule))];
}
