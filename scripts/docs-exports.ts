/**
 * Writes docs/exports.md: every name of every entry point, one line each, from the sources' TSDoc.
 *
 * Run: npm run docs:exports
 */
import { writeFileSync } from 'node:fs';
import { EXPORTS_DOC, renderExports } from './exportsDoc.js';

writeFileSync(EXPORTS_DOC, await renderExports());
console.log(`wrote ${EXPORTS_DOC}`);
