/**
 * The operator's alarm page (examples/alarms-needs-flowfuse-dashboard.json) as an operator
 * uses it: deployed as npm start deploys it, beside the "Alarm on notification" demo whose
 * device-alarm nodes define the alarms, in a real Node-RED 4.1 with the npm-packed package and
 * Dashboard 2, shown in headless Chromium in English and in German (the page takes its words
 * from the browser's language). The simulator raises an alert on io slot 2; notification-poll
 * reads it, device-alarm raises the alarm, device-alarm-list sends the list: the alarm appears
 * on the page as active and unacknowledged. A click on Acknowledge, with a user and a comment,
 * acknowledges it; the journal shows the transition with the user, the comment and the time.
 * Shelve (15 min) on the other alarm takes it out of annunciation, with its journal entry.
 * One Node-RED for both languages; each language raises alarms of its own pins, so neither
 * sees the other's as new. Screenshots: test-artifacts/alarm-dashboard-<locale>-*.png.
 */
import fs from 'fs';
import path from 'path';
import should from 'should';
import type { Browser, Locator, Page } from 'playwright-core';
import { startSimulator, Simulator } from '../../simulator';
import { httpJson } from '../helpers/sim-control';
import { launchChromium } from '../helpers/browser/chromium';
import { NodeRedServer, startNodeRed } from '../helpers/browser/node-red-server';
import { ARTIFACTS } from '../helpers/browser/editor';
import { deployFlows, FlowNode, start } from '../helpers/demo-flows';

const FILES = ['alarm-on-notification.json', 'alarms-needs-flowfuse-dashboard.json'];
const DASHBOARD = '@flowfuse/node-red-dashboard';
const SEEN = { timeout: 30000 };

/** What each language's page must say, and the alerts it raises (pin, flag) on io slot 2. */
const CASES = [
  {
    locale: 'en-US',
    user: 'Ada',
    comment: 'checked the wiring',
    alerts: [
      { pin: 3, flag: 'custom_voltage_alert' },
      { pin: 5, flag: 'high_current_alert' },
    ],
    words: { title: 'Alarms to act on', ack: 'Acknowledge', shelve: 'Shelve', head: ['Priority', 'Message', 'Where', 'State', 'Since'], journal: 'Journal' },
    states: {
      'active-unack': 'active, unacknowledged',
      'active-ack': 'active, acknowledged',
      'rtn-unack': 'returned to normal, unacknowledged',
      normal: 'normal',
      shelved: 'shelved',
    },
    unshelve: 'Unshelve',
  },
  {
    locale: 'de-DE',
    user: 'Erika',
    comment: 'Verdrahtung geprüft',
    alerts: [
      { pin: 4, flag: 'custom_voltage_alert' },
      { pin: 3, flag: 'high_voltage_alert' },
    ],
    words: {
      title: 'Zu bearbeitende Alarme',
      ack: 'Quittieren',
      shelve: 'Zurückstellen',
      head: ['Priorität', 'Meldung', 'Ort', 'Zustand', 'Seit'],
      journal: 'Journal',
    },
    states: {
      'active-unack': 'aktiv, unquittiert',
      'active-ack': 'aktiv, quittiert',
      'rtn-unack': 'gegangen, unquittiert',
      normal: 'normal',
      shelved: 'zurückgestellt',
    },
    unshelve: 'Zurückholen',
  },
];

/** The alarm id device-alarm "io2" gives a pin's alert. */
const alarmId = (a: { pin: number; flag: string }) => `io2.p${a.pin}.${a.flag}`;

