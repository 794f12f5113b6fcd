/**
 * One module's card: a dot and the connection state (with the reason when not connected),
 * API version, session ids, the nodes that use it, then its service's body. The card and
 * each pin carry data-config / data-pin so linking.ts can find them.
 */
import type { LiveModule } from '../../lib/pure/snapshot';
import { COLOURS } from '../../lib/pure/facts';
import { nodeLink, row } from './dom';
import { short } from './format';
import { $, JQ, t } from './editor-api';
import { ioBody } from './render-io';
import { bmcBody, powerBody } from './render-bmc-power';

const BODIES = { io: ioBody, bmc: bmcBody, power: powerBody };

/** Connection states (config-node/connection-state.ts) → the dot's colour class. */
function dotOf(state: string): string {
  if (state === 'connected') return 'green';
  if (state === 'connecting') return 'yellow';
  return 'red';
}

export function moduleCard(m: LiveModule, users: string[], reveal: (ids: string[]) => void): JQ {
  const where = t('module.where', { service: m.service, slot: m.slot });
  const card = $('<div>', {
    class: `md-live-module md-live-service-${m.service}`,
    'data-config': m.config,
    tabindex: 0,
    role: 'button',
    'aria-label': t('module.select', { module: `${m.label} (${where})` }),
  });
  // The service's colour from the table its nodes' registerType reads (pure/facts.ts).
  if (COLOURS[m.service]) card.css('border-left-color', COLOURS[m.service]);
  const head = $('<div>', { class: 'md-live-module-head' }).appendTo(card);
  $('<span>', { class: `md-live-dot md-live-dot-${dotOf(m.state)}`, 'data-state': m.state }).appendTo(head);
  $('<span>', { class: 'md-live-module-label' }).text(m.label).appendTo(head);
  // A config node named for its module ("io slot 2") needs no second "io slot 2" beside it.
  if (m.label !== where) $('<span>', { class: 'md-live-module-where' }).text(where).appendTo(head);
  const state = t(`state.${m.state}`, { defaultValue: m.state });
  row(t('module.state'), m.reason ? `${state}: ${m.reason}` : state, 'md-live-state').appendTo(card);
  if (m.apiVersion) row(t('module.api'), m.apiVersion).appendTo(card);
  if (m.session) row(t('module.sessions'), t('module.sessionIds', { driver: short(m.session.driver), device: short(m.session.device) })).appendTo(card);
  if (m.readError) row(t('module.readError'), m.readError, 'md-live-over').appendTo(card);
  const used = $('<div>', { class: 'md-live-row md-live-users' }).appendTo(card);
  $('<span>', { class: 'md-live-label' }).text(t('module.usedBy')).appendTo(used);
  const links = $('<span>', { class: 'md-live-value' }).appendTo(used);
  if (!users.length) links.text(t('module.noUsers'));
  for (const id of users) links.append(nodeLink(id, reveal));
  BODIES[m.service]?.(m).appendTo(card);
  return card;
}
