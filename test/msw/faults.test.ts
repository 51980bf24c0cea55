/**
 * A property over seeds, as docs/testing.md suggests for an app that uses the serverless driver:
 * under `computesim/msw` with a share of SQL requests dropped (57P01, before their statement runs)
 * and the compute scaled to zero between visits (each visit a cold start), an app that retries a
 * dropped request counts every visit, and one that does not fails on some seed. The same seed
 * drops the same requests.
 */
// property:start
import { neon, NeonDbError } from '@neondatabase/serverless';
import fc from 'fast-check';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { neonHandlers, type NeonHandlers } from '../../src/msw/index.js';
import { Simulation } from '../../src/simulation/simulation.js';

/** Runs one statement: the driver's `sql` tag, with or without retries. */
type Run = (
  strings: TemplateStringsArray,
  ...values: unknown[]
) => Promise<Record<string, unknown>[]>;

/** The app as first written: each statement tried once. */
function naive(uri: string): Run {
  const sql = neon(uri);
  return (strings, ...values) => sql(strings, ...values);
}

/**
 * The app after the lesson: a statement whose connection was dropped is tried again, a few times
 * (safe, as the drop came before it ran).
 */
function retrying(uri: string): Run {
  const once = naive(uri);
  return async (strings, ...values) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await once(strings, ...values);
      } catch (error) {
        if (!(error instanceof NeonDbError) || error.code !== '57P01' || attempt === 5) throw error;
      }
    }
  };
}

/** The app's own code: record a visit, say how many the page has had. */
async function recordVisit(sql: Run, page: string): Promise<number> {
  await sql`insert into visits values (${page})`;
  const [row] = await sql`select count(*)::int as n from visits where page = ${page}`;
  return row?.['n'] as number;
}

/** msw serves one simulation at a time: each run swaps in its own handlers. */
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

async function visits(app: (uri: string) => Run, seed: number): Promise<boolean> {
  const sim = new Simulation({ seed });
  const handlers: NeonHandlers = neonHandlers(sim, { faults: { sqlDropRate: 0.3 } });
  server.resetHandlers(...handlers);
  try {
    const created = sim.request('POST', '/projects', { project: { name: 'shop' } });
    const uri = created.body.connection_uris[0].connection_uri as string;
    await retrying(uri)`create table visits (page text)`;
    const sql = app(uri);
    for (let visit = 1; visit <= 3; visit++) {
      sim.advance('10m'); // scaled to zero: each visit wakes the compute
      if ((await recordVisit(sql, '/')) !== visit) return false;
    }
    return true;
  } catch {
    return false;
  } finally {
    await handlers.close();
  }
}

describe('an app under dropped connections and cold starts', () => {
  it('counts every visit when it retries a dropped request', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 1_000_000 }), async (seed) => {
        expect(await visits(retrying, seed)).toBe(true);
      }),
      { numRuns: 2, seed: 7 },
    );
  }, 60_000); // each run opens embedded databases and waits out cold starts

  it('fails on some seed when it does not', async () => {
    const result = await fc.check(
      fc.asyncProperty(fc.integer({ min: 1, max: 1_000_000 }), async (seed) => {
        expect(await visits(naive, seed)).toBe(true);
      }),
      { numRuns: 3, seed: 7, endOnFailure: true },
    );
    expect(result.failed).toBe(true);
  }, 60_000);
});
// property:end
