/**
 * The notification-poll dialog (notification-poll.html): the pins and the alert flags as
 * boxes to tick, stored as lists ([] = all, the runtime's meaning of empty), and the checks
 * of both lists as the runtime reads them (a list setting, pure/list-setting.ts). The
 * registerType literal stays in the html.
 */
import { ALERT_FLAGS } from '../lib/pure/facts';
import { LIMITS, check, describe, parseInteger } from '../lib/pure/limits';
import { listSetting } from '../lib/pure/list-setting';
import { conflictWarning } from './conflicts';
import { fieldName } from './field-name';
import { editorRed, jquery, JQ } from './page';
import { text } from './text';

type Red = { _(key: string, values?: Record<string, unknown>): string };
type Node = { id: string; type?: unknown; pins?: unknown; alerts?: unknown };

/** The node's own catalog: its dialog's words. */
const NS = '@modular-device/node-red/notification-poll:notification-poll.';

const say = (key: string, values?: Record<string, unknown>): string => {
  const RED = editorRed<Red>();
  return RED ? RED._(NS + key, values) : NS + key;
};

/** The `pins` setting's validate: a list of pins 1..6, or none (all). */
function validPins(this: Node, value: unknown, _opt?: unknown): true | string {
  if (value === undefined) return true;
  const pins = listSetting(value);
  if (!pins) return say('notAList.pins');
  for (const pin of pins) {
    const result = check('pin', parseInteger(pin), fieldName(this.type, 'pins'));
    if (result !== true) return text(result);
  }
  return true;
}

/** The `alerts` setting's validate: a list of the spec's alert flags, or none (all). */
function validAlerts(this: Node, value: unknown, _opt?: unknown): true | string {
  if (value === undefined) return true;
  const alerts = listSetting(value);
  const flags = ALERT_FLAGS.join(', ');
  if (!alerts) return say('notAList.alerts', { flags });
  const unknown = alerts.find((flag) => !(ALERT_FLAGS as readonly string[]).includes(flag));
  return unknown === undefined ? true : say('runtime.badAlerts', { flags, got: text(describe(unknown)) });
}

const CHECK_LABEL = { display: 'inline-block', width: 'auto', 'margin-right': '14px', cursor: 'pointer', 'white-space': 'nowrap' };
const CHECK_BOX = { display: 'inline-block', width: 'auto', margin: '0 4px 0 0', 'vertical-align': 'middle' };

/** A box to tick, in `parent`, with the class `kind`; ticked when the saved list has it or is empty (all). */
function box($: JQ, parent: JQ, kind: string, value: string, ticked: boolean): JQ {
  const label = $('<label class="notification-poll-check">').css(CHECK_LABEL).appendTo(parent);
  $(`<input type="checkbox" class="${kind}">`).css(CHECK_BOX).val(value).prop('checked', ticked).appendTo(label);
  return label;
}

function prepare(node: Node): void {
  const $ = jquery<JQ>();
  if (!$) return;
  // Conflicts with other nodes (two polls, two keep-alives, a pin set up twice, an output without power), named.
  conflictWarning(node);
  const interval = LIMITS.notification_interval;
  $('#node-input-interval').attr('placeholder', `${interval.min}..${interval.max}`);
  $('#notification-poll-interval-hint').text(say('intervalHint', { min: interval.min, max: interval.max }));

  const pins = (listSetting(node.pins) || []).map(Number);
  const pinBox = $('#notification-poll-pins');
  for (let p = LIMITS.pin.min; p <= LIMITS.pin.max; p++) {
    const label = box($, pinBox, 'notification-poll-pin', String(p), pins.length === 0 || pins.indexOf(p) >= 0);
    $('<span>').text(p).appendTo(label);
  }
  const alerts = listSetting(node.alerts) || [];
  const alertBox = $('#notification-poll-alerts');
  for (const flag of ALERT_FLAGS) {
    const row = $('<div>').css('margin-bottom', '4px').appendTo(alertBox);
    const label = box($, row, 'notification-poll-alert-flag', flag, alerts.length === 0 || alerts.indexOf(flag) >= 0);
    $('<span>')
      .text(say(`alert.${flag}`))
      .appendTo(label);
    $('<code>').text(flag).css('margin-left', '6px').appendTo(label);
  }
  function noneTicked(): void {
    $('#notification-poll-pins-none').toggle($('.notification-poll-pin:checked').length === 0);
    $('#notification-poll-alerts-none').toggle($('.notification-poll-alert-flag:checked').length === 0);
  }
  $('#notification-poll-pins, #notification-poll-alerts').on('change', 'input', noneTicked);
  noneTicked();
}

/** The ticked values of the boxes of class `kind`: every box or none ticked is [] = all. */
function ticked($: JQ, kind: string): string[] {
  const values: string[] = $(`.${kind}:checked`)
    .map(function (this: unknown) {
      return $(this).val();
    })
    .get();
  return values.length === $(`.${kind}`).length ? [] : values;
}

function save(node: Node): void {
  const $ = jquery<JQ>();
  if (!$) return;
  node.pins = ticked($, 'notification-poll-pin').map(Number);
  node.alerts = ticked($, 'notification-poll-alert-flag');
}

export const notificationPoll = { validPins, validAlerts, prepare, save };
