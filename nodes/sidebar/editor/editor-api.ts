/**
 * Node-RED's editor API and jQuery as the sidebar uses them: typed loosely here, once (the
 * editor's API is large and has no types of its own), instead of in every file. The
 * browser's own objects (document, window, timers) come typed from the DOM library.
 */
import { editorRed, jquery, JQ } from '../../editor/page';

// A jQuery object, as page.ts types it for the dialogs too.
export type { JQ };
/* eslint-disable-next-line @typescript-eslint/no-explicit-any -- Node-RED's editor API, untyped */
type EditorApi = any;

export function RED(): EditorApi {
  return editorRed<EditorApi>();
}

export function $(selector: unknown, props?: Record<string, unknown>): JQ {
  return jquery<(selector: unknown, props?: Record<string, unknown>) => JQ>()!(selector, props);
}

/** The plugin's message catalogue (locales/<lang>/modular-device-sidebar.json): Node-RED names it by the plugin's id. */
export const NS = '@modular-device/node-red/modular-device-sidebar';

/** A text of the sidebar in the editor's language. */
export function t(key: string, values?: Record<string, unknown>): string {
  return RED()._(`${NS}:${key}`, values);
}

/** jQuery's ajax: Node-RED has set it up to carry the editor's admin token. */
export function ajax(options: Record<string, unknown>): PromiseLike<unknown> {
  return jquery<{ ajax(options: Record<string, unknown>): PromiseLike<unknown> }>()!.ajax(options);
}

/** The admin token header Node-RED's ajax setup adds to every relative call (when adminAuth is on). */
export function ajaxHeaders(): Record<string, string> {
  const tokens = RED().settings.get('auth-tokens');
  return tokens?.access_token ? { Authorization: `Bearer ${tokens.access_token}` } : {};
}
