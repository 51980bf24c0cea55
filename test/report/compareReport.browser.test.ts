/**
 * The compare report in a real browser (chromium via playwright-core, as the run and fork reports'
 * tests): the paired figures with their intervals, every configuration's lanes paired per compute
 * and its series on the same axes, offline and without a console problem. A screenshot is saved
 * under test-output/.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { FIGURES } from '../../src/study/figures.js';
import { openReport, describeInBrowser, TEST_OUTPUT, useBrowser } from '../support/browser.js';
import { compareReportOf } from '../support/compareReportOf.js';
import tiny from '../fixtures/tinyStudy.js';

describeInBrowser('the compare report in chromium', () => {
  const browser = useBrowser();

  it('draws the paired figures, paired lanes and every configuration’s series', async () => {
    const study = {
      ...tiny,
      configurations: [
        ...tiny.configurations,
        { name: 'never', params: { suspendTimeout: -1, projects: 3 } },
      ],
    };
    mkdirSync(TEST_OUTPUT, { recursive: true });
    const file = `${TEST_OUTPUT}compare.html`;
    writeFileSync(file, compareReportOf(study, [11, 12, 13], '3h'));

    const { page, problems, requests } = await openReport(browser(), file);

    expect(await page.locator('svg[role=img]').count()).toBe(3);
    // Three computes, each under the three configurations, states drawn in every lane.
    for (const arm of ['arm-0', 'arm-1', 'arm-2']) {
      expect(await page.locator(`g.lane.${arm}`).count()).toBe(3);
      expect(await page.locator(`g.lane.${arm} rect.st-active`).count()).toBeGreaterThan(0);
      expect(await page.locator(`path.series.s-${arm}`).count()).toBe(2);
    }
    const labels = await page.locator('g.lane .lane-label').allTextContents();
    expect(labels.slice(0, 3)).toEqual([labels[0], '↳ timeout 60 s', '↳ never']);
    // The lanes and both time charts share one time axis: the same ends, drawn at the same x.
    const axisEnds = await page
      .locator('svg[role=img] line.axis')
      .evaluateAll((lines) =>
        lines
          .filter((l) => l.getAttribute('y1') === l.getAttribute('y2'))
          .map((l) => `${l.getAttribute('x1')}-${l.getAttribute('x2')}`),
      );
    expect(new Set(axisEnds).size).toBe(1);
    const headers = await page
      .locator('table.paired thead tr')
      .first()
      .locator('th')
      .allTextContents();
    expect(headers).toEqual(['', 'timeout 300 s', 'timeout 60 s', 'never']);
    expect(await page.locator('table.paired tbody tr').count()).toBe(FIGURES.length);
    const cu = page.locator('table.paired tbody tr', { hasText: 'CU-hours' }).locator('td');
    expect(await cu.count()).toBe(5);
    expect(await cu.nth(0).textContent()).toMatch(/^[\d.]+ ±[\d.]+$/);
    expect(await cu.nth(2).textContent()).toMatch(/^−[\d.]+ ±[\d.]+, −\d+%$/);
    expect(await cu.nth(4).textContent()).toMatch(/^\+[\d.]+ ±[\d.]+, \+\d+%$/);
    expect(await page.locator('td.delta.clear').count()).toBeGreaterThan(0);
    const box = await page.locator('svg[role=img]').first().boundingBox();
    expect(box?.width).toBeGreaterThan(500);
    expect(problems).toEqual([]);
    expect(requests.every((url) => url.startsWith('file:'))).toBe(true);
    await page.screenshot({ path: `${TEST_OUTPUT}compare.png`, fullPage: true });
    await page.close();
  }, 60_000);
});
