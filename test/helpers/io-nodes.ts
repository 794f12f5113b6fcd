/**
 * Runtime-test harness for the action nodes: the one loader (loadActions) of a flow that wires
 * every action node to its own helper node, one core Catch node and one core Complete node for
 * all of them (io nodes by default; the bmc and power nodes with `service`), collectors for
 * what arrives there, and small wrappers around the io parts of the simulator's control API.
 *
 * Built on the shared helpers (test/helpers/node-red.ts, sim-control.ts): the real
 * Node-RED 4.1 runtime through node-red-node-test-helper, the real core Catch/Complete
 * nodes, our compiled nodes, the simulator over loopback. Nothing is mocked.
 *
 * Every non-config node gets x/y: Node-RED treats a flow node without a position as a
 * config node, and a Catch node that is a "config node" never receives errors.
 */
import modularDevice = require('../../nodes/modular-device');
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
import type { NodeMessage } from '../../nodes/lib/base/node-red';
import { actionFlow, CaughtError, DeviceOptions, deviceNode, helper, NodeModule, waitConnected, waitFor } from './node-red';
import { httpJson, LogEntry, SimHarness } from './sim-control';
import { wireRequest } from './api';

export const IO_NODE_MODULES: NodeModule[] = [
  modularDevice as NodeModule,
  ioThreshold as NodeModule,
  ioInput as NodeModule,
  ioRead as NodeModule,
  ioPower as NodeModule,
  ioReset as NodeModule,
  notificationPoll as NodeModule,
  deviceInfo as NodeModule,
];

export const BMC_POWER_MODULES: NodeModule[] = [
  modularDevice as NodeModule,
  bmcWatchdog as NodeModule,
  bmcReadings as NodeModule,
  bmcUsbhub as NodeModule,
  bmcSystem as NodeModule,
  powerFan as NodeModule,
  powerLimits as NodeModule,
  powerReadings as NodeModule,
];

/** An action node as the editor saves it: id, type and settings (device defaults to 'dev'). */
export type ActionDef = Record<string, unknown> & { id: string; type: string };

export type CaughtMsg = NodeMessage & { error: CaughtError };

/** What the flow's helper nodes received. */
export class Outcomes {
  /** Output msgs per action node id. */
  readonly out = new Map<string, NodeMessage[]>();
  /** Everything the Catch node passed on (all nodes of the tab). */
  readonly caught: CaughtMsg[] = [];
  /** Msgs whose handling ended with done() (Complete node, all action nodes). */
  readonly completed: NodeMessage[] = [];

  sent(id: string): NodeMessage[] {
    return this.out.get(id) ?? [];
  }

  caughtFrom(id: string): CaughtMsg[] {
    return this.caught.filter((m) => m.error?.source?.id === id);
  }
}

/** The simulator's default modules: bmc in slot 0, power in slot 1, io in slot 2 (and 3). */
export const MODULE_SLOTS = { io: 2, bmc: 0, power: 1 } as const;
export type ModuleService = keyof typeof MODULE_SLOTS;

/** The node types a flow of each module's action nodes loads, and the tab's label. */
const FAMILIES: Record<ModuleService, { modules: NodeModule[]; label: string }> = {
  io: { modules: IO_NODE_MODULES, label: 'io nodes' },
  bmc: { modules: BMC_POWER_MODULES, label: 'bmc and power nodes' },
  power: { modules: BMC_POWER_MODULES, label: 'bmc and power nodes' },
};

export interface LoadOptions {
  /** The module of the default config node 'dev' (io in slot 2 unless told), and so the node types loaded. */
  service?: ModuleService;
  /** Config nodes; default one module of `service` in its slot, with id 'dev'. */
  devices?: DeviceOptions[];
  /** Wait until these config nodes are connected (default: every device). */
  waitFor?: string[];
  /** Node modules to load (default: the nodes of `service`'s module). */
  modules?: NodeModule[];
  /** More wires: an action node's id → the action nodes its output also goes to (e.g. notification-poll → device-alarm). */
  wires?: Record<string, string[]>;
}

/**
 * The one loader of the action-node tests (io, bmc and power nodes, alarms): loads the flow
 * (test/helpers/node-red.ts actionFlow), starts collecting, waits for the config nodes to connect.
 */
export async function loadActions(url: string, actions: ActionDef[], options: LoadOptions = {}): Promise<Outcomes> {
  const service = options.service ?? 'io';
  const family = FAMILIES[service];
  const devices = (options.devices ?? [{ url, service, slot: MODULE_SLOTS[service] }]).map((d) => deviceNode(d));
  const flow = actionFlow(actions, devices, { device: 'dev', label: family.label });
  for (const node of flow) if (options.wires?.[node.id]) (node.wires as string[][])[0].push(...options.wires[node.id]);
  await helper.load(options.modules ?? family.modules, flow);
  const outcomes = new Outcomes();
  for (const action of actions) {
    const list: NodeMessage[] = [];
    outcomes.out.set(action.id, list);
    helper.getNode(`${action.id}-out`).on('input', (msg: NodeMessage) => list.push(msg));
  }
  helper.getNode('caught').on('input', (msg: CaughtMsg) => outcomes.caught.push(msg));
  helper.getNode('completed').on('input', (msg: NodeMessage) => outcomes.completed.push(msg));
  for (const id of options.waitFor ?? devices.map((d) => d.id)) await waitConnected(id);
  return outcomes;
}

/** loadActions, then the simulator's log cleared: a test reads back only what its own msgs sent. */
export async function loadActionsQuiet(ctl: SimHarness, actions: ActionDef[], options: LoadOptions = {}): Promise<Outcomes> {
  const outcomes = await loadActions(ctl.url, actions, options);
  await ctl.clearLog();
  return outcomes;
}

