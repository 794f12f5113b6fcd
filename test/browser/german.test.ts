/**
 * A German operator's day, read for English: a Node-RED started on a German system (LANG
 * de_DE, so its runtime speaks German), the demos `npm start` deploys there (German texts,
 * scripts/demos-de.json), headless Chromium in de-DE. Read as a user sees them:
 *  - the canvas: the status of every node of the package on every demo tab;
 *  - the Device sidebar: every card, with units and decimal signs as German writes them;
 *  - the dashboard page: titles, buttons, the alarm table and its pop-up.
 * None may hold a word that only the English catalogues use (test/helpers/german-words.ts);
 * for the dashboard, also none that only its English texts (the example as it ships) use.
 * Screenshots: test-artifacts/german-*.png.
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
import { englishIn, englishOnlyWords } from '../helpers/german-words';
import { demoFlows, deployFlows, FlowNode, start } from '../helpers/demo-flows';

declare const RED: any;
declare const document: any;

const root = path.resolve(__dirname, '..', '..', '..');
const OURS = Object.keys(JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'))['node-red'].nodes);
const SEEN = { timeout: 60000 };

/** The words a dashboard widget shows: titles, labels, buttons, columns, the alert names of its tab's environment. */
function dashboardTexts(nodes: FlowNode[]): string[] {
  return nodes.flatMap((n) => {
    if (n.type === 'tab')
      return (n.env ?? []).flatMap((e: { value: string; type: string }) => (e.type === 'json' ? Object.values(JSON.parse(e.value)) : [e.value]));
    if (!/^ui-/.test(n.type) && n.type !== 'change') return [];
    const said = [n.name, n.label, n.title, n.dismissText, n.yAxisLabel, ...(n.columns ?? []).map((c: { title: string }) => c.title)];
    if (n.type === 'change') said.push(...(n.rules ?? []).filter((r: { tot: string }) => r.tot === 'str').map((r: { to: string }) => r.to));
    return said.filter((s): s is string => typeof s === 'string');
  });
}

/** Starts Node-RED as on a German system: the locale variables Node-RED reads for its language (LC_ALL, LC_MESSAGES, LANG). */
async function germanNodeRed(links: string[]): Promise<NodeRedServer> {
  const names = ['LC_ALL', 'LC_MESSAGES', 'LANG'] as const;
  const saved = names.map((n) => process.env[n]);
  for (const n of names) process.env[n] = 'de_DE.UTF-8';
  try {
    return await startNodeRed(links);
  } finally {
    names.forEach((n, i) => (saved[i] === undefined ? delete process.env[n] : (process.env[n] = saved[i])));
  }
}

/** The device's own words, which no catalogue says: a refusal's status is the HTTP status and the device's message. */
const devicesOwn = (text: string) => /^\d{3} /.test(text);

function faults(where: string, texts: string[], englishOnly: Set<string>): string[] {
  return texts
    .filter((t) => !devicesOwn(t))
    .flatMap((t) => (englishIn(t, englishOnly).length ? [`${where}: "${t}" (${englishIn(t, englishOnly).join(', ')})`] : []));
}

