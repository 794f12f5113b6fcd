/**
 * The palette tarball as a user gets it: `npm pack` once, its file list checked (what Node-RED
 * loads and nothing else: no source maps, no editor sources the bundles already hold, no install
 * script), then the same tarball installed with npm into a bare userDir of every Node-RED the
 * package declares (3.1 and 5.0 from scripts/runtimes.js, 5.0 on Node 22; 4.1 the
 * devDependency) and asked through the admin API whether every node type and the plugin loaded,
 * and whether the editor bundles and catalogues are served.
 */
import fs from 'fs';
import os from 'os';
import path from 'path';
import http from 'http';
import { execFileSync } from 'child_process';
import should from 'should';
import { NodeRedServer, Runtime, packPackage, startNodeRed } from '../helpers/browser/node-red-server';

const runtimes = require(path.resolve(__dirname, '..', '..', '..', 'scripts', 'runtimes.js'));

const root = path.resolve(__dirname, '..', '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const MODULE = pkg.name as string;
const TYPES = Object.keys(pkg['node-red'].nodes);
const PLUGINS = Object.keys(pkg['node-red'].plugins);
const LANGUAGES = ['en-US', 'de'];
/** A plugin's catalogue in the repository (locales/<lang>/<plugin>.json), where it has one. */
const catalogueOf = (plugin: string, lang: string) => path.join(root, 'locales', lang, `${plugin}.json`);
const CATALOGUED = PLUGINS.filter((p) => LANGUAGES.every((lang) => fs.existsSync(catalogueOf(p, lang))));
/** The plugin with no editor part: the Prometheus metrics route (nodes/modular-device-metrics.ts). */
const RUNTIME_ONLY_PLUGIN = 'modular-device-metrics';
/** Lifecycle scripts npm runs when the package is installed as a dependency (npm 11 warns about each). */
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepare'];

function get(url: string, accept = 'application/json'): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false, headers: { Accept: accept } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      })
      .on('error', reject);
  });
}

