/**
 * docs/api-coverage.md stays what the public schema and the route table say: the committed page is
 * exactly what `npm run docs:api-coverage` renders, and every simulated route is an operation of the
 * schema.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../src/api/routeTable.js';
import { publicContract } from '../src/schema/publicSchema.js';
import { COVERAGE_COMMAND, COVERAGE_DOC, renderApiCoverage } from '../scripts/apiCoverageDoc.js';

const committed = readFileSync(new URL(`../${COVERAGE_DOC}`, import.meta.url), 'utf8');

describe(COVERAGE_DOC, () => {
  it('is up to date with the schema, the route table and the notes', async () => {
    const rendered = await renderApiCoverage();
    expect(
      committed === rendered,
      `${COVERAGE_DOC} is out of date: regenerate it with \`${COVERAGE_COMMAND}\` and commit it`,
    ).toBe(true);
  });

  it('counts the simulated operations at the top, out of every operation of the schema', () => {
    const operations = publicContract().operations;
    const known = new Set(operations.map((o) => `${o.method} ${o.pattern}`));
    expect(committed.split('\n').slice(0, 6).join('\n')).toContain(
      `**${ROUTES.length} of ${operations.length} operations simulated.**`,
    );
    // Every route answers an operation of the public schema: real clients can call nothing else.
    expect(ROUTES.filter((route) => !known.has(`${route.method} ${route.pattern}`))).toEqual([]);
  });
});
