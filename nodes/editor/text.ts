/**
 * A check's answer as a dialog shows it, for index.ts and the dialogs' own modules alike.
 */
import type { Check } from '../lib/pure/limits';
import { PhraseValue, render } from '../lib/pure/phrase';
import { editorRed } from './page';

type EditorI18n = { _(key: string, values?: Record<string, string>): string };

/**
 * A check's answer as a dialog shows it: `true`, or the refusal said in the editor's
 * language (the browser's, as Node-RED picks it) with the editor's own `RED._`. Node-RED
 * loads the package's catalogs before the dialogs open, so the words are there when said.
 */
export function text(result: Check | PhraseValue): true | string {
  if (result === true) return true;
  const RED = editorRed<EditorI18n>();
  return render(result, (id, values) => (RED ? RED._(id, values) : id));
}
