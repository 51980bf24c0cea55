/**
 * The scripts pages run, one per entry module of the browser's sources (`src/browser/`): the file
 * `npm run build` bundled it into, or, running from the TypeScript sources (under tsx or vitest),
 * the entry bundled with everything it imports on first use (`compileScript`), once per process.
 * `tsc` builds none of the browser's sources but the types the server shares with them: their
 * script in the package is the bundle.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { compileScript, CompileError } from './compileProgram.js';
import { OnceEach } from './onceEach.js';

/** The entry modules of pages' scripts, from the sources' root, without extension. */
export const PAGE_ENTRIES = ['browser/dashboard'] as const;

/** One of `PAGE_ENTRIES`. */
export type PageEntry = (typeof PAGE_ENTRIES)[number];

const scripts = new OnceEach<PageEntry, string>();

/**
 * The text of the script whose entry module is `entry`. Rejects with an error that starts "a
 * page's script could not be made" when the sources do not compile.
 */
export function pageScript(entry: PageEntry): Promise<string> {
  return scripts.get(entry, () => make(entry));
}

async function make(entry: PageEntry): Promise<string> {
  // This file is beside its built or its source siblings: one folder down from their root.
  const fromSources = import.meta.url.endsWith('.ts');
  const file = new URL(`../${entry}.${fromSources ? 'ts' : 'js'}`, import.meta.url);
  if (!fromSources) return readFile(file, 'utf8');
  try {
    return await compileScript(fileURLToPath(file));
  } catch (error) {
    if (!(error instanceof CompileError)) throw error;
    throw new Error(
      `a page's script could not be made: the sources do not compile: ${error.message}`,
      { cause: error },
    );
  }
}
