/**
 * The config dialog and the io dialogs as a finished Node-RED dialog, in headless Chromium against a real Node-RED 4.1 with the npm-packed package and the
 * simulator, in English and German:
 *  - Discover's results are a list (rows, not buttons); the module in use is marked and the
 *    mark follows the choice; Test clears the list and shows a good answer as a success;
 *    every label of the config dialog starts with a capital;
 *  - the pin picker's buttons have accessible names in the editor's language;
 *  - io-output's pin comes from msg or env through a typedInput, chosen with the mouse, and
 *    works deployed (the simulator's log shows the pins); io-read offers an output property.
 * Screenshots go to test-artifacts/dialog-*.png.
 */
import should from 'should';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startSimulator, Simulator } from '../../simulator';
import { SimHarness } from '../helpers/sim-control';
import { catalogsReady } from '../helpers/i18n';
import { makePki, startTlsFront, TlsFront } from '../helpers/tls';
import { launchChromium } from '../helpers/browser/chromium';
import { NodeRedServer, startNodeRed } from '../helpers/browser/node-red-server';
import * as editor from '../helpers/browser/editor';

declare const RED: any;
declare const $: any;

const ENV_PIN = 'MD_DIALOG_TEST_PIN';

const LANGUAGES = [
  {
    locale: 'en-US',
    inUse: 'in use',
    free3: 'Pin 3: no other io node on this module uses it',
    property: 'Property',
    ok: /^Connected: API 0\.9/,
    tls: /^TLS: the device's certificate \(issued by “Plant CA”\) is not trusted: give the CA that issued it/,
    noneAnswered: /^No service answered at this URL: TLS: the device's certificate \(issued by “Plant CA”\) is not trusted/,
  },
  {
    locale: 'de-DE',
    inUse: 'in Verwendung',
    free3: 'Pin 3: kein anderer io-Node dieses Moduls nutzt ihn',
    property: 'Eigenschaft',
    ok: /^Verbunden: API 0\.9/,
    tls: /^TLS: dem Zertifikat des Geräts \(ausgestellt von „Plant CA“\) wird nicht vertraut: die CA, die es ausgestellt hat/,
    noneAnswered: /^Kein Dienst hat unter dieser URL geantwortet: TLS: dem Zertifikat des Geräts \(ausgestellt von „Plant CA“\)/,
  },
];

/** A browser context in `locale` with the editor open. */
async function editorIn(browser: Browser, url: string, locale: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ locale, viewport: { width: 1500, height: 1000 } });
  const page = await context.newPage();
  await editor.openEditor(page, url);
  return { context, page };
}

/** Chooses a typedInput's type with the mouse, as a user does: the type button, then the menu entry. */
async function chooseType(page: Page, field: string, type: string): Promise<void> {
  const container = page.locator(`${field} + .red-ui-typedInput-container`);
  // The options menu slides in: a click that lands while it moves can miss its item (seen once
  // in a full run, the type never changed). The user would click again; so does the test, a
  // bounded number of times, and then fails saying so.
  const option = page.locator(`.red-ui-typedInput-options:visible a[value="${type}"]`);
  for (let attempt = 1; ; attempt++) {
    // Opened only when it is not open still (the button toggles the menu).
    if (!(await option.isVisible())) await container.locator('button.red-ui-typedInput-type-select').click();
    await option.click();
    try {
      await page.waitForFunction(({ f, t }) => $(f).typedInput('type') === t, { f: field, t: type }, { timeout: 10000 });
      return;
    } catch (error) {
      if (attempt === 3)
        throw new Error(
          `${field}: the type stayed ${await page.evaluate((f) => $(f).typedInput('type'), field)} after 3 choices of ${type}: ${(error as Error).message}`,
        );
    }
  }
}

/** Types into a typedInput's own text field (the original input is hidden). */
async function typeTyped(page: Page, field: string, text: string): Promise<void> {
  const input = page.locator(`${field} + .red-ui-typedInput-container input.red-ui-typedInput-input`);
  await input.fill(text);
  await input.press('Tab');
}

