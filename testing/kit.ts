/**
 * A user's flows under test: the simulator started with the modules the flows use, the
 * flows deployed to a real Node-RED with their modular-device config nodes aimed at it
 * (the file is not changed), msgs watched at every node and at Catch, and waits that end
 * on an event (a msg, a condition) or fail after a generous bound, never a sleep.
 */
import fs from 'fs';
import { checkRecording, DEFAULT_REBOOT_MS, Recording, startReplay, startSimulator, Simulator } from '../simulator';
import { DeviceControl, Service } from './device';
import { KitError } from './errors';
import { Credentials, FlowNode, findNode, missingTypes, modulesOf, pointAt, readCredentials, readFlows, whyNoMsgCanArrive, withCatchers } from './flows';
import { matches, Where, whyNot } from './match';
import { deploy, httpUrl, Received, runtime, watch } from './runtime';
import { AlarmControl } from './alarms';

export interface StartOptions {
  /** flows.json (a path) or the flows themselves (an array of nodes). */
  flows: string | unknown[];
  /** flows_cred.json (a path, plain or encrypted) or credentials keyed by node id. */
  credentials?: string | Credentials;
  /** The credentialSecret that encrypted flows_cred.json. */
  credentialSecret?: string;
  /** The API the simulated device speaks (default 0.9); config nodes set to auto find it. */
  api?: '0.9' | '1.0';
  /** Modules by slot; default: the ones the flows' config nodes name. */
  modules?: Array<{ service: Service; slot: number }>;
  /**
   * How long a hard reset (watchdog, shutdown, the bmc's hard_reset) keeps the device down, ms: default
   * the simulator's own (DEFAULT_REBOOT_MS, 3000, as under `npm start`); 0 = back at once.
   */
  rebootMs?: number;
  /** A device already running (e.g. `modular-device-sim replay`) instead of a new simulator. */
  deviceUrl?: string;
  /** A recording (modular-device-sim record) served as the device instead of the simulator. */
  replay?: string | Recording;
  /** node-red to run (a package folder); default: the one your project installed. */
  nodeRed?: string;
}

export interface WaitOptions {
  /** Fields the msg must have (a partial match) or a predicate. */
  where?: Where;
  /** Give up after this, ms (default 10000: a bound for a loaded machine, not a timing). */
  timeoutMs?: number;
  /** Only msgs that arrived after this mark (default: the last mark(), else the start). */
  since?: number;
}

export const DEFAULT_TIMEOUT_MS = 10_000;

let active: FlowTest | undefined;

export async function startFlows(options: StartOptions): Promise<FlowTest> {
  if (active) throw new KitError('another flow test is still running in this process: stop() it first (one Node-RED per process)');
  const flows = readFlows(options.flows);
  const credentials = readCredentials(options.credentials, options.credentialSecret);
  const RED = await runtime(options.nodeRed);
  const missing = missingTypes(flows, (type) => !!RED.nodes.getType(type));
  if (missing.length)
    throw new KitError(`the flows use node types this Node-RED does not have: ${missing.join(', ')}. Install their packages in your project.`);
  const modules = options.modules ?? modulesOf(flows);
  let simulator: Simulator | undefined;
  let device: { url: string; close(): Promise<void> };
  if (options.replay) device = await startReplay(readRecording(options.replay, options.api));
  else if (options.deviceUrl) device = { url: options.deviceUrl, close: async () => undefined };
  else
    device = simulator = await startSimulator({
      api: options.api ?? '0.9',
      modules: modules.length ? modules : undefined,
      rebootMs: options.rebootMs ?? DEFAULT_REBOOT_MS,
    });
  const url = device.url;
  const test = new FlowTest(flows, url, simulator, device);
  active = test;
  try {
    const { flows: deployed, catchers } = withCatchers(pointAt(flows, url));
    test.catchers = catchers;
    await deploy(RED, deployed, credentials);
  } catch (error) {
    await test.stop();
    throw error instanceof KitError ? error : new KitError(`Node-RED refused the flows: ${(error as Error).message}`);
  }
  return test;
}

export class FlowTest {
  /** The simulated device: change it, read it. */
  readonly device: DeviceControl;
  /**
   * Where Node-RED serves the flows' http in endpoints and Dashboard 2 (http://127.0.0.1:<port>/,
   * a free port of this process's one Node-RED; its admin API is off).
   */
  readonly httpUrl = httpUrl();
  /** The flows' alarms, as an operator acts on them and sees them (acknowledge, shelve, get, untilState). */
  readonly alarms = new AlarmControl((condition, options) => this.until(condition, options));
  /** Every msg received by a node of the flows since the start, in order. */
  readonly msgs: Received[] = [];
  /** @internal the kit's hidden Catch nodes */
  catchers = new Set<string>();
  private readonly unwatch: () => void;
  private readonly waiters = new Set<() => void>();
  private markSeq = 0;
  private stopped = false;

  constructor(
    readonly flows: FlowNode[],
    /** Where the flows' config nodes point. */
    readonly url: string,
    /** The in-process simulator (undefined with deviceUrl or replay). */
    readonly simulator: Simulator | undefined,
    private readonly server?: { close(): Promise<void> },
  ) {
    this.device = new DeviceControl(url);
    this.unwatch = watch((received) => {
      this.msgs.push(received);
      for (const wake of this.waiters) wake();
    });
  }

