/**
 * How the package's nodes look and which modules they offer, in headless Chromium against a
 * real Node-RED 4.1 with the npm-packed package, in English and German:
 *  - each service (io, bmc, power, and the nodes for any service) has its own colour, none
 *    near a core node's (compared as the browser renders them), and the palette shows it;
 *  - each node has its own icon, and Node-RED serves it;
 *  - the Module list of a node offers only modules of its service (a `${VAR}` service is
 *    offered: only the runtime knows it); a module added from it starts with that service;
 *  - a pasted node with a module of another service is invalid, with the runtime's sentence.
 * Screenshots of the palette, the Module lists and a flow with a core debug go to test-artifacts/.
 * No simulator: nothing here is deployed.
 */
import fs from 'fs';
import should from 'should';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../helpers/browser/chromium';
import { NodeRedServer, startNodeRed } from '../helpers/browser/node-red-server';
import { catalogsReady, inLanguage } from '../helpers/i18n';
import { declaredTypes } from '../helpers/browser/cases';
import * as editor from '../helpers/browser/editor';

declare const RED: any;
declare const $: any;
// Page-side code below runs in the browser; the project compiles without the DOM library.
declare const document: any;
declare const getComputedStyle: any;

/** RGB distance below which two node colours read as the same at a glance. */
const LOOK_ALIKE = 40;

const SERVICE_OF: Record<string, string> = {
  'device-info': 'any',
  'device-status': 'any',
  'fleet-publish': 'any',
  'notification-poll': 'io',
  'device-alarm': 'any',
  'device-alarm-list': 'any',
};
function serviceOf(type: string): string {
  return SERVICE_OF[type] ?? type.split('-')[0];
}

const CONFIGS = [
  { id: 'look-io2', service: 'io', slot: '2' },
  { id: 'look-io3', service: 'io', slot: '3' },
  { id: 'look-bmc', service: 'bmc', slot: '0' },
  { id: 'look-power', service: 'power', slot: '1' },
  { id: 'look-env', service: '${MD_SERVICE}', slot: '2' },
].map((c) => ({
  ...c,
  type: 'modular-device',
  name: `${c.service} ${c.slot}`,
  url: 'http://127.0.0.1:8080',
  apiVersion: 'auto',
  timeout: '5000',
  queueLimit: '100',
  auth: 'none',
  tls: '',
}));

/** Every node type's colour as the browser renders it ([r, g, b]), and the module it comes from. */
function renderedColours(page: Page): Promise<Array<{ type: string; module: string; rgb: number[] }>> {
  return page.evaluate(() => {
    const probe = document.createElement('div');
    document.body.appendChild(probe);
    const rgb = (c: string) => {
      probe.style.color = '';
      probe.style.color = c;
      return String(getComputedStyle(probe).color).match(/\d+/g)!.slice(0, 3).map(Number);
    };
    const out: Array<{ type: string; module: string; rgb: number[] }> = [];
    for (const set of RED.nodes.registry.getNodeList()) {
      for (const type of set.types) {
        const def = RED.nodes.getType(type);
        if (def && def.category !== 'config' && def.color) out.push({ type, module: set.module, rgb: rgb(def.color) });
      }
    }
    probe.remove();
    return out;
  });
}

/** A node type's defaults, as a node dropped from the palette gets them (for pasted nodes). */
function defaultsOf(page: Page, type: string): Promise<Record<string, unknown>> {
  return page.evaluate((t) => {
    const d = RED.nodes.getType(t).defaults;
    return Object.fromEntries(Object.keys(d).map((k) => [k, d[k].value]));
  }, type);
}

function distance(a: number[], b: number[]): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

/** The config node ids the Module list of an open dialog offers (without "Add new"). */
function offered(page: Page): Promise<string[]> {
  return page.$$eval('#node-input-device option', (os: any[]) =>
    os
      .map((o) => o.value)
      .filter((v) => v && v !== '_ADD_')
      .sort(),
  );
}

const LANGUAGES = [
  { name: 'English', locale: 'en-US', lang: 'en-US', tag: 'en' },
  { name: 'German', locale: 'de-DE', lang: 'de', tag: 'de' },
];

