/**
 * Loads a definition file (a study, a scenario): a module whose default export is a
 * `defineStudy(...)` or `defineScenario(...)`. TypeScript files load through tsx when the running
 * Node cannot import them itself (the compiled command line); tsx is an optional package, needed
 * only for them.
 */
import { isAbsolute, resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { TYPESCRIPT_FEATURE } from '../packages/optionalFeatures.js';
import { loadOptional } from '../packages/optionalPackage.js';

/** A definition file could not be loaded or does not define what it should. */
export class DefinitionFileError extends Error {
  override name = 'DefinitionFileError';
}

/** What a definition file must default-export. */
export interface DefinitionKind<T> {
  /** `study`, `scenario`: for messages. */
  readonly noun: string;
  /** The declaring function, for messages (`defineStudy`). */
  readonly define: string;
  /** The entry point that exports it, for messages (`computesim/studies`). */
  readonly importFrom: string;
  /** What is wrong with a default export, or `undefined` when it is a `T`. */
  readonly problem: (value: unknown) => string | undefined;
  /** Only for typing. */
  readonly sample?: T;
}

/** The `file:` URL of a file given as a path (relative to the working directory) or URL. */
export function fileUrl(file: string): string {
  if (file.startsWith('file:')) return file;
  return pathToFileURL(isAbsolute(file) ? file : resolve(file)).href;
}

/** Whether importing `url` needs a TypeScript loader. */
export function isTypeScript(url: string): boolean {
  return /\.[mc]?ts$/.test(new URL(url).pathname);
}

let tsxRegistered = false;

/**
 * Lets this thread import TypeScript (once; no-op when it already can). Rejects with a
 * `MissingPackageError` when tsx is not installed.
 */
export async function enableTypeScript(): Promise<void> {
  if (tsxRegistered) return;
  const { register } = await loadOptional(TYPESCRIPT_FEATURE, 'tsx', () => import('tsx/esm/api'));
  register();
  tsxRegistered = true;
}

/**
 * Whether this thread imports TypeScript by itself: it runs this very module from its .ts file
 * (under tsx or vitest), unless that file was compiled into a program (see `useCompiledProgram`).
 */
let runningTypeScript = import.meta.url.endsWith('.ts');

/** Definition files compiled into this thread's program: their importers, by file URL. */
const compiled = new Map<string, () => Promise<unknown>>();

/**
 * Called first by a program compiled from the sources into plain JavaScript (a cell thread's): the
 * thread needs the loader for TypeScript files after all, but for the definition files compiled in
 * with it (`modules`: by file URL, a function importing each), which load from the program itself.
 */
export function useCompiledProgram(
  modules: Readonly<Record<string, () => Promise<unknown>>>,
): void {
  runningTypeScript = false;
  for (const [url, load] of Object.entries(modules)) compiled.set(url, load);
}

/** Imports the file at `url` and checks that its default export is a `kind`. */
export async function loadDefinition<T>(url: string, kind: DefinitionKind<T>): Promise<T> {
  const fromProgram = compiled.get(url);
  const path = fileURLToPath(url);
  if (!existsSync(path))
    throw new DefinitionFileError(`cannot load ${kind.noun} ${displayPath(url)}: no such file`);
  // Register before the first import: Node does not retry an import that failed for its extension.
  if (fromProgram === undefined && isTypeScript(url) && !runningTypeScript)
    await enableTypeScript();
  let module: { default?: unknown };
  try {
    module = (await (fromProgram?.() ?? import(url))) as { default?: unknown };
  } catch (error) {
    throw new DefinitionFileError(
      `cannot load ${kind.noun} ${displayPath(url)}: ${importProblem(error)}`,
      { cause: error },
    );
  }
  if (module.default === undefined)
    throw new DefinitionFileError(
      `${displayPath(url)} has no default export (export default ${kind.define}({ ... }), ` +
        `with import { ${kind.define} } from '${kind.importFrom}')`,
    );
  const problem = kind.problem(module.default);
  if (problem !== undefined)
    throw new DefinitionFileError(`${displayPath(url)} does not export a ${kind.noun}: ${problem}`);
  return module.default as T;
}

/** The line of an import failure that says what is wrong (esbuild puts it after a summary line). */
function importProblem(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const lines = error.message
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const detail = lines.find((line) => /\bERROR:/.test(line));
  if (detail !== undefined)
    return detail.replace(/^.*?\bERROR:\s*/, 'syntax error: ').concat(location(detail));
  const first = lines[0] ?? error.name;
  return first.includes('require() ES Module')
    ? `${first.replace(/\. A cycle.*$/, '')} (is the file in a package without "type": "module"? name it .mts)`
    : first;
}

/** ` (line 3)` from an esbuild line like `/path/file.ts:3:7: ERROR: …`. */
function location(line: string): string {
  const match = /:(\d+):(\d+): ERROR/.exec(line);
  return match === null ? '' : ` (line ${match[1]}, column ${match[2]})`;
}

/** A file URL as messages show it: relative to the working directory when under it. */
export function displayPath(url: string): string {
  const path = decodeURIComponent(new URL(url).pathname);
  const cwd = `${process.cwd()}/`;
  return path.startsWith(cwd) ? path.slice(cwd.length) : path;
}
