/**
 * `npm run build`'s step after `tsc`: bundles each page's script from the browser's sources into
 * `dist/` beside the compiled modules, where the built package reads it (src/programs/pageScript.ts).
 *
 * Run: npm run build
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PAGE_ENTRIES, pageScript } from '../src/programs/pageScript.js';

for (const entry of PAGE_ENTRIES) {
  const file = fileURLToPath(new URL(`../dist/${entry}.js`, import.meta.url));
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, await pageScript(entry));
}
