/**
 * Takes docs/dashboard.png, the README's picture of the dashboard: a served simulation with a few
 * projects whose clients come and go, watched in headless chromium (CHROMIUM_PATH, default
 * /usr/bin/chromium).
 *
 * Run: npx tsx scripts/dashboard-screenshot.ts
 */
import { chromium } from 'playwright-core';
import { SimServer } from '../src/http/simServer.js';
import { Simulation } from '../src/index.js';

const KEY = 'screenshot-key';
const sim = new Simulation({ seed: 7, start: '2026-01-05T09:00:00Z' });
const server = new SimServer(sim, {
  keys: [{ key: KEY, kind: 'personal' }],
  clock: { name: 'manual', rate: 0 },
});
const base = await server.listen(0);
// The API's JSON, read by field like `fetch`'s `json()`.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const call = (method: string, path: string, body?: unknown): Promise<any> =>
  fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  }).then((r) => r.json());

const endpoints: string[] = [];
for (const name of ['shop', 'blog', 'analytics', 'ci-previews', 'billing', 'search']) {
  const created = await call('POST', '/projects', { project: { name } });
  endpoints.push(created.endpoints[0].id);
  await call('POST', '/_sim/advance', { by: '40s' });
}
// Clients now and then: each compute wakes when one connects and sleeps 5 minutes after.
for (let minute = 0; minute < 40; minute++) {
  for (const [i, endpointId] of endpoints.entries())
    if ((minute + 3 * i) % (6 + 2 * i) === 0) {
      const { connection } = await call('POST', '/_sim/connections', { endpoint_id: endpointId });
      await call('POST', `/_sim/connections/${connection.id}/query`, { duration: '20s' });
    }
  await call('POST', '/_sim/advance', { by: '1m' });
}

const browser = await chromium.launch({
  executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
  args: ['--no-sandbox'],
});
const page = await browser.newPage({ viewport: { width: 1300, height: 780 } });
await page.goto(`${base.replace(/\/api\/v2$/, '')}/#key=${KEY}`);
await page.locator('#lanes g.lane').first().waitFor();
await page.locator('#feed li').nth(20).waitFor();
await page.screenshot({ path: 'docs/dashboard.png' });
await browser.close();
await server.close();
console.log('wrote docs/dashboard.png');
