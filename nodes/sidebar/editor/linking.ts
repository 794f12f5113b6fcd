/**
 * The sidebar and the workspace point at each other: a click on a module or a pin selects
 * the nodes that use it (revealing the one when there is one), and a node selected in the
 * workspace highlights its module and the pins it works on.
 */
import { $, RED } from './editor-api';
import { pinsOf, usersOf, UsingNode } from './usage';

/** The edited flows' nodes (not config nodes), as RED.nodes holds them. */
export function editedNodes(): UsingNode[] {
  const all: UsingNode[] = [];
  RED().nodes.eachNode((n: UsingNode) => {
    all.push(n);
  });
  return all;
}

/** Shows the nodes in the workspace and selects them: the tab of the first, and those on it. */
export function selectNodes(ids: string[]): void {
  const nodes = ids.map((id) => RED().nodes.node(id)).filter(Boolean);
  if (!nodes.length) return;
  const z = nodes[0].z;
  if (nodes.length === 1) RED().view.reveal(nodes[0].id);
  else if (RED().workspaces.active() !== z) RED().workspaces.show(z);
  RED().view.select({ nodes: nodes.filter((n: UsingNode) => n.z === z) });
}

/** Module and pin clicks of the panel select their nodes (delegated: the cards are redrawn). */
export function linkClicks(panel: unknown): void {
  const pick = (event: Event) => {
    const pin = $(event.target).closest('.md-live-pin');
    const card = $(event.target).closest('.md-live-module');
    if (!card.length || $(event.target).closest('a').length) return;
    const ids = usersOf(editedNodes(), String(card.attr('data-config')), pin.length ? Number(pin.attr('data-pin')) : undefined).map((n) => n.id);
    selectNodes(ids);
  };
  $(panel).on('click', '.md-live-module', (event: Event) => {
    event.stopPropagation();
    pick(event);
  });
  $(panel).on('keydown', '.md-live-module, .md-live-pin', (event: KeyboardEvent) => {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    event.preventDefault();
    event.stopPropagation();
    pick(event);
  });
}

/** Highlights the modules and pins the selected nodes use; returns a function to redo it after a redraw. */
export function followSelection(panel: unknown): () => void {
  let selected: UsingNode[] = [];
  const mark = (scroll: boolean) => {
    const p = $(panel);
    p.find('.md-live-selected').removeClass('md-live-selected');
    for (const node of selected) {
      if (typeof node.device !== 'string') continue;
      const card = p.find('.md-live-module').filter((_: number, el: unknown) => $(el).attr('data-config') === node.device);
      card.addClass('md-live-selected');
      for (const pin of pinsOf(node)) card.find(`.md-live-pin[data-pin="${pin}"]`).addClass('md-live-selected');
    }
    // Scrolled to on a new selection only: a redraw must not pull the list away from the reader.
    if (scroll) p.find('.md-live-module.md-live-selected')[0]?.scrollIntoView?.({ block: 'nearest' });
  };
  RED().events.on('view:selection-changed', (selection: { nodes?: UsingNode[] }) => {
    selected = selection?.nodes ?? [];
    mark(true);
  });
  return () => mark(false);
}
