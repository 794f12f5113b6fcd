/**
 * Every node's statuses in a German runtime, as a German editor shows them: the package's
 * examples (every node type but fleet-publish, whose status is its MQTT topic), their nodes
 * in a real Node-RED whose `RED._` speaks German, against the simulator. Each inject of an
 * example is sent as the msg it makes (to its node, or to the simulator's control API where
 * the example's http request node drives the outside world), one after the other, then the
 * device goes away and comes back. Every status any node showed on the way is read as the
 * German editor says it (a fixed status is a message id, said in the editor's language) and
 * must hold no word that only the English catalogues use (test/helpers/german-words.ts).
 */
import fs from 'fs';
import path from 'path';
import should from 'should';
import type { NodeMessage, NodeStatus } from '../../nodes/lib/base/node-red';
import { inLanguage, speak, withRuntimeI18n, NodeModule } from '../helpers/i18n';
import { FlowNode, helper, waitFor } from '../helpers/node-red';
import { httpJson } from '../helpers/sim-control';
import { runtimeSuite } from '../helpers/runtime-suite';
import { englishIn, englishOnlyWords } from '../helpers/german-words';

const root = path.resolve(__dirname, '..', '..', '..');
const start = require(path.join(root, 'scripts', 'start.js')) as {
  readExample(file: string, where: { simUrl: string; lang: string }): FlowNode[];
};
const TYPES = Object.keys(JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'))['node-red'].nodes) as string[];
/** The action nodes of the examples (fleet-publish needs a broker; its status is a topic, no words). */
const ACTION_TYPES = TYPES.filter((t) => t !== 'modular-device' && t !== 'modular-device-sidebar' && t !== 'fleet-publish');
/** Every node file of the package, as Node-RED loads them. */
const MODULES = TYPES.filter((t) => t !== 'modular-device-sidebar' && t !== 'fleet-publish').map((t) => require(`../../nodes/${t}`) as NodeModule);

/** The examples that show one node, or a few, against the simulator (not the dashboard's or the fleet's). */
const EXAMPLES = fs
  .readdirSync(path.join(root, 'examples'))
  .filter((f) => f.endsWith('.json') && !/dashboard|fleet/.test(f))
  .sort()
  // The hard reset and the bootloader last: the statuses after a reset come from every node still deployed.
  .sort((a, b) => Number(a === 'bmc-system.json') - Number(b === 'bmc-system.json'));

const TAB = 'de-tab';

/**
 * The device's own words, not the package's, which no catalogue can say: a refusal's status
 * is the HTTP status and the device's message (`500 Internal driver communication failed`),
 * and device-info shows the module's name and serial as the device reports them.
 */
function devicesOwn(type: string, text: string): boolean {
  return /^\d{3} /.test(text) || (type === 'device-info' && / SIM-[A-Z]+-\d+$/.test(text));
}

/** An inject's msg as Node-RED makes it (the value types the examples use); undefined for another type. */
function injected(n: FlowNode): NodeMessage | undefined {
  const value = (v: unknown, type: unknown): unknown => {
    switch (type ?? 'str') {
      case 'date':
        return Date.now();
      case 'json':
        return JSON.parse(String(v));
      case 'num':
        return Number(v);
      case 'bool':
        return v === true || v === 'true';
      case 'str':
        return String(v ?? '');
      default:
        throw new Error(`inject ${n.id}: value type ${String(type)}`);
    }
  };
  const msg: NodeMessage = {};
  for (const p of (n.props as Array<{ p: string; v?: unknown; vt?: string }>) ?? [{ p: 'payload' }]) {
    if (p.p === 'payload') msg.payload = value(n.payload, n.payloadType);
    else if (p.p === 'topic') msg.topic = value(n.topic, 'str') as string;
    else msg[p.p] = value(p.v, p.vt);
  }
  return msg;
}

interface Step {
  what: string;
  /** Our node the msg goes to, or the simulator URL an http request node posts to. */
  to: { node: string } | { method: string; url: string };
  msg: NodeMessage;
}

/** The examples' nodes of the package on one tab, each output to a helper; and the steps their injects make. */
function examplesFlow(simUrl: string): { flow: FlowNode[]; steps: Step[]; ours: FlowNode[] } {
  const all = new Map<string, FlowNode>();
  for (const file of EXAMPLES) for (const n of start.readExample(file, { simUrl, lang: 'en' })) all.set(n.id, n);
  const ours = [...all.values()].filter((n) => ACTION_TYPES.includes(n.type) && !n.d);
  const configs = [...all.values()].filter((n) => n.type === 'modular-device' || n.type === 'tls-config');
  const flow: FlowNode[] = [{ id: TAB, type: 'tab', label: 'Deutsch' }, ...configs];
  ours.forEach((n, i) => {
    const outputs = Math.max(1, (n.wires as unknown[] | undefined)?.length ?? 1);
    flow.push({ ...n, z: TAB, x: 200, y: 40 + 40 * i, wires: Array.from({ length: outputs }, () => [`${n.id}-out`]) });
    flow.push({ id: `${n.id}-out`, type: 'helper', z: TAB, x: 450, y: 40 + 40 * i, wires: [] });
  });
  const scope = ours.map((n) => n.id);
  flow.push({ id: 'de-catch', type: 'catch', z: TAB, x: 200, y: 10, name: '', scope: null, uncaught: false, wires: [['de-caught']] });
  flow.push({ id: 'de-caught', type: 'helper', z: TAB, x: 450, y: 10, wires: [] });
  flow.push({ id: 'de-complete', type: 'complete', z: TAB, x: 200, y: 20, name: '', scope, uncaught: false, wires: [['de-completed']] });
  flow.push({ id: 'de-completed', type: 'helper', z: TAB, x: 450, y: 20, wires: [] });
  const steps: Step[] = [];
  for (const n of all.values()) {
    if (n.type !== 'inject' || n.d) continue;
    const msg = injected(n);
    for (const target of ((n.wires as string[][]) ?? []).flat().map((id) => all.get(id))) {
      if (!target || !msg) continue;
      if (ACTION_TYPES.includes(target.type)) steps.push({ what: `${n.name} → ${target.type}`, to: { node: target.id }, msg: { ...msg } });
      else if (target.type === 'http request')
        steps.push({ what: `${n.name} (simulator)`, to: { method: String(target.method), url: String(target.url) }, msg });
    }
  }
  // io-output's example drives it through a function node: its msg, sent straight.
  const output = ours.find((n) => n.type === 'io-output');
  if (output) for (const payload of [true, false]) steps.push({ what: `io-output ${payload}`, to: { node: output.id }, msg: { payload } });
  return { flow, steps, ours };
}

describe('every status of every node in a German runtime, as a German editor shows it (examples, simulator)', function () {
  this.timeout(120000);
  const { sim } = runtimeSuite();
  after(() => speak());

  const german = inLanguage('de');
  /** A status as the German editor shows it: a message id said in German, other text as sent. */
  const shown = (status: NodeStatus): string => {
    const text = status?.text;
    if (typeof text !== 'string') return '';
    return text.includes(':') && text.startsWith('@modular-device/') ? german(text) : text;
  };

  it('no status holds an English word of the catalogues', async function () {
    const { flow, steps, ours } = examplesFlow(sim.url);
    // Every node type is in the examples: a new node without one is caught here.
    should([...new Set(ours.map((n) => n.type))].sort()).eql([...ACTION_TYPES].sort());
    await helper.load(withRuntimeI18n(MODULES, german), flow);
    let ended = 0;
    for (const id of ['de-caught', 'de-completed']) helper.getNode(id).on('input', () => ended++);
    const configs = flow.filter((n) => n.type === 'modular-device').map((n) => n.id);
    const connected = () => configs.every((id) => helper.getNode(id)?.connection?.state.state === 'connected');
    await waitFor(connected, 'every config node to connect', 15000);
    for (const step of steps) {
      if ('node' in step.to) {
        const before = ended;
        helper.getNode(step.to.node).receive(step.msg);
        // Its outcome (done or Catch) before the next: statuses of one msg after another.
        await waitFor(() => ended > before, `the outcome of "${step.what}"`, 15000);
      } else await httpJson(step.to.method, step.to.url, step.msg.payload);
      // A device that resets on a step (the hard reset) is back before the next one.
      await waitFor(connected, `every config node connected after "${step.what}"`, 30000);
    }
    // The device goes away and comes back: the statuses of an outage, and device-status's events.
    await sim.pause();
    await waitFor(() => configs.every((id) => helper.getNode(id).connection.state.state !== 'connected'), 'the outage noticed', 30000);
    await sim.resume();
    await waitFor(connected, 'every config node to reconnect', 30000);

    const englishOnly = englishOnlyWords();
    const spy = helper.getNode(ours[0].id).status as { getCalls(): Array<{ thisValue: { id: string; type: string }; args: NodeStatus[] }> };
    const seen = new Map<string, Set<string>>();
    for (const call of spy.getCalls()) {
      const text = shown(call.args[0]);
      if (!text) continue;
      const key = call.thisValue.type;
      if (!seen.has(key)) seen.set(key, new Set());
      seen.get(key)!.add(text);
    }
    // Every node type showed statuses, and more than the connection's for the nodes a msg reached.
    should([...seen.keys()].sort()).eql([...ACTION_TYPES].sort());
    const texts = [...seen].flatMap(([type, said]) => [...said].map((text) => ({ type, text })));
    should(texts.length).be.above(ACTION_TYPES.length * 2);
    const english = texts
      .filter((s) => !devicesOwn(s.type, s.text))
      .map((s) => ({ ...s, english: englishIn(s.text, englishOnly) }))
      .filter((s) => s.english.length);
    should(english).eql([], `statuses with English words:\n${english.map((s) => `${s.type}: "${s.text}" (${s.english.join(', ')})`).join('\n')}`);
    // The proof reads what it should: device-status said the outage in German words.
    should([...seen.get('device-status')!].some((t) => /Verbindung: nicht erreichbar/.test(t))).be.true(
      `device-status: ${[...seen.get('device-status')!].join(' | ')}`,
    );
    // Numbers and clock times as German writes them: a decimal comma, a clock of 24 hours.
    const all = texts.map((s) => s.text).join('\n');
    should(all).match(/SoC \d+,\d+ °C/);
    should(all).not.match(/\b(AM|PM)\b/);
    fs.mkdirSync(path.join(root, 'test-artifacts'), { recursive: true });
    fs.writeFileSync(
      path.join(root, 'test-artifacts', 'german-statuses.json'),
      JSON.stringify(Object.fromEntries([...seen].map(([k, v]) => [k, [...v]])), null, 1),
    );
  });
});
