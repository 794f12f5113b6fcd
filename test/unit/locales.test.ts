/**
 * Languages: every node type has the same message keys and a help page in English (en-US)
 * and German (de). Node-RED falls back to en-US silently for a missing key, so a gap would
 * only show as English text inside a German dialog: this test makes it a failure instead.
 */
import fs from 'fs';
import path from 'path';
import should from 'should';

const root = path.resolve(__dirname, '..', '..', '..');
const LANGUAGES = ['en-US', 'de'];
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const TYPES = Object.keys(pkg['node-red'].nodes) as string[];

/** Every key path of a message catalogue with a string value, e.g. `io-output.label.pin`. */
function keyPaths(value: unknown, prefix = ''): string[] {
  if (typeof value === 'string') return [prefix];
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [`${prefix} (not text: ${JSON.stringify(value)})`];
  return Object.entries(value as Record<string, unknown>).flatMap(([key, v]) => keyPaths(v, prefix ? `${prefix}.${key}` : key));
}

function catalogue(lang: string, type: string): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(path.join(root, 'locales', lang, `${type}.json`), 'utf8'));
}

/** `__name__` placeholders of a message: both languages must fill the same ones. */
function placeholders(text: string): string[] {
  return [...new Set(text.match(/__[A-Za-z0-9_]+__/g) ?? [])].sort();
}

function lookup(tree: Record<string, unknown>, keyPath: string): unknown {
  return keyPath.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], tree);
}

describe('locales: en-US and de', function () {
  it('lists the 20 node types of package.json', function () {
    TYPES.length.should.equal(20);
  });

  for (const type of TYPES) {
    describe(type, function () {
      it('has a message catalogue in every language, under the node type', function () {
        for (const lang of LANGUAGES) {
          const file = path.join(root, 'locales', lang, `${type}.json`);
          fs.existsSync(file).should.be.true(`missing ${path.relative(root, file)}`);
          should(typeof catalogue(lang, type)[type]).equal('object', `${lang}/${type}.json has no top-level "${type}" key`);
        }
      });

      it('has exactly the same key paths in en-US and de', function () {
        const en = keyPaths(catalogue('en-US', type)).sort();
        const de = keyPaths(catalogue('de', type)).sort();
        const onlyEn = en.filter((k) => !de.includes(k));
        const onlyDe = de.filter((k) => !en.includes(k));
        should({ onlyEn, onlyDe }).eql({ onlyEn: [], onlyDe: [] }, `${type}: keys in one language only`);
      });

      it('fills the same __placeholders__ in both languages', function () {
        const en = catalogue('en-US', type);
        const de = catalogue('de', type);
        const differ = keyPaths(en)
          .filter((k) => typeof lookup(de, k) === 'string')
          .filter((k) => placeholders(lookup(en, k) as string).join() !== placeholders(lookup(de, k) as string).join());
        should(differ).eql([], `${type}: placeholders differ`);
      });

      it('has a help page with data-help-name in every language, summary first', function () {
        for (const lang of LANGUAGES) {
          const file = path.join(root, 'locales', lang, `${type}.html`);
          fs.existsSync(file).should.be.true(`missing ${path.relative(root, file)}`);
          const html = fs.readFileSync(file, 'utf8');
          html.should.match(new RegExp(`<script type="text/html" data-help-name="${type}">`), `${lang}/${type}.html`);
          // The palette tooltip and the help sidebar show the first <p>: it must come first.
          html.replace(/^[\s\S]*?data-help-name="[^"]+">\s*/, '').should.match(/^<p>/, `${lang}/${type}.html must open with a <p> summary`);
        }
      });

      it('has help sections in the same order in en-US and de', function () {
        const headings = (lang: string) => (fs.readFileSync(path.join(root, 'locales', lang, `${type}.html`), 'utf8').match(/<h3>/g) ?? []).length;
        headings('de').should.equal(headings('en-US'), `${type}: number of <h3> sections`);
      });
    });
  }
});
