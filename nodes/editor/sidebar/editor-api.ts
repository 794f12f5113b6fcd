/**
 * The editor's globals as the sidebar uses them. The project compiles without the DOM
 * library (the editor bundle is a small part of it), so `RED`, `$` and the few browser
 * objects are reached through `globalThis` and typed loosely here, once, instead of in
 * every file.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
export type JQ = any;

const g = globalThis as any;

export function RED(): any {
  return g.RED;
}

export function $(selector: unknown, props?: Record<string, unknown>): JQ {
  return g.$(selector, props);
}

export function browser(): { setInterval: typeof setInterval; clearInterval: typeof clearInterval; setTimeout: typeof setTimeout; clearTimeout: typeof clearTimeout; document: any; window: any; crypto?: any } {
  return g;
}

/** The plugin's message catalogue (locales/<lang>/modular-device-sidebar.json): Node-RED names it by the plugin's id. */
export const NS = '@modular-device/node-red/modular-device-sidebar';

/** A text of the sidebar in the editor's language. */
export function t(key: string, values?: Record<string, unknown>): string {
  return RED()._(`${NS}:${key}`, values);
}

/** jQuery's ajax: Node-RED has set it up to carry the editor's admin token. */
export function ajax(options: Record<string, unknown>): PromiseLike<any> {
  return g.$.ajax(options);
}

/** The admin token header Node-RED's ajax setup adds to every relative call (when adminAuth is on). */
export function ajaxHeaders(): Record<string, string> {
  const tokens = g.RED.settings.get('auth-tokens');
  return tokens?.access_token ? { Authorization: `Bearer ${tokens.access_token}` } : {};
}
