/**
 * Tests in a real browser: Debian's chromium (CHROMIUM_PATH, else `chromium` on PATH) driven by
 * playwright-core. A suite that skips with a one-line reason where there is no browser (never under
 * CI=true), one browser per suite, the page's console problems, and the folder screenshots go to.
 */
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { describeWith, installHint, programPath } from './systemPrograms.js';

/** Where browser tests save their screenshots and pages (not committed). */
export const TEST_OUTPUT = fileURLToPath(new URL('../../test-output/', import.meta.url));

/** `describe` for tests in the browser, skipped with a reason where there is none (not under CI). */
export function describeInBrowser(title: string, body: () => void): void {
  describeWith('chromium', title, body);
}

/** Launches chromium before the suite's tests and closes it after; returns the running browser. */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    const executablePath = programPath('chromium');
    if (executablePath === undefined) throw new Error(installHint('chromium'));
    browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
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

/** A report file opened in a new page, with what the page reported as wrong and every URL it asked for. */
export async function openReport(
  browser: Browser,
  file: string,
): Promise<{ page: Page; problems: string[]; requests: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1040, height: 900 } });
  const problems = consoleProblems(page);
  const requests: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  await page.goto(pathToFileURL(file).href);
  return { page, problems, requests };
}
