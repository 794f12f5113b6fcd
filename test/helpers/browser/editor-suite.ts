/**
 * The frame of a browser suite, for mocha: a real Node-RED with the npm-packed package and a
 * headless Chromium, started before the suite and stopped after it; and, per language, a
 * browser context with the editor open, whose trays a failed test left open are closed.
 */
import fs from 'fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from './chromium';
import { NodeRedServer, startNodeRed } from './node-red-server';
import * as editor from './editor';

export interface Running {
  red: NodeRedServer;
  browser: Browser;
}

/** Starts Node-RED and Chromium in `before`, stops them in `after`; read the fields inside tests. */
export function nodeRedAndChromium(): Running {
  const running = {} as Running;
  before(async function () {
    fs.mkdirSync(editor.ARTIFACTS, { recursive: true });
    running.red = await startNodeRed();
    running.browser = await launchChromium();
  });
  after(async function () {
    await running.browser?.close();
    await running.red?.stop();
  });
  return running;
}

/** A page in `locale` with the editor open, for the tests of the enclosing describe. */
export function editorPage(running: Running, locale: string, viewport = { width: 1400, height: 1000 }): { page: Page } {
  const open = {} as { page: Page };
  let context: BrowserContext | undefined;
  before(async function () {
    context = await running.browser.newContext({ locale, viewport });
    open.page = await context.newPage();
    await editor.openEditor(open.page, running.red.url);
  });
  after(async function () {
    await context?.close();
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await editor.closeTrays(open.page);
  });
  return open;
}
