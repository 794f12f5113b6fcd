/**
 * The pictures of README.md and docs/ (`npm run screenshots`, scripts/screenshots.js): made from
 * the real thing, as the browser tests see it, so they can be taken again when the editor
 * changes. Node-RED 4.1 with the npm-packed package and npm start's demo flows against the
 * simulator, headless Chromium at a laptop's 1280 × 800, English:
 *  - editor-demo.png     the editor on the demo tab "Alarm on notification", statuses shown
 *  - sidebar.png         the Device sidebar with the io module's pins
 *  - dialog-refusal.png  io-output's dialog refusing Pin 9, its tooltip naming the range
 *  - dashboard.png       the device dashboard of the demos
 *  - alarm-dashboard.png the alarm page of the demos, two alarms raised by the simulator's alerts
 *  - fleet-overview.png  `npm run fleet`'s central overview of three simulated devices
 *  - fleet-publish-sparkplug.png, fleet-publish-sparkplug-de.png  fleet-publish's dialog with
 *                        Protocol Sparkplug B, in English and in German (a browser in de-DE)
 * Not a test: it asserts nothing, and fails only when a picture cannot be taken.
 */
import fs from 'fs';
import net from 'net';
import path from 'path';
import { spawn, spawnSync } from 'child_process';
import type { Browser, Page } from 'playwright-core';
import { startSimulator, Simulator } from '../../simulator';
import { launchChromium } from '../helpers/browser/chromium';
import { NodeRedServer, startNodeRed } from '../helpers/browser/node-red-server';
import * as editor from '../helpers/browser/editor';
import { demoFlows, deployFlows, start } from '../helpers/demo-flows';
import { httpJson } from '../helpers/sim-control';

declare const RED: any;
declare const document: any;

const root = path.resolve(__dirname, '..', '..', '..');
export const IMAGES = path.join(root, 'docs', 'images');
const VIEWPORT = { width: 1280, height: 800 };
const SEEN = { timeout: 60000 };

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function shoot(page: Page, name: string, target?: { selector?: string; clip?: { x: number; y: number; width: number; height: number } }): Promise<void> {
  const file = path.join(IMAGES, name);
  // A shared machine and a dashboard's live charts: a generous bound, animations stopped for the picture.
  const options = { path: file, timeout: 120000, animations: 'disabled' as const };
  if (target?.selector) await page.locator(target.selector).first().screenshot(options);
  else await page.screenshot({ ...options, clip: target?.clip });
  console.log(`screenshots: ${path.relative(root, file)}`);
}

/** The editor on the alarm demo tab with every node of the package showing its status. */
async function editorAndSidebar(page: Page, red: NodeRedServer, flows: Array<Record<string, any>>): Promise<void> {
  const tab = flows.find((n) => n.type === 'tab' && n.label === 'Alarm on notification')!;
  await editor.openEditor(page, red.url);
  await page.evaluate((id) => RED.workspaces.show(id), tab.id);
  await page.waitForFunction(
    (z) => RED.nodes.filterNodes({ z }).every((n: any) => !/^(io|notification|device|bmc|power)-/.test(n.type) || n.status?.text),
    tab.id,
    SEEN,
  );
  await page.evaluate(() => RED.view.redraw(true));
  await shoot(page, 'editor-demo.png');

  const sidebarTab = page.locator('#red-ui-tab-modular-device a').first();
  if (await sidebarTab.isVisible()) await sidebarTab.click();
  else await page.evaluate(() => RED.sidebar.show('modular-device'));
  await page
    .locator('.md-live .md-live-pin')
    .first()
    .waitFor({ state: 'visible', ...SEEN });
  // The live values come at the sidebar's low read rate: wait until the pins show one.
  await page.waitForFunction(() => Array.from(document.querySelectorAll('.md-live-pin')).some((p: any) => /\d/.test(p.textContent)), undefined, SEEN);
  // A wider sidebar beside the canvas, scrolled to the io module: its six pins with mode, value and current.
  const separator = (await page.locator('#red-ui-sidebar-separator').boundingBox())!;
  await page.mouse.move(separator.x + separator.width / 2, separator.y + 200);
  await page.mouse.down();
  await page.mouse.move(separator.x - 200, separator.y + 200, { steps: 5 });
  await page.mouse.up();
  const io = flows.find((n) => n.type === 'modular-device' && n.service === 'io' && String(n.slot) === '2')!;
  await page.evaluate((id) => document.querySelector(`.md-live-module[data-config="${id}"]`).scrollIntoView({ block: 'start' }), io.id);
  await shoot(page, 'sidebar.png');
}