/**
 * Matches a status text that names this HTTP status (e.g. "500 driver gone" or
 * "GET ... failed: 500"), whatever else the text says.
 */
export function httpStatus(code: number): RegExp {
  return new RegExp(`(^|\\D)${code}(\\D|$)`);
}

let msgCounter = 0;

/**
 * Sends `msg` into node `id` and waits until the node has finished with it: done() (seen by
 * the Complete node) or done(err) (seen by the Catch node). Returns the caught msg, if any.
 */
export async function send(outcomes: Outcomes, id: string, msg: NodeMessage, timeoutMs = 5000): Promise<CaughtMsg | undefined> {
  const msgid = `io-test-${++msgCounter}`;
  msg._msgid = msgid;
  helper.getNode(id).receive(msg);
  let caught: CaughtMsg | undefined;
  await waitFor(
    () => {
      caught = outcomes.caught.find((m) => m._msgid === msgid);
      return !!caught || outcomes.completed.some((m) => m._msgid === msgid);
    },
    `node ${id} to finish msg ${msgid}`,
    timeoutMs,
  );
  return caught;
}

// ---- simulator ------------------------------------------------------------------------------

/** The outside world at one io pin (control API). */
export async function setPin(
  ctl: SimHarness,
  slot: number,
  pin: number,
  world: { voltage_mV?: number; level?: 0 | 1; frequency_hz?: number; load_mA?: number },
): Promise<void> {
  const answer = await httpJson('POST', `${ctl.url}/sim/io/${slot}/pins/${pin}`, world);
  if (answer.status !== 200) throw new Error(`set pin: ${answer.status} ${answer.text}`);
}

/** Raises one alert flag of an io pin (control API). */
export async function raiseAlert(ctl: SimHarness, slot: number, pin: number, alert: string): Promise<void> {
  const answer = await httpJson('POST', `${ctl.url}/sim/io/${slot}/pins/${pin}/alert`, { alert });
  if (answer.status !== 200) throw new Error(`alert: ${answer.status} ${answer.text}`);
}

/**
 * A device API call made by the test itself (not by a node), e.g. to prepare a pin mode.
 * Given in the spec's form (`/api/io/0.9/...`), sent in the wire form of the API under test.
 */
export async function deviceCall(ctl: SimHarness, method: string, path: string, body?: unknown): Promise<any> {
  const wire = wireRequest({ method, path, body });
  const answer = await httpJson(wire.method, `${ctl.url}${wire.path}`, wire.body);
  if (answer.status !== 200) throw new Error(`${method} ${path}: ${answer.status} ${answer.text}`);
  return answer.body;
}

/** The io module in `slot` from /sim/state. */
export async function ioModule(ctl: SimHarness, slot = 2): Promise<any> {
  const state = await ctl.state();
  return state.modules.find((m: { slot: number }) => m.slot === slot);
}

/** Device requests (version-record probes left out) as [method, path, body] rows. */
export async function wire(ctl: SimHarness): Promise<Array<[string, string, unknown]>> {
  return (await ctl.requests()).map((e) => [e.method, e.path, e.body] as [string, string, unknown]);
}

/** Log entries whose path ends with `suffix`, optionally only after seq `since`. */
export async function requestsTo(ctl: SimHarness, suffix: string, since = 0): Promise<LogEntry[]> {
  return (await ctl.log(since)).filter((e) => e.path.endsWith(suffix));
}

/** Waits until at least `count` requests to `suffix` were answered after seq `since`. */
export async function waitRequests(ctl: SimHarness, suffix: string, count: number, since = 0, timeoutMs = 5000): Promise<LogEntry[]> {
  let found: LogEntry[] = [];
  await waitFor(
    async () => (found = await requestsTo(ctl, suffix, since)).length >= count,
    `${count} request(s) to ${suffix} after seq ${since}`,
    timeoutMs,
    20,
  );
  return found;
}

/** The highest seq in the request log so far (0 when empty). */
export async function lastSeq(ctl: SimHarness): Promise<number> {
  const entries = await ctl.log();
  return entries.length ? entries[entries.length - 1].seq : 0;
}

/**
 * A module's worth of settings the package puts back after a reset: the power
 * configuration, pin 3 digital with an interrupt, pin 2's threshold, and pin 1's output
 * (its last state restored after a reset, once a msg set it).
 */
export const SETTING_ACTIONS: ActionDef[] = [
  { id: 'pwr', type: 'io-power', pins: [1, 2, 3, 4, 5, 6].map(() => ({ rail: '5_volt', current: '100' })), applyOnConnect: true },
  { id: 'in', type: 'io-input', pin: '3', mode: 'digital', trigger: 'rising', debounce_time_ms: '20', counter: '', applyOnConnect: true },
  { id: 'thr', type: 'io-threshold', pin: '2', threshold_mV: '1000', trigger: 'rising', analogFirst: true, applyOnConnect: true },
  { id: 'out', type: 'io-output', pin: '1', mode: 'state', state: 'high', pwmInput: 'raw', prescaler: '47', period: '1000', time_on: '500', restore: true },
];

/** Whether SETTING_ACTIONS' settings are on the io module in slot 2 (pin 1 high only when `output`). */
export async function settingsInPlace(ctl: SimHarness, output = true): Promise<boolean> {
  const io = await ioModule(ctl);
  const pin = (n: number) => io.pins[n - 1];
  return (
    io.powerConfig !== null && pin(3).mode === 'digital' && pin(3).interrupt !== null && pin(2).threshold !== null && (!output || pin(1).output === 'high')
  );
}
