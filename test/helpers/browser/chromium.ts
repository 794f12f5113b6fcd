/**
 * Headless Chromium for the editor tests: CHROME_PATH when set (a local Chrome or
 * Chromium), else the build @sparticuz/chromium ships inside its npm package, which runs
 * on Linux with no system package.
 */
import type { Browser } from 'playwright-core';
import { chromium as playwright } from 'playwright-core';

const QUIET = ['--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'];

export async function launchChromium(): Promise<Browser> {
  if (process.env.CHROME_PATH) {
    return playwright.launch({ executablePath: process.env.CHROME_PATH, headless: true, args: QUIET });
  }
  const sparticuz = require('@sparticuz/chromium');
  const chromium = sparticuz.default ?? sparticuz;
  // Its --single-process (meant for AWS Lambda) takes the whole browser down when a context closes.
  const args = (chromium.args as string[]).filter((a) => a !== '--single-process');
  return playwright.launch({ executablePath: await chromium.executablePath(), headless: true, args: [...args, ...QUIET] });
}
