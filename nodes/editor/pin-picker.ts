/**
 * The pin picker of the io dialogs: the module's six pins drawn as a connector below the
 * pin field. Clicking a pin (buttons, so the keyboard works too) sets the field; the pin in
 * the field is highlighted; pins other io nodes on the same module use are marked, with
 * their names and roles in the tooltip; an io-output whose pin another io-output on the
 * module also drives shows a warning (`#io-pin-warning`).
 *
 * The editor has no DOM types here (no DOM lib in tsconfig): `$` and `RED` are typed as
 * little as this file uses. The pure part (which node uses which pin, same module or not)
 * is exported on its own for the unit tests.
 */
import { LIMITS } from '../lib/pure/limits';
import { FACTS } from '../lib/pure/facts';
import { editorRed, jquery } from './page';

/** The io node types that own a pin field, and so appear in the picker. */
export const PIN_NODE_TYPES = ['io-output', 'io-threshold', 'io-input', 'io-read'] as const;

/** What an editor node looks like to the picker: its saved properties. */
export interface EditorNode {
  id: string;
  type: string;
  name?: string;
  device?: string;
  pin?: unknown;
  /** io-output's pin may come from msg, flow, global or env: then no pin is known here. */
  pinType?: unknown;
  mode?: unknown;
  d?: boolean;
}

/** A config node's address of the module: two config nodes with the same one are the same module. */
export interface ModuleAddress {
  url?: unknown;
  service?: unknown;
  slot?: unknown;
}

export type PinRole = 'output' | 'pwm' | 'threshold' | 'analogInput' | 'digitalInput' | 'read';

export interface PinUse {
  pin: number;
  id: string;
  type: string;
  name: string;
  role: PinRole;
}

/** What a node does with its pin, for the tooltip. */
export function roleOf(node: Pick<EditorNode, 'type' | 'mode'>): PinRole | undefined {
  switch (node.type) {
    case 'io-output':
      return node.mode === 'pwm' ? 'pwm' : 'output';
    case 'io-threshold':
      return 'threshold';
    case 'io-input':
      return node.mode === 'analog' ? 'analogInput' : 'digitalInput';
    case 'io-read':
      return 'read';
    default:
      return undefined;
  }
}

/** A pin number 1..6 from a saved or typed value, or undefined ("all", empty, `${VAR}`, out of range). */
export function pinNumber(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  return Number.isInteger(n) && n >= LIMITS.pin.min && n <= LIMITS.pin.max ? n : undefined;
}

function sameAddress(a: ModuleAddress | undefined, b: ModuleAddress | undefined): boolean {
  if (!a || !b) return false;
  const url = (u: unknown) =>
    String(u ?? '')
      .trim()
      .replace(/\/+$/, '')
      .toLowerCase();
  return url(a.url) !== '' && url(a.url) === url(b.url) && String(a.service) === String(b.service) && String(a.slot).trim() === String(b.slot).trim();
}

/**
 * Every pin another io node on the same module uses: same config node, or a config node
 * with the same URL, service and slot (each example flow brings its own config node).
 * Disabled nodes and the node being edited are left out.
 */
export function pinUses(nodes: EditorNode[], selfId: string, device: string, configOf: (id: string) => ModuleAddress | undefined): PinUse[] {
  const mine = configOf(device);
  const uses: PinUse[] = [];
  for (const node of nodes) {
    if (node.id === selfId || node.d === true || !(PIN_NODE_TYPES as readonly string[]).includes(node.type)) continue;
    if (!node.device || (node.device !== device && !sameAddress(mine, configOf(node.device)))) continue;
    const pin = node.pinType === undefined || node.pinType === 'num' ? pinNumber(node.pin) : undefined;
    const role = roleOf(node);
    if (pin === undefined || role === undefined) continue;
    uses.push({ pin, id: node.id, type: node.type, name: node.name || '', role });
  }
  return uses;
}

/** The other io-outputs driving `pin`: two of them on one pin fight, the last msg wins. */
export function outputConflicts(selfType: string, pin: number | undefined, uses: PinUse[]): PinUse[] {
  if (selfType !== 'io-output' || pin === undefined) return [];
  return uses.filter((u) => u.pin === pin && u.type === 'io-output');
}