/** io-output's dialog with Pin 9 typed in, hovered: the red edge and the refusal's tooltip. */
async function dialogRefusal(page: Page, flows: Array<Record<string, any>>): Promise<void> {
  const output = flows.find((n) => n.type === 'io-output')!;
  await page.evaluate((z) => RED.workspaces.show(z), output.z);
  await page.evaluate(() => RED.sidebar.show('info'));
  await editor.openDialog(page, output.id);
  const box = page.locator('#node-input-pin + .red-ui-typedInput-container');
  const value = box.locator('input.red-ui-typedInput-input');
  await value.fill('9');
  await value.press('Tab');
  await page.waitForFunction((s) => document.querySelector(s).classList.contains('input-error'), '#node-input-pin + .red-ui-typedInput-container', {
    timeout: 5000,
  });
  await page.mouse.move(1, 1);
  const at = (await value.boundingBox())!;
  await page.mouse.move(at.x + at.width / 2, at.y + at.height / 2, { steps: 2 });
  await page.locator('.red-ui-popover').first().waitFor({ state: 'visible', timeout: 5000 });
  const tray = (await page.locator('.red-ui-tray').last().boundingBox())!;
  await shoot(page, 'dialog-refusal.png', { clip: { x: tray.x, y: 0, width: tray.width, height: Math.min(VIEWPORT.height, 520) } });
  await editor.closeTrays(page);
}

async function dashboard(page: Page, red: NodeRedServer, sim: Simulator): Promise<void> {
  // The dashboard's io module (slot 3) with voltages on its pins, as a plant's sensors would give.
  for (const [pin, voltage_mV] of [
    [1, 3300],
    [2, 5000],
    [3, 1800],
    [4, 11800],
    [5, 240],
    [6, 7600],
  ]) {
    await httpJson('POST', `${sim.url}/sim/io/3/pins/${pin}`, { voltage_mV });
  }
  await page.goto(`${red.url}dashboard`);
  await page
    .locator('.v-slider-thumb__label')
    .first()
    .waitFor({ state: 'visible', ...SEEN });
  await page.waitForFunction(() => document.querySelectorAll('canvas').length > 0, undefined, SEEN);
  await page.waitForTimeout(3000); // the charts draw their first points (a picture, not a test)
  await shoot(page, 'dashboard.png');
}

/** The alarm page: two alerts on io slot 2 raise their alarms (device-alarm "io2"), one acknowledged, the journal below. */
async function alarmDashboard(page: Page, red: NodeRedServer, sim: Simulator): Promise<void> {
  await page.goto(`${red.url}dashboard/alarms`);
  for (const [pin, alert] of [
    [3, 'custom_voltage_alert'],
    [5, 'high_current_alert'],
  ] as const) {
    await httpJson('POST', `${sim.url}/sim/io/2/pins/${pin}/alert`, { alert });
  }
  const row = page.locator('.md-list tr[data-alarm="io2.p5.high_current_alert"]');
  await row.waitFor({ state: 'visible', ...SEEN });
  await page
    .locator('.md-list tr[data-alarm]')
    .nth(1)
    .waitFor({ state: 'visible', ...SEEN });
  await shoot(page, 'alarm-dashboard.png');
}

