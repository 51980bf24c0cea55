/**
 * The documentation as one text: the README and every page of `docs/`, for tests that run the
 * examples it shows (each marked `<!-- name:start -->`, wherever it lives) and check its figures.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { declaredEntries } from '../../scripts/exportsDoc.js';

const root = new URL('../../', import.meta.url);

/** README.md, then the pages of docs/ in name order, joined. */
export function documentation(): string {
  const pages = readdirSync(new URL('docs/', root))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => readFileSync(new URL(`docs/${name}`, root), 'utf8'));
  return [readFileSync(new URL('README.md', root), 'utf8'), ...pages].join('\n');
}

/** `code` with its imports of the package (`'computesim'`, `'computesim/studies'`, …) read from src/. */
export function importingSources(code: string): string {
  const sources = new Map(
    declaredEntries().map(({ specifier, source }) => [
      specifier,
      fileURLToPath(new URL(source.replace(/\.ts$/, '.js'), root)),
    ]),
  );
  return code.replace(/from '(computesim(?:\/[a-z]+)?)'/g, (whole, specifier: string) => {
    const source = sources.get(specifier);
    return source === undefined ? whole : `from ${JSON.stringify(source)}`;
  });
}
