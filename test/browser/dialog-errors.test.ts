/**
 * Dialog errors are readable where the user looks, in headless Chromium against a real
 * Node-RED 4.1 with the npm-packed package, in English and German (read by hovering with
 * the mouse, as a user does):
 *  - io-output's Pin, a typedInput, given 9: the visible box has the red edge, and hovering
 *    its value, its type button or its edge shows the message of limits.ts. Done saves the
 *    node anyway, as Node-RED saves every invalid node; the canvas then marks it with the
 *    warning triangle, whose tooltip names the message;
 *  - bmc-watchdog with keep-alive and Timeout 0: the Timeout is marked, with the message on
 *    hover, not "Send alive every", and the hint beside that field's "ms" says which
 *    timeouts carry a keep-alive; with a timeout that does, the interval's range, and an
 *    interval past half the timeout is marked on the interval.
 * Screenshots with the tooltip shown go to test-artifacts/dialog-errors-*.png.
 */
import 'should';
import type { Page } from 'playwright-core';
import { check, labelled, LIMITS } from '../../nodes/lib/pure/limits';
import { checkKeepAlive, checkKeepAliveTimeout } from '../../nodes/lib/pure/limit-rules';
import { catalogsReady, inLanguage } from '../helpers/i18n';
import { away, markedInvalid, said, screenshotWithTooltip, tooltipAt } from '../helpers/browser/tooltips';
import { configNode } from '../helpers/browser/config-node';
import * as editor from '../helpers/browser/editor';
import { editorPage, nodeRedAndChromium } from '../helpers/browser/editor-suite';

// Page-side code below runs in the browser; the project compiles without the DOM library.
declare const document: any;
declare const window: any;
declare const RED: any;

const LANGUAGES = [
  { name: 'English', locale: 'en-US', lang: 'en-US', tag: 'en' },
  { name: 'German', locale: 'de-DE', lang: 'de', tag: 'de' },
];

const WATCHDOG = '@modular-device/node-red/bmc-watchdog:bmc-watchdog.keepAlive.';

/** Whether `selector`'s border is the editor's error colour (what `.input-error` gives it), on every side. */
function redEdge(page: Page, selector: string): Promise<boolean> {
  return page.evaluate((s) => {
    const probe = document.createElement('span');
    probe.style.color = 'var(--red-ui-form-input-border-error-color)';
    document.body.appendChild(probe);
    const red = window.getComputedStyle(probe).color;
    probe.remove();
    const style = window.getComputedStyle(document.querySelector(s));
    return ['Top', 'Right', 'Bottom', 'Left'].every((side) => style[`border${side}Color`] === red);
  }, selector);
}

/** The text of the canvas's tooltip on node `id`'s warning triangle (Node-RED's own, on hover). */
async function triangleTooltip(page: Page, id: string): Promise<string> {
  const triangle = page.locator(`#red-ui-workspace-chart [id="${id}"] .red-ui-flow-node-error`);
  await triangle.waitFor({ state: 'visible', timeout: 5000 });
  await page.mouse.move(1, 1);
  await triangle.hover();
  const tip = page.locator('#red-ui-workspace-chart .red-ui-flow-port-tooltip');
  await tip.first().waitFor({ state: 'attached', timeout: 5000 });
  const text = await tip.first().evaluate((el: any) =>
    Array.from(el.querySelectorAll('text'))
      .map((t: any) => t.textContent)
      .join('\n'),
  );
  await page.mouse.move(1, 1);
  return text;
}