/** The files of a tarball, without the leading `package/`. */
function filesOf(tarball: string): string[] {
  return execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean)
    .map((f) => f.replace(/^package\//, ''));
}

const VERSIONS: Array<{ series: string; runtime: () => Runtime }> = [
  { series: '3.1', runtime: () => ({ dir: runtimes.nodeRed('3.1').dir }) },
  { series: '4.1', runtime: () => ({}) },
  { series: '5.0', runtime: () => ({ dir: runtimes.nodeRed('5.0').dir, node: runtimes.node22().bin }) },
];

describe('the npm-packed package', function () {
  this.timeout(120000);
  let work: string;
  let tarball: string;
  let files: string[];

  before(function () {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'md-pack-'));
    tarball = packPackage(work);
    files = filesOf(tarball);
  });
  after(() => fs.rmSync(work, { recursive: true, force: true }));

  it('holds every file Node-RED loads: each node and plugin with its .html, icons, both catalogues, the editor bundles, the examples', function () {
    // The metrics plugin is runtime only (an admin route): no .html, so the editor loads nothing of it.
    const plugins = pkg['node-red'].plugins as Record<string, string>;
    const withEditor = Object.entries(plugins).filter(([id]) => id !== RUNTIME_ONLY_PLUGIN);
    for (const file of [...Object.values(pkg['node-red'].nodes), ...withEditor.map(([, file]) => file)] as string[]) {
      files.should.containEql(file);
      files.should.containEql(file.replace(/\.js$/, '.html'));
    }
    files.should.containEql(plugins[RUNTIME_ONLY_PLUGIN]);
    files.should.not.containEql(plugins[RUNTIME_ONLY_PLUGIN].replace(/\.js$/, '.html'));
    for (const lang of LANGUAGES) files.should.containEql(`dist/nodes/locales/${lang}/modular-device.json`);
    // Node-RED reads a plugin's catalogue beside its .js (the sidebar's is in dist/nodes/sidebar/).
    CATALOGUED.length.should.be.above(0);
    for (const plugin of CATALOGUED) {
      const js = pkg['node-red'].plugins[plugin] as string;
      for (const lang of LANGUAGES) files.should.containEql(`${path.posix.dirname(js)}/locales/${lang}/${path.posix.basename(js, '.js')}.json`);
    }
    files.should.containEql('resources/editor.js');
    files.should.containEql('resources/sidebar.js');
    files.should.containEql('dist/simulator/cli.js');
    files.filter((f) => f.startsWith('examples/') && f.endsWith('.json')).length.should.be.above(0);
  });

  it("holds nothing Node-RED does not load: no source map, no editor source (its bundles hold it), no TypeScript but the test kit's typings, no tests", function () {
    // The flow test kit (@modular-device/node-red/testing) is typed: its declarations, and those
    // of the simulator, the pure limits and the alarm system (t.alarms) its types name, with
    // the two base files those reach (clock, the Node-RED slice), are the only .d.ts shipped.
    const KIT_REACHES = [
      'dist/testing/',
      'dist/simulator/',
      'dist/nodes/lib/pure/',
      'dist/nodes/alarms/',
      'dist/nodes/lib/base/clock.d.ts',
      'dist/nodes/lib/base/node-red.d.ts',
    ];
    const typings = (f: string) => f.endsWith('.d.ts') && KIT_REACHES.some((start) => f.startsWith(start));
    const stray = files.filter(
      (f) =>
        f.endsWith('.map') ||
        (f.endsWith('.ts') && !typings(f)) ||
        f.startsWith('dist/nodes/editor/') ||
        f.startsWith('dist/nodes/sidebar/editor/') ||
        f.startsWith('dist/test/') ||
        f.startsWith('nodes/') ||
        f.startsWith('test/'),
    );
    stray.should.eql([]);
    files.should.containEql('dist/testing/index.d.ts');
    // Every shipped .js names no source map (its map and source are not shipped).
    const mapped = files.filter((f) => f.endsWith('.js')).filter((f) => /sourceMappingURL=\S+\.map/.test(fs.readFileSync(path.join(root, f), 'utf8')));
    mapped.should.eql([]);
  });

  it('ships the README but not docs/ (pictures are for GitHub): the README links into docs/ by absolute address, so each link works on npmjs.com too', function () {
    files.should.containEql('README.md');
    files.filter((f) => f.startsWith('docs/')).should.eql([]);
    const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8').replace(/^```[\s\S]*?^```/gm, '');
    const targets = [...readme.matchAll(/\]\(\s*<?([^)\s>]+)/g)].map((m) => m[1]);
    targets.filter((t) => t.includes('docs/')).length.should.be.above(0);
    // A relative link must name a file the tarball holds; docs/ is reached only at the repository's address.
    const relative = targets.filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t) && !t.startsWith('#')).map((t) => t.split('#')[0]);
    relative.filter((t) => !files.includes(t)).should.eql([]);
    const homepage = String(pkg.homepage).replace(/#.*$/, '');
    targets
      .filter((t) => t.includes('docs/'))
      .filter((t) => !t.startsWith(`${homepage}/blob/main/docs/`) && !t.startsWith('https://raw.githubusercontent.com/'))
      .should.eql([]);
  });

  it('runs no script when installed: a palette install builds nothing and npm has nothing to warn about', function () {
    const packed = JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }));
    Object.keys(packed.scripts ?? {})
      .filter((s) => INSTALL_SCRIPTS.includes(s))
      .should.eql([]);
  });

  VERSIONS.forEach(({ series, runtime }) => {
    describe(`installed into a bare userDir of Node-RED ${series}`, function () {
      let red: NodeRedServer;
      before(async function () {
        red = await startNodeRed([], runtime(), tarball);
      });
      after(() => red?.stop());

      it('npm installed it without a warning about install scripts', function () {
        red.output().should.not.match(/install-scripts|install scripts/i);
      });

      it('every node type is registered, enabled and without a load error', async function () {
        const answer = await get(`${red.url}nodes`);
        answer.status.should.equal(200);
        const sets = (JSON.parse(answer.text) as Array<{ module: string; types: string[]; enabled: boolean; err?: string }>).filter((s) => s.module === MODULE);
        const loaded = sets.filter((s) => s.enabled && !s.err).flatMap((s) => s.types);
        should(loaded.sort()).eql([...TYPES].sort(), `node sets: ${JSON.stringify(sets.filter((s) => s.err))}\n${red.output()}`);
      });

      it('the sidebar plugin loaded, its editor part and both bundles are served', async function () {
        const list = await get(`${red.url}plugins`);
        list.status.should.equal(200);
        const ours = (
          JSON.parse(list.text) as Array<{
            module: string;
            enabled: boolean;
            editor: boolean;
            runtime: boolean;
            err?: string;
            plugins: Array<{ type: string }>;
          }>
        ).filter((p) => p.module === MODULE);
        // One set per plugin file: the sidebar (runtime and editor parts) and the metrics (runtime only).
        ours.length.should.equal(PLUGINS.length, list.text);
        for (const set of ours) should(set.err).not.be.ok();
        ours.flatMap((set) => set.plugins.map((p) => p.type)).should.containDeep(PLUGINS);
        const sidebar = ours.find((set) => set.plugins.some((p) => p.type === 'modular-device-sidebar'));
        should(sidebar).containDeep({ enabled: true, editor: true, runtime: true });
        const metrics = ours.find((set) => set.plugins.some((p) => p.type === RUNTIME_ONLY_PLUGIN));
        should(metrics).containDeep({ enabled: true, editor: false, runtime: true });
        (await get(`${red.url}plugins`, 'text/html')).text.should.containEql(`resources/${MODULE}/sidebar.js`);
        for (const bundle of ['editor.js', 'sidebar.js']) (await get(`${red.url}resources/${MODULE}/${bundle}`, '*/*')).status.should.equal(200, bundle);
      });

      it("the plugins' catalogues are served in both languages, as written in locales/", async function () {
        for (const lang of LANGUAGES) {
          const answer = await get(`${red.url}plugins/messages?lng=${lang}`);
          answer.status.should.equal(200);
          const served = JSON.parse(answer.text) as Record<string, unknown>;
          for (const plugin of CATALOGUED) {
            should(served[`${MODULE}/${plugin}`]).eql(JSON.parse(fs.readFileSync(catalogueOf(plugin, lang), 'utf8')), `${plugin} in ${lang}`);
          }
        }
      });
    });
  });
});