  /** The flow node with this id or name (a readable error if there is none, or several). */
  node(ref: string): FlowNode {
    return findNode(this.flows, ref, 'node');
  }

  /** Sends `msg` into the node, as a wire from another node would. */
  async inject(ref: string, msg: Record<string, unknown> = {}): Promise<void> {
    const node = this.node(ref);
    const RED = await runtime();
    const live = RED.nodes.getNode(node.id);
    if (!live) throw new KitError(`node ${describe(node)} is not running (disabled, or on a disabled tab?)`);
    live.receive({ ...msg });
  }

  /** From now on: waits look only at msgs that arrive after this call. Returns the mark. */
  mark(): number {
    this.markSeq = this.msgs.length ? this.msgs[this.msgs.length - 1].seq : this.markSeq;
    return this.markSeq;
  }

  /** Msgs received by the node (id or name) since `since` (default all). */
  received(ref: string, since = 0): Array<Record<string, any>> {
    const id = this.node(ref).id;
    return this.msgs.filter((r) => r.node === id && r.seq > since).map((r) => r.msg);
  }

  /** Errors reported in the flows (what a Catch node gets: msg.error), since `since`. */
  caught(since = 0): Array<Record<string, any>> {
    return this.msgs.filter((r) => this.catchers.has(r.node) && r.seq > since).map((r) => r.msg);
  }

  /** The first msg at the node matching `where` after the mark. */
  async nextMsg(ref: string, options: WaitOptions = {}): Promise<Record<string, any>> {
    const node = this.node(ref);
    const since = options.since ?? this.markSeq;
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    let found: Record<string, any> | undefined;
    await this.until(() => !!(found = this.received(node.id, since).find((m) => matches(m, options.where))), {
      timeoutMs,
      what: () => `a msg at node ${describe(node)}: ${whyNotAt(this.flows, node, this.received(node.id, since), options.where)}`,
    });
    return found!;
  }

  /** The first error (a msg as Catch gets it) matching `where` after the mark. */
  async nextError(options: WaitOptions = {}): Promise<Record<string, any>> {
    const since = options.since ?? this.markSeq;
    let found: Record<string, any> | undefined;
    await this.until(() => !!(found = this.caught(since).find((m) => matches(m, options.where))), {
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      what: () => `an error at Catch: ${whyNot(this.caught(since), options.where)}`,
    });
    return found!;
  }

  /**
   * Resolves when `condition` holds: checked at once, on every msg, and every 25 ms (for
   * conditions on the device, which sends no events); fails after timeoutMs naming `what`.
   */
  async until(condition: () => boolean | Promise<boolean>, options: { timeoutMs?: number; what?: string | (() => string) } = {}): Promise<void> {
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (await condition()) return;
    await new Promise<void>((resolve, reject) => {
      let checking = false;
      let again = false;
      const finish = (error?: Error) => {
        clearTimeout(timer);
        clearInterval(poll);
        this.waiters.delete(check);
        if (error) reject(error);
        else resolve();
      };
      const check = () => {
        if (checking) return void (again = true);
        checking = true;
        Promise.resolve()
          .then(condition)
          .then(
            (ok) => {
              checking = false;
              if (ok) finish();
              else if (again) {
                again = false;
                check();
              }
            },
            (error) => finish(error),
          );
      };
      const timer = setTimeout(() => {
        const what = typeof options.what === 'function' ? options.what() : (options.what ?? 'the condition');
        finish(new KitError(`waited ${timeoutMs} ms for ${what}`));
      }, timeoutMs);
      const poll = setInterval(check, 25);
      this.waiters.add(check);
    });
  }

  /** Undeploys the flows and stops the simulator; the runtime stays for the next test. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.unwatch();
    try {
      const RED = await runtime();
      await deploy(RED, []);
    } finally {
      if (active === this) active = undefined;
      await this.server?.close();
    }
  }
}

/** A recording from a file or given, checked, and of the API the test asks for. */
function readRecording(source: string | Recording, api?: string): Recording {
  const where = typeof source === 'string' ? `recording ${source}` : 'recording';
  let recording: Recording;
  try {
    recording = checkRecording(typeof source === 'string' ? JSON.parse(fs.readFileSync(source, 'utf8')) : source, where);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new KitError(
      code ? `${where}: cannot read it (${code})` : error instanceof SyntaxError ? `${where}: not JSON (${error.message})` : (error as Error).message,
    );
  }
  if (api && recording.api && recording.api !== api) {
    throw new KitError(`${where}: recorded against API ${recording.api}, the test asks for API ${api}: replay it with api ${recording.api}, or record again`);
  }
  return recording;
}

/** Why none of the msgs at the node matched; when none arrived at all, why none can, if so. */
export function whyNotAt(flows: FlowNode[], node: FlowNode, msgs: Array<Record<string, any>>, where?: Where): string {
  const cannot = msgs.length ? undefined : whyNoMsgCanArrive(flows, node);
  return cannot ? `${whyNot(msgs, where)}: ${cannot}` : whyNot(msgs, where);
}

export function describe(node: FlowNode): string {
  return node.name ? `"${node.name}" (${node.type}, id ${node.id})` : `${node.id} (${node.type})`;
}
