/**
 * One real Node-RED runtime per process, from the user's own install: Node-RED says it
 * must not be started again once stopped, so the kit starts it once and swaps flows on it
 * (a full deploy each time, as the editor's Deploy does). Msgs are watched with Node-RED's
 * own message hooks (onReceive), so nothing of the runtime is replaced or mocked.
 */
import fs from 'fs';
import http from 'http';
import { AddressInfo } from 'net';
import os from 'os';
import path from 'path';
import { KitError } from './errors';

/** The slice of Node-RED's embedding API (3.1 to 5.0) the kit uses. */
export interface NodeRed {
  init(server: http.Server, settings: Record<string, unknown>): void;
  start(): Promise<void>;
  stop(): Promise<void>;
  events: { once(event: string, fn: () => void): void };
  hooks: { add(name: string, fn: (event: any) => void): void; remove(name: string): void };
  nodes: { getNode(id: string): any; getType(type: string): unknown };
  util: { cloneMessage<T>(msg: T): T };
  /** The express app of the flows' own routes (http in, Dashboard 2), mounted at httpNodeRoot. */
  httpNode: (req: http.IncomingMessage, res: http.ServerResponse, next: () => void) => void;
  runtime: { flows: { setFlows(opts: { flows: { flows: unknown[]; credentials?: unknown }; deploymentType?: string }): Promise<unknown> } };
}

export interface Received {
  /** The node that received the msg. */
  readonly node: string;
  readonly msg: Record<string, any>;
  /** Order of arrival over the whole run. */
  readonly seq: number;
}

/**
 * Where node-red is: the `nodeRed` option (a folder or file), MD_NODE_RED, the user's
 * project (the working directory), then beside this package. A palette install has node-red
 * only as the host, so the error says how to get one.
 */
export function resolveNodeRed(given?: string): string {
  const tries: string[] = [];
  const attempt = (what: string, fn: () => string): string | undefined => {
    try {
      return fn();
    } catch {
      tries.push(what);
      return undefined;
    }
  };
  const explicit = given ?? process.env.MD_NODE_RED;
  if (explicit) {
    const found = attempt(explicit, () => require.resolve(path.resolve(explicit)));
    if (found) return found;
    throw new KitError(`node-red not found at ${explicit} (the nodeRed option or MD_NODE_RED): give the folder of an installed node-red package`);
  }
  const found =
    attempt(process.cwd(), () => require.resolve('node-red', { paths: [process.cwd()] })) ??
    attempt(__dirname, () => require.resolve('node-red', { paths: [__dirname] }));
  if (found) return found;
  throw new KitError(
    `node-red not found (looked from ${tries.join(' and ')}). The test kit runs your flows in a real Node-RED: ` +
      'install it in your project (npm install --save-dev node-red), or name a node-red package folder: the nodeRed option, --node-red of modular-device-test, or MD_NODE_RED.',
  );
}

type Listener = (received: Received) => void;

let started: Promise<NodeRed> | undefined;
let startedFrom = '';
let server: http.Server | undefined;
let serverUrl = '';
let stopped = false;
const listeners = new Set<Listener>();
let seq = 0;

/** The package root: dist/testing → the folder with package.json (Node-RED loads it as a module). */
const PACKAGE_ROOT = path.resolve(__dirname, '..', '..');

/**
 * Whether Node-RED finds this package by itself: it scans the node_modules folders from its
 * core nodes up to the root, so a project with both installed has this package in one of
 * them; naming it again in nodesDir would load it twice.
 */
