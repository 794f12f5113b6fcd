/**
 * A field as a dialog names it in a refusal, for index.ts's validators and the dialogs' own
 * modules alike: the words of the runtime's `labelled` when the node's catalog has the label.
 */
import { labelled } from '../lib/pure/limits';
import type { PhraseValue } from '../lib/pure/phrase';
import { editorRed } from './page';

type EditorI18n = { _(key: string, values?: Record<string, string>): string };

/**
 * A field as the node's dialog labels it, with the msg's name in brackets, when the node's
 * catalog has that label (`<type>.label.<label>`); else the field's own name. `label` is the
 * dialog's key where it differs from the msg's name, as in `labelled` (the runtime's side).
 */
export function fieldName(type: unknown, field: string, label: string = field): PhraseValue {
  const RED = editorRed<EditorI18n>();
  if (typeof type !== 'string' || !RED) return field;
  const key = `${type}.label.${label}`;
  const said = RED._(`@modular-device/node-red/${type}:${key}`);
  return said && said !== key && !said.endsWith(key) ? labelled(type, field, label) : field;
}
