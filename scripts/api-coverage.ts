/**
 * Writes docs/api-coverage.md from the public v2 schema and the route table.
 *
 * Run: npm run docs:api-coverage
 */
import { writeFileSync } from 'node:fs';
import { COVERAGE_DOC, renderApiCoverage } from './apiCoverageDoc.js';

writeFileSync(COVERAGE_DOC, await renderApiCoverage());
console.log(`wrote ${COVERAGE_DOC}`);
