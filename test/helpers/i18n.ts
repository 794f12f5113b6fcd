/**
 * Node-RED's own i18n for the tests (no stand-in): the `@node-red/util` i18n of the
 * Node-RED under test, with this package's catalogs registered exactly as Node-RED's
 * registry registers a node file's catalog (namespace `<module>/<type>`, the `locales/`
 * folder beside the compiled node, file `<type>.json`).
 *
 * node-red-node-test-helper hands every node module a `RED._` that returns its key, so on
 * its own the runtime would speak message ids. `withRuntimeI18n` gives the modules a `RED`
 * whose `_` is the real one instead; the tests then see the words a user sees.
 *
 * The runtime language of the tests is en-US, whatever the machine's locale; German is
 * read with `inLanguage('de')`, i18next's fixed-language view of the same instance.
 */
import path from 'path';
import { useRuntimeLanguage } from '../../nodes/lib/base/i18n';
import { PhraseValue, render } from '../../nodes/lib/pure/phrase';
import type { NodeStatus } from '../../nodes/lib/base/node-red';

/**
 * The Node-RED the tests run on: MD_NODE_RED (a node-red package folder, e.g. the 3.1 or
 * 5.0 that `npm test` installs under .cache/) or else the devDependency. The helper wants
 * the package's main file (lib/red.js).
 */
export const NODE_RED_MAIN = process.env.MD_NODE_RED ? require.resolve(path.resolve(process.env.MD_NODE_RED)) : require.resolve('node-red');

/** Where node-red's own packages live (for the real editor-api auth module, the real i18n). */
export function nodeRedPackage(name: string): string {
  const runtime = path.dirname(require.resolve('@node-red/runtime/package.json', { paths: [path.dirname(NODE_RED_MAIN)] }));
  return path.dirname(require.resolve(`${name}/package.json`, { paths: [runtime] }));
}

type Translate = (key: string, vars?: Record<string, unknown>) => string;

/** The slice of @node-red/util's i18n (3.1 to 5.0) used here. */
interface NodeRedI18n {
  init(settings: { lang?: string }): void;
  registerMessageCatalog(namespace: string, dir: string, file: string): Promise<void>;
  _: Translate;
  /** The i18next instance itself. */
  i: { loadLanguages(languages: string[]): Promise<unknown>; getFixedT(language: string): Translate };
}

const i18n: NodeRedI18n = require(nodeRedPackage('@node-red/util')).i18n;

const PACKAGE = '@modular-device/node-red';
/** dist/test/helpers → the repository (package.json) and dist/nodes (the compiled nodes). */
const root = path.resolve(__dirname, '..', '..', '..');
const nodesDir = path.resolve(__dirname, '..', '..', 'nodes');
const TYPES = Object.keys(require(path.join(root, 'package.json'))['node-red'].nodes) as string[];

/**
 * Initialises the runtime's i18n (a no-op when the runtime already did: RED.init does the
 * same call) and registers the catalogs. Resolves when the words can be read.
 */
export const catalogsReady: Promise<void> = (async () => {
  i18n.init({ lang: 'en-US' });
  await Promise.all(TYPES.map((type) => i18n.registerMessageCatalog(`${PACKAGE}/${type}`, path.join(nodesDir, 'locales'), `${type}.json`)));
  await i18n.i.loadLanguages(['de']);
})();

/** The real `RED._` of the runtime (the runtime language: en-US). */
export const runtimeTranslate: Translate = (key, vars) => i18n._(key, vars);

/** The same catalogs read in another language, as a runtime with `lang: <language>` would. */
export function inLanguage(language: string): Translate {
  const fixed = i18n.i.getFixedT(language);
  return (key, vars) => fixed(key, vars);
}

export type NodeModule = (RED: any) => unknown;

/**
 * The node modules as Node-RED would load them: each called, once the catalogs are
 * registered, with a RED whose `_` is Node-RED's i18n (the helper's RED otherwise), in
 * the runtime language or the one `translate` reads.
 */
export function withRuntimeI18n(modules: NodeModule[], translate: Translate = runtimeTranslate): NodeModule[] {
  return modules.map((mod) => async (RED: Record<string, unknown>) => {
    await catalogsReady;
    // A plain copy, as Node-RED gives each node file its own RED (tests spread it further).
    return mod({ ...RED, _: translate });
  });
}

/**
 * For code tested without loading a node (a dialect, a check): the language a node would
 * have installed, once the catalogs are there. Use as `before(() => speak())`.
 */
export async function speak(translate: Translate = runtimeTranslate): Promise<void> {
  await catalogsReady;
  useRuntimeLanguage({ _: translate });
}

/** A limit refusal (a phrase) in English, as the runtime and an English editor say it. */
export function english(value: true | PhraseValue): string {
  if (value === true) throw new Error('expected a refusal, the value passed');
  return render(value, (id, values) => runtimeTranslate(id, values));
}

/**
 * A status as Node-RED's editor shows it: a text that starts with a letter or `@` goes
 * through the node's `_` with itself as the default (red.js, comms "status/#"), so a
 * `namespace:key` id shows as its words; `_` puts the node's namespace before a bare key.
 */
export function shownStatus(status: NodeStatus, type: string): NodeStatus {
  const text = status?.text;
  if (typeof text !== 'string' || !/^[@a-zA-Z]/.test(text)) return status;
  const key = text.includes(':') ? text : `${PACKAGE}/${type}:${text}`;
  return { ...status, text: runtimeTranslate(key, { defaultValue: text }) };
}

/**
 * For the suite around it: the editor's `RED._` (what nodes/editor/ calls) is the runtime's
 * real i18n, so the editor's words and the runtime's can be compared without a browser.
 */
export function runtimeWordsInEditor(): void {
  before(async () => {
    await catalogsReady;
    (globalThis as { RED?: unknown }).RED = { _: (id: string, values?: Record<string, string>) => runtimeTranslate(id, values) };
  });
  after(() => {
    delete (globalThis as { RED?: unknown }).RED;
  });
}
