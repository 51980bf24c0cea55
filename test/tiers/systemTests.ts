/**
 * Which test files make up the system tier: those that run programs from the system (redis-server,
 * psql, chromium) or take minutes of wall time (crash loops, a 700 MiB state file, the official
 * CLI's steps). They are named `*.system.test.ts`, or `*.browser.test.ts` for the browser's.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Globs of the system tier's files, relative to the repository. */
export const SYSTEM_TEST_GLOBS: readonly string[] = [
  'test/**/*.system.test.ts',
  'test/**/*.browser.test.ts',
];

/** The system tier's files, relative to `test/`, sorted. */
export function systemTestFiles(): string[] {
  const root = fileURLToPath(new URL('..', import.meta.url));
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(system|browser)\.test\.ts$/.test(file))
    .sort();
}
