/**
 * Renders docs/api-coverage.md: every operation of the public v2 schema, grouped by tag, with
 * whether computesim simulates it (a route in `ROUTES`) or answers 501, and the notes of
 * `apiCoverageNotes.ts`. The test `test/apiCoverageDoc.test.ts` fails when the committed page is not
 * what this renders.
 */
import { createRequire } from 'node:module';
import { format, resolveConfig } from 'prettier';
import { ROUTES } from '../src/api/routeTable.js';
import { operationsOf, publicSchemaDocument } from '../src/schema/publicSchema.js';
import { COVERAGE_NOTES } from './apiCoverageNotes.js';

/** Where the page lives, from the repository root. */
export const COVERAGE_DOC = 'docs/api-coverage.md';

/** The command that regenerates the page. */
export const COVERAGE_COMMAND = 'npm run docs:api-coverage';

/** The page as it should be committed (formatted as prettier formats the repository). */
export async function renderApiCoverage(): Promise<string> {
  const doc = publicSchemaDocument();
  const operations = operationsOf(doc);
  const simulated = new Set(ROUTES.map((route) => `${route.method} ${route.pattern}`));
  const isSimulated = (o: { method: string; pattern: string }) =>
    simulated.has(`${o.method} ${o.pattern}`);
  const known = new Set(operations.map((o) => `${o.method} ${o.pattern}`));
  const outside = ROUTES.filter((route) => !known.has(`${route.method} ${route.pattern}`));
  const stale = Object.keys(COVERAGE_NOTES).filter(
    (id) => !operations.some((o) => o.operationId === id),
  );
  if (stale.length > 0)
    throw new Error(`apiCoverageNotes.ts: no operation of the schema is ${stale.join(', ')}`);

  const tagOrder = ((doc['tags'] ?? []) as { name: string }[]).map((tag) => tag.name);
  const tags = [...new Set([...tagOrder, ...operations.map((o) => o.tag)])].filter((tag) =>
    operations.some((o) => o.tag === tag),
  );
  const version = (
    createRequire(import.meta.url)('@neondatabase/api-client/package.json') as { version: string }
  ).version;
  const count = operations.filter(isSimulated).length;

  const lines = [
    '# API coverage',
    '',
    `<!-- Generated from the public v2 schema by \`${COVERAGE_COMMAND}\` (scripts/apiCoverageDoc.ts); edit the notes in scripts/apiCoverageNotes.ts, not this page. -->`,
    '',
    `**${count} of ${operations.length} operations simulated.**`,
    '',
    `Every operation of the public v2 schema (\`public-v2-for-users.gen.yaml\` of \`@neondatabase/api-client\` ${version}), by tag. A simulated operation is a route of computesim's route table (\`src/api/routeTable.ts\`); its request body is checked against the schema before the simulation decides anything (400 naming the field). Any other operation of the schema answers \`501 {"code": "not_implemented"}\` naming it, in process (\`sim.request\`) and over \`serve\` alike; a path the schema does not have is 404, and a known path asked with another method 405 (with \`Allow\`).`,
    '',
    'Notes say where a simulated operation differs from the real service.',
  ];
  for (const tag of tags) {
    lines.push('', `## ${tag}`, '');
    lines.push(
      '| method | path | operationId | computesim | notes |',
      '| --- | --- | --- | --- | --- |',
    );
    for (const o of operations.filter((operation) => operation.tag === tag)) {
      const note = COVERAGE_NOTES[o.operationId] ?? '';
      lines.push(
        `| ${o.method} | \`${o.pattern}\` | \`${o.operationId}\` | ${isSimulated(o) ? 'simulated' : '501'} | ${note.replaceAll('|', '\\|')} |`,
      );
    }
  }
  if (outside.length > 0) {
    lines.push('', '## Routes the schema does not have', '');
    for (const route of outside) lines.push(`- ${route.method} \`${route.pattern}\``);
  }
  const text = `${lines.join('\n')}\n`;
  const config = (await resolveConfig(COVERAGE_DOC)) ?? {};
  return format(text, { ...config, parser: 'markdown' });
}
