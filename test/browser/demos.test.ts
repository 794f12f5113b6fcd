/**
 * The demo tabs of `npm start` as a user sees them: deployed as
 * they ship against the simulator, in a real Node-RED 4.1 with the npm-packed package and
 * the dashboard, shown in headless Chromium at 100 % zoom, in English and German (the demos
 * in the editor's language, as npm start deploys them on a system in it). Once every
 * node of the package on a tab shows its status, the tab's geometry is read from the
 * rendered SVG and compared box by box:
 *  - no status box overlaps another node or another status;
 *  - no node (a comment included) sticks out at the canvas' left edge;
 *  - no wire runs across a comment;
 *  - one config node per module, named for it;
 *  - the texts say the ports in use, and every tab and comment is said in German too.
 * A screenshot of every tab in each language goes to test-artifacts/.
 */
import fs from 'fs';
import path from 'path';
import should from 'should';
import type { Browser, Page } from 'playwright-core';
import { startSimulator, Simulator } from '../../simulator';
import { httpJson } from '../helpers/sim-control';
import { launchChromium } from '../helpers/browser/chromium';
import { NodeRedServer, startNodeRed } from '../helpers/browser/node-red-server';
import * as editor from '../helpers/browser/editor';
import { demoFlows, deployFlows, FlowNode, start } from '../helpers/demo-flows';

declare const RED: any;
// Page-side code below runs in the browser; the project compiles without the DOM library.
declare const document: any;

