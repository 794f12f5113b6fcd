/**
 * An io module's body: the six pins (mode from pin_type, live value, current, the alerts the
 * package's notification-polls saw), the power configuration the package applied, and what
 * it asks of each rail where the API documents that.
 */
import type { LiveIo, LiveModule, LivePin } from '../../lib/pure/snapshot';
import { budgetUse } from '../../lib/pure/power-budget';
import { row, section } from './dom';
import { currentText, modeText, num, valueText, modeSource, withUnit } from './format';
import { $, JQ, RED, t } from './editor-api';

const ALERT_NS = '@modular-device/node-red/notification-poll:notification-poll.alert.';

function pinRow(pin: LivePin, config: NonNullable<LiveIo['powerConfig']>[number] | undefined): JQ {
  const line = $('<div>', { class: 'md-live-pin', 'data-pin': pin.pin, tabindex: 0, role: 'button', 'aria-label': t('pin.select', { pin: pin.pin }) });
  $('<span>', { class: 'md-live-pin-number' }).text(pin.pin).appendTo(line);
  const source = modeSource(pin);
  const mode = $('<span>', { class: 'md-live-pin-mode', 'data-source': source ?? '' })
    .text(modeText(pin))
    .appendTo(line);
  if (source)
    $('<span>', { class: 'md-live-pin-source' })
      .text(t(`pin.source.${source}`))
      .attr('title', t(`pin.sourceTitle.${source}`))
      .appendTo(mode);
  $('<span>', { class: 'md-live-pin-value' }).text(valueText(pin)).appendTo(line);
  $('<span>', { class: 'md-live-pin-current' }).text(currentText(pin)).appendTo(line);
  if (config)
    $('<span>', { class: 'md-live-pin-power' })
      .text(`${t(`rail.${config.rail}`)} ${withUnit(config.current, 'mA')}`)
      .appendTo(line);
  // Switched off by the module's protection (issue #43): the device's flags, until a msg sets the pin.
  if (pin.tripped?.length)
    $('<span>', { class: 'md-live-tripped' })
      .text(t('pin.tripped', { alerts: pin.tripped.join(', ') }))
      .appendTo(line);
  for (const alert of pin.alerts ?? []) {
    // The alert's name as the notification-poll dialog says it (its catalogue, loaded with the nodes).
    $('<span>', { class: 'md-live-alert' })
      .text(RED()._(`${ALERT_NS}${alert}`, { defaultValue: alert }))
      .appendTo(line);
  }
  return line;
}

/**
 * What the applied configuration asks of each rail. Only API 1.0 documents how the service
 * adds it up (pure/power-budget.ts); neither API reports the limit it is judged against, so
 * this is information, never a verdict: no bar, no red.
 */
function budgetRows(io: LiveIo, apiVersion: string | undefined): JQ {
  const box = section(t('io.budget'));
  if (apiVersion !== '1.0') {
    $('<div>', { class: 'md-live-note' }).text(t('io.budgetNotReported09')).appendTo(box);
    return box;
  }
  const use = budgetUse(io.powerConfig ?? []);
  for (const [rail, used] of [
    ['5v0', use.p5v0],
    ['12v', use.p12v],
  ] as const) {
    row(t(`io.rail.${rail}`), t('io.budgetAsked', { used: num(used) }), 'md-live-budget')
      .attr('data-rail', rail)
      .appendTo(box);
  }
  $('<div>', { class: 'md-live-note' }).text(t('io.budgetNotReported10')).appendTo(box);
  return box;
}

export function ioBody(m: LiveModule): JQ {
  const body = $('<div>', { class: 'md-live-body' });
  const io = m.io;
  if (!io) return body;
  const pins = section(t('io.pins'));
  for (const pin of io.pins)
    pinRow(
      pin,
      io.powerConfig?.find((c) => c.pin === pin.pin),
    ).appendTo(pins);
  pins.appendTo(body);
  if (io.powerConfig) budgetRows(io, m.apiVersion).appendTo(body);
  else row(t('io.budget'), t('io.noPowerConfig')).appendTo(body);
  return body;
}
