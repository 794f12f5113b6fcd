/**
 * Runtime-test harness for the bmc and power nodes (bmc-watchdog, bmc-readings,
 * bmc-usbhub, bmc-system, power-fan, power-limits, power-readings).
 *
 * Built on the shared helpers: the flow shape, outcome collectors and `send` of
 * io-nodes.ts (every action node → its own helper `<id>-out`, one core Catch → `caught`,
 * one core Complete → `completed`), the runtime and waits of node-red.ts, the simulator
 * control of sim-control.ts. A flow of these nodes loads with io-nodes.ts's loadActions and
 * `service: 'bmc'` (slot 0) or `'power'` (slot 1). Adds: "refused with nothing sent" and "ok" assertions, and
 * wrappers around the bmc/power parts of the simulator's control API. Nothing is mocked.
 */
import fs from 'fs';
import path from 'path';
import should from 'should';
import type { NodeMessage } from '../../nodes/lib/base/node-red';
import { ActionDef, BMC_POWER_MODULES, CaughtMsg, lastSeq, MODULE_SLOTS, Outcomes, send } from './io-nodes';
import { expectCode } from './node-red';
import { httpJson, isProbe, LogEntry, SimHarness } from './sim-control';

/** dist/test/helpers → the English catalogs, whose words the refusals quote. */
const LOCALES = path.resolve(__dirname, '..', '..', '..', 'locales', 'en-US');

export type { ActionDef, CaughtMsg };
export { Outcomes, BMC_POWER_MODULES };

/** The simulator's default modules: bmc in slot 0, power in slot 1. */
export const SLOTS = { bmc: MODULE_SLOTS.bmc, power: MODULE_SLOTS.power } as const;
export type BmcPowerService = keyof typeof SLOTS;

/** Spec path of a module endpoint, e.g. apiPath('bmc', 'watchdog/alive') → /api/bmc/0.9/0/watchdog/alive (the request log is read in the spec's terms; wirePath() in api.ts gives the wire path). */
export function apiPath(service: BmcPowerService, endpoint: string): string {
  return `/api/${service}/0.9/${SLOTS[service]}/${endpoint}`;
}

/** Device requests after seq `since` (the config node's probes left out). */
export async function deviceRequests(ctl: SimHarness, since = 0): Promise<LogEntry[]> {
  return (await ctl.log(since)).filter((e) => !isProbe(e));
}

/** Device requests after `since` as [method, path, body] rows. */
export async function wireSince(ctl: SimHarness, since = 0): Promise<Array<[string, string, unknown]>> {
  return (await deviceRequests(ctl, since)).map((e) => [e.method, e.path, e.body] as [string, string, unknown]);
}

/**
 * Sends `msg` into node `id`, expects it to succeed (no error at Catch) and returns the
 * msg(s) it put on the output (matched by _msgid).
 */
export async function sendOk(outcomes: Outcomes, id: string, msg: NodeMessage, timeoutMs = 5000): Promise<NodeMessage[]> {
  const caught = await send(outcomes, id, msg, timeoutMs);
  if (caught) throw new Error(`msg ${JSON.stringify(msg)} to ${id} failed: ${caught.error?.message}`);
  return outcomes.sent(id).filter((m) => m._msgid === msg._msgid);
}

/** Like sendOk for a node with exactly one output msg per input: returns that msg. */
export async function sendOne(outcomes: Outcomes, id: string, msg: NodeMessage, timeoutMs = 5000): Promise<NodeMessage> {
  const out = await sendOk(outcomes, id, msg, timeoutMs);
  out.should.have.length(1, `one output msg for ${JSON.stringify(msg)}`);
  return out[0];
}

/**
 * Sends `msg` into node `id` and expects it refused by validation: exactly one error at
 * Catch (code INVALID_INPUT, message matching `message`, from this node, with the msg's
 * own properties), no output, and nothing on the wire.
 */
export async function expectRefused(ctl: SimHarness, outcomes: Outcomes, id: string, msg: NodeMessage, message: string | RegExp): Promise<CaughtMsg> {
  const since = await lastSeq(ctl);
  msg.marker ??= `refused-${Math.random()}`;
  const caught = await send(outcomes, id, msg);
  if (!caught) throw new Error(`msg ${JSON.stringify(msg)} to ${id} was not refused`);
  const error = caught!.error;
  expectCode(error, 'INVALID_INPUT', `code of: ${error.message}`);
  // Node-RED puts the error's toString() on msg.error.message: `InvalidInputError: <message>`
  // (nothing went to the device, so the name does not say DeviceError).
  error.message.should.startWith('InvalidInputError: ');
  const text = error.message.slice('InvalidInputError: '.length);
  if (typeof message === 'string') text.should.equal(message);
  else text.should.match(message);
  error.source.id.should.equal(id);
  should(caught!.marker).equal(msg.marker, 'Catch gets the original msg');
  outcomes.caught.filter((m) => m._msgid === msg._msgid).should.have.length(1, 'exactly one error per msg');
  outcomes
    .sent(id)
    .filter((m) => m._msgid === msg._msgid)
    .should.have.length(0, 'no output for a refused msg');
  (await wireSince(ctl, since)).should.eql([], `nothing sent for ${JSON.stringify(msg)}`);
  return caught!;
}

