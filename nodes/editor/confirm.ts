/**
 * The `validate` of a guarded node's confirm box: a dangerous operation chosen in the dialog
 * (or bmc-watchdog's keep-alive) without the box ticked makes the node invalid (the red
 * triangle), in the very words the runtime refuses it with (action/operation-choice.ts requireConfirm:
 * `modular-device.runtime.common.needsConfirm`, the operation and the box as the dialog names them).
 */
import { unconfirmed } from '../lib/pure/confirm-rule';
import { current } from './current';

type Editor = { RED?: { _(key: string, values?: Record<string, string>): string } };
const PACKAGE = '@modular-device/node-red';

/** A word of the node's catalogue, else `fallback` (the runtime's nodeTextOr). */
function nodeWord(type: string, key: string, fallback: string): string {
  const RED = (globalThis as Editor).RED;
  const said = RED ? RED._(`${PACKAGE}/${type}:${type}.${key}`) : undefined;
  return said && !said.endsWith(`${type}.${key}`) ? said : fallback;
}

/** A ticked-off checkbox marked invalid shows it (Node-RED's own mark is hardly visible on one). */
const STYLE = 'input[type="checkbox"].input-error { outline: 2px solid var(--red-ui-text-color-error, #d9534f); outline-offset: 2px; }';

function addStyle(): void {
  const $ = (globalThis as { $?: (sel: string) => { length: number; text(t: string): { appendTo(t: unknown): void } } }).$;
  if (!$ || $('#md-confirm-style').length) return;
  $('<style id="md-confirm-style">').text(STYLE).appendTo($('head'));
}

export function confirmed(type: string): (this: Record<string, unknown>, value: unknown, opt?: unknown) => true | string {
  addStyle();
  // Two parameters: Node-RED shows a validator's message only then (node-red-notes, Editor).
  return function (_value: unknown, _opt?: unknown) {
    const view = { id: '', type, operation: current(this, 'operation'), keepAlive: current(this, 'keepAlive'), confirm: current(this, 'confirm') };
    const [operation] = unconfirmed(view);
    if (operation === undefined) return true;
    const RED = (globalThis as Editor).RED;
    const values = { operation: nodeWord(type, `operation.${operation}`, operation), confirm: nodeWord(type, 'label.confirm', 'confirm') };
    return RED ? RED._(`${PACKAGE}/modular-device:modular-device.runtime.common.needsConfirm`, values) : `${operation} needs confirm`;
  };
}
