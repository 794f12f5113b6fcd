/**
 * Words of the runtime (status texts, refusals, errors, limit messages), in the runtime's
 * language from the config node's catalog (a node's dialog words, quoted in refusals, from
 * the node's own catalog). When the runtime has no such catalog loaded
 * (node-red-node-test-helper's `RED._` returns the key), the English catalog shipped beside
 * the nodes answers, so a status never shows a bare message id.
 */
import fs from 'fs';
import path from 'path';
import type { NodeAPI } from './red';

const PACKAGE = '@modular-device/node-red';

/** English catalogs by file name (`modular-device`, `<type>`), read once each. */
const english = new Map<string, Record<string, unknown>>();

function englishCatalog(name: string): Record<string, unknown> {
  let catalog = english.get(name);
  if (!catalog) {
    // The build puts locales/ beside the compiled nodes: dist/nodes/locales/.
    const file = path.join(__dirname, '..', 'locales', 'en-US', `${name}.json`);
    catalog = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    english.set(name, catalog);
  }
  return catalog;
}

function fromEnglish(key: string, vars: Record<string, unknown> = {}, catalog = 'modular-device'): string {
  const value = key.split('.').reduce<unknown>((at, part) => (at && typeof at === 'object' ? (at as Record<string, unknown>)[part] : undefined), englishCatalog(catalog));
  if (typeof value !== 'string') return key;
  return value.replace(/__(\w+)__/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}

/** The runtime's translator, installed once by `useRuntimeLanguage`; none = English only. */
let runtime: NodeAPI['_'] | undefined;

/**
 * Installs the runtime's language (registerActionNode and the config node do, with their
 * RED); undefined goes back to English only, e.g. after a test.
 */
export function useRuntimeLanguage(RED: NodeAPI | undefined): void {
  runtime = RED ? RED._.bind(RED) : undefined;
}

/** `say('status.connected', {api})` → `modular-device.status.connected` in the runtime's language. */
export function say(key: string, vars?: Record<string, unknown>): string {
  return translate('modular-device', key, vars);
}

/** `<catalog>.<key>` from the package's catalog `<catalog>`, in the runtime's language, else English. */
function translate(catalog: string, key: string, vars?: Record<string, unknown>): string {
  const id = `${catalog}.${key}`;
  const full = `${PACKAGE}/${catalog}:${id}`;
  const text = runtime?.(full, vars);
  return typeof text === 'string' && text !== full && text !== id ? text : fromEnglish(id, vars, catalog);
}

/**
 * Runtime texts (status texts, refusals, errors) of every node and of the shared code, from
 * `modular-device.runtime.<type>.<key>` / `modular-device.runtime.common.<key>`:
 * `t('io-output.pinState', {pin: 3, state: 'high'})` → `pin 3 high`.
 */
export function t(key: string, vars?: Record<string, unknown>): string {
  return say(`runtime.${key}`, vars);
}

/**
 * A word of a node's own dialog, from its catalog `locales/<lang>/<type>.json`, so a refusal
 * names a setting exactly as the user sees it: `nodeText('io-reset', 'label.confirm')`.
 */
export function nodeText(type: string, key: string): string {
  return translate(type, key);
}
