/**
 * The conflicts of the flow check, per module: settings two nodes make that undo each other
 * or that the device refuses for want of another node.
 *  - two-keepalives: two bmc-watchdogs keep one watchdog alive; stopping one (the demo's
 *    "stop keep-alive") no longer lets the timeout run out, and each re-arms the other's timeout.
 *  - pin-conflict: two nodes set one pin up differently, a mode (io-input digital or analog,
 *    io-threshold analog: spec rule 2) or an analog threshold; the last applied wins, and
 *    after a device reset the order of re-applying decides.
 *  - no-power-config: an io-output on a module no io-power node configures; the device
 *    refuses outputs without a power configuration (spec io rule 1; 400 Power config
 *    missing, real §6). One set by other means (another tool) is not seen here: a
 *    configuration cannot be read back (no GET in either API).
 * Values only known at run time are skipped, never guessed.
 */
import type { Finding } from './snapshot';
import { flagOf, FlowNode, intOf, nodeName, wordOf } from './flow-nodes';
import { FlowIndex, ModuleGroup, nodesOf } from './flow-index';

export function checkConflicts(index: FlowIndex, group: ModuleGroup, findings: Finding[]): void {
  checkKeepAlives(group, findings);
  checkPinSetups(index, group, findings);
  checkNoPower(group, findings);
}

function checkKeepAlives(group: ModuleGroup, findings: Finding[]): void {
  const keepers = nodesOf(group, 'bmc-watchdog').filter((n) => flagOf(n.keepAlive) === true);
  if (keepers.length < 2) return;
  findings.push({
    kind: 'two-keepalives',
    nodes: keepers.map((n) => n.id),
    key: 'finding.twoKeepAlives',
    values: { first: nodeName(keepers[0]), second: nodeName(keepers[1]), module: group.configs[0].label },
  });
}

/** How a node sets its pin up: the mode, and for an analog threshold its words; undefined when not known. */
interface Setup {
  node: FlowNode;
  pin: number;
  mode: 'analog' | 'digital';
  threshold?: string;
}

function setupOf(node: FlowNode): Setup | undefined {
  const pin = intOf(node.pin);
  if (pin === undefined) return undefined;
  if (node.type === 'io-threshold') {
    const mv = intOf(node.threshold_mV);
    const trigger = wordOf(node.trigger);
    if (mv === undefined || trigger === undefined) return undefined;
    return { node, pin, mode: 'analog', threshold: trigger === 'disabled' ? trigger : `${trigger} ${mv} mV` };
  }
  const mode = wordOf(node.mode);
  return mode === 'analog' || mode === 'digital' ? { node, pin, mode } : undefined;
}

function checkPinSetups(index: FlowIndex, group: ModuleGroup, findings: Finding[]): void {
  const byPin = new Map<number, Setup[]>();
  for (const type of ['io-input', 'io-threshold']) {
    for (const node of nodesOf(group, type)) {
      index.work.steps++;
      const setup = setupOf(node);
      if (!setup) continue;
      const list = byPin.get(setup.pin);
      if (list) list.push(setup);
      else byPin.set(setup.pin, [setup]);
    }
  }
  for (const [pin, setups] of byPin) {
    const first = setups[0];
    const other =
      setups.find((s) => s.mode !== first.mode) ??
      setups.find((s) => s.threshold !== undefined && first.threshold !== undefined && s.threshold !== first.threshold);
    if (!other) continue;
    const values = { first: nodeName(first.node), second: nodeName(other.node), pin };
    const nodes = setups.map((s) => s.node.id);
    if (other.mode !== first.mode) findings.push({ kind: 'pin-conflict', nodes, key: 'finding.pinMode', values: { ...values, a: first.mode, b: other.mode } });
    else findings.push({ kind: 'pin-conflict', nodes, key: 'finding.pinThreshold', values: { ...values, a: first.threshold!, b: other.threshold! } });
  }
}

function checkNoPower(group: ModuleGroup, findings: Finding[]): void {
  const outputs = nodesOf(group, 'io-output');
  if (!outputs.length || nodesOf(group, 'io-power').length) return;
  for (const node of outputs) {
    // Linked to its own config node (the module), not to every config node naming the module.
    const own = group.configs.find((c) => c.node.id === node.device) ?? group.configs[0];
    findings.push({
      kind: 'no-power-config',
      nodes: [node.id, own.node.id],
      key: 'finding.noPowerConfig',
      values: { node: nodeName(node), module: own.label },
    });
  }
}
