/**
 * The alarm dialogs refuse what the runtime refuses, with its words, on the field at fault:
 * headless Chromium against a real Node-RED 4.1 with the npm-packed package, in English and
 * German (the refusals read by hovering, as a user does).
 *  - device-alarm shows only the rows of the source chosen (condition: property, limits,
 *    delays; notification: pins, alerts, delays, clear after; health: events, clear after);
 *  - HiHi below Hi is refused naming both, marked on the HiHi and not on the Hi, and Done
 *    saves the node invalid with that one sentence (readAlarmSettings's, as the runtime says it);
 *  - a pasted node with priority 5 and an alarm id with '/' is invalid with the runtime's two
 *    sentences, and its dialog shows the 5 and marks both fields; an id with '/' typed is marked;
 *  - the Module is needed for notifications and health, not for a condition;
 *  - device-alarm-list refuses 600 journal entries with the runtime's sentence.
 * Screenshots: test-artifacts/alarm-dialog-*.png (each source, each refusal with its tooltip).
 */
import 'should';
import type { Page } from 'playwright-core';
import { readAlarmSettings } from '../../nodes/lib/pure/alarm-settings';
import { check, labelled } from '../../nodes/lib/pure/limits';
import { isPhrase } from '../../nodes/lib/pure/phrase';
import { catalogsReady, inLanguage } from '../helpers/i18n';
import { away, markedInvalid, said, screenshotWithTooltip, tooltipAt } from '../helpers/browser/tooltips';
import { configNode } from '../helpers/browser/config-node';
import * as editor from '../helpers/browser/editor';
import { editorPage, nodeRedAndChromium } from '../helpers/browser/editor-suite';

declare const RED: any;
declare const $: any;

const LANGUAGES = [
  { name: 'English', locale: 'en-US', lang: 'en-US', tag: 'en', source: 'Source' },
  { name: 'German', locale: 'de-DE', lang: 'de', tag: 'de', source: 'Quelle' },
];

/** The rows each source shows, by the field's selector; every other of these rows is hidden. */
const ROWS: Record<string, string[]> = {
  condition: [
    '#node-input-property',
    '#node-input-hihi',
    '#node-input-hi',
    '#node-input-lo',
    '#node-input-lolo',
    '#node-input-deadband',
    '#node-input-onDelay',
    '#node-input-offDelay',
  ],
  notification: ['#device-alarm-pins', '#device-alarm-flags', '#node-input-onDelay', '#node-input-offDelay', '#node-input-clearAfter'],
  health: ['#device-alarm-kinds', '#node-input-clearAfter'],
};
const ALL_ROWS = [...new Set(Object.values(ROWS).flat())];

/** The runtime's refusal of these settings (a device-alarm node's, as stored), said in `lang`. */
function runtimeSays(lang: string, def: Record<string, unknown>): string {
  const read = readAlarmSettings(def, 'node-id');
  if (!isPhrase(read)) throw new Error(`the runtime takes ${JSON.stringify(def)}`);
  return said(lang, read);
}

/** The rows of ALL_ROWS the open dialog shows. */
async function shownRows(page: Page): Promise<string[]> {
  const shown: string[] = [];
  // The property row is a typedInput: its own input is hidden, its row is what shows.
  for (const s of ALL_ROWS) if (await page.locator(s).locator('xpath=ancestor::div[contains(@class,"form-row")][1]').isVisible()) shown.push(s);
  return shown;
}

function validity(page: Page, id: string): Promise<{ valid: boolean; errors: string[] }> {
  return page.evaluate((i) => ({ valid: RED.nodes.node(i).valid, errors: RED.nodes.node(i).validationErrors ?? [] }), id);
}

