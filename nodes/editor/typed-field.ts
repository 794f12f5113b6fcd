/**
 * A dialog field the user may fill from msg, flow, global or env instead of typing a value:
 * Node-RED's typedInput, with the chosen type kept in a hidden `<prop>Type` field. The
 * runtime evaluates such a value per msg (action/typed-setting.ts); the editor checks only a
 * value typed in, since the others are known only when a msg arrives.
 */
import { current } from './current';
import { editorRed, jquery, JQ } from './page';
import { SETTING_SOURCES } from '../lib/pure/facts';

/** Whether the dialog's (or the saved node's) `prop` is a value typed in, to be checked now. */
export function typedIn(node: Record<string, unknown>, prop: string): boolean {
  const type = current(node, `${prop}Type`);
  return !(typeof type === 'string' && SETTING_SOURCES.includes(type));
}

type TypeSpec = string | { value: string; label?: string; options?: Array<{ value: string; label: string }> };
interface PropertyDef {
  required?: boolean;
  label?: string;
  validate?: (this: unknown, value: unknown, opt: unknown) => unknown;
}
interface Tooltip {
  delete(): void;
}
type Red = {
  _(key: string, values?: Record<string, unknown>): string;
  nodes: { getType(type: string): { defaults?: Record<string, PropertyDef> } | undefined };
  popover: { tooltip(target: unknown, content: () => string): Tooltip };
};

/**
 * Turns `#node-input-<prop>` into a typedInput: `first` (what is typed in) then msg, flow,
 * global, env. `node` is the node the dialog edits, whose `defaults` check the field.
 */
export function typedField(prop: string, first: TypeSpec, node: { type: string }): void {
  const $ = jquery<JQ>();
  const field = $?.(`#node-input-${prop}`);
  if (!field || !field.length) return;
  field.typedInput({
    default: typeof first === 'string' ? first : first.value,
    types: [first, ...SETTING_SOURCES],
    typeField: `#node-input-${prop}Type`,
  });
  showsItsError(field, prop, node);
}

/**
 * Node-RED (3.1 to 5.0) marks an invalid typedInput's box red but hangs the message on the
 * original input (editor.js validateNodeEditorProperty: `RED.popover.tooltip(input, …)`),
 * which the typedInput hides: no pointer reaches it. So the field says it where the user
 * looks: after each of Node-RED's checks (a change, key or paste anywhere in the form, the
 * fields' own handlers first), the same `validate` Node-RED ran gives its message to a
 * tooltip on the visible box, over the type button, the value and the red edge.
 */
function showsItsError(field: JQ, prop: string, node: { type: string }): void {
  const $ = jquery<JQ>();
  const RED = editorRed<Red>();
  const def = RED?.nodes.getType(node.type)?.defaults?.[prop];
  const box = field.next('.red-ui-typedInput-container');
  if (!RED || !def || !box.length) return;
  let message = '';
  let tooltip: Tooltip | undefined;
  function refresh(): void {
    message = said(RED!, def!, prop, node, field.val());
    if (message && !tooltip) tooltip = RED!.popover.tooltip(box, () => message);
    else if (!message && tooltip) {
      tooltip.delete();
      tooltip = undefined;
    }
  }
  $(field.closest('form')).on('change keyup paste input', refresh);
  refresh();
}

/** What Node-RED's validateNodeProperty says of `value`: a required field left empty, else the field's own message ('' when valid). */
function said(RED: Red, def: PropertyDef, prop: string, node: unknown, value: unknown): string {
  if (def.required && value === '') return RED._('validator.errors.missing-required-prop', { prop: def.label ?? prop });
  const verdict = def.validate ? def.validate.call(node, value, def.label ? { label: def.label } : {}) : true;
  return typeof verdict === 'string' ? verdict : '';
}
