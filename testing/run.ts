/**
 * Runs a scenario against a flow: starts the flows on a simulator (the kit), walks the
 * timeline, and reports every step: what was done or expected, when, and why it failed.
 * Expectations count msgs from the last device event or inject before them ("within 500 ms"
 * of it), so a msg that came too early, for another cause, is not taken.
 */
import { DeviceControl } from './device';
import { KitError, show } from './errors';
import { Checker } from './checker';
import { FlowNode, lookupNode, readFlows } from './flows';
import { describe, FlowTest, startFlows, StartOptions, whyNotAt } from './kit';
import { difference, matches, whyNot } from './match';
import { shutdown } from './runtime';
import { Action, Expectation, Scenario, Step } from './scenario';
import { readScenario } from './scenario-file';
import { checkAlarm, describeAlarmStep } from './alarm-steps';

export interface StepResult {
  place: string;
  /** ms after the start, when it ran */
  atMs: number;
  text: string;
  ok: boolean;
  detail?: string;
}

export interface Report {
  scenario: string;
  flows: string;
  api: string;
  ok: boolean;
  steps: StepResult[];
}

export interface RunOptions extends Omit<StartOptions, 'flows'> {
  flows: string | unknown[];
  scenario: string | Scenario;
}

/** Why a reference names no node of the flows, or undefined when it names one. */
function nodeProblem(flows: FlowNode[]): (ref: string) => string | undefined {
  return (ref) => {
    const found = lookupNode(flows, ref);
    return typeof found === 'string' ? found : undefined;
  };
}

/** Checks every node a scenario given as an object names (a file's are checked as it is read), all at once. */
function checkNodes(scenario: Scenario, flows: FlowNode[]): void {
  const c = new Checker(scenario.file);
  const problem = nodeProblem(flows);
  for (const step of scenario.steps) {
    const a = step.action;
    const ref = a.kind === 'inject' ? a.node : (a.kind === 'expect' || a.kind === 'expectNone') && a.expect.node ? a.expect.node : undefined;
    const why = ref === undefined ? undefined : problem(ref);
    if (why) c.note(`${step.place}.${a.kind}.node`, why);
  }
  c.done();
}

function ioSlot(given: number | undefined, place: string, modules: Array<{ service: string; slot: number }>): number {
  if (given !== undefined) return given;
  const io = modules.filter((m) => m.service === 'io');
  if (io.length === 1) return io[0].slot;
  throw new KitError(`${place}: the device has ${io.length} io modules${io.length ? ` (slots ${io.map((m) => m.slot).join(', ')})` : ''}: give slot`);
}

function describeAction(a: Action, t: FlowTest): string {
  const target = (e: Expectation) => (e.catch ? 'Catch' : describe(t.node(e.node!)));
  const what = (e: Expectation) => `${e.count > 1 ? `${e.count} msgs` : 'a msg'}${e.msg ? ` with ${show(e.msg, 120)}` : ''}`;
  switch (a.kind) {
    case 'pin':
      return `io pin ${a.pin}: ${Object.entries(a.stimulus)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`;
    case 'short':
      return `io pin ${a.pin} shorted`;
    case 'alert':
      return `io pin ${a.pin}: ${a.alert}`;
    case 'unplug':
    case 'plug':
      return `${a.kind} the ${a.service} modules`;
    case 'slow':
      return `${a.service} answers ${a.ms} ms late${a.count ? ` (${a.count} requests)` : ''}`;
    case 'hang':
      return `${a.service} hangs${a.count ? ` (${a.count} requests)` : ''}`;
    case 'fault':
      return `fault ${show(a.rule, 120)}`;
    case 'clearFaults':
      return 'faults cleared';
    case 'reboot':
      return 'the device reboots';
    case 'watchdogReset':
      return 'the watchdog expires: the device resets';
    case 'advance':
      return `the device clock moves on ${a.ms} ms`;
    case 'inject':
      return `inject ${show(a.msg, 120)} into ${describe(t.node(a.node))}`;
    case 'expect':
      return `${what(a.expect)} at ${target(a.expect)} within ${a.expect.within} ms`;
    case 'expectDevice':
      return `the device${a.pin ? ` io pin ${a.pin}` : ` slot ${a.slot}`} shows ${show(a.state, 120)} within ${a.within} ms`;
    case 'alarm':
    case 'expectAlarm':
      return describeAlarmStep(a);
    case 'expectNone':
      return `no msg${a.expect.msg ? ` with ${show(a.expect.msg, 120)}` : ''} at ${target(a.expect)} for ${a.expect.within} ms`;
  }
}

async function act(a: Action, t: FlowTest, d: DeviceControl, place: string, modules: Array<{ service: string; slot: number }>): Promise<void> {
  switch (a.kind) {
    case 'pin':
      return d.pin(ioSlot(a.slot, place, modules), a.pin, a.stimulus);
    case 'short':
      return d.short(ioSlot(a.slot, place, modules), a.pin);
    case 'alert':
      return d.alert(ioSlot(a.slot, place, modules), a.pin, a.alert as never);
    case 'unplug':
      return d.unplug(a.service);
    case 'plug':
      return d.plug(a.service);
    case 'slow':
      return void (await d.slow(a.service, a.ms, a.count));
    case 'hang':
      return void (await d.hang(a.service, a.count));
    case 'fault':
      return void (await d.fault(a.rule as never));
    case 'clearFaults':
      return d.clearFaults();
    case 'reboot':
      return d.reboot();
    case 'watchdogReset':
      return d.watchdogReset(a.slot);
    case 'advance':
      return d.advance(a.ms);
    case 'inject':
      return t.inject(a.node, a.msg);
    case 'alarm':
      return void (await t.alarms.command(a.command));
  }
}

