/**
 * Tests in a real browser: Debian's chromium driven by playwright-core. Where the browser is, a
 * suite that skips only where no browser is installed and none is required (CI installs chromium
 * and sets COMPUTESIM_REQUIRE_BROWSER=1, so there it cannot skip), one browser per suite, the
 * page's console problems, and the folder screenshots go to.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe } from 'vitest';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const required = process.env['COMPUTESIM_REQUIRE_BROWSER'] === '1';
const available = existsSync(CHROMIUM);

/** Where browser tests save their screenshots and pages (not committed). */
export const TEST_OUTPUT = fileURLToPath(new URL('../../test-output/', import.meta.url));

/** `describe`, skipped where there is no browser and none is required. */
export const describeInBrowser = describe.skipIf(!available && !required);

/** Launches chromium before the suite's tests and closes it after; returns the running browser. */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    if (!available) throw new Error(`no browser at ${CHROMIUM} (apt-get install chromium)`);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (browser === undefined) throw new Error('the browser is not running');
    return browser;
  };
}

/** Collects what a page reports as wrong: console errors and warnings, and uncaught exceptions. */
export function consoleProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return problems;
}
