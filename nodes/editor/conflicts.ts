/**
 * The conflicts of the node being edited, shown in its dialog as a warning that names the
 * other node: the flow check (pure/flow-check.ts) on the edited flows, this node
 * as the dialog shows it now, with the latest live snapshot when the Device sidebar has one
 * (it knows the API version, which decides whether two polls of disjoint pins meet). The
 * words are the sidebar's findings (its catalogue), so dialog and sidebar say one sentence.
 */
import { checkFlows, FlowNode } from '../lib/pure/flow-check';
import { FindingKind, LiveSnapshot, SNAPSHOT_GLOBAL } from '../lib/pure/snapshot';
import { current } from './current';

/* eslint-disable @typescript-eslint/no-explicit-any */
const g = globalThis as any;
const NS = '@modular-device/node-red/modular-device-sidebar';
/** What a conflict is: two nodes that undo each other, or an output no power configuration allows. */
const KINDS: readonly FindingKind[] = ['two-polls', 'two-keepalives', 'pin-conflict', 'output-as-input', 'no-power-config'];
/** The settings the rules read, as the open dialog shows them. */
const PROPS = ['device', 'pin', 'pinType', 'pins', 'mode', 'threshold_mV', 'trigger', 'keepAlive', 'operation', 'confirm'];

const STYLE = `.md-conflict-warning { margin: 0 0 12px; padding: 6px 10px; border-left: 3px solid #e8a33d;
  background: rgba(232,163,61,0.12); color: var(--red-ui-primary-text-color, #333); }
.md-conflict-warning li { margin: 2px 0 2px 16px; list-style: disc; }`;

function editedFlows(node: { id: string }): FlowNode[] {
  const all: FlowNode[] = [];
  const add = (n: FlowNode) => {
    if (n.id !== node.id) {
      all.push(n);
      return;
    }
    const shown: FlowNode = { ...n };
    for (const prop of PROPS) if (prop in n) shown[prop] = current(n as Record<string, unknown>, prop);
    all.push(shown);
  };
  g.RED.nodes.eachWorkspace(add);
  g.RED.nodes.eachConfig(add);
  g.RED.nodes.eachNode(add);
  return all;
}

/** The conflict sentences of `node` now, in the editor's language. */
export function conflictTexts(node: { id: string }): string[] {
  const snapshot: LiveSnapshot | undefined = g[SNAPSHOT_GLOBAL];
  const findings = checkFlows(editedFlows(node), snapshot ?? { modules: [], devices: [] });
  return findings.filter((f) => KINDS.includes(f.kind) && f.nodes.includes(node.id)).map((f) => g.RED._(`${NS}:${f.key}`, f.values));
}

/** Shows the warning at the top of the open dialog and keeps it in step with its fields. Call from oneditprepare. */
export function conflictWarning(node: { id: string }): void {
  if (!g.$ || !g.RED) return;
  const $ = g.$;
  if (!$('#md-conflict-style').length) $('<style id="md-conflict-style">').text(STYLE).appendTo($('head'));
  const form = $('#dialog-form');
  form.find('.md-conflict-warning').remove();
  const box = $('<div class="md-conflict-warning" id="md-conflict-warning" role="alert">').prependTo(form);
  const render = () => {
    const texts = conflictTexts(node);
    box.empty().toggle(texts.length > 0);
    const list = $('<ul>').appendTo(box);
    for (const text of texts) $('<li>').text(text).appendTo(list);
  };
  form.on('change input', 'input, select', render);
  render();
}