/** Waits for an expectation; resolves with a failure sentence, or undefined when it held. */
async function check(a: Action & { kind: 'expect' | 'expectNone' }, t: FlowTest, since: number, causeAt: number, started: number): Promise<string | undefined> {
  const e = a.expect;
  const msgs = () => (e.catch ? t.caught(since) : t.received(e.node!, since));
  const hits = () => msgs().filter((m) => matches(m, e.msg));
  const left = Math.max(0, causeAt + e.within - (Date.now() - started));
  if (a.kind === 'expect') {
    try {
      await t.until(() => hits().length >= e.count, { timeoutMs: left, what: '' });
      return undefined;
    } catch {
      const got = hits().length;
      const why = e.catch ? whyNot(msgs(), e.msg) : whyNotAt(t.flows, t.node(e.node!), msgs(), e.msg);
      return got ? `only ${got} of ${e.count} matching msgs arrived in ${e.within} ms` : `no such msg in ${e.within} ms: ${why}`;
    }
  }
  try {
    await t.until(() => hits().length > 0, { timeoutMs: left });
  } catch {
    return undefined; // nothing arrived in the window: as expected
  }
  return `one arrived: ${show(hits()[0], 200)}`;
}

/** Waits until the module (or io pin) shows the state; a failure sentence, or undefined. */
async function checkDevice(
  a: Action & { kind: 'expectDevice' },
  t: FlowTest,
  place: string,
  modules: Array<{ service: string; slot: number }>,
  causeAt: number,
  started: number,
): Promise<string | undefined> {
  const slot = a.slot ?? ioSlot(undefined, place, modules);
  let last: string | null = 'not read';
  const read = async () => {
    const module = await t.device.module(slot);
    const actual = a.pin === undefined ? module : module.pins?.[a.pin - 1];
    last = difference(actual, a.state, a.pin === undefined ? `slot ${slot}` : `pin ${a.pin}`);
    return last === null;
  };
  try {
    await t.until(read, { timeoutMs: Math.max(0, causeAt + a.within - (Date.now() - started)) });
    return undefined;
  } catch (error) {
    return error instanceof KitError && /^waited/.test(error.message) ? `not in ${a.within} ms: ${last}` : (error as Error).message;
  }
}

export async function runScenario(options: RunOptions): Promise<Report> {
  // Before anything starts, every mistake at once: a typo costs no run.
  const flows = readFlows(options.flows);
  const scenario = typeof options.scenario === 'string' ? readScenario(options.scenario, nodeProblem(flows)) : options.scenario;
  if (typeof options.scenario !== 'string') checkNodes(scenario, flows);
  const api = options.api ?? scenario.api ?? '0.9';
  const flowsName = typeof options.flows === 'string' ? options.flows : 'flows';
  const t = await startFlows({ ...options, flows, api, modules: options.modules ?? scenario.modules, rebootMs: options.rebootMs ?? scenario.rebootMs });
  // A replayed device has no control API: steps that need one say so when they run.
  const modules = ((await t.device.state().catch(() => ({ modules: [] }))).modules ?? []) as Array<{ service: string; slot: number }>;
  const report: Report = { scenario: scenario.name, flows: flowsName, api, ok: true, steps: [] };
  const started = Date.now();
  let since = t.mark();
  let causeAt = 0;
  try {
    for (const step of scenario.steps) {
      if (step.at !== undefined) await untilTime(started + step.at);
      const atMs = Date.now() - started;
      const a = step.action;
      const text = describeAction(a, t);
      if (a.kind === 'expect' || a.kind === 'expectNone' || a.kind === 'expectDevice' || a.kind === 'expectAlarm') {
        const failure =
          a.kind === 'expectDevice'
            ? await checkDevice(a, t, `${scenario.file}: ${step.place}`, modules, causeAt, started)
            : a.kind === 'expectAlarm'
              ? await checkAlarm(a, t, Math.max(0, causeAt + a.within - (Date.now() - started)))
              : await check(a, t, since, causeAt, started);
        // When it held (or gave up): the moment a reader of the report wants.
        report.steps.push({ place: step.place, atMs: Date.now() - started, text, ok: !failure, detail: failure });
        if (failure) report.ok = false;
        continue;
      }
      since = t.mark();
      causeAt = atMs;
      try {
        await act(a, t, t.device, `${scenario.file}: ${step.place}`, modules);
        report.steps.push({ place: step.place, atMs, text, ok: true });
      } catch (error) {
        report.steps.push({ place: step.place, atMs, text, ok: false, detail: (error as Error).message });
        report.ok = false;
        break; // the timeline cannot go on from a step that did not happen
      }
    }
  } finally {
    await t.stop();
  }
  return report;
}

function untilTime(when: number): Promise<void> {
  const wait = when - Date.now();
  return wait > 0 ? new Promise((resolve) => setTimeout(resolve, wait)) : Promise.resolve();
}

export function formatReport(report: Report): string {
  const lines = [`Scenario "${report.scenario}" on ${report.flows} (API ${report.api})`];
  for (const s of report.steps) {
    lines.push(`  ${s.ok ? 'ok  ' : 'FAIL'} ${(s.atMs / 1000).toFixed(1).padStart(6)} s  ${s.place}: ${s.text}`);
    if (s.detail) lines.push(`                      ${s.detail}`);
  }
  const failed = report.steps.filter((s) => !s.ok).length;
  lines.push(failed ? `${failed} of ${report.steps.length} steps failed` : `all ${report.steps.length} steps passed`);
  return lines.join('\n');
}

export { shutdown };
export type { Step };
