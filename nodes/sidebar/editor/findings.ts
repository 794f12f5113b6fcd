/**
 * The flow check in the sidebar: checkFlows (nodes/lib/pure/flow-check.ts, bundled) on the
 * edited flows with the latest snapshot, again shortly after each edit, listed with a link
 * per node; the runtime's findings on the deployed flows beside them when they differ.
 */
import { checkFlows, FlowNode } from '../../lib/pure/flow-check';
import type { Finding, LiveSnapshot } from '../../lib/pure/snapshot';
import { nodeLink } from './dom';
import { $, JQ, RED, t } from './editor-api';

/** Edits come in bursts (a paste, a drag of many nodes): check once they settle. */
const DEBOUNCE_MS = 300;

/** Every node of the edited flows the check reads: tabs (for disabled ones), config nodes, nodes. */
function editedFlows(): FlowNode[] {
  const all: FlowNode[] = [];
  const add = (n: FlowNode) => {
    all.push(n);
  };
  RED().nodes.eachWorkspace(add);
  RED().nodes.eachConfig(add);
  RED().nodes.eachNode(add);
  return all;
}

/** One finding as a sentence of the catalogue with links to its nodes. */
function item(f: Finding, where: 'edited' | 'deployed', reveal: (ids: string[]) => void): JQ {
  const line = $('<li>', { class: 'md-live-finding', 'data-kind': f.kind, 'data-where': where });
  $('<i>', { class: 'fa fa-exclamation-triangle', 'aria-hidden': 'true' }).appendTo(line);
  $('<span>', { class: 'md-live-finding-text' }).text(t(f.key, f.values)).appendTo(line);
  const links = $('<span>', { class: 'md-live-finding-nodes' }).appendTo(line);
  for (const id of f.nodes) if (RED().nodes.node(id)) links.append(nodeLink(id, reveal));
  return line;
}

function sameFindings(a: Finding[], b: Finding[]): boolean {
  const key = (list: Finding[]) =>
    list
      .map((f) => `${f.kind}|${f.key}|${[...f.nodes].sort().join(',')}|${JSON.stringify(f.values)}`)
      .sort()
      .join('\n');
  return key(a) === key(b);
}

export class Findings {
  private snapshot: LiveSnapshot | undefined;
  private edited: Finding[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  readonly box: JQ = $('<div>', { class: 'md-live-findings' });

  /** `edited`: what to redraw once edits settle (the panel: its cards' node links, then these findings). */
  constructor(
    private readonly reveal: (ids: string[]) => void,
    edited: () => void,
  ) {
    const later = () => {
      clearTimeout(this.timer);
      this.timer = setTimeout(edited, DEBOUNCE_MS);
    };
    for (const event of ['nodes:change', 'nodes:add', 'nodes:remove', 'workspace:change', 'flows:change']) RED().events.on(event, later);
  }

  update(snapshot: LiveSnapshot): void {
    this.snapshot = snapshot;
    this.run();
  }

  /** The edited flows checked now, and the list redrawn. */
  run(): void {
    if (!this.snapshot) return;
    this.edited = checkFlows(editedFlows(), this.snapshot);
    this.draw();
  }

  private draw(): void {
    const deployed = this.snapshot?.deployed ?? [];
    const differ = !sameFindings(this.edited, deployed);
    this.box.empty();
    $('<div>', { class: 'md-live-section-title' }).text(t('findings.title')).appendTo(this.box);
    if (!this.edited.length && !deployed.length) {
      $('<div>', { class: 'md-live-none' }).text(t('findings.none')).appendTo(this.box);
      return;
    }
    this.list(differ ? t('findings.edited') : undefined, this.edited, 'edited');
    if (differ) this.list(t('findings.deployed'), deployed, 'deployed');
  }

  private list(title: string | undefined, findings: Finding[], where: 'edited' | 'deployed'): void {
    if (title) $('<div>', { class: 'md-live-findings-where' }).text(title).appendTo(this.box);
    const list = $('<ul>', { class: 'md-live-finding-list', 'data-where': where }).appendTo(this.box);
    if (!findings.length) $('<li>', { class: 'md-live-none' }).text(t('findings.none')).appendTo(list);
    for (const f of findings) item(f, where, this.reveal).appendTo(list);
  }
}
