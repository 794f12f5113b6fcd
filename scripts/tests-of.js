// Which test files are the tests of a source file: the rule `npm run test:for` runs by, and
// test/unit/tests-of.test.ts holds every file under nodes/lib to (each has one, or is a named
// exception there).
//
// A test file (test/<folder>/<name>.test.ts) is a test of a source file when it
//   - imports it directly (a relative import or require that resolves to it), or
//   - names it: its path from the repository (`nodes/lib/device/queue.ts`), from its layer
//     folder (`device/queue.ts`) or, where no other source file has its name, its name alone
//     (`limit-rules.ts`) stands in the test's text, or
//   - is named for it: `test/<folder>/queue.test.ts` for `nodes/lib/device/queue.ts`, or
//   - imports a test helper (test/helpers/) that imports it directly.
// What a test reaches further (through a node's module, a helper's helper) does not count: the
// list stays short, and a source file without a test of its own shows. For such a file
// `npm run test:for` runs the tests of the source files that import it (testsThrough).
'use strict';
const fs = require('fs');
const path = require('path');

const root = path.resolve(__dirname, '..');

/** Every file below `dir` (relative to the repository) whose name ends with `ending`. */
function filesBelow(dir, ending) {
  const full = path.join(root, dir);
  if (!fs.existsSync(full)) return [];
  return fs.readdirSync(full, { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return filesBelow(rel, ending);
    return entry.name.endsWith(ending) ? [rel] : [];
  });
}

/**
 * The test files of the package, relative to the repository: test/<folder>/.../<name>.test.ts.
 * Less the test of this rule, which names the files without tests of their own (its exceptions).
 */
function testFiles() {
  return filesBelow('test', '.test.ts').filter((f) => !f.startsWith('test/helpers/') && f !== 'test/unit/tests-of.test.ts');
}

/** The package's TypeScript sources (nodes/, simulator/, testing/), relative to the repository. */
function sourceFiles() {
  return ['nodes', 'simulator', 'testing'].flatMap((dir) => filesBelow(dir, '.ts'));
}

/** The source files a test file imports directly (relative specifiers resolved to .ts files). */
function importsOf(testFile) {
  const text = fs.readFileSync(path.join(root, testFile), 'utf8');
  const specifiers = [...text.matchAll(/(?:from\s+|require\(\s*|import\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1]);
  const dir = path.posix.dirname(testFile);
  return specifiers.flatMap((spec) => {
    const base = path.posix.normalize(path.posix.join(dir, spec)).replace(/\.(js|ts)$/, '');
    return [`${base}.ts`, `${base}/index.ts`].filter((f) => fs.existsSync(path.join(root, f)));
  });
}

/** The source file as the repository names it (forward slashes), or why it is none. */
function sourcePath(file) {
  const rel = path.relative(root, path.resolve(file)).split(path.sep).join('/');
  if (!fs.existsSync(path.join(root, rel))) return { error: `${file}: no such file` };
  if (!/\.(ts|js)$/.test(rel) || rel.startsWith('test/') || rel.startsWith('dist/'))
    return { error: `${file}: not a source file (nodes/..., simulator/..., testing/...)` };
  return { rel };
}

/** The test files of the source file `rel` (relative to the repository), sorted. */
function testsOf(rel, tests = testFiles()) {
  const name = path.posix.basename(rel).replace(/\.(ts|js)$/, '');
  const fromLayer = rel.split('/').slice(-2).join('/');
  const helpers = filesBelow('test/helpers', '.ts').filter((helper) => importsOf(helper).includes(rel));
  const base = path.posix.basename(rel);
  const unique = sourceFiles().filter((f) => path.posix.basename(f) === base).length === 1;
  const names = [rel, fromLayer, ...(unique ? [base] : [])].map((n) => new RegExp(`(^|[^\\w.-])${n.replace(/[.]/g, '\\.')}`));
  return tests
    .filter((test) => {
      if (path.posix.basename(test) === `${name}.test.ts`) return true;
      const imports = importsOf(test);
      if (imports.includes(rel) || helpers.some((helper) => imports.includes(helper))) return true;
      const text = fs.readFileSync(path.join(root, test), 'utf8');
      return names.some((n) => n.test(text));
    })
    .sort();
}

/**
 * For a source file without tests of its own: the nearest source files that import it (nodes/,
 * simulator/, testing/) and have tests, with those tests. Empty when none has.
 */
function testsThrough(rel, tests = testFiles()) {
  const sources = sourceFiles();
  const seen = new Set([rel]);
  let layer = [rel];
  while (layer.length) {
    const importers = sources.filter((s) => !seen.has(s) && importsOf(s).some((f) => layer.includes(f)));
    importers.forEach((s) => seen.add(s));
    const found = importers.map((source) => ({ source, tests: testsOf(source, tests) })).filter((f) => f.tests.length);
    if (found.length) return found;
    layer = importers;
  }
  return [];
}

module.exports = { filesBelow, sourceFiles, testFiles, importsOf, sourcePath, testsOf, testsThrough };
