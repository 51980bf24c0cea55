/**
 * The documentation as one text: the README and every page of `docs/`, for tests that run the
 * examples it shows (each marked `<!-- name:start -->`, wherever it lives) and check its figures.
 */
import { readdirSync, readFileSync } from 'node:fs';

const root = new URL('../../', import.meta.url);

/** README.md, then the pages of docs/ in name order, joined. */
export function documentation(): string {
  const pages = readdirSync(new URL('docs/', root))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => readFileSync(new URL(`docs/${name}`, root), 'utf8'));
  return [readFileSync(new URL('README.md', root), 'utf8'), ...pages].join('\n');
}
