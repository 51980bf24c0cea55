/**
 * The documentation as one text: the README and every page of `docs/`, for tests that run the
 * examples it shows (each marked `<!-- name:start -->`, wherever it lives) and check its figures.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = new URL('../../', import.meta.url);

/** README.md, then the pages of docs/ in name order, joined. */
export function documentation(): string {
  const pages = readdirSync(new URL('docs/', root))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => readFileSync(new URL(`docs/${name}`, root), 'utf8'));
  return [readFileSync(new URL('README.md', root), 'utf8'), ...pages].join('\n');
}

/** The source file of each of the package's entry points, by specifier ('computesim/studies'). */
function entrySources(): Map<string, string> {
  const { exports } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as {
    exports: Record<string, string | { import?: string }>;
  };
  const sources = new Map<string, string>();
  for (const [subpath, target] of Object.entries(exports)) {
    const built = typeof target === 'string' ? target : target.import;
    if (built === undefined || !built.startsWith('./dist/')) continue;
    const source = built.replace(/^\.\/dist\//, 'src/');
    sources.set(`computesim${subpath.slice(1)}`, fileURLToPath(new URL(source, root)));
  }
  return sources;
}

/** `code` with its imports of the package (`'computesim'`, `'computesim/studies'`, …) read from src/. */
export function importingSources(code: string): string {
  const sources = entrySources();
  return code.replace(/from '(computesim(?:\/[a-z]+)?)'/g, (whole, specifier: string) => {
    const source = sources.get(specifier);
    return source === undefined ? whole : `from ${JSON.stringify(source)}`;
  });
}
