/**
 * The example flows: importable one by one and all together (npm start merges several into
 * one flows.json), so node ids are unique across every file; every node type is this
 * package's, a core node, or one of a module the file's name says it needs.
 */
import fs from 'fs';
import path from 'path';
import should from 'should';
import { LIMITS } from '../../nodes/lib/pure/limits';

const root = path.resolve(__dirname, '..', '..', '..');
const dir = path.join(root, 'examples');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const OURS = new Set(Object.keys(pkg['node-red'].nodes));
const CORE = new Set([
  'tab',
  'comment',
  'inject',
  'debug',
  'function',
  'change',
  'switch',
  'catch',
  'status',
  'complete',
  'http request',
  'rbe',
  'delay',
  'trigger',
  'template',
  'link in',
  'link out',
  'link call',
  'json',
  'mqtt out',
  'mqtt in',
  'mqtt-broker',
]);
/** File name part → the node types that module brings. */
const NEEDS: Array<{ tag: string; types: RegExp }> = [{ tag: 'needs-flowfuse-dashboard', types: /^ui-/ }];

describe('examples', () => {
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.json'));

  it('node ids are unique across all example files, but for one shared config node per module and the one dashboard base', () => {
    const seen = new Map<string, { file: string; text: string }>();
    for (const file of files) {
      for (const node of JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as Array<{ id: string; type: string }>) {
        const text = JSON.stringify(node);
        const earlier = seen.get(node.id);
        // A module's config node is the same in every file, so importing several reuses it; so is
        // the dashboard's ui-base and theme (Dashboard 2.0 has one ui-base per Node-RED).
        if (earlier && /^(modular-device|ui-base|ui-theme)$/.test(node.type))
          should(text).equal(earlier.text, `${node.id} in ${file} differs from ${earlier.file}`);
        else should(earlier).equal(undefined, `${node.id} in ${file} is also in ${earlier?.file}`);
        seen.set(node.id, { file, text });
      }
    }
  });

  it('one config node per module, each named for its module', () => {
    const modules = new Map<string, string>();
    for (const file of files) {
      for (const node of JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as Array<{
        id: string;
        type: string;
        name: string;
        service: string;
        slot: string;
      }>) {
        if (node.type !== 'modular-device') continue;
        const module = `${node.service} ${node.slot}`;
        should(modules.get(module) ?? node.id).equal(node.id, `${file}: a second config node for ${module}`);
        modules.set(module, node.id);
        node.name.should.startWith(node.slot.startsWith('$') ? node.service : `${node.service} slot ${node.slot}`, `${file}: name of ${node.id}`);
      }
    }
  });

  it('every config node carries every setting its dialog shows, the answer limit at its default (an empty field reads as unset)', () => {
    for (const file of files) {
      for (const node of JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as Array<Record<string, unknown>>) {
        if (node.type !== 'modular-device') continue;
        for (const key of ['url', 'service', 'slot', 'apiVersion', 'timeout', 'queueLimit', 'answerLimit', 'auth']) {
          should(node[key]).be.a.String().and.not.equal('', `${file}: ${node.id} ${key}`);
        }
        should(node.answerLimit).equal(String(LIMITS.answer_limit.default), `${file}: ${node.id}`);
      }
    }
  });

  it('npm start says every tab and comment of its demos in German too (scripts/demos-de.json), and the dashboard; nothing else', () => {
    const start = require(path.join(root, 'scripts', 'start.js')) as { DEMO_FLOWS: string[]; OPTIONAL_DEMOS: Array<{ file: string }> };
    const german = JSON.parse(fs.readFileSync(path.join(root, 'scripts', 'demos-de.json'), 'utf8')) as Record<string, Record<string, unknown>>;
    const texts = new Map<string, string[]>();
    const others = new Map<string, Record<string, unknown>>();
    for (const file of [...start.DEMO_FLOWS, ...start.OPTIONAL_DEMOS.map((d) => d.file)]) {
      for (const node of JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as Array<Record<string, string>>) {
        // A tab's environment carries words its nodes show (the dashboard's alert names).
        if (node.type === 'tab' || node.type === 'comment') texts.set(node.id, ['label', 'name', 'info', 'env'].filter((k) => node[k]).sort());
        else others.set(node.id, node);
      }
    }
    for (const [id, keys] of texts) should(Object.keys(german[id] ?? {}).sort()).eql(keys, id);
    // Beyond tabs and comments: only the dashboard's widgets, the change node that names a
    // chart's line, debug nodes' statuses and the names of inject nodes and debug nodes on the
    // canvas (test/browser/german.test.ts reads the German page and canvas), and only keys they have.
    for (const [id, said] of Object.entries(german).filter(([id]) => !texts.has(id))) {
      const node = others.get(id);
      should(node !== undefined && (/^ui-/.test(String(node.type)) || node.type === 'change' || node.type === 'debug' || node.type === 'inject')).be.true(
        `${id}: not a dashboard, change, debug or inject node of the demos`,
      );
      for (const key of Object.keys(said)) should(node).have.property(key);
    }
  });

  for (const file of files) {
    it(`${file}: only known node types, wires to nodes of the file`, () => {
      const nodes = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as Array<{ id: string; type: string; wires?: string[][] }>;
      const ids = new Set(nodes.map((n) => n.id));
      const extra = NEEDS.filter((n) => file.includes(n.tag));
      for (const node of nodes) {
        const known = OURS.has(node.type) || CORE.has(node.type) || extra.some((e) => e.types.test(node.type));
        known.should.equal(true, `${file}: node type ${node.type} (${node.id})`);
        for (const target of (node.wires ?? []).flat()) ids.has(target).should.equal(true, `${file}: ${node.id} wired to missing ${target}`);
      }
    });
  }
});
