/**
 * `GET /_sim/report` of a long run is built off the request path (issue 36, item 2): while it is
 * being made, a request sent after it is answered first, and the report is the same page the
 * one-go renderer (`servedRunReport`) makes of the same log. Orders of completion only, no clocks.
 */
import { describe, expect, it } from 'vitest';
import { servedRunReport } from '../../src/dashboard/servedRunReport.js';
import { KEY, serveOver } from '../support/transports.js';

describe('the report of a long served run', () => {
  it('answers a later request while it is built, and is the same report as before', async () => {
    const { call, base, server } = await serveOver('socket');
    // Over 600,000 events: the report takes many slices to build.
    for (let i = 0; i < 200; i++) await call('POST', '/projects', { project: { name: `p${i}` } });
    await call('POST', '/_sim/advance', { by: '3000d' });
    expect(server.sim.log.length).toBeGreaterThan(600_000);
    const expected = servedRunReport(server.sim, server.dashboard.feed.requests);

    const headers = { authorization: `Bearer ${KEY}` };
    const finished: string[] = [];
    const response = await fetch(`${base}/_sim/report`, { headers });
    // The report is under way: now a small request.
    const small = fetch(`${base}/projects?limit=1`, { headers }).then(async (r) => {
      await r.text();
      finished.push('projects');
      return r.status;
    });
    const html = await response.text();
    finished.push('report');
    expect(await small).toBe(200);
    expect(finished).toEqual(['projects', 'report']);
    expect(response.headers.get('content-disposition')).toMatch(/attachment/);
    expect(html).toBe(expected);
  }, 30_000);
});
