/**
 * A template data directory, made once per machine and reused: built under a name of its own and
 * renamed into place whole, so a half-made one is never taken for done, and when two processes
 * make it at once the first to finish wins and the other's copy goes.
 */
import { rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** `dir` when it holds a data directory; else made by `make` (into the folder it is given). */
export async function templateDirectory(
  dir: string,
  make: (building: string) => Promise<void>,
): Promise<string> {
  if (await holdsDataDirectory(dir)) return dir;
  const building = `${dir}.${process.pid}.${Date.now()}`;
  await make(building);
  try {
    await rename(building, dir);
  } catch {
    // Another process made it first: use theirs.
    await rm(building, { recursive: true, force: true });
  }
  return dir;
}

/** Whether `dir` holds a Postgres data directory (PGlite's or a server's: its `PG_VERSION`). */
export async function holdsDataDirectory(dir: string): Promise<boolean> {
  return exists(join(dir, 'PG_VERSION'));
}

/** Whether `path` exists. */
export async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
