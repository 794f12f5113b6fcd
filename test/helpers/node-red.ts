/**
 * Node-RED side of the runtime tests: the test helper (initialised once against a real
 * Node-RED runtime: the 4.1 devDependency, or the one MD_NODE_RED names), flow builders
 * for a config node + io-output + Catch, collectors for what reaches the helper nodes, the status history of a node, and a polling wait.
 *
 * Nothing of Node-RED or axios is mocked: the helper loads the real runtime, the real core
 * Catch node, and our compiled nodes from dist/nodes, which speak through Node-RED's real
 * i18n (see i18n.ts: the helper alone would give them a `RED._` that returns the key).
 */
import path from 'path';
import should from 'should';
import { NODE_RED_MAIN, nodeRedPackage, NodeModule, shownStatus, withRuntimeI18n } from './i18n';
import modularDevice = require('../../nodes/modular-device');
import ioOutput = require('../../nodes/io-output');
import type { DeviceNode } from '../../nodes/lib/config-node/device-settings';
import type { NodeMessage, NodeStatus } from '../../nodes/lib/base/node-red';
import { deviceNode } from './device-node';
import type { DeviceOptions, FlowNode } from './device-node';

export { deviceNode };
export type { DeviceOptions, FlowNode };

/** The slice of node-red-node-test-helper 0.3.6 the tests use (it ships no types). */
export interface TestHelper {
  init(runtimePath: string, settings?: Record<string, unknown>): void;
  settings(settings?: Record<string, unknown>): Record<string, unknown>;
  load(nodes: unknown[] | unknown, flow: FlowNode[], credentials?: Record<string, Record<string, string>>): Promise<void>;
  unload(): Promise<void>;
  startServer(): Promise<void>;
  stopServer(): Promise<void>;
  getNode(id: string): any;
  request(): any;
  log(): any;
}

export const helper: TestHelper = require('node-red-node-test-helper');
export { NODE_RED_MAIN, nodeRedPackage, NodeModule };
export const NODE_RED_VERSION: string = require(path.join(path.dirname(NODE_RED_MAIN), '..', 'package.json')).version;
helper.init(NODE_RED_MAIN);
/** Every load, whoever calls it, hands the node modules Node-RED's real i18n (see i18n.ts). */
const loadWithHelperI18n = helper.load.bind(helper);
helper.load = (nodes, flow, credentials) => loadWithHelperI18n(withRuntimeI18n(Array.isArray(nodes) ? nodes : [nodes as NodeModule]), flow, credentials);

/**
 * Node-RED 4.x copies the `code` of the error given to done(err) into the Catch node's
 * msg.error (Flow.handleError); 3.1 copies only message, stack and cause. So on 3.1 a
 * caught msg has no `code`: there the assertion is that it is absent, while the message
 * and cause assertions beside it hold on every version.
 */
export const CATCH_COPIES_CODE = Number(NODE_RED_VERSION.split('.')[0]) >= 4;

/** msg.error.code of a caught msg is `code` (Node-RED 4+), or absent (3.x): see CATCH_COPIES_CODE. */
export function expectCode(error: { code?: string; message?: string } | undefined, code: string, what?: string): void {
  if (CATCH_COPIES_CODE) should(error?.code).equal(code, what ?? `code of: ${error?.message}`);
  else should(error?.code).be.undefined();
}

export const MODULES = { modularDevice: modularDevice as NodeModule, ioOutput: ioOutput as NodeModule };
export const ALL_NODES: NodeModule[] = [MODULES.modularDevice, MODULES.ioOutput];

// ---- waiting ------------------------------------------------------------------------------

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Polls `condition` until it holds; fails naming `what` after `timeoutMs`. Generous
 * timeouts, short intervals: fast when the machine is fast, still green when it is loaded.
 */
export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 5000, intervalMs = 10): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(intervalMs);
  }
}

// ---- flows --------------------------------------------------------------------------------

export const TAB = 'tab1';

/** io-output settings as the editor saves them; override any. */
export function outputNode(settings: Record<string, unknown> = {}): FlowNode {
  return {
    id: 'out',
    type: 'io-output',
    z: TAB,
    x: 300,
    y: 100,
    name: '',
    device: 'dev',
    pin: '1',
    mode: 'state',
    state: 'high',
    pwmInput: 'raw',
    frequency: '1000',
    duty: '50',
    prescaler: '47',
    period: '1000',
    time_on: '500',
    wires: [['sink']],
    ...settings,
  };
}

/**
 * tab + config node + io-output → helper `sink`, and a core Catch (all nodes of the tab)
 * → helper `caught`. Flow nodes need x/y: without them Node-RED takes a node for a config node.
 */
export function ioFlow(device: DeviceOptions, output: Record<string, unknown> = {}): FlowNode[] {
  return [
    { id: TAB, type: 'tab', label: 'test' },
    deviceNode(device),
    outputNode(output),
    { id: 'sink', type: 'helper', z: TAB, x: 500, y: 100, wires: [] },
    { id: 'catch', type: 'catch', z: TAB, x: 100, y: 200, name: '', scope: null, uncaught: false, wires: [['caught']] },
    { id: 'caught', type: 'helper', z: TAB, x: 300, y: 200, wires: [] },
  ];
}

/**
 * The flow of many action nodes, the one builder of io-nodes.ts, bmc-power.ts and
 * reliability.ts: a tab with the config nodes, the action nodes (each → helper `<id>-out`),
 * one Catch for the tab (→ `caught`) and one Complete for every action node (→ `completed`).
 * `device`: the config node of an action that names none (none by default).
 */
