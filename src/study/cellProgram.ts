/**
 * The program of the cell threads when computesim runs from its TypeScript sources: the cell entry
 * and the definition files the threads are about to load, compiled into one JavaScript module
 * (`compileModule`) once per process and set of files, and kept where processes share it
 * (`keepProgram`). A thread then starts by loading plain JavaScript, instead of registering tsx and
 * having it transpile and load every source file on its own (about a second per thread, more when
 * two threads do it at once on two cores).
 *
 * The definition files are compiled in with the sources, so a thread holds one copy of them, as it
 * does running the sources. A definition file that cannot be compiled in is left out: it loads
 * through tsx in each thread, as before.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileModule, CompileError } from '../programs/compileProgram.js';
import { OnceEach } from '../programs/onceEach.js';
import { keepProgram, programFolder } from '../programs/programFiles.js';

/** The sources the program is made of, found next to this file's own source. */
const CELL_WORKER = new URL('./cellWorker.ts', import.meta.url);
const LOAD_DEFINITION = new URL('../definitions/loadDefinition.ts', import.meta.url);

const programs = new OnceEach<string, URL>();

/**
 * The file URL of the program for threads that will load `definitions` (file URLs of definition
 * files), compiled on the first call for them. Rejects with an error that starts "a worker could not
 * be started" when the sources themselves do not compile.
 */
export function cellProgram(definitions: readonly string[]): Promise<URL> {
  const wanted = [...new Set(definitions)].sort();
  return programs.get(wanted.join('\n'), () => compile(wanted));
}

async function compile(definitions: readonly string[]): Promise<URL> {
  // Compiled for a file in the programs' folder (its source map points from there to the sources).
  const folder = programFolder();
  let code: string;
  try {
    code = await compileModule(entrySource(definitions), join(folder, 'cells.mjs'));
  } catch (error) {
    if (!(error instanceof CompileError)) throw error;
    if (definitions.length > 0) return compile([]);
    throw new Error(`a worker could not be started: the sources do not compile: ${error.message}`, {
      cause: error,
    });
  }
  return keepProgram(code, folder);
}

/** The program's source: the definition files' importers handed to the loader, then the entry. */
function entrySource(definitions: readonly string[]): string {
  const importers = definitions.map(
    (url) => `  ${JSON.stringify(url)}: () => import(${JSON.stringify(fileURLToPath(url))}),`,
  );
  return [
    `import { useCompiledProgram } from ${JSON.stringify(fileURLToPath(LOAD_DEFINITION))};`,
    'useCompiledProgram({',
    ...importers,
    '});',
    `await import(${JSON.stringify(fileURLToPath(CELL_WORKER))});`,
  ].join('\n');
}
