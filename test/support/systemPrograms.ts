/**
 * Programs from the system that the system tier's tests run (`npm run test:system`), the Debian
 * package that brings each, and a `describe` that skips with a one-line reason where one is
 * missing. Under CI=true nothing skips: a missing program fails the run (see `systemTierSetup`).
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { describe } from 'vitest';
import { findPostgresBinaries } from '../../src/pg/postgresBinaries.js';

/** A program some tests run, and the Debian package that installs it. */
export const SYSTEM_PROGRAMS = {
  'redis-server': 'redis-server',
  psql: 'postgresql-client',
  chromium: 'chromium',
  /** A Postgres server's programs, for `--pg-engine postgres` (found as the engine finds them). */
  postgres: 'postgresql',
} as const;

/** The name of a program some tests need. */
export type SystemProgram = keyof typeof SYSTEM_PROGRAMS;

/** Where the environment points a program (CHROMIUM_PATH for the browser), if anywhere. */
function override(program: SystemProgram): string | undefined {
  return program === 'chromium' ? process.env['CHROMIUM_PATH'] || undefined : undefined;
}

/** The program's path: its override, else the first executable of that name on PATH. */
export function programPath(program: SystemProgram): string | undefined {
  if (program === 'postgres') {
    try {
      return join(findPostgresBinaries().dir, 'postgres');
    } catch {
      return undefined;
    }
  }
  const candidates = [override(program)].filter((path) => path !== undefined);
  if (candidates.length === 0)
    for (const dir of (process.env['PATH'] ?? '').split(delimiter))
      if (isAbsolute(dir)) candidates.push(join(dir, program));
  return candidates.find((path) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** The programs of `SYSTEM_PROGRAMS` that this machine lacks. */
export function missingPrograms(): SystemProgram[] {
  return (Object.keys(SYSTEM_PROGRAMS) as SystemProgram[]).filter(
    (program) => programPath(program) === undefined,
  );
}

/** One line saying which program is missing and how to install it. */
export function installHint(program: SystemProgram): string {
  return `no ${program} on this machine (apt-get install ${SYSTEM_PROGRAMS[program]})`;
}

/**
 * `describe` for tests that run `program`: where it is missing, the suite is skipped and its title
 * says why in one line. Under CI=true the suite always runs, and fails where the program is missing.
 */
export function describeWith(program: SystemProgram, title: string, body: () => void): void {
  if (programPath(program) === undefined && process.env['CI'] !== 'true')
    describe.skip(`${title} [skipped: ${installHint(program)}]`, body);
  else describe(title, body);
}