describe('a German operator meets no English (German Node-RED, npm start demos in German, de-DE Chromium)', function () {
  this.timeout(180000);
  let sim: Simulator;
  let red: NodeRedServer;
  let browser: Browser;
  let flows: FlowNode[];
  let page: Page;
  let englishOnly: Set<string>;

  before(async function () {
    sim = await startSimulator({ host: '127.0.0.1', port: 0 });
    red = await germanNodeRed(start.OPTIONAL_DEMOS.map((d) => d.module));
    const port = Number(new URL(red.url).port);
    flows = demoFlows(sim.url, port, 'de');
    englishOnly = englishOnlyWords(dashboardTexts(demoFlows(sim.url, port, 'en')), dashboardTexts(flows));
    await deployFlows(red.url, flows);
    browser = await launchChromium();
    const context = await browser.newContext({ locale: 'de-DE', viewport: { width: 1900, height: 1400 } });
    page = await context.newPage();
    await editor.openEditor(page, red.url);
    fs.mkdirSync(editor.ARTIFACTS, { recursive: true });
  });

  after(async function () {
    await browser?.close();
    await red?.stop();
    await sim?.close();
  });

  it('the proof reads what it should: the English-only words hold the English of the catalogues and the dashboard', function () {
    // (Not 'alarms': it is a topic level of the fleet's MQTT, said as it is in the German catalogue too.)
    for (const word of ['connected', 'unreachable', 'temperatures', 'clear']) should(englishOnly.has(word)).be.true(word);
    for (const word of ['pin', 'api', 'verbunden', 'mv']) should(englishOnly.has(word)).be.false(word);
  });

  it('the canvas: every status on every demo tab in German', async function () {
    const found: string[] = [];
    for (const tab of flows.filter((n) => n.type === 'tab')) {
      await page.evaluate((id) => RED.workspaces.show(id), tab.id);
      const ours = flows.filter((n) => n.z === tab.id && OURS.includes(n.type) && !n.d).map((n) => n.id);
      // Each node's status past "verbinde" (status.connecting): what it says once its module
      // answered. Not past every yellow dot: an alarm the demo raised (the health alarm hears
      // the notifications-lost of the demo's own power-management on deploy) is yellow too.
      await page.waitForFunction(
        (ids) => ids.every((i: string) => RED.nodes.node(i)?.status?.text && RED.nodes.node(i).status.text !== 'verbinde'),
        ours,
        SEEN,
      );
      await page.evaluate(() => RED.view.redraw(true));
      const statusOf = (ids: string[]): Promise<string[]> =>
        page.evaluate(
          (list) => list.map((i: string) => document.querySelector(`#red-ui-workspace-chart [id="${i}"] .red-ui-flow-node-status-label`)?.textContent ?? ''),
          ids,
        );
      should((await statusOf(ours)).filter((t) => !t)).eql([], `"${tab.label}": nodes of the package without a status shown`);
      // Every status on the tab: the package's, and the demo's own (a debug node's status expression).
      const shown = (await statusOf(flows.filter((n) => n.z === tab.id).map((n) => n.id))).filter(Boolean);
      const slug = String(tab.label)
        .toLowerCase()
        .replace(/[^a-z0-9äöü]+/g, '-')
        .replace(/^-|-$/g, '');
      await page.locator('#red-ui-workspace-chart').screenshot({ path: path.join(editor.ARTIFACTS, `german-canvas-${slug}.png`) });
      found.push(...faults(`"${tab.label}"`, shown, englishOnly));
      // The runtime speaks German too: a status with values is said there (the API's "verbunden").
      should(shown.join(' ')).not.match(/\bconnected\b/);
    }
    should(found).eql([], 'statuses with English words');
  });

  it('the Device sidebar: words, units and decimal signs in German', async function () {
    const tab = page.locator('#red-ui-tab-modular-device a').first();
    if (await tab.isVisible()) await tab.click();
    else await page.evaluate(() => RED.sidebar.show('modular-device'));
    // The power card with the fan's speed (the dashboard demo turns its measurement on) and a bmc temperature.
    await page.waitForFunction(
      () => /U\/min/.test(document.querySelector('.md-live')?.textContent ?? '') && /°C/.test(document.querySelector('.md-live').textContent),
      undefined,
      SEEN,
    );
    // The nodes' labels under "Genutzt von" are the flows' (a name the user gave, or the label a
    // node's dialog makes of its settings), not the sidebar's words: read without them.
    const text: string = await page.evaluate(() => {
      const copy = document.querySelector('.md-live').cloneNode(true);
      copy.querySelectorAll('.md-live-users .md-live-value').forEach((e: any) => e.remove());
      document.body.appendChild(copy);
      const said = copy.innerText;
      copy.remove();
      return said;
    });
    await page.locator('#red-ui-sidebar').screenshot({ path: path.join(editor.ARTIFACTS, 'german-sidebar.png') });
    // And the power card's end (rails, fan), below the fold of the first picture.
    await page.evaluate(() => document.querySelector('.md-live-service-power')?.scrollIntoView({ block: 'end' }));
    await page.locator('#red-ui-sidebar').screenshot({ path: path.join(editor.ARTIFACTS, 'german-sidebar-power.png') });
    should(faults('sidebar', text.split('\n'), englishOnly)).eql([], 'sidebar rows with English words');
    should(text).not.match(/\d rpm\b/);
    // Numbers as German writes them: a decimal comma (the simulated temperatures have decimals), never a point.
    should(text).match(/\d,\d °C/);
    should(text).not.match(/\d\.\d+ (°C|s|mV|mA|%)/);
  });

  it('the dashboard page: titles, buttons, the alarm table and its pop-up in German', async function () {
    const context = await browser.newContext({ locale: 'de-DE', viewport: { width: 1400, height: 1000 } });
    try {
      const dash = await context.newPage();
      await dash.goto(`${red.url}dashboard`);
      await dash
        .locator('.v-slider-thumb__label')
        .first()
        .waitFor({ state: 'visible', ...SEEN });
      // A threshold alert on io slot 3, pin 3, as the simulator's outside world raises it: a row and a pop-up.
      await httpJson('POST', `${sim.url}/sim/io/3/pins/3/alert`, { alert: 'custom_voltage_alert' });
      await dash
        .locator('table', { hasText: 'Schwelle oder Interrupt' })
        .first()
        .waitFor({ state: 'visible', ...SEEN });
      const text: string = await dash.evaluate(() => document.body.innerText);
      await dash.screenshot({ path: path.join(editor.ARTIFACTS, 'german-dashboard.png'), fullPage: true, ...SEEN });
      should(faults('dashboard', text.split('\n'), englishOnly)).eql([], 'dashboard texts with English words');
      for (const word of ['Gerät', 'Pin-Spannungen', 'Temperaturen', 'Alarme', 'Leeren', 'Kurzschluss an Pin 5', 'Zeit']) should(text).containEql(word);
    } finally {
      await context.close();
    }
  });
});
