/**
 * The editor page's globals, Node-RED's `RED` and jQuery's `$`, reached in one place. Each
 * caller names the slice of their (large, untyped) APIs it uses. Both are undefined outside
 * the editor: unit tests load the editor modules in Node.
 */
declare const RED: unknown;
declare const $: unknown;

/**
 * A jQuery object: typed loosely here, once, for every dialog and the sidebar (jQuery's API is
 * large and the editor ships no types of it).
 */
/* eslint-disable-next-line @typescript-eslint/no-explicit-any -- jQuery's API, untyped */
export type JQ = any;

/** Node-RED's editor API, as the caller types the part it uses; undefined outside the editor. */
export function editorRed<T>(): T | undefined {
  return typeof RED === 'undefined' ? undefined : (RED as T);
}

/** jQuery, as the caller types the part it uses; undefined outside the editor. */
export function jquery<T>(): T | undefined {
  return typeof $ === 'undefined' ? undefined : ($ as T);
}
