/**
 * The small building blocks every part of the sidebar draws with: a titled section, a row
 * of label and value, a link to a node. Each carries the classes the stylesheet in
 * modular-device-sidebar.html gives Node-RED's own look.
 */
import { $, JQ, RED } from './editor-api';

export function section(title: string): JQ {
  const box = $('<div>', { class: 'md-live-section' });
  $('<div>', { class: 'md-live-section-title' }).text(title).appendTo(box);
  return box;
}

export function row(label: string, value: string, cls = ''): JQ {
  const line = $('<div>', { class: `md-live-row ${cls}`.trim() });
  $('<span>', { class: 'md-live-label' }).text(label).appendTo(line);
  $('<span>', { class: 'md-live-value' }).text(value).appendTo(line);
  return line;
}

/** A node's label as the workspace shows it. */
export function nodeLabel(id: string): string {
  const node = RED().nodes.node(id);
  if (!node) return id;
  return RED().utils.getNodeLabel(node, node.type) || node.type;
}

/** A link that shows the node in the workspace and selects it. */
export function nodeLink(id: string, reveal: (ids: string[]) => void): JQ {
  return $('<a>', { href: '#', class: 'md-live-node-link', 'data-node': id })
    .text(nodeLabel(id))
    .on('click', (event: Event) => {
      event.preventDefault();
      event.stopPropagation();
      reveal([id]);
    });
}
