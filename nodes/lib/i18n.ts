/**
 * Words shared by every node (status texts of the connection, pauses), in the runtime's
 * language from the config node's catalog. When the runtime has no such catalog loaded
 * (node-red-node-test-helper's `RED._` returns the key), the English catalog shipped beside
 * the nodes answers, so a status never shows a bare message id.
 */
import fs from 'fs';
import path from 'path';
import type { NodeAPI } from './red';

const NAMESPACE = '@modular-device/node-red/modular-device';

let english: Record<string, unknown> | undefined;

function englishCatalog(): Record<string, unknown> {
  if (!english) {
    // The build puts locales/ beside the compiled nodes: dist/nodes/locales/.
    const file = path.join(__dirname, '..', 'locales', 'en-US', 'modular-device.json');
    english = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  }
  return english;
}

function fromEnglish(key: string, vars: Record<string, unknown> = {}): string {
  const value = key.split('.').reduce<unknown>((at, part) => (at && typeof at === 'object' ? (at as Record<string, unknown>)[part] : undefined), englishCatalog());
  if (typeof value !== 'string') return key;
  return value.replace(/__(\w+)__/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}

export type Say = (key: string, vars?: Record<string, unknown>) => string;

/** `say('status.connected', {api})` → the text of `modular-device.status.connected`. */
export function sayer(RED: NodeAPI): Say {
  return (key, vars) => {
    const id = `modular-device.${key}`;
    const text = RED._(`${NAMESPACE}:${id}`, vars);
    return typeof text === 'string' && text !== `${NAMESPACE}:${id}` && text !== id ? text : fromEnglish(id, vars);
  };
}

/**
 * Runtime texts (status texts, refusals, errors) of every node and of the shared code, from
 * `modular-device.runtime.<type>.<key>` / `modular-device.runtime.common.<key>` of the same
 * catalog. Node files and the shared code say `t('io-reset.refused')` at module level; the
 * runtime's translator is installed once by `useRuntimeLanguage(RED)` (registerActionNode
 * and the config node do). Until then, and where the runtime has no catalog, English.
 */
let runtime: Say | undefined;

/** Installs the runtime's language for `t` (undefined: English only, e.g. after a test). */
export function useRuntimeLanguage(RED: NodeAPI | undefined): void {
  runtime = RED ? sayer(RED) : undefined;
}

/** `t('io-output.pinState', {pin: 3, state: 'high'})` → `pin 3 high` in the runtime's language. */
export function t(key: string, vars?: Record<string, unknown>): string {
  const id = `runtime.${key}`;
  return runtime ? runtime(id, vars) : fromEnglish(`modular-device.${id}`, vars);
}
