/**
 * No two files of nodes/ import each other, directly or round a longer loop: a request goes
 * down the layers once and its answer comes back up once (ARCHITECTURE.md), and a file that
 * imports one that imports it back is a way that doubles back. Read from the sources' own
 * relative imports (type-only ones too: a loop of types is a loop of meaning), so the check
 * needs no build of its own; the probe shows it refuses a loop added to the real sources.
 */
import * as fs from 'fs';
import * as path from 'path';
import 'should';
import { REPO, sourceFiles } from '../helpers/source-files';

/** Every relative module a source names: `import ... from`, `export ... from`, `import '...'`, `import('...')`. */
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

/** The sources, by path relative to the repository. */
function readSources(dir: string): Map<string, string> {
  return new Map(sourceFiles(dir).map((file) => [path.relative(REPO, file), fs.readFileSync(file, 'utf8')]));
}

/** The file a relative import of `from` names, when it is one of `sources`. */
function resolve(sources: Map<string, string>, from: string, spec: string): string | undefined {
  const base = path.join(path.dirname(from), spec);
  return [`${base}.ts`, path.join(base, 'index.ts'), base].find((candidate) => sources.has(candidate));
}

/** Every import loop among `sources`, each as the files round it (the first repeated last). */
export function importCycles(sources: Map<string, string>): string[][] {
  const edges = new Map<string, string[]>();
  for (const [file, text] of sources) {
    const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    const targets = [...code.matchAll(IMPORT)].map((m) => resolve(sources, file, m[1])).filter((t): t is string => t !== undefined);
    edges.set(file, [...new Set(targets)]);
  }
  // Depth first; a file met again while it is still on the way is a loop.
  const cycles: string[][] = [];
  const done = new Set<string>();
  const way: string[] = [];
  const onWay = new Set<string>();
  const visit = (file: string): void => {
    way.push(file);
    onWay.add(file);
    for (const next of edges.get(file) ?? []) {
      if (onWay.has(next)) cycles.push([...way.slice(way.indexOf(next)), next]);
      else if (!done.has(next)) visit(next);
    }
    way.pop();
    onWay.delete(file);
    done.add(file);
  };
  for (const file of [...sources.keys()].sort()) if (!done.has(file)) visit(file);
  return cycles;
}

describe('imports: no loop among the files of nodes/', () => {
  it('no file of nodes/ imports one that imports it back, however far round', () => {
    const sources = readSources('nodes');
    sources.size.should.be.above(100, 'the sources were read');
    importCycles(sources)
      .map((cycle) => cycle.join(' → '))
      .should.eql([]);
  });

  it('probe: a loop added to the real sources is found, and named file by file', () => {
    const sources = readSources('nodes');
    const wirePath = 'nodes/lib/device/wire-path.ts';
    // The wire path importing the client closes a loop: the client imports the wire path.
    sources.set(wirePath, `import type { DeviceClient } from './client';\n${sources.get(wirePath)}`);
    const found = importCycles(sources).filter((c) => c.includes(wirePath));
    found.length.should.be.above(0, 'the loop through the wire path is found');
    found[0].should.containEql('nodes/lib/device/client.ts');
  });

  it('probe: two files importing each other, and an import in a comment is no import', () => {
    const sources = new Map([
      ['nodes/a.ts', "import { b } from './b';\nexport const a = b;\n"],
      ['nodes/b.ts', "export type { A } from './a';\nexport const b = 1;\n"],
      ['nodes/c.ts', "// import { a } from './a';\n/* import { b } from './b'; */\nexport const c = 1;\n"],
      ['nodes/d.ts', "import { c } from './c';\nexport const d = c;\n"],
    ]);
    importCycles(sources).should.eql([['nodes/a.ts', 'nodes/b.ts', 'nodes/a.ts']]);
  });
});
