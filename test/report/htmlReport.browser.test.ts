/**
 * The HTML report in a real browser: Debian's chromium, driven by playwright-core, opens the report
 * of a scenario from disk, with no network, and the charts render without a console error. A
 * screenshot is saved under test-output/. CI installs chromium (.ci/run) and sets
 * COMPUTESIM_REQUIRE_BROWSER=1, so there the test cannot be skipped.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { runScenario } from '../../src/index.js';
import { htmlReport } from '../../src/report/html/htmlReport.js';
import previewBranches from '../../scenarios/preview-branches.js';
import { openReport, describeInBrowser, TEST_OUTPUT, useBrowser } from '../support/browser.js';

describeInBrowser('the HTML report in chromium', () => {
  const browser = useBrowser();

  it('renders every chart of a scenario, offline, without console errors', async () => {
    const run = runScenario(previewBranches);
    mkdirSync(TEST_OUTPUT, { recursive: true });
    const file = `${TEST_OUTPUT}preview-branches.html`;
    writeFileSync(file, htmlReport(run));

    const { page, problems, requests } = await openReport(browser(), file);

    const computes = Object.values(run.sim.state.projects).flatMap((p) => Object.keys(p.endpoints));
    expect(await page.locator('svg[role=img]').count()).toBe(4);
    expect(await page.locator('g.lane').count()).toBeGreaterThanOrEqual(computes.length);
    expect(await page.locator('rect.st-active').count()).toBeGreaterThanOrEqual(4);
    expect(await page.locator('line.op').count()).toBeGreaterThan(0);
    expect(await page.locator('path.series').count()).toBe(4); // mean and peak CU, computes, connections
    expect(await page.locator('rect.bar').count()).toBeGreaterThanOrEqual(5);
    expect(await page.locator('table.metrics tr').count()).toBeGreaterThan(10);
    const box = await page.locator('svg[role=img]').first().boundingBox();
    expect(box?.width).toBeGreaterThan(500);
    expect(await page.locator('.axis-title').first().textContent()).toBe('time (UTC)');
    expect(problems).toEqual([]);
    expect(requests.every((url) => url.startsWith('file:'))).toBe(true);
    await page.screenshot({ path: `${TEST_OUTPUT}preview-branches.png`, fullPage: true });
    await page.close();
  }, 60_000);
});