describe('the alarm dashboard page: an alarm appears, a click acknowledges it, the journal says who and when (Node-RED 4.1, Dashboard 2, headless Chromium)', function () {
  this.timeout(180000);
  let sim: Simulator;
  let red: NodeRedServer;
  let browser: Browser;

  before(async function () {
    sim = await startSimulator({ host: '127.0.0.1', port: 0 });
    red = await startNodeRed([DASHBOARD]);
    const redPort = Number(new URL(red.url).port);
    const flows: FlowNode[] = FILES.flatMap((f) => start.readExample(f, { simUrl: sim.url, redPort, lang: 'en' }));
    await deployFlows(red.url, [...new Map(flows.map((n) => [n.id, n])).values()]);
    browser = await launchChromium();
    fs.mkdirSync(ARTIFACTS, { recursive: true });
  });

  after(async function () {
    await browser?.close();
    await red?.stop();
    await sim?.close();
  });

  for (const c of CASES) {
    it(`${c.locale}: the alarm appears unacknowledged; Acknowledge with user and comment, the journal shows them and the time; Shelve takes the other out of annunciation`, async function () {
      const context = await browser.newContext({ locale: c.locale, viewport: { width: 1400, height: 1000 } });
      try {
        const page = await context.newPage();
        await page.goto(`${red.url}dashboard/alarms`);
        await page.locator('.md-alarms .md-list').waitFor({ state: 'visible', ...SEEN });
        // The page's own words in the browser's language.
        const heads = (await page.locator('.md-list thead th').allInnerTexts()).map((t) => t.trim()).filter(Boolean);
        should(heads).eql(c.words.head);
        should((await page.locator('.md-title').innerText()).trim()).equal(c.words.title);
        for (const a of c.alerts) await httpJson('POST', `${sim.url}/sim/io/2/pins/${a.pin}/alert`, { alert: a.flag });
        const rows = c.alerts.map((a) => page.locator(`.md-list tr[data-alarm="${alarmId(a)}"]`));
        for (const row of rows) await row.waitFor({ state: 'visible', ...SEEN });
        // Raised: unacknowledged, an Acknowledge and a Shelve button, where it is (io 2, its pin).
        const first = rows[0];
        await shot(page, c.locale, 'raised');
        should(await stateOf(first)).be.oneOf(c.states['active-unack'], c.states['rtn-unack']);
        should(await first.locator('.md-ack').innerText()).match(new RegExp(c.words.ack, 'i'));
        should(await first.locator('.md-shelve').innerText()).match(new RegExp(c.words.shelve, 'i'));
        should((await first.innerText()).replace(/\s+/g, ' ')).containEql(`io 2 · ${c.locale === 'de-DE' ? 'Pin' : 'pin'} ${c.alerts[0].pin} `);

        await page.locator('.md-user').fill(c.user);
        await page.locator('.md-comment').fill(c.comment);
        await first.locator('.md-ack').click();
        const entry = page.locator(`.md-journal tr.md-entry[data-alarm="${alarmId(c.alerts[0])}"]`, { hasText: c.user }).first();
        await entry.waitFor({ state: 'visible', ...SEEN });
        const cells = (await entry.locator('td').allInnerTexts()).map((t) => t.trim());
        // Where the acknowledge took it depends on whether the alarm had cleared by itself (5 s after
        // the device's alert) when the click arrived: active → acknowledged, or returned → normal.
        const [before, acked] = cells[2].split(' → ');
        should([`${c.states['active-unack']} → ${c.states['active-ack']}`, `${c.states['rtn-unack']} → ${c.states.normal}`]).containEql(cells[2]);
        // Time, alarm, from → to, user, comment: the time as the browser's language writes a clock time.
        should(cells[0]).match(/^\d{1,2}:\d{2}:\d{2}(\s(AM|PM))?$/);
        should(cells[1]).containEql(alarmId(c.alerts[0]));
        should(cells[3]).equal(c.user);
        should(cells[4]).equal(c.comment);
        // The row tells the truth after the click: acknowledged while active, or gone once normal.
        const id = alarmId(c.alerts[0]);
        await page.waitForFunction(
          ([i, s]) => document.querySelector(`.md-list tr[data-alarm="${i}"] .md-state`)?.textContent?.trim() !== s,
          [id, before],
          SEEN,
        );
        const after = await stateNow(page, id);
        if (acked === c.states.normal) should(after).equal(null, 'an acknowledged alarm that returned to normal leaves the list');
        else should([c.states['active-ack'], null]).containEql(after);
        // The other alarm still waits for its acknowledge: shelved for 15 min, it leaves annunciation
        // (the journal says who), and the row offers to take it back.
        const other = alarmId(c.alerts[1]);
        should([c.states['active-unack'], c.states['rtn-unack']]).containEql(await stateNow(page, other));
        await rows[1].locator('.md-duration').selectOption('900000');
        await rows[1].locator('.md-shelve').click();
        await page
          .locator(`.md-journal tr.md-entry[data-alarm="${other}"]`, { hasText: c.states.shelved })
          .filter({ hasText: c.user })
          .first()
          .waitFor({ state: 'visible', ...SEEN });
        should(await stateNow(page, other)).equal(c.states.shelved);
        should((await rows[1].locator('.md-unshelve').innerText()).trim()).match(new RegExp(c.unshelve, 'i'));
        await shot(page, c.locale, 'acknowledged');
      } finally {
        await context.close();
      }
    });
  }

  it("Node-RED's log holds no error and no node's warning after the clicks (the page's nodes and the alarms as they ship)", async function () {
    // A page opened afresh: the template asks for the list on load, the list node answers.
    const page = await (await browser.newContext({ locale: 'en-US', viewport: { width: 1400, height: 1000 } })).newPage();
    try {
      await page.goto(`${red.url}dashboard/alarms`);
      try {
        await page.locator('.md-alarms .md-list').waitFor({ state: 'visible', ...SEEN });
      } catch (error) {
        // Seen once in a full run and never alone: what the page showed instead, for whoever meets it next.
        await page.screenshot({ path: path.join(ARTIFACTS, 'alarm-dashboard-afresh-failed.png') }).catch(() => undefined);
        const text = await page.evaluate(() => document.body?.innerText ?? '').catch(() => '(no text)');
        throw new Error(`${(error as Error).message}\nthe page showed: ${String(text).slice(0, 500)}\nNode-RED said: ${red.output().slice(-1500)}`);
      }
    } finally {
      await page.context().close();
    }
    // A node's warning or error names it: "[warn] [device-alarm:...]".
    should(red.output()).not.match(/\[(warn|error)\] \[/);
  });
});

declare const document: any;

/** The state a row shows now, or null when the alarm is not listed (read at once, not waited for). */
function stateNow(page: Page, id: string): Promise<string | null> {
  return page.evaluate((i) => document.querySelector(`.md-list tr[data-alarm="${i}"] .md-state`)?.textContent?.trim() ?? null, id);
}

async function stateOf(row: Locator): Promise<string> {
  return (await row.locator('.md-state').innerText()).trim();
}

async function shot(page: Page, locale: string, what: string): Promise<void> {
  await page.screenshot({ path: path.join(ARTIFACTS, `alarm-dashboard-${locale}-${what}.png`), fullPage: true });
}
