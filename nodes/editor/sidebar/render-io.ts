/**
 * An io module's body: the six pins (mode from pin_type, live value, current, the alerts the
 * package's notification-polls saw), the power configuration the package applied, and the
 * budget it draws against each rail's limit as a small bar.
 */
import type { LiveIo, LiveModule, LivePin } from '../../lib/pure/snapshot';
import { budgetUse } from '../../lib/pure/power-budget';
import { row, section } from './dom';
import { currentText, modeText, valueText } from './format';
import { $, JQ, RED, t } from './editor-api';

const ALERT_NS = '@modular-device/node-red/notification-poll:notification-poll.alert.';

function pinRow(pin: LivePin, config: NonNullable<LiveIo['powerConfig']>[number] | undefined): JQ {
  const line = $('<div>', { class: 'md-live-pin', 'data-pin': pin.pin, tabindex: 0, role: 'button', 'aria-label': t('pin.select', { pin: pin.pin }) });
  $('<span>', { class: 'md-live-pin-number' }).text(pin.pin).appendTo(line);
  $('<span>', { class: 'md-live-pin-mode' }).text(modeText(pin)).appendTo(line);
  $('<span>', { class: 'md-live-pin-value' }).text(valueText(pin)).appendTo(line);
  $('<span>', { class: 'md-live-pin-current' }).text(currentText(pin)).appendTo(line);
  if (config) $('<span>', { class: 'md-live-pin-power' }).text(`${t(`rail.${config.rail}`)} ${config.current} mA`).appendTo(line);
  for (const alert of pin.alerts ?? []) {
    // The alert's name as the notification-poll dialog says it (its catalogue, loaded with the nodes).
    $('<span>', { class: 'md-live-alert' }).text(RED()._(`${ALERT_NS}${alert}`, { defaultValue: alert })).appendTo(line);
  }
  return line;
}

/** The power the applied configuration draws from each rail (lib/power-budget.ts) against the descriptor's limit. */
function budgetRows(io: LiveIo, maxPower: LiveModule['maxPower']): JQ {
  const box = section(t('io.budget'));
  const use = budgetUse(io.powerConfig ?? []);
  for (const [rail, used, max] of [['5v0', use.p5v0, maxPower?.p5v0], ['12v', use.p12v, maxPower?.p12v]] as const) {
    const over = max !== undefined && used > max;
    const text = max === undefined ? t('io.budgetNoLimit', { used }) : t('io.budgetOf', { used, max });
    const line = row(t(`io.rail.${rail}`), text, over ? 'md-live-budget md-live-over' : 'md-live-budget').attr('data-rail', rail);
    if (max) {
      const bar = $('<span>', { class: 'md-live-bar', role: 'meter', 'aria-valuemin': 0, 'aria-valuemax': max, 'aria-valuenow': used });
      $('<span>', { class: 'md-live-bar-fill' }).css('width', `${Math.min(100, Math.round((used / max) * 100))}%`).appendTo(bar);
      bar.appendTo(line);
    }
    line.appendTo(box);
  }
  return box;
}

export function ioBody(m: LiveModule): JQ {
  const body = $('<div>', { class: 'md-live-body' });
  const io = m.io;
  if (!io) return body;
  const pins = section(t('io.pins'));
  for (const pin of io.pins) pinRow(pin, io.powerConfig?.find((c) => c.pin === pin.pin)).appendTo(pins);
  pins.appendTo(body);
  if (io.powerConfig) budgetRows(io, m.maxPower).appendTo(body);
  else row(t('io.budget'), t('io.noPowerConfig')).appendTo(body);
  return body;
}
