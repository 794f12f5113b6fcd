/**
 * The io rules of the flow check, per module: two notification-polls, an output pin also
 * set up as an input, and io-power pins over their rail's cap.
 */
import { currentLimitFor } from './limit-rules';
import type { Finding } from './snapshot';
import { FlowNode, intOf, nodeName, pollPins, typedInInt, wordOf } from './flow-nodes';
import { FlowIndex, liveOf, ModuleGroup, nodesOf } from './flow-index';

export function checkIoModule(index: FlowIndex, group: ModuleGroup, findings: Finding[]): void {
  checkPolls(index, group, findings);
  checkOutputs(index, group, findings);
  for (const node of nodesOf(group, 'io-power')) checkPower(index, node, findings);
}

/**
 * two-polls: reads of notifications clear the flags read, so of two polls on one module each
 * misses what the other read. On API 1.0 a read clears only the pins it asks for (real §5):
 * polls of pairwise disjoint pins do not meet there, nor while the API is not yet known.
 */
function checkPolls(index: FlowIndex, group: ModuleGroup, findings: Finding[]): void {
  const polls = nodesOf(group, 'notification-poll');
  if (polls.length < 2) return;
  const live = group.configs.map((c) => liveOf(index, c)).find((m) => m !== undefined);
  // Disjoint pins meet only where the device is known to speak 0.9: until it is, not claimed.
  if (live?.apiVersion !== '0.9' && disjointPins(index, polls)) return;
  findings.push({
    kind: 'two-polls',
    nodes: polls.map((n) => n.id),
    key: 'finding.twoPolls',
    values: { count: polls.length, first: nodeName(polls[0]), second: nodeName(polls[1]), module: group.configs[0].label },
  });
}

/** True when every poll's pins are known and no pin is watched twice (empty = all pins). */
function disjointPins(index: FlowIndex, polls: FlowNode[]): boolean {
  const seen = new Set<number>();
  for (const poll of polls) {
    for (const pin of pollPins(poll)) {
      index.work.steps++;
      if (pin === undefined || seen.has(pin)) return false;
      seen.add(pin);
    }
  }
  return true;
}

/** output-as-input: a typed-in io-output pin that an io-input or io-threshold of the module also sets up. */
function checkOutputs(index: FlowIndex, group: ModuleGroup, findings: Finding[]): void {
  const outputs = nodesOf(group, 'io-output');
  if (!outputs.length) return;
  const byPin = new Map<number, { outs: FlowNode[]; ins: FlowNode[] }>();
  const add = (pin: number | undefined, node: FlowNode, side: 'outs' | 'ins') => {
    index.work.steps++;
    if (pin === undefined) return;
    let entry = byPin.get(pin);
    if (!entry) byPin.set(pin, (entry = { outs: [], ins: [] }));
    entry[side].push(node);
  };
  for (const node of outputs) add(typedInInt(node, 'pin'), node, 'outs');
  for (const type of ['io-input', 'io-threshold']) for (const node of nodesOf(group, type)) add(intOf(node.pin), node, 'ins');
  for (const [pin, { outs, ins }] of byPin) {
    if (!outs.length || !ins.length) continue;
    findings.push({
      kind: 'output-as-input',
      nodes: [...outs, ...ins].map((n) => n.id),
      key: 'finding.outputAsInput',
      values: { output: nodeName(outs[0]), input: nodeName(ins[0]), pin },
    });
  }
}

/**
 * over-budget: a pin's current over its rail's cap (limits.ts; the 1.0 library refuses it).
 * No module sum: neither API reports the budget a configuration is judged against. 0.9 leaves
 * the rail limits to the datasheet (spec rule 7); 1.0 asks a budget daemon whose limits are
 * not reported (real §3.2), and the descriptor's max_power_5v0/12v are not those limits.
 */
function checkPower(index: FlowIndex, node: FlowNode, findings: Finding[]): void {
  const saved = Array.isArray(node.pins) ? node.pins : [];
  saved.forEach((entry: unknown, i: number) => {
    index.work.steps++;
    const e = (entry ?? {}) as Record<string, unknown>;
    const rail = wordOf(e.rail);
    const current = intOf(e.current);
    const limit = rail === undefined ? undefined : currentLimitFor(rail);
    if (rail === undefined || current === undefined || !limit || limit.kind !== 'int') return;
    if (current > limit.max) {
      findings.push({
        kind: 'over-budget',
        nodes: [node.id],
        key: 'finding.pinOverRail',
        values: { node: nodeName(node), pin: i + 1, current, rail, max: limit.max },
      });
    }
  });
}
