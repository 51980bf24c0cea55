/**
 * Loads a study file: a module whose default export is a `defineStudy(...)`. TypeScript files load
 * through tsx when the running Node cannot import them itself (the compiled command line).
 */
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { studyProblem, type StudyDefinition } from './study.js';

/** A study file could not be loaded or does not define a study. */
export class StudyFileError extends Error {
  override name = 'StudyFileError';
}

/** The `file:` URL of a study file given as a path (relative to the working directory) or URL. */
export function studyUrl(file: string): string {
  if (file.startsWith('file:')) return file;
  return pathToFileURL(isAbsolute(file) ? file : resolve(file)).href;
}

/** Whether importing `url` needs a TypeScript loader. */
export function isTypeScript(url: string): boolean {
  return /\.[mc]?ts$/.test(new URL(url).pathname);
}

let tsxRegistered = false;

/** Lets this thread import TypeScript (once; no-op when it already can). */
export async function enableTypeScript(): Promise<void> {
  if (tsxRegistered) return;
  const { register } = await import('tsx/esm/api');
  register();
  tsxRegistered = true;
}

/** Whether this thread already imports TypeScript (it runs this very module from a .ts file). */
const RUNNING_TYPESCRIPT = import.meta.url.endsWith('.ts');

/** Imports the study file at `url` and checks its default export. */
export async function loadStudy(url: string): Promise<StudyDefinition<unknown>> {
  // Register before the first import: Node does not retry an import that failed for its extension.
  if (isTypeScript(url) && !RUNNING_TYPESCRIPT) await enableTypeScript();
  let module: { default?: unknown };
  try {
    module = (await import(url)) as { default?: unknown };
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' &&
      (error as Error).message.includes(new URL(url).pathname)
        ? 'no such file'
        : error instanceof Error
          ? error.message.split('\n')[0]
          : String(error);
    throw new StudyFileError(`cannot load study ${displayPath(url)}: ${reason}`, { cause: error });
  }
  if (module.default === undefined)
    throw new StudyFileError(
      `${displayPath(url)} has no default export (export default defineStudy({ ... }))`,
    );
  const problem = studyProblem(module.default);
  if (problem !== undefined)
    throw new StudyFileError(`${displayPath(url)} does not export a study: ${problem}`);
  return module.default as StudyDefinition<unknown>;
}

function displayPath(url: string): string {
  const path = decodeURIComponent(new URL(url).pathname);
  const cwd = `${process.cwd()}/`;
  return path.startsWith(cwd) ? path.slice(cwd.length) : path;
}
