/**
 * The example of docs/testing.md's chapter on the serverless driver, run as written (between the
 * markers, with the package's import paths): an app function that uses `neon()` as it would against
 * the real service, tested in process under msw with `computesim/msw`.
 */
// serverless:start
import { neon } from '@neondatabase/serverless';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Simulation } from '../../src/index.js';
import { neonHandlers } from '../../src/msw/index.js';

/** The app's code, as it is for the real service. */
async function recordVisit(page: string): Promise<number> {
  const sql = neon(process.env['DATABASE_URL']!);
  await sql`create table if not exists visits (page text)`;
  await sql`insert into visits values (${page})`;
  const [row] = await sql`select count(*)::int as visits from visits where page = ${page}`;
  return row!['visits'] as number;
}

const sim = new Simulation({ seed: 1 });
const handlers = neonHandlers(sim); // the Neon API and SQL over HTTP, answered from `sim`
const server = setupServer(...handlers);

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  const created = sim.request('POST', '/projects', { project: { name: 'shop' } });
  process.env['DATABASE_URL'] = created.body.connection_uris[0].connection_uri;
});
afterAll(async () => {
  server.close();
  await handlers.close();
});

it('counts visits, across a scale to zero', async () => {
  expect(await recordVisit('/')).toBe(1); // waits out the first start: time skips
  sim.advance('10m'); // nobody queries: the compute scales to zero
  expect(await recordVisit('/')).toBe(2); // wakes it again
  const starts = Object.values(sim.state.projects)
    .flatMap((project) => Object.values(project.operations))
    .filter((operation) => operation.action === 'start_compute');
  expect(starts).toHaveLength(2);
}, 60_000); // the first query makes the embedded Postgres: seconds, the first time on a machine
// serverless:end
