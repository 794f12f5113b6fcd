/**
 * The device-alarm dialog (device-alarm.html). Each field is checked by the runtime's own
 * reading of the settings (pure/alarm-settings.ts readAlarmSettings), given that field alone
 * (a limit with the limit below it), so the dialog refuses exactly what the runtime refuses,
 * in its words, and marks the field the refusal is about: "HiHi (50) must be above Hi (80)"
 * marks the HiHi. The rows shown are the chosen source's; the pins, alert flags and health
 * events are boxes to tick, stored as lists ([] = all, the runtime's meaning of empty). The
 * registerType literal stays in the html.
 */
import { ALARM_SOURCES, definedAlarms, HEALTH_ALARMS, LIMIT_NAMES, readAlarmSettings } from '../lib/pure/alarm-settings';
import { ALERT_FLAGS } from '../lib/pure/facts';
import { isEnvReference, LIMITS } from '../lib/pure/limits';
import { isPhrase } from '../lib/pure/phrase';
import { current } from './current';
import { editorRed, jquery, JQ } from './page';
import { text } from './text';

type Red = {
  _(key: string, values?: Record<string, unknown>): string;
  nodes: { node(id: string): { valid?: boolean } | null | undefined };
};
type Node = Record<string, unknown> & { id?: string; type?: unknown };
type Validate = (this: Node, value: unknown, opt?: unknown) => true | string;

const NS = '@modular-device/node-red/device-alarm:device-alarm.';
const say = (key: string, values?: Record<string, unknown>): string => editorRed<Red>()?._(NS + key, values) ?? NS + key;

/** The rows each source shows (the html marks each row with `data-sources`), and the fields only they hold. */
const SOURCE_FIELDS: Record<string, readonly string[]> = {
  condition: ['hihi', 'hi', 'lo', 'lolo', 'deadband', 'onDelay', 'offDelay'],
  notification: ['pins', 'flags', 'onDelay', 'offDelay', 'clearAfter'],
  health: ['kinds', 'clearAfter'],
};
/** What a field holds when its source does not use it: the runtime's defaults. */
const UNUSED: Record<string, unknown> = {
  hihi: '',
  hi: '',
  lo: '',
  lolo: '',
  deadband: '',
  onDelay: 0,
  offDelay: 0,
  clearAfter: 5000,
  pins: [],
  flags: [],
  kinds: [],
};
/** The order checkLimits holds the limits to, lowest first. */
const ORDER = ['lolo', 'lo', 'hi', 'hihi'] as const;
/** Any valid id: the field under check is the only one that can be wrong. */
const ANY_ID = 'alarm';

/** The runtime's refusal of `def` (settings holding only the fields under check), said in the editor's language. */
function refusal(def: Record<string, unknown>): true | string {
  const read = readAlarmSettings(def, ANY_ID);
  return isPhrase(read) ? text(read) : true;
}

/** The node's (the open dialog's) alarm id when none is typed: the runtime's, from the node id. */
function fallbackId(node: Node): string {
  return String(node.id ?? '')
    .replace(/[^A-Za-z0-9_.:-]/g, '_')
    .slice(0, 40);
}

/** A `validate` for `field`: the runtime's reading of that field alone. */
function valid(field: string): Validate {
  // Two parameters: Node-RED shows a validate's message only then.
  return function (value, _opt) {
    if (isEnvReference(value)) return true;
    return refusal({ [field]: value });
  };
}

/**
 * A limit's `validate`: its own bound, then its order against the nearest limit below it that
 * is valid on its own (the runtime names the higher of a pair out of order: that one is marked).
 */
function validLimit(field: (typeof ORDER)[number]): Validate {
  return function (value, _opt) {
    if (isEnvReference(value)) return true;
    const def: Record<string, unknown> = { [field]: value };
    for (let i = ORDER.indexOf(field) - 1; i >= 0; i--) {
      const below = current(this, ORDER[i]);
      if (below === undefined || below === null || String(below).trim() === '' || isEnvReference(below)) continue;
      if (refusal({ [ORDER[i]]: below }) !== true) continue;
      def[ORDER[i]] = below;
      break;
    }
    return refusal(def);
  };
}

/** The Module's `validate`: optional for a condition, needed for notifications and health (the runtime's words); else Node-RED's own checks. */
function validModule(this: Node, value: unknown, _opt?: unknown): true | string {
  const RED = editorRed<Red>();
  if (!RED) return true;
  if (!value || value === '_ADD_') {
    const source = current(this, 'source') || 'condition';
    return source === 'condition' ? true : say('runtime.needsModule');
  }
  const config = RED.nodes.node(String(value));
  if (!config) return RED._('validator.errors.missing-config', { prop: 'module' });
  return config.valid === false ? RED._('validator.errors.invalid-config', { prop: 'module' }) : true;
}

/** The settings as the open dialog shows them (lists as last saved or ticked). */
function shownSettings(node: Node): Record<string, unknown> {
  const $ = jquery<JQ>();
  const def: Record<string, unknown> = {};
  for (const field of ['alarmId', 'priority', 'message', 'area', 'source', 'property', ...LIMIT_NAMES, 'deadband', 'onDelay', 'offDelay', 'clearAfter']) {
    def[field] = current(node, field);
  }
  if ($) for (const [field, kind] of BOXES) def[field] = ticked($, kind);
  return def;
}

/** The boxes to tick: the field, its class, its values, the catalog's words for them. */
const BOXES: ReadonlyArray<readonly [string, string]> = [
  ['pins', 'device-alarm-pin'],
  ['flags', 'device-alarm-flag'],
  ['kinds', 'device-alarm-kind'],
];

