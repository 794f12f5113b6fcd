/**
 * The package's refusals in the kit's language (English): a phrase of the pure layer (an
 * alarm command refused by readCommand, a bound of the table of limits) said with the
 * package's own en-US catalogs, so a scenario's bad step and a msg refused by the node read
 * alike. The catalogs are read as data (they are JSON beside the compiled nodes); the
 * runtime's i18n is not needed, so a scenario is checked before Node-RED starts.
 */
import fs from 'fs';
import path from 'path';
import { PhraseValue, render } from '../nodes/lib/pure/phrase';

/** dist/testing → dist/nodes/locales/en-US, where the build puts the catalogs Node-RED reads. */
const LOCALES = path.join(__dirname, '..', 'nodes', 'locales', 'en-US');
const catalogs = new Map<string, Record<string, unknown>>();

function catalog(name: string): Record<string, unknown> {
  let found = catalogs.get(name);
  if (!found) {
    try {
      found = JSON.parse(fs.readFileSync(path.join(LOCALES, `${path.basename(name)}.json`), 'utf8')) as Record<string, unknown>;
    } catch {
      found = {};
    }
    catalogs.set(name, found);
  }
  return found;
}

/** A message id `@modular-device/node-red/<catalog>:<key.path>` in English, its __placeholders__ filled; the id itself when missing (as Node-RED shows one). */
function translate(id: string, values: Record<string, string>): string {
  const colon = id.indexOf(':');
  let node: unknown = catalog(id.slice(0, colon).split('/').pop() ?? '');
  for (const part of id.slice(colon + 1).split('.')) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
  if (typeof node !== 'string') return id;
  return node.replace(/__(\w+?)__/g, (whole, name: string) => values[name] ?? whole);
}

/** A phrase (or a plain value) in English. */
export function english(value: PhraseValue): string {
  return render(value, translate);
}