function foundByNodeRed(main: string): boolean {
  let dir: string;
  try {
    dir = path.dirname(require.resolve('@node-red/nodes', { paths: [path.dirname(main)] }));
  } catch {
    return false;
  }
  const real = (p: string) => {
    try {
      return fs.realpathSync(p);
    } catch {
      return p;
    }
  };
  const me = real(PACKAGE_ROOT);
  for (let i = 0; i < 64; i++) {
    if (real(path.join(dir, 'node_modules', '@modular-device', 'node-red')) === me) return true;
    const up = path.dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return false;
}

/** Starts the runtime once (later calls get the same one; another node-red path is refused). */
export function runtime(nodeRed?: string): Promise<NodeRed> {
  if (stopped) throw new KitError('Node-RED was shut down in this process (shutdown()); it cannot start again: call shutdown() once, after the last test');
  if (started && nodeRed === undefined) return started; // the kit's own later calls: the one running
  const main = resolveNodeRed(nodeRed);
  if (started) {
    if (main !== startedFrom) throw new KitError(`this process already runs Node-RED from ${startedFrom}; one Node-RED per process (asked for ${main})`);
    return started;
  }
  startedFrom = main;
  started = (async () => {
    const RED: NodeRed = require(main);
    const userDir = fs.mkdtempSync(path.join(os.tmpdir(), 'modular-device-test-'));
    const listening = await listen((req, res) => {
      const notFound = () => {
        res.statusCode = 404;
        res.end();
      };
      if (RED.httpNode) RED.httpNode(req, res, notFound);
      else notFound(); // before init: nothing is served yet
    });
    server = listening.server;
    serverUrl = listening.url;
    RED.init(listening.server, {
      userDir,
      // Absolute: a relative name is looked up in the working folder first, where the user's
      // own flows.json usually is, and Node-RED would save over it.
      flowFile: path.join(userDir, 'flows.json'),
      credentialSecret: 'modular-device-test',
      nodesDir: foundByNodeRed(main) ? [] : [PACKAGE_ROOT],
      // Nodes that serve HTTP (http in, Dashboard 2's ui-base with its socket.io) need a server
      // and a node root, or each of them fails at deploy. The admin API stays off: on a
      // loopback port without a login, it would let any local process deploy flows.
      httpAdminRoot: false,
      httpNodeRoot: '/',
      disableEditor: true,
      telemetry: { enabled: false },
      logging: { console: { level: process.env.MD_TEST_LOG ?? 'error', metrics: false, audit: false } },
      editorTheme: { tours: false, palette: { catalogues: [] } },
    });
    // RED.start() resolves before the runtime has loaded its (empty) flows file; that load
    // resets the credentials, so a deploy made before it would lose them: wait for it.
    const loaded = new Promise<void>((resolve) => RED.events.once('flows:started', () => resolve()));
    await RED.start();
    await bounded(loaded, 60_000, 'Node-RED to load its flows after starting');
    RED.hooks.add('onReceive.modular-device-test', (event: { msg: Record<string, any>; destination: { id: string } }) => {
      if (listeners.size === 0) return;
      const received: Received = { node: event.destination.id, msg: RED.util.cloneMessage(event.msg), seq: ++seq };
      for (const listener of listeners) listener(received);
    });
    process.once('exit', () => fs.rmSync(userDir, { recursive: true, force: true }));
    return RED;
  })();
  started.catch(() => (started = undefined));
  return started;
}

/**
 * An HTTP server on a free loopback port (never another interface: tests talk to loopback
 * only). Unreferenced, so a test file that never calls shutdown() still ends.
 */
function listen(handler: http.RequestListener): Promise<{ server: http.Server; url: string }> {
  const s = http.createServer(handler);
  return new Promise((resolve, reject) => {
    s.once('error', (error) => reject(new KitError(`cannot listen on 127.0.0.1 for the flows' HTTP nodes: ${error.message}`)));
    s.listen(0, '127.0.0.1', () => {
      s.unref();
      resolve({ server: s, url: `http://127.0.0.1:${(s.address() as AddressInfo).port}/` });
    });
  });
}

/** Where the running Node-RED serves the flows' http in endpoints and Dashboard 2 ('' before it started). */
export function httpUrl(): string {
  return serverUrl;
}

/** Every msg any node receives, to `listener`, until the returned function is called. */
export function watch(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * A full deploy (as the editor's Deploy), resolved once the flows run: Node-RED's setFlows
 * resolves when the flows are saved, before their nodes exist, so a request or an inject
 * right after it would find none. A deploy that does not start within the bound says so.
 */
export async function deploy(RED: NodeRed, flows: unknown[], credentials?: unknown): Promise<void> {
  const running = new Promise<void>((resolve) => RED.events.once('flows:started', () => resolve()));
  await RED.runtime.flows.setFlows({ flows: { flows, credentials }, deploymentType: 'full' });
  await bounded(running, 60_000, 'Node-RED to start the flows after a deploy');
}

/** Stops the runtime (the end of a test process); it cannot be started again in this process. */
export async function shutdown(): Promise<void> {
  const running = started;
  if (!running || stopped) return;
  stopped = true;
  const RED = await running;
  await deploy(RED, []);
  await RED.stop();
  if (server) {
    const closing = new Promise<void>((resolve) => server!.close(() => resolve()));
    server.closeAllConnections(); // a browser's or a test's keep-alive socket would hold it open
    await closing;
  }
}

/** The promise, or a KitError naming `what` after `ms` (a bound for a loaded machine). */
function bounded<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new KitError(`waited ${ms} ms for ${what}`)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
