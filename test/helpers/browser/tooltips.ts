/**
 * What a user reads of a dialog's refusals, where the user looks: the field marked invalid,
 * the tooltip that opens on hovering it, and the tray photographed with that tooltip; and a
 * refusal of the pure layer as the editor in a language says it, to compare with.
 */
import path from 'path';
import type { Locator, Page } from 'playwright-core';
import { render, PhraseValue } from '../../../nodes/lib/pure/phrase';
import { inLanguage } from '../i18n';
import * as editor from './editor';

// Page-side code below runs in the browser; the project compiles without the DOM library.
declare const document: any;

/** A refusal of limits.ts as the editor in `lang` says it. */
export function said(lang: string, result: true | PhraseValue): string {
  if (result === true) throw new Error('expected a refusal, the value passed');
  const t = inLanguage(lang);
  return render(result, (id, values) => t(id, values));
}

/** Moves the mouse away and waits until no tooltip is left open. */
export async function away(page: Page): Promise<void> {
  await page.mouse.move(1, 1);
  await page.waitForFunction(() => document.querySelectorAll('.red-ui-popover').length === 0, undefined, { timeout: 5000 });
}

/** Waits until `selector` is marked invalid (`input-error`) or, `marked` false, no longer; fails naming what was not seen. */
export async function markedInvalid(page: Page, selector: string, marked: boolean, what: string): Promise<void> {
  await page
    .waitForFunction(({ s, m }) => document.querySelector(s).classList.contains('input-error') === m, { s: selector, m: marked }, { timeout: 5000 })
    .catch(() => {
      throw new Error(`${what}: ${selector} is ${marked ? 'not marked invalid' : 'still marked invalid'}`);
    });
}

/**
 * Puts the mouse at (x, y) of `target`'s box (its centre when not given) and reads the tooltip
 * that opens. A field that just appeared (the tray sliding in) may miss the first hover, as in
 * editor.checkField: up to three hovers, each from outside the field.
 */
export async function tooltipAt(page: Page, target: Locator, at?: (box: { width: number; height: number }) => { x: number; y: number }): Promise<string> {
  const popover = page.locator('.red-ui-popover');
  for (let attempt = 0; attempt < 3; attempt++) {
    await away(page);
    const box = (await target.boundingBox())!;
    const p = at ? at(box) : { x: box.width / 2, y: box.height / 2 };
    await page.mouse.move(box.x + p.x, box.y + p.y, { steps: 2 });
    const shown = await popover
      .first()
      .waitFor({ state: 'visible', timeout: 3000 })
      .then(() => true)
      .catch(() => false);
    if (shown) return (await popover.first().innerText()).trim();
  }
  throw new Error(`no tooltip opened on hovering ${target}`);
}

/** The tray, and the tooltip open over it (which may reach past the tray onto the canvas), as a screenshot. */
export async function screenshotWithTooltip(page: Page, name: string): Promise<void> {
  const boxes = [(await page.locator('.red-ui-tray').last().boundingBox())!];
  const popover = page.locator('.red-ui-popover');
  if (await popover.count()) boxes.push((await popover.first().boundingBox())!);
  const x = Math.max(0, Math.min(...boxes.map((b) => b.x)));
  const y = Math.max(0, Math.min(...boxes.map((b) => b.y)));
  const width = Math.max(...boxes.map((b) => b.x + b.width)) - x;
  const height = Math.max(...boxes.map((b) => b.y + b.height)) - y;
  await page.screenshot({ path: path.join(editor.ARTIFACTS, `${name}.png`), clip: { x, y, width, height } });
}
