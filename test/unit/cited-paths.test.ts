/**
 * Every path a comment cites exists (issue #42): a comment that names a file the layers moved
 * or a split removed sends its reader nowhere. Read: the comments of every .ts and .js file in
 * nodes/, testing/, simulator/, scripts/, bench/ and test/ (found by the TypeScript parser, so
 * a path in a string or a URL is not one), and the whole of ARCHITECTURE.md.
 *
 * A cited path is a word ending in .ts, .js, .mjs, .cjs, .json, .html, .md or .yaml. It
 * resolves
 * - with a folder (`pure/limits.ts`, `nodes/lib/config-node/connection.ts`, `../helpers/api.ts`):
 *   against the citing file's folder, nodes/, nodes/lib/ or the repository's root;
 * - as a bare name (`limits.ts`): to a file of that name anywhere in the repository (outside
 *   node_modules/, dist/ and the git-ignored caches), so it fails once no such file is left;
 * - in ARCHITECTURE.md, a bare name in a table row that opens with a folder (the row is that
 *   folder's file map): to a file in that folder or below it.
 * A name that is not this repository's file (Node-RED's, a user's, a library's) is listed in
 * ELSEWHERE with where it lives; a URL or an npm package's path (`@scope/x/y.js`) is no cite.
 */
import 'should';
import fs from 'fs';
import path from 'path';
import ts from 'typescript';
import { REPO } from '../helpers/source-files';

/** The folders whose comments are read. */
const SCANNED = ['nodes', 'testing', 'simulator', 'scripts', 'bench', 'test'];
/** Not the repository's files: dependencies, builds, caches (git-ignored). */
const NOT_SOURCES = new Set(['node_modules', 'dist', '.git', '.cache', '.node-red', '.fleet', '.lead-dist', 'test-artifacts']);

/** Names comments use for files that are not this repository's, and where each lives. */
const ELSEWHERE: Record<string, string> = {
  'flows.json': "a Node-RED userDir's flow file",
  'flows_cred.json': "a Node-RED userDir's credentials",
  'settings.js': "Node-RED's settings file",
  'red.js': "Node-RED's own source",
  'lib/red.js': "Node-RED's own source (node-red's main file)",
  '21-debug.js': "Node-RED core's debug node",
  'Node.js': 'the runtime, by name',
  'mqtt.js': 'the MQTT client library, by name',
  'modular-device-alarms.json': 'the alarm journal in a Node-RED userDir (nodes/alarms/journal.ts)',
  'modular-device-sparkplug.json': "Sparkplug's bdSeq in a Node-RED userDir (nodes/fleet/sparkplug/bdseq-store.ts)",
  'session.json': 'a recording the test kit CLI writes where the user says',
  'scenario.yaml': "a user's scenario, in the test kit CLI's usage",
  'results.json': 'written by `npm run bench` (bench/results.json, git-ignored)',
  'bench/results.json': 'written by `npm run bench` (git-ignored)',
  '.d.ts': 'a kind of file (typings)',
  'dist/nodes/runtime.bundle.js': 'the runtime in one file, written by `npm run build` (scripts/bundle-runtime.js)',
};

/** A cited path: folders and a name with one of the extensions; not inside a URL, an npm path or a pattern. */
const CITE = /(?<![\w@/.<>*-])((?:\.{1,2}\/)*(?:[\w.-]+\/)*[\w.-]+\.(?:ts|js|mjs|cjs|json|html|md|yaml))(?![\w/<>*-])/g;

const parsed = new Map<string, { text: string; comments: { line: number; text: string }[] }>();
/** Every comment of a .ts or .js source, with the line it starts on (each file parsed once). */
function comments(file: string, text: string): { line: number; text: string }[] {
  const known = parsed.get(file);
  if (known?.text === text) return known.comments;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, file.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS);
  const seen = new Map<number, string>();
  const collect = (ranges: ts.CommentRange[] | undefined) => ranges?.forEach((r) => seen.set(r.pos, text.slice(r.pos, r.end)));
  // Comments are the trivia around the parser's tokens (getChildren yields every token, the end of the
  // file's too), so a `//` inside a string, template or regular expression is never taken for one.
  const visit = (node: ts.Node) => {
    collect(ts.getLeadingCommentRanges(text, node.pos));
    collect(ts.getTrailingCommentRanges(text, node.end));
    node.getChildren(source).forEach(visit);
  };
  visit(source);
  const found = [...seen].map(([pos, comment]) => ({ line: source.getLineAndCharacterOfPosition(pos).line + 1, text: comment }));
  parsed.set(file, { text, comments: found });
  return found;
}