const root = path.resolve(__dirname, '..', '..', '..');
const OURS = Object.keys(JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'))['node-red'].nodes);

/** The editor's language → the demos' language npm start picks from the system's. */
const DEMO_LANG: Record<string, string> = { 'en-US': 'en', 'de-DE': 'de' };

interface Box {
  l: number;
  t: number;
  r: number;
  b: number;
}
interface Drawn {
  id: string;
  label: string;
  type: string;
  left: number;
  node: Box;
  status?: Box;
  statusText?: string;
}

/** What the editor drew on a tab, in screen pixels: nodes, their status boxes, wire points. */
function readTab(page: Page, tab: string): Promise<{ nodes: Drawn[]; wires: Array<{ from: string; to: string; points: Array<[number, number]> }> }> {
  return page.evaluate((z) => {
    const box = (el: any) => {
      const r = el.getBoundingClientRect();
      return { l: r.left, t: r.top, r: r.right, b: r.bottom };
    };
    const nodes = RED.nodes.filterNodes({ z }).map((n: any) => {
      const g = document.querySelector(`#red-ui-workspace-chart [id="${n.id}"]`);
      const status = g?.querySelector('.red-ui-flow-node-status-group');
      const shown = status && status.style.display !== 'none' && n.status?.text;
      return {
        id: n.id,
        type: n.type,
        label: `${n.type} "${n.name || ''}"`,
        left: n.x - n.w / 2,
        node: box(g.querySelector('.red-ui-flow-node')),
        status: shown ? box(status) : undefined,
        statusText: n.status?.text,
      };
    });
    const wires: Array<{ from: string; to: string; points: Array<[number, number]> }> = [];
    document.querySelectorAll('#red-ui-workspace-chart .red-ui-flow-link').forEach((g: any) => {
      const d = g.__data__;
      const line = g.querySelector('.red-ui-flow-link-line');
      if (!d?.source || d.source.z !== z || !line) return;
      const ctm = line.getScreenCTM();
      const length = line.getTotalLength();
      const points: Array<[number, number]> = [];
      for (let at = 0; at <= length; at += 4) {
        const p = line.getPointAtLength(at).matrixTransform(ctm);
        points.push([p.x, p.y]);
      }
      wires.push({ from: d.source.id, to: d.target.id, points });
    });
    return { nodes, wires };
  }, tab);
}

/** Each node's place and size in canvas units (x, y its centre), and its status box's width. */
function nodeSizes(page: Page, tab: string): Promise<Array<Record<string, unknown>>> {
  return page.evaluate(
    (z) =>
      RED.nodes.filterNodes({ z }).map((n: any) => {
        const status = document.querySelector(`#red-ui-workspace-chart [id="${n.id}"] .red-ui-flow-node-status-group`);
        return {
          id: n.id,
          type: n.type,
          name: n.name,
          x: n.x,
          y: n.y,
          w: n.w,
          h: n.h,
          statusWidth: n.status?.text ? status?.getBoundingClientRect().width : 0,
        };
      }),
    tab,
  );
}

const overlaps = (a: Box, b: Box) => a.l < b.r && a.r > b.l && a.t < b.b && a.b > b.t;
const inside = ([x, y]: [number, number], b: Box) => x > b.l && x < b.r && y > b.t && y < b.b;

/** Every fault of a tab's layout, in words a reviewer can act on. */
function layoutFaults(drawn: Awaited<ReturnType<typeof readTab>>): string[] {
  const faults: string[] = [];
  for (const n of drawn.nodes) {
    if (n.left < 0) faults.push(`${n.label} sticks out ${Math.ceil(-n.left)} px at the left edge`);
    for (const o of drawn.nodes) {
      if (o === n) continue;
      if (n.status && overlaps(n.status, o.node)) faults.push(`status of ${n.label} ("${n.statusText}") overlaps ${o.label}`);
      if (n.status && o.status && n.id < o.id && overlaps(n.status, o.status)) faults.push(`status of ${n.label} overlaps the status of ${o.label}`);
      if (n.id < o.id && overlaps(n.node, o.node)) faults.push(`${n.label} overlaps ${o.label}`);
    }
  }
  for (const w of drawn.wires) {
    for (const c of drawn.nodes.filter((n) => n.type === 'comment')) {
      if (w.points.some((p) => inside(p, c.node))) faults.push(`the wire ${w.from} → ${w.to} runs across ${c.label}`);
    }
  }
  return faults;
}

describe("demo tabs in a browser (npm start's flows, Node-RED 4.1, headless Chromium, 100 % zoom)", function () {
  this.timeout(180000);
  let sim: Simulator;
  let red: NodeRedServer;
  let browser: Browser;
  let flows: FlowNode[];

  before(async function () {
    sim = await startSimulator({ host: '127.0.0.1', port: 0 });
    red = await startNodeRed(start.OPTIONAL_DEMOS.map((d) => d.module));
    flows = demoFlows(sim.url);
    await deployFlows(red.url, flows);
    browser = await launchChromium();
  });

  after(async function () {
    await browser?.close();
    await red?.stop();
    await sim?.close();
  });

  it('one config node per module, each named for its module', function () {
    const configs = flows.filter((n) => n.type === 'modular-device');
    const modules = configs.map((n) => `${n.service} slot ${n.slot}`);
    should(new Set(modules).size).equal(configs.length, `config nodes: ${modules.join(', ')}`);
    for (const c of configs) should(c.name).startWith(`${c.service} slot ${c.slot}`);
  });

  it('dashboard: the slider shows its value; the alarm table names an alert as a reader says it', async function () {
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    try {
      const page = await context.newPage();
      await page.goto(`${red.url}dashboard`);
      const thumb = page.locator('.v-slider-thumb__label').first();
      await thumb.waitFor({ state: 'visible', timeout: 60000 });
      (await thumb.innerText()).trim().should.match(/^\d+$/);
      // The value's bubble sits clear of the slider's title and of its group's title.
      const boxes = await page.evaluate(() => {
        const slider = document.querySelector('.v-slider');
        const group = slider.closest('.nrdb-ui-group, .v-card');
        const box = (e: any) => e && e.getBoundingClientRect();
        return {
          bubble: box(slider.querySelector('.v-slider-thumb__label')),
          title: box(slider.querySelector('.v-input__prepend')),
          group: box(group?.querySelector('.v-card-title, .nrdb-ui-group-title, h2, h3, header')),
        };
      });
      const apart = (a: any, b: any) => !a || !b || a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
      apart(boxes.bubble, boxes.title).should.be.true("the bubble covers the slider's title");
      apart(boxes.bubble, boxes.group).should.be.true("the bubble covers the group's title");
      // A threshold alert on io slot 3, pin 3, as the simulator's outside world raises it.
      await httpJson('POST', `${sim.url}/sim/io/3/pins/3/alert`, { alert: 'custom_voltage_alert' });
      await page.locator('table', { hasText: 'threshold or interrupt' }).first().waitFor({ state: 'visible', timeout: 30000 });
      (await page.locator('table').first().innerText()).should.not.match(/_alert/);
      // A pin with a voltage fills its gauge's arc that far (at 0 mV the arcs are empty, not blue).
      await httpJson('POST', `${sim.url}/sim/io/3/pins/1`, { voltage_mV: 6000 });
      const gauge = page.locator('.nrdb-ui-gauge', { hasText: '6000' }).first();
      await gauge.waitFor({ state: 'visible', timeout: 30000 });
      // Its arc grows (animated) from the left end to the top: half of the 12000 mV scale.
      await page.waitForFunction(
        () => {
          const arc = [...document.querySelectorAll('.nrdb-ui-gauge')].find((g: any) => g.textContent.includes('6000'))?.querySelector('#arc path');
          return arc && arc.getBBox().width > 80 && arc.getBBox().width < 120;
        },
        undefined,
        { timeout: 30000 },
      );
      // The others, at 0 mV, show nothing coloured: no arc, and no coloured key ring around the
      // scale (a ring of no thickness: its outer and inner radius are the same).
      const others = await page.evaluate(() =>
        [...document.querySelectorAll('.nrdb-ui-gauge')]
          .filter((g: any) => /^Pin [2-6]/.test(g.textContent.trim()))
          .map((g: any) => ({
            arc: g.querySelector('#arc path')?.getBBox().width ?? 0,
            radii: [...new Set([...(g.querySelector('#sections path')?.getAttribute('d') ?? '').matchAll(/A([\d.]+),/g)].map((m: any) => m[1]))],
          })),
      );
      others.should.have.length(5);
      for (const o of others) {
        o.arc.should.be.below(20);
        o.radii.length.should.be.belowOrEqual(1, `a key ring ${o.radii.join(' to ')}`);
      }
      fs.mkdirSync(editor.ARTIFACTS, { recursive: true });
      await page.screenshot({ path: path.join(editor.ARTIFACTS, 'demo-dashboard.png'), fullPage: true });
    } finally {
      await context.close();
    }
  });

  it('the demo texts say the ports in use and come in German too: tabs and comments', function () {
    const simPort = new URL(sim.url).port;
    const redPort = new URL(red.url).port;
    const english = demoFlows(sim.url, Number(redPort), 'en');
    const german = demoFlows(sim.url, Number(redPort), 'de');
    for (const nodes of [english, german]) {
      const text = JSON.stringify(nodes);
      text.should.not.match(/127\.0\.0\.1:(8080|1880)\b|--port 8080\b/);
      text.should.containEql(`--port ${simPort}`);
      text.should.containEql(`http://127.0.0.1:${redPort}/dashboard`);
    }
    const words = (nodes: FlowNode[]) => nodes.filter((n) => n.type === 'tab' || n.type === 'comment').map((n) => [n.label ?? n.name, n.info ?? '']);
    const [en, de] = [words(english), words(german)];
    de.length.should.equal(en.length);
    de.forEach(([text, info], i) => {
      should(text).not.equal(en[i][0], `"${en[i][0]}" is said in German too`);
      if (en[i][1]) should(info).not.equal(en[i][1], `the description under "${en[i][0]}" is said in German too`);
    });
  });

  for (const locale of ['en-US', 'de-DE']) {
    describe(`in ${locale}`, function () {
      let page: Page;

      before(async function () {
        // As npm start on a system in this language: the demos in it, and the ports in use.
        flows = demoFlows(sim.url, Number(new URL(red.url).port), DEMO_LANG[locale]);
        await deployFlows(red.url, flows);
        const context = await browser.newContext({ locale, viewport: { width: 1900, height: 1500 } });
        page = await context.newPage();
        await editor.openEditor(page, red.url);
      });

      after(async function () {
        await page?.context().close();
      });

      it('one vocabulary for polling and change-only sending in every node', async function () {
        const words =
          locale === 'de-DE'
            ? { interval: 'Abfragen alle', onlyOnChange: 'Nur bei Änderung senden' }
            : { interval: 'Poll every', onlyOnChange: 'Send only on change' };
        const said = await page.evaluate(
          (types) =>
            types.map((t: string) => ({
              t,
              interval: RED._(`@modular-device/node-red/${t}:${t}.label.interval`),
              onlyOnChange: RED._(`@modular-device/node-red/${t}:${t}.label.onlyOnChange`),
            })),
          ['io-read', 'bmc-readings', 'power-readings', 'notification-poll'],
        );
        for (const s of said) {
          should(s.interval).equal(words.interval, `${s.t} interval`);
          if (s.t !== 'notification-poll') should(s.onlyOnChange).equal(words.onlyOnChange, `${s.t} onlyOnChange`);
        }
      });

      for (const tab of demoFlows('http://127.0.0.1:8080', 1880, DEMO_LANG[locale]).filter((n) => n.type === 'tab')) {
        it(`"${tab.label}": every status readable, no comment clipped, no wire across a comment`, async function () {
          await page.evaluate((id) => RED.workspaces.show(id), tab.id);
          (await page.evaluate(() => RED.view.scale())).should.equal(1);
          const ours = flows.filter((n) => n.z === tab.id && OURS.includes(n.type) && !n.d).map((n) => n.id);
          // The longest texts a status takes come with the values: wait until each node shows one.
          await page
            .waitForFunction((ids) => ids.every((i: string) => RED.nodes.node(i)?.status?.text && RED.nodes.node(i).status.fill !== 'yellow'), ours, {
              timeout: 30000,
            })
            .catch(() => undefined);
          await page.evaluate(() => RED.view.redraw(true));
          const drawn = await readTab(page, tab.id);
          const slug = String(tab.label)
            .toLowerCase()
            .replace(/[^a-z0-9]+/g, '-')
            .replace(/^-|-$/g, '');
          fs.mkdirSync(editor.ARTIFACTS, { recursive: true });
          await page.locator('#red-ui-workspace-chart').screenshot({ path: path.join(editor.ARTIFACTS, `demo-${slug}-${locale}.png`) });
          // The measured boxes beside the picture, for whoever moves the nodes next.
          fs.writeFileSync(path.join(editor.ARTIFACTS, `demo-${slug}-${locale}.json`), JSON.stringify(await nodeSizes(page, tab.id), null, 1));
          const silent = drawn.nodes.filter((n) => ours.includes(n.id) && !n.statusText).map((n) => n.label);
          should(silent).eql([], 'package nodes without a status on the tab');
          should(layoutFaults(drawn)).eql([], `layout of "${tab.label}" (${locale})`);
        });
      }
    });
  }
});