describe('alarm dialogs refuse what the runtime refuses (Node-RED 4.1, npm-packed package, headless Chromium)', function () {
  this.timeout(180000);
  before(() => catalogsReady);
  const running = nodeRedAndChromium();

  LANGUAGES.forEach(({ name, locale, lang, tag, source }, n) => {
    describe(`in ${name}`, function () {
      // Tall enough for the whole device-alarm dialog in one picture.
      const open = editorPage(running, locale, { width: 1400, height: 1500 });
      const io = `alarm-dialogs-io-${tag}`;
      before(async () => {
        await editor.importNodes(open.page, [configNode(io, 'io', 2, 'http://127.0.0.1:1')]);
        // The import's notification closes by itself: let it, so it covers no picture of a dialog.
        await open.page.waitForFunction(() => !$('.red-ui-notification:visible').length, undefined, { timeout: 20000 });
      });

      it("device-alarm: each source shows its own rows, in the page's language; the Module is needed for notifications and health only", async function () {
        const { page } = open;
        const id = await editor.dropNode(page, 'device-alarm', 200, 60 + 300 * n);
        await editor.openDialog(page, id);
        (await page.locator('label[for="node-input-source"]').innerText()).trim().should.equal(source);
        const needsModule = inLanguage(lang)('@modular-device/node-red/device-alarm:device-alarm.runtime.needsModule');
        needsModule.should.not.match(/runtime\.needsModule/);
        for (const chosen of ['condition', 'notification', 'health']) {
          await page.selectOption('#node-input-source', chosen);
          (await shownRows(page)).sort().should.eql([...ROWS[chosen]].sort(), `${chosen}: rows shown`);
          const moduleMarked = chosen !== 'condition';
          await markedInvalid(page, '#node-input-device', moduleMarked, `${chosen} without a Module`);
          if (moduleMarked) (await tooltipAt(page, page.locator('#node-input-device'))).should.equal(needsModule);
          await away(page);
          await editor.screenshotTray(page, `alarm-dialog-device-alarm-${chosen}-${tag}`);
        }
        await page.selectOption('#node-input-device', io);
        await markedInvalid(page, '#node-input-device', false, 'health with a Module');
        await page.click('#node-dialog-cancel');
        await page.waitForSelector('#node-dialog-ok', { state: 'detached' });
      });

      it('device-alarm: HiHi below Hi is refused naming both, on the HiHi alone; Done saves it invalid with that sentence', async function () {
        const { page } = open;
        const message = runtimeSays(lang, { hihi: '50', hi: '80' });
        for (const word of ['HiHi', 'Hi', '50', '80']) message.should.containEql(word);
        if (lang === 'de') message.should.not.equal(runtimeSays('en-US', { hihi: '50', hi: '80' }));
        const id = await editor.dropNode(page, 'device-alarm', 200, 160 + 300 * n);
        await editor.openDialog(page, id);
        await editor.typeInto(page, '#node-input-hi', '80');
        await editor.typeInto(page, '#node-input-hihi', '50');
        await markedInvalid(page, '#node-input-hihi', true, 'HiHi 50 below Hi 80');
        await markedInvalid(page, '#node-input-hi', false, 'Hi 80 under a HiHi of 50');
        (await tooltipAt(page, page.locator('#node-input-hihi'))).should.equal(message);
        await screenshotWithTooltip(page, `alarm-dialog-device-alarm-hihi-${tag}`);
        // A HiHi above the Hi takes the mark away; a number with a fraction is a number.
        await away(page);
        await editor.typeInto(page, '#node-input-hihi', '95.5');
        await markedInvalid(page, '#node-input-hihi', false, 'HiHi 95.5 above Hi 80');
        await editor.typeInto(page, '#node-input-hihi', '50');
        await away(page);
        await editor.clickDone(page);
        (await validity(page, id)).should.eql({ valid: false, errors: [message] });
      });

      it("device-alarm: a pasted priority 5 and alarm id 'line/1' are invalid with the runtime's words, shown and marked in the dialog", async function () {
        const { page } = open;
        const byId = runtimeSays(lang, { alarmId: 'line/1' });
        const byPriority = runtimeSays(lang, { priority: '5' });
        byId.should.containEql('line/1');
        byPriority.should.match(/\b5\b/);
        const id = `alarm-dialogs-pasted-${tag}`;
        await editor.importNodes(page, [
          {
            id,
            type: 'device-alarm',
            name: '',
            alarmId: 'line/1',
            priority: 5,
            source: 'condition',
            property: 'payload',
            x: 450,
            y: 60 + 300 * n,
            wires: [[]],
          },
        ]);
        (await validity(page, id)).should.eql({ valid: false, errors: [byId, byPriority] });
        await editor.openDialog(page, id);
        (await page.inputValue('#node-input-priority')).should.equal('5');
        await markedInvalid(page, '#node-input-priority', true, 'priority 5');
        await markedInvalid(page, '#node-input-alarmId', true, "alarm id 'line/1'");
        (await tooltipAt(page, page.locator('#node-input-alarmId'))).should.equal(byId);
        await screenshotWithTooltip(page, `alarm-dialog-device-alarm-id-${tag}`);
        // The user's way out: a priority of the list and an id without '/'.
        await away(page);
        await page.selectOption('#node-input-priority', '2');
        await editor.typeInto(page, '#node-input-alarmId', 'line1.pump');
        await markedInvalid(page, '#node-input-priority', false, 'priority 2');
        await markedInvalid(page, '#node-input-alarmId', false, "alarm id 'line1.pump'");
        // And typed in: an id with '/' is refused as the runtime refuses it.
        await editor.typeInto(page, '#node-input-alarmId', 'a/b');
        await markedInvalid(page, '#node-input-alarmId', true, "alarm id 'a/b'");
        (await tooltipAt(page, page.locator('#node-input-alarmId'))).should.equal(runtimeSays(lang, { alarmId: 'a/b' }));
        await away(page);
        await editor.typeInto(page, '#node-input-alarmId', 'line1.pump');
        await editor.clickDone(page);
        (await validity(page, id)).should.eql({ valid: true, errors: [] });
        (await page.evaluate((i) => RED.utils.getNodeLabel(RED.nodes.node(i)), id)).should.equal('line1.pump');
      });

      it("device-alarm-list: 600 journal entries are refused with the runtime's sentence", async function () {
        const { page } = open;
        const message = said(lang, check('alarm_journal_shown', 600, labelled('device-alarm-list', 'journal')));
        if (lang === 'de') message.should.not.equal(said('en-US', check('alarm_journal_shown', 600, labelled('device-alarm-list', 'journal'))));
        const id = await editor.dropNode(page, 'device-alarm-list', 450, 160 + 300 * n);
        await editor.openDialog(page, id);
        await editor.screenshotTray(page, `alarm-dialog-device-alarm-list-${tag}`);
        await editor.typeInto(page, '#node-input-journal', '600');
        await markedInvalid(page, '#node-input-journal', true, 'journal 600');
        (await tooltipAt(page, page.locator('#node-input-journal'))).should.equal(message);
        await screenshotWithTooltip(page, `alarm-dialog-device-alarm-list-journal-${tag}`);
        await away(page);
        await editor.typeInto(page, '#node-input-journal', '500');
        await markedInvalid(page, '#node-input-journal', false, 'journal 500');
        await editor.clickDone(page);
        (await validity(page, id)).should.eql({ valid: true, errors: [] });
      });
    });
  });
});