/** An operation as node `type`'s dialog lists it (its English catalog), else its own name. */
export function operationWords(type: string, operation: string): string {
  const words = JSON.parse(fs.readFileSync(path.join(LOCALES, `${type}.json`), 'utf8'))[type].operation ?? {};
  return typeof words[operation] === 'string' ? words[operation] : operation;
}

/**
 * The refusal of a msg.operation the dialog does not allow (nodes/lib/action/operation-choice.ts), as the
 * English catalog words it: `got` as the message shows the value (`"save"`, `5`, `nothing`),
 * the node's operation as its dialog lists it.
 */
export function operationFixed(type: string, got: string, operation: string): string {
  return `msg.operation ${got} refused: this node runs "${operationWords(type, operation)}", as chosen in its dialog; to let a msg choose, set its operation to "from msg.operation"`;
}

/** The refusal of a dangerous operation without the node's confirm checkbox, quoting the dialog's words. */
export function needsConfirm(type: string, operation: string, checkboxLabel: string): string {
  return `"${operationWords(type, operation)}" refused: tick "${checkboxLabel}" in the node's dialog to allow it`;
}

/** The bmc-watchdog dialog's label of its confirm checkbox, as its refusals quote it. */
export const WATCHDOG_CONFIRM = 'Allow this node to arm and save the watchdog, set the shutdown timeout and start a shutdown';

/** A bmc-watchdog node as the editor saves it (id `wd`, read, no keep-alive, no confirm). */
export function watchdogNode(settings: Record<string, unknown> = {}): ActionDef {
  return { id: 'wd', type: 'bmc-watchdog', operation: 'read', timeout: '', swShutdownTimeout: '', confirm: false, keepAlive: false, interval: '', ...settings };
}

/** Sends `msg` and expects one device-side failure at Catch; returns the caught msg. */
export async function expectFailed(outcomes: Outcomes, id: string, msg: NodeMessage, timeoutMs = 8000): Promise<CaughtMsg> {
  const caught = await send(outcomes, id, msg, timeoutMs);
  if (!caught) throw new Error(`msg ${JSON.stringify(msg)} to ${id} did not fail`);
  outcomes
    .sent(id)
    .filter((m) => m._msgid === msg._msgid)
    .should.have.length(0, 'no output for a failed msg');
  return caught!;
}

// ---- simulator control (bmc and power parts) -------------------------------------------

async function control(ctl: SimHarness, method: string, path: string, body?: unknown): Promise<any> {
  const answer = await httpJson(method, `${ctl.url}${path}`, body);
  if (answer.status !== 200) throw new Error(`simulator ${method} ${path}: ${answer.status} ${answer.text}`);
  return answer.body;
}

/** The module in `slot` from /sim/state, plus the device-wide reset count. */
export async function simModule(ctl: SimHarness, service: BmcPowerService): Promise<any> {
  const state = await ctl.state();
  const module = state.modules.find((m: { slot: number }) => m.slot === SLOTS[service]);
  return { ...module, resets: state.resets, lastReset: state.lastReset };
}

/** Sets the bmc's board readings (they drift a little around these). */
export function setBmcWorld(ctl: SimHarness, world: { ntc_0?: number; ntc_1?: number; voltage_1v8?: number; voltage_rtc?: number }): Promise<void> {
  return control(ctl, 'POST', `/sim/bmc/${SLOTS.bmc}`, world);
}

/** Sets the power module's temperatures and rail loads (mA). */
export function setPowerWorld(
  ctl: SimHarness,
  world: { on_board_temp?: number; pmc_temp?: number; load_3v3?: number; load_5v0?: number; load_12v?: number },
): Promise<void> {
  return control(ctl, 'POST', `/sim/power/${SLOTS.power}`, world);
}

/** Counts one protection event on the power module (e.g. `ovp_3v3`). */
export function protectionEvent(ctl: SimHarness, event: string): Promise<void> {
  return control(ctl, 'POST', `/sim/power/${SLOTS.power}/protection`, { event });
}

/** The simulator's configuration (`fan_apply_delay_ms`). */
export function simConfig(ctl: SimHarness, config?: { fan_apply_delay_ms: number }): Promise<{ fan_apply_delay_ms: number }> {
  return config ? control(ctl, 'POST', '/sim/config', config) : control(ctl, 'GET', '/sim/config');
}

/**
 * The red status text of a device error: `<code> <device message>` (as statusText in
 * nodes/lib/base/errors.ts makes it), also matching the older `<METHOD> <path> failed: <code>
 * <message>`. Give only the start of a long message: status texts are cut at 60 characters.
 */
export function deviceErrorStatus(statusCode: number, messageStart = ''): RegExp {
  const escaped = messageStart.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|failed: )${statusCode}( |$)${escaped}`);
}

/**
 * The red status of a module whose service nginx answers 502 for: the module's own state,
 * "service down" (the connection's, nodes/lib/config-node/connection.ts), told at once by the
 * request that met it rather than by the next health check.
 */
export const SERVICE_DOWN_STATUS = /^service down: 502 Bad Gateway$/;