/** `npm run fleet` on free ports, its overview once every device's modules show, then stopped (by its pid). */
async function fleetOverview(browser: Browser): Promise<void> {
  const [redPort, mqttPort] = [await freePort(), await freePort()];
  const simPort = 20000 + Math.floor(Math.random() * 20000);
  const env = { ...process.env, PORT: String(redPort), MQTT_PORT: String(mqttPort), SIM_PORT: String(simPort), FLEET_DEVICES: '3' };
  const fleet = spawn(process.execPath, [path.join(root, 'scripts', 'fleet.js')], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  fleet.stdout.on('data', (c) => (log += c));
  fleet.stderr.on('data', (c) => (log += c));
  const ended = new Promise((resolve) => fleet.on('exit', resolve));
  try {
    const context = await browser.newContext({ viewport: VIEWPORT });
    const page = await context.newPage();
    const url = `http://127.0.0.1:${redPort}/dashboard/fleet`;
    for (let i = 0; ; i++) {
      if (fleet.exitCode !== null) throw new Error(`npm run fleet ended:\n${log}`);
      const ok = await page
        .goto(url)
        .then((r) => r?.ok())
        .catch(() => false);
      if (ok) break;
      if (i > 240) throw new Error(`no overview at ${url}:\n${log}`);
      await new Promise((r) => setTimeout(r, 1000));
    }
    // Three devices × three modules, each connected.
    await page.waitForFunction(() => (document.body.innerText.match(/connected/g) ?? []).length >= 9, undefined, { timeout: 240000 });
    // An alert on the first device's io module, as the overview shows it in its row.
    const device = /device (http:\/\/127\.0\.0\.1:\d+)/.exec(log)![1];
    await httpJson('POST', `${device}/sim/io/2/pins/3/alert`, { alert: 'high_current_alert' });
    await page.waitForFunction(() => document.body.innerText.includes('high_current'), undefined, SEEN);
    await page.waitForTimeout(1000);
    await shoot(page, 'fleet-overview.png');
    await context.close();
  } finally {
    fleet.kill('SIGINT');
    await ended;
  }
}

/** fleet-publish's dialog in Sparkplug mode, as an English and a German browser show it (the editor follows the browser's language). */
export async function sparkplugDialogs(browser: Browser, red: NodeRedServer): Promise<void> {
  for (const [locale, name] of [
    ['en-US', 'fleet-publish-sparkplug.png'],
    ['de-DE', 'fleet-publish-sparkplug-de.png'],
  ] as const) {
    // Taller than the others: the whole Sparkplug part with its tip.
    const context = await browser.newContext({ locale, viewport: { width: VIEWPORT.width, height: 1000 } });
    try {
      const page = await context.newPage();
      await editor.openEditor(page, red.url);
      const node = {
        id: 'sparkplug-shot',
        type: 'fleet-publish',
        x: 400,
        y: 300,
        name: '',
        protocol: 'sparkplug',
        broker: 'mqtts://broker.plant.local:8883',
        group: 'plant-north',
        edgeNode: '',
        primaryHost: 'scada-1',
        prefix: 'plant',
        deviceName: 'cell-07',
        commands: 'io-output, power-fan',
        wires: [[], []],
      };
      await editor.importNodes(page, [node]);
      await editor.openDialog(page, node.id);
      await page.locator('#node-input-broker').waitFor({ state: 'visible', timeout: 5000 });
      await page.locator('#node-input-username').fill('edge-node');
      await page.evaluate(() => document.querySelectorAll('.red-ui-notification').forEach((n: any) => n.remove())); // "Imported: 1 node"
      const tray = (await page.locator('.red-ui-tray').last().boundingBox())!;
      await shoot(page, name, { clip: { x: tray.x, y: 0, width: tray.width, height: 1000 } });
    } finally {
      await context.close();
    }
  }
}

/** PNGs with a palette of 256 colours where ImageMagick is installed (about a third of the size); else as taken. */
function optimise(): void {
  for (const file of fs.readdirSync(IMAGES).filter((f) => f.endsWith('.png'))) {
    const full = path.join(IMAGES, file);
    const result = spawnSync('convert', [full, '-strip', '-colors', '256', `PNG8:${full}`]);
    if (result.error || result.status !== 0) return; // no ImageMagick (or a stand-in): the pictures stay as taken
  }
}

export async function takeScreenshots(): Promise<void> {
  fs.mkdirSync(IMAGES, { recursive: true });
  let sim: Simulator | undefined;
  let red: NodeRedServer | undefined;
  let browser: Browser | undefined;
  try {
    sim = await startSimulator({ host: '127.0.0.1', port: 0 });
    red = await startNodeRed(start.OPTIONAL_DEMOS.map((d) => d.module));
    const flows = demoFlows(sim.url, Number(new URL(red.url).port), 'en');
    await deployFlows(red.url, flows);
    browser = await launchChromium();
    const context = await browser.newContext({ locale: 'en-US', viewport: VIEWPORT });
    const page = await context.newPage();
    await editorAndSidebar(page, red, flows);
    await dialogRefusal(page, flows);
    await dashboard(page, red, sim);
    await alarmDashboard(page, red, sim);
    await context.close();
    await sparkplugDialogs(browser, red);
    await fleetOverview(browser);
    optimise();
  } finally {
    await browser?.close();
    await red?.stop();
    await sim?.close();
  }
}
