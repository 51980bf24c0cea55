/**
 * Files a command was asked to write (`--json`, `--csv`, `--report`, `--out`), checked before any
 * run starts: a study can run for minutes, and a path that cannot be written should say so at once
 * rather than after the work is done.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from './args.js';

/** Why `path` cannot be written as a new or replaced file, or `undefined` when it can. */
function outputFileProblem(path: string): string | undefined {
  const full = resolve(path);
  const folder = dirname(full);
  try {
    if (!statSync(folder).isDirectory()) return `${folder} is not a folder`;
  } catch {
    return `the folder ${folder} does not exist`;
  }
  try {
    accessSync(folder, constants.W_OK);
  } catch {
    return `the folder ${folder} cannot be written`;
  }
  try {
    const existing = statSync(full);
    if (existing.isDirectory()) return `${full} is a folder`;
    accessSync(full, constants.W_OK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return `${full} cannot be written`;
  }
  return undefined;
}

/** Throws a `UsageError` naming the flag for the first output file that cannot be written. */
export function checkOutputFiles(files: Readonly<Record<string, string | undefined>>): void {
  for (const [flag, path] of Object.entries(files)) {
    if (path === undefined) continue;
    const problem = outputFileProblem(path);
    if (problem !== undefined) throw new UsageError(`--${flag} ${path}: ${problem}`);
  }
}
