/**
 * Every dialog as a user first sees it (screenshots of every dialog),
 * in headless Chromium against a real Node-RED 4.1 with the npm-packed package, in English
 * and German: each node type dropped from the palette, its edit dialog opened, and the config
 * node's dialog opened from a Module field's "add" button.
 *  - A fresh node's dialog shows no validation error on its defaults; only the Module is
 *    empty by design (no config node exists yet), and marked so where it is required, and
 *    io-reset's confirm box is unticked by design (the runtime refuses the reset without it).
 *  - Each dialog is saved as test-artifacts/dialog-<type>-<en|de>.png.
 *  - notification-poll's boxes to tick (its own editor module) are what is saved, and shown again.
 * No simulator: nothing here is deployed.
 */
import 'should';
import type { Page } from 'playwright-core';
import { declaredTypes } from '../helpers/browser/cases';
import * as editor from '../helpers/browser/editor';
import { editorPage, nodeRedAndChromium } from '../helpers/browser/editor-suite';

// Page-side code below runs in the browser; the project compiles without the DOM library.
declare const document: any;
declare const RED: any;

/** The field a fresh node leaves empty on purpose: the Module, until a config node exists. */
const EMPTY_BY_DESIGN = 'node-input-device';
/**
 * Fields a fresh node leaves invalid on purpose: io-reset's one operation is the module reset,
 * which the runtime refuses without confirm; the box is never ticked for the user.
 */
const UNCONFIRMED_BY_DESIGN: Record<string, string[]> = { 'io-reset': ['node-input-confirm'] };

const LANGUAGES = [
  { name: 'English', locale: 'en-US', tag: 'en' },
  { name: 'German', locale: 'de-DE', tag: 'de' },
];

/**
 * The fields of the open dialog `form` marked invalid (Node-RED 4 marks `input-error`; a
 * typedInput marks its container), each by its own id or its input's, the Module left out.
 */
function markedInvalid(page: Page, form: string): Promise<string[]> {
  return page.evaluate(
    ({ f, skip }) => {
      const marked = Array.from(document.querySelectorAll(`${f} .input-error, ${f} .red-ui-input-error`)) as any[];
      return marked.map((el) => el.id || el.querySelector('input')?.id || el.previousElementSibling?.id || el.className).filter((id: string) => id !== skip);
    },
    { f: form, skip: EMPTY_BY_DESIGN },
  );
}

/**
 * Whether the Module field of the open dialog is marked, and whether it should be: a required
 * Module is (nothing chosen yet); device-status's is optional (empty = every module).
 */
function moduleMarked(page: Page, type: string): Promise<{ marked: boolean; required: boolean }> {
  return page.evaluate(
    ({ id, t }) => ({
      marked: document.getElementById(id)?.classList.contains('input-error') === true,
      required: RED.nodes.getType(t).defaults.device?.required === true,
    }),
    { id: EMPTY_BY_DESIGN, t: type },
  );
}

describe('every dialog on its defaults, with screenshots (Node-RED 4.1, npm-packed package, headless Chromium)', function () {
  this.timeout(180000);
  const running = nodeRedAndChromium();
  const types = declaredTypes().filter((t) => t !== 'modular-device');

  LANGUAGES.forEach(({ name, locale, tag }) => {
    describe(`in ${name}`, function () {
      const open = editorPage(running, locale);

      types.forEach((type, i) => {
        it(`${type}: the dialog opens without an error on its defaults (only a required Module is marked)`, async function () {
          const { page } = open;
          const id = await editor.dropNode(page, type, 150 + 180 * (i % 4), 60 + 50 * Math.floor(i / 4));
          await editor.openDialog(page, id);
          (await markedInvalid(page, '#dialog-form')).should.eql(UNCONFIRMED_BY_DESIGN[type] ?? [], `${type}: fields marked invalid on a fresh node`);
          const module = await moduleMarked(page, type);
          module.marked.should.equal(module.required, `${type}: the empty Module is marked exactly when it is required`);
          await editor.screenshotTray(page, `dialog-${type}-${tag}`);
          await page.click('#node-dialog-cancel');
          await page.waitForSelector('#node-dialog-ok', { state: 'detached' });
        });
      });

      it('notification-poll: the boxes ticked are saved as lists, every box ticked as [] (all), and shown again on reopening', async function () {
        const { page } = open;
        const id = await editor.dropNode(page, 'notification-poll', 150, 500);
        const saved = () => page.evaluate((n) => ({ pins: RED.nodes.node(n).pins, alerts: RED.nodes.node(n).alerts }), id);
        const ticked = () =>
          page.evaluate(() => ({
            pins: Array.from(document.querySelectorAll('.notification-poll-pin:checked')).map((el: any) => Number(el.value)),
            alerts: Array.from(document.querySelectorAll('.notification-poll-alert-flag:checked')).map((el: any) => el.value),
          }));
        const some = { pins: [1, 2, 4, 5, 6], alerts: ['under_voltage_alert', 'high_voltage_alert', 'custom_voltage_alert'] };
        await editor.openDialog(page, id);
        await page.uncheck('.notification-poll-pin[value="3"]');
        await page.uncheck('.notification-poll-alert-flag[value="high_current_alert"]');
        await editor.clickDone(page);
        (await saved()).should.eql(some);
        await editor.openDialog(page, id);
        (await ticked()).should.eql(some);
        await page.check('.notification-poll-pin[value="3"]');
        await page.check('.notification-poll-alert-flag[value="high_current_alert"]');
        await editor.clickDone(page);
        (await saved()).should.eql({ pins: [], alerts: [] });
      });

      it('modular-device: the config dialog, opened from a Module field, opens without an error on its defaults', async function () {
        const { page } = open;
        const id = await editor.dropNode(page, 'device-info', 150, 400);
        await editor.openDialog(page, id);
        await page.click('#node-input-btn-device-add');
        await page.waitForSelector('#node-config-dialog-ok', { state: 'visible' });
        await page.waitForTimeout(300); // the tray slides in
        (await markedInvalid(page, '#node-config-dialog-edit-form')).should.eql([], 'config fields marked invalid on a fresh config node');
        await editor.screenshotTray(page, `dialog-modular-device-${tag}`);
        await page.click('#node-config-dialog-cancel');
        await page.waitForSelector('#node-config-dialog-ok', { state: 'detached' });
        await page.click('#node-dialog-cancel');
        await page.waitForSelector('#node-dialog-ok', { state: 'detached' });
      });
    });
  });
});
