/**
 * Where compiled programs are kept: one folder per user in the temporary directory, shared by
 * processes, each program named by its content. A process that compiles the same sources finds the
 * file there and writes nothing; one killed mid-run leaves nothing behind but what the next one
 * reuses. Programs and unfinished writes a day older than the newest program are removed as it is
 * written, so older versions of the sources do not pile up.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { hashString } from '../core/hash.js';

/** How much older than the newest program a kept one may be. */
const KEEP_MS = 24 * 60 * 60 * 1000;

/** The folder of the kept programs (for this user). */
export function programFolder(): string {
  return join(tmpdir(), `computesim-cache-${process.getuid?.() ?? 'user'}`);
}

/** The file URL of `code` kept in `folder` under a name drawn from it, written if not there yet. */
export async function keepProgram(code: string, folder: string = programFolder()): Promise<URL> {
  const path = join(folder, `cells-${hashString(code).toString(16)}-${code.length}.mjs`);
  if (existsSync(path) && readFileSync(path, 'utf8') === code) return pathToFileURL(path);
  await mkdir(folder, { recursive: true });
  const scratch = await mkdtemp(join(folder, 'writing-'));
  try {
    await writeFile(join(scratch, 'cells.mjs'), code);
    await rename(join(scratch, 'cells.mjs'), path);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  await prune(folder, path);
  return pathToFileURL(path);
}

/** Removes the programs and unfinished writes of `folder` a day older than `newest`. */
async function prune(folder: string, newest: string): Promise<void> {
  const now = (await stat(newest)).mtimeMs;
  for (const name of await readdir(folder)) {
    if (!/^cells-.*\.mjs$|^writing-/.test(name)) continue;
    const path = join(folder, name);
    try {
      if ((await stat(path)).mtimeMs < now - KEEP_MS)
        await rm(path, { recursive: true, force: true });
    } catch {
      // Removed meanwhile by another process.
    }
  }
}
