/**
 * The README and the pages of docs/ hold together: every relative link names a file that
 * exists, every `#anchor` (alone, or after a .md file) names a heading of that page as GitHub
 * spells it, and every picture they show is in the repository. A page moved or a heading
 * renamed breaks a link a user follows from the palette or npmjs.com; this test says which.
 */
import 'should';
import fs from 'fs';
import path from 'path';
import { REPO } from '../helpers/source-files';

const pkg = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8'));
/** owner/name of the repository, from package.json (git+https://github.com/<owner>/<name>.git). */
const SLUG = String(pkg.repository.url)
  .replace(/^.*github\.com\//, '')
  .replace(/\.git$/, '');
/**
 * The README links into docs/ by absolute address (it is read on npmjs.com too, and docs/ is
 * not in the tarball): those addresses of this repository's main branch are checked as files.
 */
export const OWN = [`https://github.com/${SLUG}/blob/main/`, `https://raw.githubusercontent.com/${SLUG}/main/`];

/** The documents checked: the README, the repository's own policies, and every page of docs/. */
function documents(): string[] {
  const top = ['README.md', 'CHANGELOG.md', 'CONTRIBUTING.md', 'SECURITY.md'].filter((f) => fs.existsSync(path.join(REPO, f)));
  const pages = fs
    .readdirSync(path.join(REPO, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`);
  return [...top, ...pages];
}

/** Markdown without its fenced code blocks and inline code (a link inside code is not a link). */
function prose(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor of a heading: lowercase, punctuation dropped (letters, digits, spaces, - and _ kept), spaces to '-'; repeats get -1, -2. */
export function anchorOf(heading: string): string {
  return heading
    .replace(/`/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors a page offers, from its ATX headings outside code blocks. */
export function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  const text = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  for (const match of text.matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const base = anchorOf(match[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** Every link target of a page: markdown links and pictures, and HTML img src. */
export function linksOf(markdown: string): Array<{ target: string; picture: boolean }> {
  const text = prose(markdown);
  const links: Array<{ target: string; picture: boolean }> = [];
  for (const m of text.matchAll(/(!?)\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) links.push({ target: m[2], picture: m[1] === '!' });
  for (const m of text.matchAll(/<img\s[^>]*src="([^"]+)"/g)) links.push({ target: m[1], picture: true });
  return links;
}

/** What is wrong with the links of one document (paths relative to the repository). */
export function brokenLinks(file: string, read: (f: string) => string | undefined): string[] {
  const source = read(file);
  if (source === undefined) return [`${file}: not found`];
  const problems: string[] = [];
  for (const { target, picture } of linksOf(source)) {
    const own = OWN.find((prefix) => target.startsWith(prefix));
    if (!own && /^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // other sites, mailto: ... are not ours to check here
    const [filePart, anchor] = (own ? target.slice(own.length) : target).split('#') as [string, string | undefined];
    const base = own ? 'README.md' : file; // an own address is relative to the repository's root
    const resolved = filePart === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(base), decodeURI(filePart)));
    const text = read(resolved);
    if (text === undefined) {
      problems.push(`${file}: ${picture ? 'picture' : 'link'} ${target}: no file ${resolved}`);
      continue;
    }
    if (anchor !== undefined && resolved.endsWith('.md') && !anchorsOf(text).has(anchor)) {
      problems.push(`${file}: link ${target}: ${resolved} has no heading with the anchor #${anchor}`);
    }
  }
  return problems;
}

function readRepo(file: string): string | undefined {
  const full = path.join(REPO, file);
  if (!full.startsWith(REPO + path.sep) || !fs.existsSync(full)) return undefined;
  return fs.statSync(full).isDirectory() ? '' : fs.readFileSync(full, 'utf8');
}

describe('links of the README and docs/', function () {
  it('GitHub spells anchors: lowercase, spaces to -, punctuation dropped, repeats numbered', function () {
    anchorOf('Many devices (fleet)').should.equal('many-devices-fleet');
    anchorOf('Try it: `npm run fleet`').should.equal('try-it-npm-run-fleet');
    anchorOf('Fleet on MQTT: the topic scheme').should.equal('fleet-on-mqtt-the-topic-scheme');
    [...anchorsOf('# A\n## A\n```\n# not a heading\n```\n### b.c\n')].should.eql(['a', 'a-1', 'bc']);
  });

  it('a broken link, a missing anchor and a missing picture are each found (the check can fail)', function () {
    const pages: Record<string, string> = {
      'README.md': `# Top\n[ok](docs/a.md#there) [own](${OWN[0]}docs/a.md#there) [gone](docs/b.md) [no anchor](docs/a.md#nowhere) ![pic](docs/images/none.png) [self](#top) [\`x\`](#missing)`,
      'docs/a.md': '# A\n## There\n[back](../README.md#top)',
    };
    brokenLinks('README.md', (f) => pages[f]).should.eql([
      'README.md: link docs/b.md: no file docs/b.md',
      'README.md: link docs/a.md#nowhere: docs/a.md has no heading with the anchor #nowhere',
      'README.md: picture docs/images/none.png: no file docs/images/none.png',
      'README.md: link #missing: README.md has no heading with the anchor #missing',
    ]);
    brokenLinks('docs/a.md', (f) => pages[f]).should.eql([]);
  });

  const files = documents();
  it('there are pages to check: the README and docs/', function () {
    files.should.containEql('README.md');
    files.filter((f) => f.startsWith('docs/')).length.should.be.above(10);
  });

  for (const file of files) {
    it(`${file}: every relative link, #anchor and picture resolves`, function () {
      brokenLinks(file, readRepo).should.eql([]);
    });
  }

  it("every node's help, in English and German, links to its page of docs/, and that page exists", function () {
    const types = Object.keys(pkg['node-red'].nodes);
    const missing: string[] = [];
    for (const lang of ['en-US', 'de']) {
      for (const type of types) {
        const help = readRepo(`locales/${lang}/${type}.html`);
        if (help === undefined) continue; // a node whose help is still to come; locales.test.ts asks for it
        const pages = [...help.matchAll(/href="([^"#]+)(?:#[^"]*)?"/g)].map((m) => m[1]).filter((href) => href.startsWith(`${OWN[0]}docs/`));
        if (pages.length === 0) missing.push(`${lang}/${type}.html: no link to docs/`);
        for (const page of pages) if (readRepo(page.slice(OWN[0].length)) === undefined) missing.push(`${lang}/${type}.html: ${page}: no such page`);
      }
    }
    missing.should.eql([]);
  });

  it('the README names pictures, and each page of docs/ is linked from the README', function () {
    const readme = readRepo('README.md') ?? '';
    linksOf(readme)
      .filter((l) => l.picture)
      .length.should.be.above(0);
    const linked = new Set(linksOf(readme).map((l) => OWN.reduce((t, prefix) => (t.startsWith(prefix) ? t.slice(prefix.length) : t), l.target).split('#')[0]));
    files.filter((f) => f.startsWith('docs/') && !linked.has(f)).should.eql([]);
  });
});
