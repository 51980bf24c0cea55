/**
 * `serve`'s dashboard in a real browser (Debian's chromium, driven by playwright-core, as the HTML
 * report's test): the page opened with the key in its fragment, the quickstart scenario's requests
 * sent to the server over HTTP, and the compute's lane seen turning active, then idle once the
 * suspend timeout has passed; the "Advance 5 minutes" button moves the clock; the report downloads;
 * no console errors. Screenshots go under test-output/. CI sets COMPUTESIM_REQUIRE_BROWSER=1.
 */
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { Simulation } from '../../src/index.js';
import { KEY, serveOver } from '../support/transports.js';
import { consoleProblems, describeInBrowser, TEST_OUTPUT, useBrowser } from '../support/browser.js';

/** The last stretch drawn in the lane of `endpointId`, as a locator (`st-active`: ends active). */
function lastStretch(page: Page, endpointId: string, state: string) {
  return page.locator(`#lanes g.lane:has-text("${endpointId}") rect.${state}:last-of-type`);
}

/** The class of the last stretch drawn in the lane of `endpointId`. */
function lastState(page: Page, endpointId: string): Promise<string | null> {
  return page.locator(`#lanes g.lane:has-text("${endpointId}") rect`).last().getAttribute('class');
}

describeInBrowser('the dashboard in chromium', () => {
  const browser = useBrowser();

  it('shows a compute wake and sleep as clients and the clock move', async () => {
    const { base, call } = await serveOver(
      'socket',
      {},
      new Simulation({ seed: 42, start: '2026-01-05T09:00:00Z' }),
    );
    const origin = base.replace(/\/api\/v2$/, '');
    mkdirSync(TEST_OUTPUT, { recursive: true });
    const page = await browser().newPage({
      viewport: { width: 1500, height: 1000 },
      acceptDownloads: true,
    });
    const problems = consoleProblems(page);
    await page.goto(`${origin}/#key=${KEY}`);
    await page.locator('#lane-range', { hasText: 'no computes yet' }).waitFor();
    expect(page.url()).not.toContain(KEY); // the key leaves the address bar

    // The quickstart scenario's requests: create a project, poll its operations every 5 s.
    const created = await call('POST', '/projects', { project: { name: 'quickstart' } });
    const endpointId: string = created.body.endpoints[0].id;
    const projectId: string = created.body.project.id;
    for (const op of created.body.operations)
      while (
        (await call('GET', `/projects/${projectId}/operations/${op.id}`)).body.operation.status !==
        'finished'
      )
        await call('POST', '/_sim/advance', { by: '5s' });
    await lastStretch(page, endpointId, 'st-active').waitFor();
    expect(await lastState(page, endpointId)).toBe('st-active');
    await page
      .locator('#feed li', { hasText: `compute ${endpointId} is active` })
      .first()
      .waitFor();
    await page.locator('#feed li.request', { hasText: 'POST /projects → 201' }).waitFor();
    await page.screenshot({ path: `${TEST_OUTPUT}dashboard-active.png`, fullPage: true });

    // Nobody connects: past the 5-minute suspend timeout the compute scales to zero.
    await call('POST', '/_sim/advance', { by: '6m' });
    await page
      .locator('#feed li', { hasText: `compute ${endpointId} is idle` })
      .first()
      .waitFor();
    await lastStretch(page, endpointId, 'st-idle').waitFor();
    expect(await lastState(page, endpointId)).toBe('st-idle');

    // The clock buttons go through the _sim routes.
    const before = Number(await page.locator('#clock').getAttribute('data-now'));
    await page.getByRole('button', { name: 'Advance 5 minutes' }).click();
    await page.locator(`#clock[data-now="${before + 300_000}"]`).waitFor();
    expect((await call('GET', '/_sim/clock')).body.now_ms).toBe(before + 300_000);
    await page
      .locator('#feed li.request', { hasText: 'POST /_sim/advance → 200' })
      .first()
      .waitFor();

    // Filtered to the project, the feed leaves out lines of no project (the clock requests).
    await page.locator('#project').selectOption(projectId);
    expect(await page.locator('#feed li', { hasText: 'POST /_sim/advance' }).count()).toBe(0);
    await page.locator('#project').selectOption('');

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download report' }).click();
    expect((await download).suggestedFilename()).toBe('computesim-report.html');

    await page.screenshot({ path: `${TEST_OUTPUT}dashboard.png`, fullPage: true });
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);
});