describe('dialog errors where the user looks (Node-RED 4.1, npm-packed package, headless Chromium)', function () {
  this.timeout(180000);
  before(() => catalogsReady);
  const running = nodeRedAndChromium();

  LANGUAGES.forEach(({ name, locale, lang, tag }, n) => {
    describe(`in ${name}`, function () {
      const open = editorPage(running, locale);
      // Modules for the nodes' Module fields (never deployed: nothing here talks to a device).
      const io = `dialog-errors-io-${tag}`;
      const bmc = `dialog-errors-bmc-${tag}`;
      before(() => editor.importNodes(open.page, [configNode(io, 'io', 2, 'http://127.0.0.1:1'), configNode(bmc, 'bmc', 0, 'http://127.0.0.1:1')]));

      it('io-output: Pin 9 typed in marks the visible box red, its message shows on the value, the type button and the edge; Done saves it with the warning triangle naming it', async function () {
        const { page } = open;
        const message = said(lang, check('pin', 9, labelled('io-output', 'pin')));
        if (lang === 'de') message.should.not.equal(said('en-US', check('pin', 9, labelled('io-output', 'pin'))));
        const id = await editor.dropNode(page, 'io-output', 200, 80 + 200 * n);
        await editor.openDialog(page, id);
        await page.selectOption('#node-input-device', io);
        const boxSelector = '#node-input-pin + .red-ui-typedInput-container';
        const box = page.locator(boxSelector);
        (await redEdge(page, boxSelector)).should.be.false('the default pin (1) is not marked');

        const value = box.locator('input.red-ui-typedInput-input');
        await value.fill('9');
        await value.press('Tab');
        await markedInvalid(page, boxSelector, true, 'Pin 9');
        (await redEdge(page, boxSelector)).should.be.true('the visible box has the red edge');

        (await tooltipAt(page, value)).should.equal(message, 'hovering the value');
        (await tooltipAt(page, box.locator('button.red-ui-typedInput-type-select'))).should.equal(message, 'hovering the type button');
        (await tooltipAt(page, box, (b) => ({ x: b.width - 1, y: b.height / 2 }))).should.equal(message, 'hovering the right edge');
        (await tooltipAt(page, box, (b) => ({ x: b.width / 2, y: 0.5 }))).should.equal(message, 'hovering the top edge');
        await screenshotWithTooltip(page, `dialog-errors-io-output-pin-${tag}`);

        // A valid pin takes the mark and the tooltip away.
        await away(page);
        await value.fill('2');
        await value.press('Tab');
        await markedInvalid(page, boxSelector, false, 'Pin 2');
        await value.hover();
        (await page.locator('.red-ui-popover').count()).should.equal(0, 'no tooltip on a valid pin');

        // Node-RED's convention: Done saves an invalid node; the canvas marks it, and its triangle names why.
        await value.fill('9');
        await value.press('Tab');
        await away(page);
        await editor.clickDone(page);
        const saved = await page.evaluate((i) => {
          const node = RED.nodes.node(i);
          return { pin: String(node.pin), valid: node.valid, errors: node.validationErrors };
        }, id);
        saved.should.eql({ pin: '9', valid: false, errors: [message] });
        (await triangleTooltip(page, id)).should.containEql(message);
      });

      it('bmc-watchdog: keep-alive with Timeout 0 marks the Timeout with its message, not the interval, and the hint says which timeouts carry a keep-alive', async function () {
        const { page } = open;
        const t = inLanguage(lang);
        const off = said(lang, checkKeepAliveTimeout(0, 'bmc-watchdog'));
        const wd = LIMITS.watchdog_timeout;
        const k = LIMITS.keepalive_interval;
        const needs = t(`${WATCHDOG}needsTimeout`, { min: Math.max(wd.min, 2 * k.min), max: wd.max });
        if (lang === 'de') off.should.not.equal(said('en-US', checkKeepAliveTimeout(0, 'bmc-watchdog')));
        const id = await editor.dropNode(page, 'bmc-watchdog', 500, 80 + 200 * n);
        await editor.openDialog(page, id);
        await page.selectOption('#node-input-device', bmc);
        await page.check('#node-input-keepAlive');
        await page.check('#node-input-confirm');
        await editor.typeInto(page, '#node-input-timeout', '0');
        await markedInvalid(page, '#node-input-timeout', true, 'keep-alive with Timeout 0');
        (await redEdge(page, '#node-input-timeout')).should.be.true('the Timeout has the red edge');
        (await redEdge(page, '#node-input-interval')).should.be.false('Send alive every is not at fault');
        (await page.locator('#bmc-watchdog-interval-hint').innerText()).trim().should.equal(needs);
        (await tooltipAt(page, page.locator('#node-input-timeout'))).should.equal(off, 'hovering the Timeout');
        await screenshotWithTooltip(page, `dialog-errors-bmc-watchdog-timeout-${tag}`);

        // A timeout that carries a keep-alive: the mark goes, the hint gives the interval's range,
        // and an interval past half the timeout is the interval's own fault.
        await away(page);
        await editor.typeInto(page, '#node-input-timeout', '10000');
        await markedInvalid(page, '#node-input-timeout', false, 'keep-alive with Timeout 10000');
        (await page.locator('#bmc-watchdog-interval-hint').innerText()).trim().should.equal(t(`${WATCHDOG}range`, { min: k.min, max: 5000 }));
        await editor.typeInto(page, '#node-input-interval', '6000');
        await markedInvalid(page, '#node-input-interval', true, 'interval 6000 with Timeout 10000');
        (await redEdge(page, '#node-input-timeout')).should.be.false('a timeout of 10000 is not at fault');
        (await tooltipAt(page, page.locator('#node-input-interval'))).should.equal(said(lang, checkKeepAlive(6000, 10000, 'bmc-watchdog')));
        await screenshotWithTooltip(page, `dialog-errors-bmc-watchdog-interval-${tag}`);

        // Saved as Node-RED saves an invalid node, with the one message, the Timeout's.
        await away(page);
        await editor.typeInto(page, '#node-input-interval', '3000');
        await editor.typeInto(page, '#node-input-timeout', '0');
        await editor.clickDone(page);
        const saved = await page.evaluate((i) => ({ valid: RED.nodes.node(i).valid, errors: RED.nodes.node(i).validationErrors }), id);
        saved.should.eql({ valid: false, errors: [off] });
        (await triangleTooltip(page, id)).should.containEql(off);
      });
    });
  });
});
