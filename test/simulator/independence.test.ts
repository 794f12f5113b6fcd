/**
 * The simulator is an independent oracle for the package's tests: its tables come from the
 * spec and the reference, never from the package's nodes/.
 * This reads every source file under simulator/ and fails on any import or require that
 * reaches nodes/, and on a file past the house's 300 lines.
 */
import assert from 'assert';
import fs from 'fs';
import path from 'path';

/** The repository root: this file runs from dist/test/simulator/. */
const ROOT = path.resolve(__dirname, '..', '..', '..');
const SIMULATOR = path.join(ROOT, 'simulator');
const NODES = path.join(ROOT, 'nodes');
const MAX_LINES = 300;

/** Every module specifier in a source text: import/export … from, import(), require(), bare import. */
const SPECIFIERS = /\bfrom\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)|\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]/gm;

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.(ts|js|mjs|cjs)$/.test(entry.name) ? [full] : [];
  });
}

/** Where a relative specifier points. */
function target(file: string, specifier: string): string {
  return path.resolve(path.dirname(file), specifier);
}

function reachesNodes(file: string, specifier: string): boolean {
  if (specifier.startsWith('.')) {
    const resolved = target(file, specifier);
    return resolved === NODES || resolved.startsWith(NODES + path.sep);
  }
  // The package by its own name, e.g. '@modular-device/node-red/dist/nodes/lib/pure/limits'.
  return /^@modular-device\/node-red\/(dist\/)?nodes(\/|$)/.test(specifier);
}

describe('simulator independence', function () {
  const files = sources(SIMULATOR);

  it('finds the simulator sources', function () {
    assert.ok(files.length >= 20, `only ${files.length} files under ${SIMULATOR}`);
    assert.ok(files.some((f) => f.endsWith(path.join('api09', 'limits.ts'))));
    assert.ok(files.some((f) => f.endsWith(path.join('api10', 'limits.ts'))));
  });

  it('nothing in simulator/ imports from nodes/', function () {
    const offenders: string[] = [];
    for (const file of files) {
      const text = fs.readFileSync(file, 'utf8');
      for (const m of text.matchAll(SPECIFIERS)) {
        const specifier = m[1] ?? m[2] ?? m[3] ?? m[4];
        if (reachesNodes(file, specifier)) offenders.push(`${path.relative(ROOT, file)}: ${specifier}`);
      }
    }
    assert.deepStrictEqual(offenders, [], `the simulator must keep its own tables:\n${offenders.join('\n')}`);
  });

  it('nothing in simulator/ imports the test kit (testing/), which is built on it', function () {
    const TESTING = path.join(ROOT, 'testing');
    const offenders = files.flatMap((file) =>
      [...fs.readFileSync(file, 'utf8').matchAll(SPECIFIERS)]
        .map((m) => m[1] ?? m[2] ?? m[3] ?? m[4])
        .filter(
          (s) =>
            (s.startsWith('.') && (target(file, s) === TESTING || target(file, s).startsWith(TESTING + path.sep))) ||
            /^@modular-device\/node-red(\/|$)/.test(s),
        )
        .map((s) => `${path.relative(ROOT, file)}: ${s}`),
    );
    assert.deepStrictEqual(offenders, []);
  });

  it('the test kit (testing/) reaches no node file, only the pure layer (limits, facts) and, from testing/alarms.ts alone, the alarm system: it drives the nodes through Node-RED', function () {
    const PURE = path.join(NODES, 'lib', 'pure') + path.sep;
    // The one exception (ARCHITECTURE.md, testing/): an operator's act reaches the alarm system
    // of the kit's Node-RED in-process, the same module instance Node-RED loaded, so a test
    // needs no device-alarm-list node in the user's flows. Only that file, only nodes/alarms/.
    const ALARMS = path.join(NODES, 'alarms') + path.sep;
    const mayReach = (file: string, s: string) =>
      target(file, s).startsWith(PURE) || (path.basename(file) === 'alarms.ts' && target(file, s).startsWith(ALARMS));
    const kit = sources(path.join(ROOT, 'testing'));
    assert.ok(kit.length >= 8, `only ${kit.length} files under testing/`);
    const offenders = kit.flatMap((file) =>
      [...fs.readFileSync(file, 'utf8').matchAll(SPECIFIERS)]
        .map((m) => m[1] ?? m[2] ?? m[3] ?? m[4])
        .filter((s) => reachesNodes(file, s) && !mayReach(file, s))
        .map((s) => `${path.relative(ROOT, file)}: ${s}`),
    );
    assert.deepStrictEqual(offenders, []);
  });

  it('the check itself sees an import of nodes/ in each form', function () {
    const file = path.join(SIMULATOR, 'api09', 'io.ts');
    for (const specifier of ['../../nodes/lib/pure/limits', '../../nodes', '@modular-device/node-red/dist/nodes/lib/pure/limits']) {
      assert.ok(reachesNodes(file, specifier), specifier);
    }
    for (const specifier of ['../models/io', './limits', 'http', '../nodesish']) assert.ok(!reachesNodes(file, specifier), specifier);
    const forms = `import { a } from '../x';\nexport * from "../y";\nconst z = require('../z');\nimport '../w';\nawait import('../v');`;
    assert.deepStrictEqual(
      [...forms.matchAll(SPECIFIERS)].map((m) => m[1] ?? m[2] ?? m[3] ?? m[4]),
      ['../x', '../y', '../z', '../w', '../v'],
    );
  });

  it(`no source file in simulator/ is over ${MAX_LINES} lines`, function () {
    const long = files
      .map((file) => ({ file: path.relative(ROOT, file), lines: fs.readFileSync(file, 'utf8').split('\n').length }))
      .filter(({ lines }) => lines > MAX_LINES + 1); // a final newline is not a line
    assert.deepStrictEqual(long, []);
  });
});