/** The ticked values of the boxes of class `kind`: every box or none ticked is [] = all. */
function ticked($: JQ, kind: string): unknown[] {
  const values: string[] = $(`.${kind}:checked`)
    .map(function (this: unknown) {
      return $(this).val();
    })
    .get();
  const list = values.length === $(`.${kind}`).length ? [] : values;
  return kind === 'device-alarm-pin' ? list.map(Number) : list;
}

/** A box to tick in `parent`, ticked when the saved list has the value or is empty (all). */
function box($: JQ, parent: JQ, kind: string, value: string | number, saved: unknown, words?: string): void {
  const list = Array.isArray(saved) ? saved.map(String) : [];
  const row = $('<label>')
    .css({
      display: words ? 'block' : 'inline-block',
      width: 'auto',
      cursor: 'pointer',
      'margin-right': '14px',
      'margin-bottom': '4px',
      'white-space': 'nowrap',
    })
    .appendTo(parent);
  $(`<input type="checkbox" class="${kind}">`)
    .css({ display: 'inline-block', width: 'auto', margin: '0 6px 0 0', 'vertical-align': 'middle' })
    .val(String(value))
    .prop('checked', list.length === 0 || list.includes(String(value)))
    .attr('aria-label', String(value))
    .appendTo(row);
  $('<span>')
    .text(words ?? String(value))
    .appendTo(row);
  if (words) $('<code>').text(String(value)).css('margin-left', '6px').appendTo(row);
}

/** A select that keeps a saved value it has no option for (an imported 5, a `${VAR}`), so its refusal shows on it. */
function keepValue($: JQ, select: string, value: unknown): void {
  const field = $(select);
  if (value === undefined || value === null || value === '') return;
  if (!field.find('option').filter((_i: number, o: { value: string }) => o.value === String(value)).length) {
    $('<option>').val(String(value)).text(String(value)).appendTo(field);
  }
  field.val(String(value));
}

function prepare(node: Node): void {
  const $ = jquery<JQ>();
  if (!$) return;
  keepValue($, '#node-input-priority', node.priority);
  keepValue($, '#node-input-source', node.source);
  $('#node-input-property').typedInput({ default: 'msg', types: ['msg'] });
  $('#node-input-alarmId').attr('placeholder', fallbackId(node));
  const delay = LIMITS.alarm_delay;
  for (const field of ['onDelay', 'offDelay', 'clearAfter']) $(`#node-input-${field}`).attr('placeholder', `${delay.min}..${delay.max}`);
  for (const field of [...LIMIT_NAMES, 'deadband']) $(`#node-input-${field}`).attr('placeholder', say('hint.none'));
  $('#device-alarm-delay-range').text(say('hint.delay', { min: delay.min, max: delay.max }));

  for (let p = LIMITS.pin.min; p <= LIMITS.pin.max; p++) box($, $('#device-alarm-pins'), 'device-alarm-pin', p, node.pins);
  for (const flag of ALERT_FLAGS) box($, $('#device-alarm-flags'), 'device-alarm-flag', flag, node.flags, say(`flag.${flag}`));
  for (const kind of HEALTH_ALARMS) box($, $('#device-alarm-kinds'), 'device-alarm-kind', kind, node.kinds, say(`kind.${kind}`));

  function show(): void {
    const source = String($('#node-input-source').val());
    $('#dialog-form [data-sources]').each(function (this: unknown) {
      $(this).toggle(String($(this).attr('data-sources')).split(' ').includes(source));
    });
    for (const [field, kind] of BOXES) $(`#device-alarm-${field}-none`).toggle($(`.${kind}:checked`).length === 0);
    $('#device-alarm-module-hint').text(say(source === 'condition' ? 'hint.moduleOptional' : 'hint.moduleNeeded'));
    defines();
  }
  // The alarms the settings define, by id, as the runtime will name them.
  function defines(): void {
    const read = readAlarmSettings(shownSettings(node), fallbackId(node));
    const line = $('#device-alarm-defines');
    if (isPhrase(read)) return void line.text(say('hint.definesNone'));
    const ids = definedAlarms(read).map((a) => a.id);
    line.text(say('hint.defines', { count: ids.length, ids: ids.length > 4 ? `${ids.slice(0, 3).join(', ')}, … ${ids[ids.length - 1]}` : ids.join(', ') }));
  }
  $('#node-input-source').on('change', show);
  $('#dialog-form').on('change keyup paste', 'input, select', show);
  show();
}

/**
 * The lists from the boxes ticked; and the fields the chosen source does not use back to the
 * runtime's defaults, so no value hidden from the user can make the runtime refuse the node.
 */
function save(node: Node): void {
  const $ = jquery<JQ>();
  if (!$) return;
  for (const [field, kind] of BOXES) node[field] = ticked($, kind);
  const source = String($('#node-input-source').val());
  const used = SOURCE_FIELDS[source] ?? [];
  if (!(ALARM_SOURCES as readonly string[]).includes(source)) return;
  for (const [field, value] of Object.entries(UNUSED)) {
    if (used.includes(field)) continue;
    const input = $(`#node-input-${field}`);
    if (input.length) input.val(String(value));
    else node[field] = value;
  }
}

/** The node's label: its name, else its alarm id. */
function label(this: Node): string {
  return String(this.name || this.alarmId || 'device alarm');
}

/** The dialog's parts for its registerType literal (named `dialog` so the tests read this module with the html). */
function dialog() {
  return { valid, validLimit, validModule, prepare, save, label };
}

export const deviceAlarm = { dialog };