// ---- the dialog --------------------------------------------------------------------------

/** The few jQuery methods used here. */
interface JQ {
  length: number;
  val(): unknown;
  val(value: string): JQ;
  text(value: string): JQ;
  attr(name: string, value: string): JQ;
  attr(name: string): string | undefined;
  css(props: Record<string, string>): JQ;
  addClass(name: string): JQ;
  hasClass(name: string): boolean;
  toggleClass(name: string, on: boolean): JQ;
  toggle(on: boolean): JQ;
  append(child: JQ): JQ;
  appendTo(parent: JQ): JQ;
  insertAfter(target: JQ): JQ;
  closest(selector: string): JQ;
  find(selector: string): JQ;
  each(fn: (this: unknown, index: number) => void): JQ;
  on(events: string, handler: (event: unknown) => void): JQ;
  trigger(event: string): JQ;
  typedInput?(method: string, value?: string): unknown;
  remove(): JQ;
}
type Dollar = (selector: unknown) => JQ;
interface Red {
  _(key: string, args?: Record<string, unknown>): string;
  nodes: {
    eachNode(fn: (node: EditorNode) => boolean | void): void;
    eachConfig?(fn: (node: EditorNode & ModuleAddress) => boolean | void): void;
    node(id: string): (EditorNode & ModuleAddress) | null | undefined;
  };
  utils?: { getNodeLabel?(node: unknown, defaultLabel?: string): string };
}

const NS = '@modular-device/node-red/modular-device:modular-device.pinPicker.';

const STYLE = `
.md-pin-picker { display: inline-flex; align-items: center; gap: 6px; padding: 5px 8px; margin-top: 6px;
  border-radius: 6px; background: #3b3f45; box-shadow: inset 0 -2px 0 rgba(0,0,0,0.35); }
.md-pin-picker .md-pin { position: relative; width: 30px; height: 30px; min-width: 0; padding: 0; border-radius: 50%;
  border: 2px solid #b9a15c; background: #d8c98f; color: #2b2b2b; font-weight: bold; font-size: 12px; line-height: 26px;
  text-align: center; cursor: pointer; }
.md-pin-picker .md-pin:hover { background: #efe3b3; }
.md-pin-picker .md-pin:focus-visible { outline: 2px solid #6fb1ff; outline-offset: 2px; }
.md-pin-picker .md-pin-all { width: auto; padding: 0 8px; border-radius: 14px; }
.md-pin-picker .md-pin.md-pin-selected { background: #4a90d9; border-color: #9cc9ff; color: #fff; }
.md-pin-picker .md-pin.md-pin-used::after { content: ''; position: absolute; top: -4px; right: -4px; width: 10px; height: 10px;
  border-radius: 50%; background: #e8a33d; border: 1px solid #fff; }
.md-pin-picker .md-pin.md-pin-conflict::after { background: #d9534f; }
.md-pin-picker-legend { margin-left: 8px; font-size: 11px; color: var(--red-ui-secondary-text-color, #777); }
.md-pin-picker-legend i { display: inline-block; width: 9px; height: 9px; border-radius: 50%; background: #e8a33d; margin: 0 3px 0 0; }
.md-pin-warning { margin: 6px 0 0 104px; padding: 4px 8px; border-left: 3px solid #d9534f;
  background: rgba(217,83,79,0.08); color: var(--red-ui-text-color-error, #b94a48); }
`;

export interface PinPickerOptions {
  /** The node being edited (`this` in oneditprepare): its id and type. */
  node: { id: string; type: string };
  /** Add an "all" button (io-read). */
  allowAll?: boolean;
  /** The field to set; default `#node-input-pin`. */
  field?: string;
  /** The config node field; default `#node-input-device`. */
  deviceField?: string;
}

/**
 * Draws the picker below the pin field of an open dialog and keeps it in step with the
 * pin and module fields. Call it from oneditprepare.
 */