/** Every file name in `dir` and below it, outside what is not the repository's sources. */
function namesIn(dir: string, names = new Set<string>()): Set<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory() && !NOT_SOURCES.has(entry.name) && !entry.name.startsWith('dist.building-')) namesIn(path.join(dir, entry.name), names);
    else if (entry.isFile()) names.add(entry.name);
  }
  return names;
}
const folderNames = new Map<string, Set<string>>();
/** namesIn for a folder of ARCHITECTURE.md's map, read once. */
function namesInFolder(folder: string): Set<string> {
  if (!folderNames.has(folder)) folderNames.set(folder, fs.existsSync(folder) ? namesIn(folder) : new Set());
  return folderNames.get(folder)!;
}

const isFile = (file: string) => fs.existsSync(file) && fs.statSync(file).isFile();

/** Whether `cited`, written in a file of `folder` (relative to `root`), names a file that exists. */
function resolves(root: string, folder: string, cited: string, names: Set<string>, ownFolder = false): boolean {
  if (cited in ELSEWHERE) return true;
  if (!cited.includes('/')) return (ownFolder ? namesInFolder(path.join(root, folder)) : names).has(cited);
  return [folder, 'nodes', 'nodes/lib', '.'].some((base) => isFile(path.join(root, base, cited)));
}

/** `file:line: cited` for every cited path in `text` (relative file `file`) that resolves to nothing. */
function unresolved(root: string, file: string, text: string, names: Set<string>): string[] {
  const found: string[] = [];
  const check = (line: number, chunk: string, folder: string, ownFolder = false) => {
    for (const [, cited] of chunk.matchAll(CITE)) if (!resolves(root, folder, cited, names, ownFolder)) found.push(`${file}:${line}: ${cited}`);
  };
  if (file.endsWith('.md')) {
    text.split('\n').forEach((row, i) => {
      const folder = /^\| `([\w./-]+)\/` \|/.exec(row)?.[1];
      check(i + 1, row, folder ?? path.dirname(file), folder !== undefined);
    });
  } else {
    for (const comment of comments(file, text)) {
      comment.text.split('\n').forEach((row, i) => check(comment.line + i, row, path.dirname(file)));
    }
  }
  return found;
}

function sourcesIn(dir: string): string[] {
  return fs.readdirSync(path.join(REPO, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourcesIn(file);
    return /\.(ts|js|mjs|cjs)$/.test(entry.name) ? [file] : [];
  });
}

describe('cited paths: every path a comment or ARCHITECTURE.md cites exists', function () {
  // It parses every source of six folders (some 400 files): seconds on a busy machine.
  this.timeout(60000);
  const names = namesIn(REPO);

  for (const dir of SCANNED) {
    it(`every path cited in a comment under ${dir}/ exists`, function () {
      const files = sourcesIn(dir);
      files.length.should.be.above(0);
      files.flatMap((file) => unresolved(REPO, file, fs.readFileSync(path.join(REPO, file), 'utf8'), names)).should.eql([]);
    });
  }

  it('every path ARCHITECTURE.md cites exists, and each bare name in a folder row is in that folder', function () {
    unresolved(REPO, 'ARCHITECTURE.md', fs.readFileSync(path.join(REPO, 'ARCHITECTURE.md'), 'utf8'), names).should.eql([]);
  });

  it('finds a stale path: the flat lib/x.ts of before the layer folders, a name no file has, a row naming a file of another folder', function () {
    const source = [
      '/** Reads answers (lib/answer.ts), bounds from pure/limits.ts and limits.ts, a reset in gone-file.ts. */',
      "const url = 'http://127.0.0.1/lib/answer.ts'; // not a path: the one in the string above is no comment",
      "const text = 'see lib/old.ts'; // nodes/lib/device/answer.ts, device/verdict.ts and ../helpers/source-files.ts",
      '// @node-red/runtime/lib/red.js is an npm path, https://example.com/lib/old.ts a URL; flows.json is a userDir file',
    ].join('\n');
    unresolved(REPO, 'test/unit/example.ts', source, names).should.eql(['test/unit/example.ts:1: lib/answer.ts', 'test/unit/example.ts:1: gone-file.ts']);
    const map = ['| `nodes/lib/device/` | device | `answer.ts`, `limits.ts` |', '| `nodes/lib/pure/` | pure | `limits.ts` |'].join('\n');
    unresolved(REPO, 'ARCHITECTURE.md', map, names).should.eql(['ARCHITECTURE.md:1: limits.ts']);
  });

  it('each name of ELSEWHERE is still cited', function () {
    const cited = new Set(
      SCANNED.flatMap((dir) => sourcesIn(dir)).flatMap((file) =>
        comments(file, fs.readFileSync(path.join(REPO, file), 'utf8')).flatMap((c) => [...c.text.matchAll(CITE)].map((m) => m[1])),
      ),
    );
    Object.keys(ELSEWHERE)
      .filter((name) => !cited.has(name))
      .should.eql([]);
  });
});