export function actionFlow(actions: FlowNode[], devices: FlowNode[], options: { device?: string; label?: string } = {}): FlowNode[] {
  const flow: FlowNode[] = [{ id: TAB, type: 'tab', label: options.label ?? 'test' }, ...devices];
  const defaults = options.device ? { device: options.device } : {};
  actions.forEach((action, i) => {
    flow.push({ name: '', ...defaults, ...action, z: TAB, x: 200, y: 60 + 40 * i, wires: [[`${action.id}-out`]] });
    flow.push({ id: `${action.id}-out`, type: 'helper', z: TAB, x: 450, y: 60 + 40 * i, wires: [] });
  });
  const y = 60 + 40 * actions.length;
  flow.push({ id: 'catcher', type: 'catch', z: TAB, x: 200, y, name: '', scope: null, uncaught: false, wires: [['caught']] });
  flow.push({ id: 'caught', type: 'helper', z: TAB, x: 450, y, wires: [] });
  flow.push({
    id: 'completer',
    type: 'complete',
    z: TAB,
    x: 200,
    y: y + 40,
    name: '',
    scope: actions.map((a) => a.id),
    uncaught: false,
    wires: [['completed']],
  });
  flow.push({ id: 'completed', type: 'helper', z: TAB, x: 450, y: y + 40, wires: [] });
  return flow;
}

/** What the flow's helper nodes received: outputs of io-output and msgs from Catch. */
export interface Received {
  sent: NodeMessage[];
  caught: Array<NodeMessage & { error: CaughtError }>;
}

export interface CaughtError {
  message: string;
  code?: string;
  cause?: { code?: string; statusCode?: number; deviceMessage?: string; method?: string; path?: string; [detail: string]: unknown };
  source: { id: string; type: string };
  stack?: string;
}

/** Loads a flow (ioFlow shape) and starts collecting what reaches `sink` and `caught`. */
export async function loadFlow(flow: FlowNode[], credentials?: Record<string, Record<string, string>>, nodes: NodeModule[] = ALL_NODES): Promise<Received> {
  await helper.load(nodes, flow, credentials ?? {});
  const received: Received = { sent: [], caught: [] };
  const sink = helper.getNode('sink');
  if (sink) sink.on('input', (msg: NodeMessage) => received.sent.push(msg));
  const caught = helper.getNode('caught');
  if (caught) caught.on('input', (msg: NodeMessage & { error: CaughtError }) => received.caught.push(msg));
  return received;
}

/** The config node of a loaded flow. */
export function device(id = 'dev'): DeviceNode {
  return helper.getNode(id) as DeviceNode;
}

/** Waits until the config node reports the module connected. */
export async function waitConnected(id = 'dev', timeoutMs = 5000): Promise<void> {
  await waitFor(() => device(id)?.connection?.state.state === 'connected', `config node ${id} to connect`, timeoutMs);
}

/** Sends a msg into node `id` and returns it (the node mutates and forwards the same object). */
export function inject(msg: NodeMessage, id = 'out'): NodeMessage {
  helper.getNode(id).receive(msg);
  return msg;
}

/** Waits until `count` msgs in total left the node (to sink or Catch). */
export async function waitOutcomes(received: Received, count: number, timeoutMs = 5000): Promise<void> {
  await waitFor(() => received.sent.length + received.caught.length >= count, `${count} outcome(s)`, timeoutMs);
}

// ---- status ------------------------------------------------------------------------------

/**
 * Every `status()` call of one node, in order, as the editor shows it (a fixed status is a
 * message id the editor says in its language: here en-US, see i18n.ts `shownStatus`). The
 * helper replaces Node.prototype.status with a sinon spy shared by all nodes; its calls
 * carry the node as `thisValue`.
 */
export function statusHistory(node: { status: unknown; type?: string }): NodeStatus[] {
  const spy = node.status as { getCalls?: () => Array<{ thisValue: unknown; args: unknown[] }> };
  if (!spy.getCalls) throw new Error('Node.prototype.status is not a spy: was the flow loaded with helper.load?');
  return spy
    .getCalls()
    .filter((call) => call.thisValue === node)
    .map((call) => shownStatus(call.args[0] as NodeStatus, node.type ?? ''));
}

/** The node's current status (the last call). */
export function lastStatus(node: { status: unknown }): NodeStatus | undefined {
  const history = statusHistory(node);
  return history[history.length - 1];
}

/**
 * Waits until the node's last status matches fill, shape and (part of) the text. Mind that
 * action nodes cut status texts at 60 characters ("..." at the end): match the start.
 */
export async function waitStatus(id: string, fill: string, shape: string, text: string | RegExp, timeoutMs = 5000): Promise<NodeStatus> {
  const matches = (s?: NodeStatus) =>
    !!s && s.fill === fill && s.shape === shape && (typeof text === 'string' ? (s.text ?? '').includes(text) : text.test(s.text ?? ''));
  let last: NodeStatus | undefined;
  try {
    await waitFor(
      () => {
        last = lastStatus(helper.getNode(id));
        return matches(last);
      },
      `status of ${id} to be ${fill} ${shape} "${text}"`,
      timeoutMs,
    );
  } catch (error) {
    throw new Error(`${(error as Error).message}; last status: ${JSON.stringify(last)}`);
  }
  return last!;
}

/**
 * Sets the config nodes' health check for the enclosing describe, as settings.js
 * `modularDevice.healthIntervalMs` does (read by each config node as it starts: set before
 * the flows load), beside the helper's other settings, and puts the settings back after it.
 */
export function withHealthInterval(ms: number): void {
  let saved: Record<string, unknown>;
  before(() => {
    saved = helper.settings();
    const modularDevice = (saved.modularDevice ?? {}) as Record<string, unknown>;
    helper.settings({ ...saved, modularDevice: { ...modularDevice, healthIntervalMs: ms } });
  });
  after(() => void helper.settings(saved));
}
