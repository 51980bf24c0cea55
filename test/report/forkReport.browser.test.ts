/**
 * The fork report in a real browser (chromium via playwright-core, as the run report's test): both
 * futures drawn on the same axes, paired lanes and series from the marked fork point, both metrics
 * columns, time-axis labels that do not overlap as drawn, offline and without a console error. A
 * screenshot is saved under test-output/.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { officeHours, Simulation } from '../../src/index.js';
import { compareFork } from '../../src/entries/studies.js';
import { forkReport } from '../../src/report/html/forkReport.js';
import { labelWidth } from '../../src/report/html/tickLabelWidth.js';
import { openReport, describeInBrowser, TEST_OUTPUT, useBrowser } from '../support/browser.js';

describeInBrowser('the fork report in chromium', () => {
  const browser = useBrowser();

  it('draws both futures from the fork point: paired lanes, both series, both metrics', async () => {
    const sim = new Simulation({ seed: 7, start: '2026-01-06T00:00:00Z' });
    for (let i = 0; i < 3; i++) {
      const endpointId: string = sim.request('POST', '/projects', { project: { name: `p${i}` } })
        .body.endpoints[0].id;
      sim.addWorkload({
        kind: 'poisson',
        endpointId,
        rates: officeHours({ peak: 8, offPeak: 0.5 }),
        session: { duration: { dist: 'exponential', mean: '2m' } },
      });
    }
    sim.advance('1d');
    const result = compareFork(
      sim,
      '2026-01-06T12:00:00Z',
      { profile: { defaultSuspendTimeoutSeconds: 60 } },
      { name: 'suspendTimeout=60' },
    );
    mkdirSync(TEST_OUTPUT, { recursive: true });
    const file = `${TEST_OUTPUT}fork.html`;
    writeFileSync(file, forkReport(result, { source: 'busy-day', change: 'suspendTimeout=60' }));

    const { page, problems, requests } = await openReport(browser(), file);

    expect(await page.locator('svg[role=img]').count()).toBe(3);
    // Each compute twice: as run over the whole day, and the fork from noon on.
    expect(await page.locator('g.lane.as-run').count()).toBe(3);
    expect(await page.locator('g.lane.fork').count()).toBe(3);
    expect(await page.locator('g.lane.fork rect.st-active').count()).toBeGreaterThan(0);
    expect(await page.locator('g.lane.as-run rect.st-active').count()).toBeGreaterThan(0);
    // The fork's lanes start at the fork point, drawn at the same x in every chart.
    const marks = page.locator('line.instant-mark');
    expect(await marks.count()).toBe(3);
    const markX = Number(await marks.first().getAttribute('x1'));
    const forkRects = await page
      .locator('g.lane.fork rect')
      .evaluateAll((rects) => rects.map((r) => Number(r.getAttribute('x'))));
    expect(Math.min(...forkRects)).toBeGreaterThanOrEqual(markX - 1);
    // Both futures' series in both time charts.
    expect(await page.locator('path.series.s-cu').count()).toBe(1);
    expect(await page.locator('path.series.s-fork').count()).toBe(1);
    expect(await page.locator('path.series.s-active').count()).toBe(1);
    expect(await page.locator('path.series.s-fork-active').count()).toBe(1);
    const forkPath = (await page.locator('path.series.s-fork').getAttribute('d')) ?? '';
    expect(Number(/^M([\d.]+)/.exec(forkPath)?.[1])).toBeLessThanOrEqual(markX + 2);
    const headers = await page.locator('table.fork-metrics thead th').allTextContents();
    expect(headers).toEqual(['', 'as run', 'suspendTimeout=60', 'Δ']);
    expect(await page.locator('table.fork-metrics tbody tr').count()).toBeGreaterThan(10);
    const cu = page.locator('table.fork-metrics tbody tr', { hasText: 'CU-hours' }).locator('td');
    expect(await cu.nth(2).textContent()).toMatch(/^−/);
    // The time axes of a day from midnight: labels apart as drawn, each within its estimate.
    const charts = page.locator('svg[role=img]');
    const axes = [];
    for (let chart = 0; chart < (await charts.count()); chart++) {
      const labels = [];
      for (const text of await charts.nth(chart).locator('text.time-tick').all()) {
        const box = (await text.boundingBox())!;
        labels.push({
          text: (await text.textContent()) ?? '',
          left: box.x,
          right: box.x + box.width,
        });
      }
      axes.push(labels);
    }
    for (const labels of axes) {
      expect(labels.length).toBeGreaterThanOrEqual(3);
      for (const label of labels)
        expect(label.right - label.left).toBeLessThanOrEqual(labelWidth(label.text));
      for (let i = 1; i < labels.length; i++)
        expect(labels[i]!.left).toBeGreaterThan(labels[i - 1]!.right);
    }
    expect(problems).toEqual([]);
    expect(requests.every((url) => url.startsWith('file:'))).toBe(true);
    await page.screenshot({ path: `${TEST_OUTPUT}fork.png`, fullPage: true });
    await page.close();
  }, 60_000);
});
