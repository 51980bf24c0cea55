/**
 * The sweep report in a real browser (chromium via playwright-core, as the other reports' tests):
 * a chart per figure over the swept parameter with its mean line, interval band and seed dots, and
 * the grid table, offline and without a console problem. A screenshot is saved under test-output/.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { sweepReport } from '../../src/report/html/sweepReport.js';
import { sweep } from '../../src/study/sweep.js';
import { openReport, describeInBrowser, TEST_OUTPUT, useBrowser } from '../support/browser.js';
import tiny from '../fixtures/tinyStudy.js';

/** The one computed style read here. */
interface CSSFill {
  readonly fillOpacity: string;
}

describeInBrowser('the sweep report in chromium', () => {
  const browser = useBrowser();

  it('draws a chart per figure with its band and dots, and the grid', async () => {
    const result = sweep(
      { ...tiny, duration: '3h' },
      { grid: { suspendTimeout: [60, 120, 300, 600, 1800] }, seeds: [11, 12, 13] },
    );
    mkdirSync(TEST_OUTPUT, { recursive: true });
    const file = `${TEST_OUTPUT}sweep.html`;
    writeFileSync(file, sweepReport(result, ['cuHours', 'starts', 'coldStarts', 'sessions']));

    const { page, problems, requests } = await openReport(browser(), file);

    const charts = page.locator('svg[role=img]');
    expect(await charts.count()).toBe(4);
    for (let i = 0; i < 4; i++) {
      const chart = charts.nth(i);
      expect(await chart.locator('path.series').count()).toBe(1);
      expect(await chart.locator('circle.marker').count()).toBe(5);
      expect(await chart.locator('circle.dot').count()).toBe(15);
      expect(await chart.locator('path.band').count()).toBe(1);
      // The band is drawn, translucent, and the mean's points lie inside it.
      const band = await chart.locator('path.band').boundingBox();
      expect(band?.width).toBeGreaterThan(500);
      const opacity = await chart.locator('path.band').evaluate((el) => {
        // The page's window (the tests compile without the DOM's types).
        const view = globalThis as unknown as { getComputedStyle(e: unknown): CSSFill };
        return Number(view.getComputedStyle(el).fillOpacity);
      });
      expect(opacity).toBeLessThan(0.5);
      for (const marker of await chart.locator('circle.marker').all()) {
        const box = (await marker.boundingBox())!;
        expect(box.y + box.height / 2).toBeGreaterThanOrEqual(band!.y - 1);
        expect(box.y + box.height / 2).toBeLessThanOrEqual(band!.y + band!.height + 1);
      }
    }
    // More starts with a shorter timeout: the first point of the starts chart is the highest.
    const starts = charts.nth(1).locator('circle.marker');
    const first = (await starts.first().boundingBox())!;
    const last = (await starts.last().boundingBox())!;
    expect(first.y).toBeLessThan(last.y);
    expect(await page.locator('table.sweep-grid tbody tr').count()).toBe(5);
    const row = page.locator('table.sweep-grid tbody tr').first();
    expect(await row.locator('th').textContent()).toBe('suspendTimeout=60');
    expect(await row.locator('td').first().textContent()).toMatch(/^[\d.]+ ±[\d.]+$/);
    expect(problems).toEqual([]);
    expect(requests.every((url) => url.startsWith('file:'))).toBe(true);
    await page.screenshot({ path: `${TEST_OUTPUT}sweep.png`, fullPage: true });
    await page.close();
  }, 60_000);
});
