/**
 * The program a worker thread runs for one entry module: the built package's JavaScript file, or,
 * running from the TypeScript sources (under tsx or vitest), the entry compiled with everything it
 * imports into one JavaScript module, once per process and kept where processes share it. A thread
 * then loads plain JavaScript instead of registering tsx (about a second a thread).
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileModule, CompileError } from './compileProgram.js';
import { OnceEach } from './onceEach.js';
import { keepProgram, programFolder } from './programFiles.js';

const programs = new OnceEach<string, URL>();

/**
 * The file URL of the program for the entry module `entry` (a path without its extension, such as
 * `./databaseWorker`) beside the module `base` (the caller's `import.meta.url`). Rejects with an
 * error that starts "a worker could not be started" when the sources do not compile.
 */
export function threadProgram(entry: string, base: string): Promise<URL> {
  if (!base.endsWith('.ts')) return Promise.resolve(new URL(`${entry}.js`, base));
  const source = new URL(`${entry}.ts`, base);
  return programs.get(source.href, () => compile(source));
}

async function compile(source: URL): Promise<URL> {
  const folder = programFolder();
  try {
    const code = await compileModule(
      `await import(${JSON.stringify(fileURLToPath(source))});`,
      join(folder, 'thread.mjs'),
    );
    return await keepProgram(code, folder);
  } catch (error) {
    if (!(error instanceof CompileError)) throw error;
    throw new Error(`a worker could not be started: the sources do not compile: ${error.message}`, {
      cause: error,
    });
  }
}