describe('dialogs in a browser: config dialog, pin picker, typedInput (Node-RED 4.1, headless Chromium)', function () {
  this.timeout(180000);
  // What the tests run against, each set once it has started (and stopped, if so, at the end).
  const up: { sim?: Simulator; red?: NodeRedServer; browser?: Browser; tls?: TlsFront } = {};
  let sim: Simulator, ctl: SimHarness, red: NodeRedServer, browser: Browser;

  before(async function () {
    await catalogsReady;
    sim = up.sim = await startSimulator({ host: '127.0.0.1', port: 0 });
    ctl = new SimHarness(sim);
    // The simulator behind HTTPS whose certificate's CA the dialog is not given.
    const pki = await makePki();
    up.tls = await startTlsFront(sim.url, { key: pki.leaf.private, cert: pki.leaf.cert });
    // Node-RED inherits the environment: the env-typed pin reads this.
    process.env[ENV_PIN] = '5';
    red = up.red = await startNodeRed();
    browser = up.browser = await launchChromium();
  });

  after(async function () {
    delete process.env[ENV_PIN];
    for (const stop of [() => up.browser?.close(), () => up.red?.stop(), () => up.tls?.close(), () => up.sim?.close()]) await stop();
  });

  for (const lang of LANGUAGES) {
    describe(`in ${lang.locale}`, function () {
      let context: BrowserContext | undefined;
      let page: Page;
      const outputs: string[] = [];
      before(async function () {
        ({ context, page } = await editorIn(browser, red.url, lang.locale));
      });
      after(() => context?.close());
      afterEach(async function () {
        if (this.currentTest?.state === 'failed') await editor.closeTrays(page);
      });

      it('config dialog: Discover lists modules with the one in use marked; Test clears the list and shows success; labels capitalised', async function () {
        const id = await editor.dropNode(page, 'io-output', 300, 80);
        outputs.push(id);
        await editor.openDialog(page, id);
        await page.click('#node-input-btn-device-add');
        await page.waitForSelector('#node-config-dialog-ok', { state: 'visible' });
        await page.waitForTimeout(300);
        await page.fill('#node-config-input-name', `io slot 2 ${lang.locale}`);
        await editor.typeInto(page, '#node-config-input-url', sim.url);

        const labels = await page.$$eval('#node-config-dialog-edit-form label', (els: any[]) => els.map((e) => e.innerText.trim()).filter((t: string) => t));
        labels.filter((t: string) => t[0] !== t[0].toUpperCase()).should.eql([], 'labels that do not start with a capital');

        await page.click('#modular-device-discover');
        const rows = page.locator('#modular-device-modules li.modular-device-module');
        await rows.first().waitFor({ state: 'visible', timeout: 10000 });
        (await rows.count()).should.be.aboveOrEqual(4, 'bmc 0, power 1, io 2, io 3');
        (await page.locator('#modular-device-modules button').count()).should.equal(0, 'results are list rows, not buttons');
        should(await page.getAttribute('#modular-device-modules', 'role')).equal('listbox');

        // The form's default (io, slot 2) is the module in use: marked, with its badge.
        const io2 = page.locator('.modular-device-module[data-service="io"][data-slot="2"]');
        const io3 = page.locator('.modular-device-module[data-service="io"][data-slot="3"]');
        should(await io2.getAttribute('aria-selected')).equal('true');
        (await io2.locator('.modular-device-in-use-badge').innerText()).trim().should.equal(lang.inUse);
        await io3.click();
        (await page.inputValue('#node-config-input-slot')).should.equal('3');
        should(await io3.getAttribute('aria-selected')).equal('true');
        should(await io2.getAttribute('aria-selected')).equal('false');
        (await io2.locator('.modular-device-in-use-badge').isVisible()).should.be.false();
        // The keyboard picks a row too.
        await io2.focus();
        await page.keyboard.press('Enter');
        (await page.inputValue('#node-config-input-slot')).should.equal('2');
        should(await io2.getAttribute('aria-selected')).equal('true');
        await editor.screenshotTray(page, `dialog-config-discover-${lang.locale}`);

        await page.click('#modular-device-test');
        await page.waitForFunction(() => $('#modular-device-result').hasClass('modular-device-ok'), undefined, { timeout: 10000 });
        (await page.locator('#modular-device-result').innerText()).trim().should.match(lang.ok);
        (await page.locator('#modular-device-result .fa-check-circle').count()).should.equal(1);
        (await rows.count()).should.equal(0, 'the old Discover results are gone after Test');
        const colours = await page.evaluate(() => ({
          ok: $('#modular-device-result').css('color'),
          label: $('#node-config-dialog-edit-form label').first().css('color'),
        }));
        colours.ok.should.not.equal(colours.label, 'a good Test reads as success, not as plain text');
        await editor.screenshotTray(page, `dialog-config-tested-${lang.locale}`);

        // The result speaks of the settings it was got with: typing another slot takes it away,
        // and a Test of slot 99999 fails; back at slot 2 that failure goes too.
        const result = () =>
          page
            .locator('#modular-device-result')
            .innerText()
            .then((t) => t.trim());
        await page.locator('#node-config-input-slot').fill('99999');
        (await result()).should.equal('', 'no "Connected" left once the slot changed');
        await page.click('#modular-device-test');
        await page.waitForFunction(() => $('#modular-device-result').hasClass('modular-device-error'), undefined, { timeout: 10000 });
        (await result()).should.not.match(lang.ok);
        await editor.screenshotTray(page, `dialog-config-slot-changed-${lang.locale}`);
        await page.locator('#node-config-input-slot').fill('2');
        (await result()).should.equal('', 'the failure of slot 99999 is gone at slot 2');
        // So does a good result when the URL, the API version or the credentials change.
        for (const [what, change] of [
          ['API version', () => page.selectOption('#node-config-input-apiVersion', '1.0')],
          ['auth', () => page.selectOption('#node-config-input-auth', 'bearer').then(() => page.locator('#node-config-input-token').fill('x'))],
          ['URL', () => page.locator('#node-config-input-url').fill(`${sim.url}/`)],
        ] as const) {
          await page.selectOption('#node-config-input-apiVersion', 'auto');
          await page.selectOption('#node-config-input-auth', 'none');
          await page.locator('#node-config-input-url').fill(sim.url);
          await page.click('#modular-device-test');
          await page.waitForFunction(() => $('#modular-device-result').hasClass('modular-device-ok'), undefined, { timeout: 10000 });
          await change();
          (await result()).should.equal('', `no "Connected" after a change of ${what}`);
        }
        await page.selectOption('#node-config-input-apiVersion', 'auto');
        await page.selectOption('#node-config-input-auth', 'none');
        await page.locator('#node-config-input-url').fill(sim.url);

        await page.click('#node-config-dialog-ok');
        await page.waitForSelector('#node-config-dialog-ok', { state: 'detached' });
        await editor.clickDone(page);
      });

      it('a config node saved without an answer limit (an older flow, an example) shows the 64 KiB it runs with', async function () {
        await editor.importNodes(page, [
          {
            id: `md-no-limit-${lang.locale}`,
            type: 'modular-device',
            name: 'no answer limit',
            url: sim.url,
            service: 'io',
            slot: '3',
            apiVersion: 'auto',
            timeout: '5000',
            queueLimit: '100',
            auth: 'none',
            tls: '',
          },
        ]);
        await page.evaluate((i) => RED.editor.editConfig('', 'modular-device', i), `md-no-limit-${lang.locale}`);
        await page.waitForSelector('#node-config-dialog-ok', { state: 'visible' });
        (await page.inputValue('#node-config-input-answerLimit')).should.equal('64');
        await editor.screenshotTray(page, `dialog-config-answer-limit-${lang.locale}`);
        await page.click('#node-config-dialog-cancel');
        await page.waitForSelector('#node-config-dialog-ok', { state: 'detached' });
        await page.evaluate((i) => {
          RED.nodes.remove(i);
          RED.nodes.dirty(true);
        }, `md-no-limit-${lang.locale}`);
      });

      it('pin picker: every pin button has an accessible name in the editor language', async function () {
        await editor.openDialog(page, outputs[0]);
        const names = await page.$$eval('#io-pin-picker button.md-pin', (els: any[]) => els.map((e) => e.getAttribute('aria-label') ?? ''));
        names.should.have.length(6);
        names.forEach((n: string, i: number) => n.should.match(new RegExp(`\\b${i + 1}\\b`), `button ${i + 1}: ${n}`));
        (await page.getAttribute('#io-pin-picker-3', 'aria-label'))!.should.equal(lang.free3);
        // A pin clicked in the picker is a number typed in, whatever type the field had.
        await chooseType(page, '#node-input-pin', 'msg');
        await page.click('#io-pin-picker-4');
        (await page.evaluate(() => [$('#node-input-pin').typedInput('type'), $('#node-input-pin').typedInput('value')])).should.eql(['num', '4']);
        (await page.getAttribute('#io-pin-picker-4', 'aria-pressed'))!.should.equal('true');
        await editor.screenshotTray(page, `dialog-io-output-picker-${lang.locale}`);
        await editor.clickDone(page);
      });

      it('io-read offers the output property as a msg typedInput, labelled in the editor language', async function () {
        const id = await editor.dropNode(page, 'io-read', 300, 400);
        await editor.openDialog(page, id);
        (await page.locator('label[for="node-input-property"]').innerText()).trim().should.equal(lang.property);
        (await page.evaluate(() => [$('#node-input-property').typedInput('type'), $('#node-input-property').typedInput('value')])).should.eql([
          'msg',
          'payload',
        ]);
        await editor.screenshotTray(page, `dialog-io-read-property-${lang.locale}`);
        await page.click('#node-dialog-cancel');
        await page.evaluate((i) => {
          RED.nodes.remove(i);
          RED.nodes.dirty(true);
          RED.view.redraw(true);
        }, id);
      });

      it('config dialog: a TLS problem is said in the editor language, by Test and by Discover alike', async function () {
        const id = await editor.dropNode(page, 'io-output', 300, 560);
        await editor.openDialog(page, id);
        await page.click('#node-input-btn-device-add');
        await page.waitForSelector('#node-config-dialog-ok', { state: 'visible' });
        await editor.typeInto(page, '#node-config-input-url', up.tls!.url);
        await page.click('#modular-device-test');
        await page.waitForFunction(() => $('#modular-device-result').hasClass('modular-device-error'), undefined, { timeout: 10000 });
        (await page.locator('#modular-device-result').innerText()).trim().should.match(lang.tls);
        await editor.screenshotTray(page, `dialog-config-tls-${lang.locale}`);
        await page.click('#modular-device-discover');
        await page.waitForFunction(
          () => $('#modular-device-result').hasClass('modular-device-error') && !/TLS: /.test($('#modular-device-result').text().trim().slice(0, 5)),
          undefined,
          { timeout: 10000 },
        );
        (await page.locator('#modular-device-result').innerText()).trim().should.match(lang.noneAnswered);
        await page.click('#node-config-dialog-cancel');
        await page.waitForSelector('#node-config-dialog-ok', { state: 'detached' });
        await page.click('#node-dialog-cancel');
        await page.evaluate((i) => {
          RED.nodes.remove(i);
          RED.nodes.dirty(true);
          RED.view.redraw(true);
        }, id);
      });

      if (lang.locale !== 'en-US') return;

      it('io-output deployed with its pin from msg.pin and from env: the device gets those pins', async function () {
        const second = await editor.dropNode(page, 'io-output', 300, 200);
        outputs.push(second);
        // First node: pin from msg.pin, chosen and typed with mouse and keyboard.
        await editor.openDialog(page, outputs[0]);
        await chooseType(page, '#node-input-pin', 'msg');
        await typeTyped(page, '#node-input-pin', 'pin');
        await editor.screenshotTray(page, 'dialog-io-output-pin-msg');
        await editor.clickDone(page);
        // Second node: pin from the env variable.
        await editor.openDialog(page, second);
        await page.selectOption('#node-input-device', await page.evaluate((i) => RED.nodes.node(i).device, outputs[0]));
        await chooseType(page, '#node-input-pin', 'env');
        await typeTyped(page, '#node-input-pin', ENV_PIN);
        await editor.screenshotTray(page, 'dialog-io-output-pin-env');
        await editor.clickDone(page);
        const saved = await page.evaluate(
          (ids) =>
            ids.map((i: string) => {
              const n = RED.nodes.node(i);
              return [n.pinType, n.pin, n.valid, n.validationErrors ?? []];
            }),
          outputs,
        );
        saved.should.eql([
          ['msg', 'pin', true, []],
          ['env', ENV_PIN, true, []],
        ]);

        await editor.importNodes(page, [
          {
            id: 'inject-msg',
            type: 'inject',
            name: 'pin 4',
            props: [{ p: 'payload' }, { p: 'pin', v: '4', vt: 'num' }],
            payload: '',
            payloadType: 'date',
            repeat: '',
            once: false,
            x: 100,
            y: 80,
            wires: [[]],
          },
          {
            id: 'inject-env',
            type: 'inject',
            name: 'pin from env',
            props: [{ p: 'payload' }],
            payload: '',
            payloadType: 'date',
            repeat: '',
            once: false,
            x: 100,
            y: 200,
            wires: [[]],
          },
        ]);
        await editor.wire(page, 'inject-msg', outputs[0]);
        await editor.wire(page, 'inject-env', outputs[1]);
        await ctl.powerConfig(2);
        await editor.deploy(page);
        await ctl.clearLog();
        const states = async () => (await ctl.requests()).filter((e) => e.path.endsWith('/output/state')).map((e) => e.body);
        // Each click waits for its request in the simulator's log (a condition, not a time).
        for (const [inject, count] of [
          ['inject-msg', 1],
          ['inject-env', 2],
        ] as const) {
          await editor.clickInject(page, inject);
          const deadline = Date.now() + 15000;
          while ((await states()).length < count && Date.now() < deadline) await page.waitForTimeout(100);
        }
        should(await states()).eql([
          { pin: 4, state: 'high' },
          { pin: 5, state: 'high' },
        ]);
        await page.screenshot({ path: `${editor.ARTIFACTS}/dialog-typed-pins-deployed.png` });
      });
    });
  }
});