describe('look: colours, icons and Module lists (Node-RED 4.1, npm-packed package, headless Chromium)', function () {
  this.timeout(180000);
  let red: NodeRedServer;
  let browser: Browser;
  const types = declaredTypes().filter((t) => t !== 'modular-device');

  before(async function () {
    await catalogsReady;
    fs.mkdirSync(editor.ARTIFACTS, { recursive: true });
    red = await startNodeRed();
    browser = await launchChromium();
  });

  after(async function () {
    await browser?.close();
    await red?.stop();
  });

  LANGUAGES.forEach(({ name, locale, lang, tag }) => {
    describe(`in ${name}`, function () {
      let context: BrowserContext;
      let page: Page;

      before(async function () {
        context = await browser.newContext({ locale, viewport: { width: 1400, height: 900 } });
        page = await context.newPage();
        await editor.openEditor(page, red.url);
        await editor.importNodes(page, CONFIGS);
      });

      after(async function () {
        await context?.close();
      });

      afterEach(async function () {
        if (this.currentTest?.state === 'failed') await editor.closeTrays(page);
      });

      it("gives each service its own colour, none near a core node's, and the palette shows it", async function () {
        const all = await renderedColours(page);
        const core = all.filter((c) => c.module === 'node-red');
        core.length.should.be.above(20, 'core node colours found');
        const ours = all.filter((c) => c.module === '@modular-device/node-red');
        ours
          .map((c) => c.type)
          .sort()
          .should.eql([...types].sort());
        const perService = new Map<string, number[]>();
        for (const c of ours) {
          const service = serviceOf(c.type);
          const seen = perService.get(service);
          if (seen) should(c.rgb).eql(seen, `${c.type}: every ${service} node has the same colour`);
          else perService.set(service, c.rgb);
          for (const k of core) {
            distance(c.rgb, k.rgb).should.not.be.below(LOOK_ALIKE, `${c.type} rgb(${c.rgb}) looks like core ${k.type} rgb(${k.rgb})`);
          }
        }
        [...perService.keys()].sort().should.eql(['any', 'bmc', 'io', 'power']);
        const services = [...perService.entries()];
        for (let i = 0; i < services.length; i++) {
          for (let j = i + 1; j < services.length; j++) {
            distance(services[i][1], services[j][1]).should.not.be.below(LOOK_ALIKE, `${services[i][0]} and ${services[j][0]} look alike`);
          }
        }
        // What the user sees: the palette entry painted in that colour.
        for (const c of ours) {
          const shown: string = await page.$eval(`.red-ui-palette-node[data-palette-type="${c.type}"]`, (el: any) => getComputedStyle(el).backgroundColor);
          shown.match(/\d+/g)!.slice(0, 3).map(Number).should.eql(c.rgb, `${c.type} in the palette`);
        }
        await page.locator('.red-ui-palette-node[data-palette-type="io-output"]').scrollIntoViewIfNeeded();
        await page
          .locator('.red-ui-palette-node[data-palette-type="io-output"]')
          .locator('xpath=ancestor::div[contains(@class,"red-ui-palette-category")]')
          .screenshot({ path: `${editor.ARTIFACTS}/look-palette-${tag}.png` });
      });

      it('gives every node its own icon, which Node-RED serves', async function () {
        const icons: Array<{ type: string; icon: string; fa: string; image: string; status: number }> = await page.evaluate(async (list: string[]) => {
          const out = [];
          for (const type of list) {
            const icon = String(RED.nodes.getType(type).icon);
            const entry = $(`.red-ui-palette-node[data-palette-type="${type}"]`);
            const fa = String(entry.find('.red-ui-palette-icon-fa').attr('class') ?? '');
            const image = String(entry.find('.red-ui-palette-icon').css('background-image') ?? '');
            const url = /url\("?([^")]+)"?\)/.exec(image)?.[1];
            const status = url ? (await fetch(url)).status : 0;
            out.push({ type, icon, fa, image, status });
          }
          return out;
        }, types);
        const seen = new Map<string, string>();
        for (const i of icons) {
          i.icon.should.not.equal('modular-device.svg', `${i.type} still has the common chip icon`);
          if (seen.has(i.icon)) throw new Error(`${i.type} and ${seen.get(i.icon)} share the icon ${i.icon}`);
          seen.set(i.icon, i.type);
          if (i.icon.startsWith('font-awesome/')) should(i.fa.includes(i.icon.replace('font-awesome/', ''))).be.true(`${i.type} palette icon: ${i.fa}`);
          else {
            should(i.image.includes(i.icon)).be.true(`${i.type} palette icon: ${i.image}`);
            i.status.should.equal(200, `${i.type}: ${i.image} served`);
          }
        }
      });

      it("offers in the Module list only modules of the node's service; a module added there starts with it", async function () {
        const expected: Record<string, string[]> = {
          'io-read': ['look-env', 'look-io2', 'look-io3'],
          'bmc-system': ['look-bmc', 'look-env'],
          'power-fan': ['look-env', 'look-power'],
          'device-info': CONFIGS.map((c) => c.id).sort(),
        };
        let y = 200;
        for (const [type, ids] of Object.entries(expected)) {
          const id = await editor.dropNode(page, type, 250, y);
          y += 70;
          await editor.openDialog(page, id);
          (await offered(page)).should.eql(ids, `${type}: Module list`);
          // A headless select shows no open list: show its options as a list box for the picture.
          await page.evaluate(() => $('#node-input-device').attr('size', $('#node-input-device option').length));
          await editor.screenshotTray(page, `look-modules-${type}-${tag}`);
          await page.evaluate(() => $('#node-input-device').removeAttr('size'));
          if (type === 'bmc-system') {
            // "Add new modular-device…" from a bmc node: the new module's service is bmc.
            await page.selectOption('#node-input-device', '_ADD_');
            await page.click('#node-input-btn-device-add');
            await page.waitForSelector('#node-config-dialog-ok', { state: 'visible' });
            (await page.inputValue('#node-config-input-service')).should.equal('bmc', 'service of a module added from bmc-system');
            await page.click('#node-config-dialog-cancel');
            await page.waitForSelector('#node-config-dialog-ok', { state: 'detached' });
          }
          await page.click('#node-dialog-cancel');
          await page.waitForSelector('#node-dialog-ok', { state: 'detached' });
        }
      });

      it("marks a pasted io node with a bmc module invalid, with the runtime's sentence", async function () {
        // As a user pastes them: io-read with its defaults, once with a bmc module, once with an io one.
        const defaults = await defaultsOf(page, 'io-read');
        await editor.importNodes(page, [
          { ...defaults, id: `look-wrong-${tag}`, type: 'io-read', device: 'look-bmc', x: 200, y: 550, wires: [[]] },
          { ...defaults, id: `look-right-${tag}`, type: 'io-read', device: 'look-io2', x: 450, y: 550, wires: [[]] },
        ]);
        const state = (id: string) => page.evaluate((i) => ({ valid: RED.nodes.node(i).valid, errors: RED.nodes.node(i).validationErrors ?? [] }), id);
        const sentence = inLanguage(lang)('@modular-device/node-red/modular-device:modular-device.runtime.common.wrongService', {
          type: 'io-read',
          service: 'io',
          chosen: 'bmc',
        });
        should(sentence.includes('wrongService')).be.false('catalog sentence found');
        should(await state(`look-right-${tag}`)).eql({ valid: true, errors: [] });
        should(await state(`look-wrong-${tag}`)).eql({ valid: false, errors: [sentence] });
        // io-output beside a core debug node: no longer the same green.
        await editor.importNodes(page, [
          {
            ...(await defaultsOf(page, 'io-output')),
            id: `look-out-${tag}`,
            type: 'io-output',
            device: 'look-io2',
            x: 200,
            y: 620,
            wires: [[`look-debug-${tag}`]],
          },
          { id: `look-debug-${tag}`, type: 'debug', name: '', active: true, complete: 'payload', x: 450, y: 620, wires: [] },
        ]);
        await page.locator('#red-ui-workspace-chart').screenshot({ path: `${editor.ARTIFACTS}/look-canvas-${tag}.png` });
      });
    });
  });
});