export function pinPicker(options: PinPickerOptions): void {
  const $ = jquery<Dollar>();
  const editor = editorRed<Red>();
  if (!$ || !editor) return;
  const RED: Red = editor;
  const field = $(options.field ?? '#node-input-pin');
  const deviceField = $(options.deviceField ?? '#node-input-device');
  if (!field.length) return;
  const t = (key: string, args?: Record<string, unknown>) => RED._(NS + key, args);
  // Node-RED marks the field it turned into a typedInput (io-output's pin) with this class.
  const inTypedInput = field.hasClass('red-ui-typedInput') && typeof field.typedInput === 'function';

  if (!$('#md-pin-picker-style').length) $('<style id="md-pin-picker-style">').text(STYLE).appendTo($('head'));

  const row = field.closest('.form-row');
  row.find('.md-pin-picker-row').remove();
  const holder = $('<div class="md-pin-picker-row">').css({ 'margin-left': '104px' });
  const picker = $('<div id="io-pin-picker" class="md-pin-picker" role="group">').attr('aria-label', t('label')).appendTo(holder);
  const buttons: Array<{ pin: number | 'all'; el: JQ }> = [];
  const addButton = (pin: number | 'all') => {
    const el = $('<button type="button" class="md-pin">')
      .attr('id', `io-pin-picker-${pin}`)
      .attr('data-pin', String(pin))
      .text(pin === 'all' ? t('all') : String(pin))
      .appendTo(picker);
    if (pin === 'all') el.addClass('md-pin-all');
    el.on('click', () => {
      // In a typedInput (io-output) a click means a pin typed in, not one from a msg.
      if (inTypedInput) {
        field.typedInput!('type', 'num');
        field.typedInput!('value', String(pin));
      } else field.val(String(pin)).trigger('change');
      render();
    });
    buttons.push({ pin, el });
  };
  for (let pin = 1; pin <= FACTS.pinCount; pin++) addButton(pin);
  if (options.allowAll) addButton('all');
  $('<span class="md-pin-picker-legend">')
    .append($('<i>'))
    .append($('<span>').text(t('legend')))
    .appendTo(holder);
  const warning = $('<div id="io-pin-warning" class="md-pin-warning" role="alert">').toggle(false);
  holder.append(warning);
  holder.appendTo(row);

  const configOf = (id: string) => RED.nodes.node(id) ?? undefined;
  // An unnamed node is shown by its label, as on the canvas (e.g. "pin 3 rising 3000 mV").
  const labelOf = (u: PinUse) => {
    if (u.name) return u.name;
    const node = RED.nodes.node(u.id);
    return (node && RED.utils?.getNodeLabel?.(node, u.type)) || u.type;
  };
  const describeUse = (u: PinUse) => t('use', { name: labelOf(u), type: u.type, role: t(`role.${u.role}`) });

  function render(): void {
    const typedIn = !inTypedInput || field.typedInput!('type') === 'num';
    const value = typedIn ? field.val() : undefined;
    const selected = value === 'all' ? 'all' : pinNumber(value);
    const device = String(deviceField.val() ?? '');
    const all: EditorNode[] = [];
    RED.nodes.eachNode((n) => {
      all.push(n);
    });
    const uses = device && device !== '_ADD_' ? pinUses(all, options.node.id, device, configOf) : [];
    const conflicts = outputConflicts(options.node.type, typeof selected === 'number' ? selected : undefined, uses);
    for (const { pin, el } of buttons) {
      const here = pin === 'all' ? [] : uses.filter((u) => u.pin === pin);
      const isSelected = pin === selected;
      el.toggleClass('md-pin-selected', isSelected).attr('aria-pressed', String(isSelected));
      el.toggleClass('md-pin-used', here.length > 0);
      el.toggleClass('md-pin-conflict', isSelected && conflicts.length > 0);
      let title: string;
      if (pin === 'all') title = t('allTitle');
      else if (here.length) title = t('usedBy', { pin, list: here.map(describeUse).join('; ') });
      else title = t('free', { pin });
      // The title shows on hover only; screen readers (Node-RED 5 labels its editor for
      // them) take the button's accessible name, which would otherwise be just "3".
      el.attr('title', title).attr('aria-label', title);
    }
    if (conflicts.length && typeof selected === 'number') {
      warning.text(t('outputConflict', { pin: selected, list: conflicts.map(describeUse).join('; ') })).toggle(true);
    } else {
      warning.text('').toggle(false);
    }
  }

  field.on('change keyup paste input', render);
  deviceField.on('change', render);
  render();
}
