/**
 * Finding a Postgres server's programs for `--pg-engine postgres`: `postgres`, `initdb` and
 * `pg_basebackup` from one folder: the folder given, else the one `COMPUTESIM_POSTGRES_BIN` names,
 * else the first that has them on the PATH or where Debian's packages put them
 * (`/usr/lib/postgresql/<major>/bin`, the newest first). None of them is a dependency: like PGlite
 * for the embedded engine, the server is what the user installs when they want it.
 */
import { execFileSync } from 'node:child_process';
import { accessSync, constants, readdirSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

/** A folder of Postgres programs and the version they are. */
export interface PostgresBinaries {
  readonly dir: string;
  /** `15.14`, as `postgres --version` says it. */
  readonly version: string;
  readonly major: number;
}

/** The programs the engine runs, each of which the folder must hold. */
const PROGRAMS = ['postgres', 'initdb', 'pg_basebackup'] as const;
const DEBIAN_ROOT = '/usr/lib/postgresql';

/** The environment variable that names a folder of Postgres programs. */
const POSTGRES_BIN_VARIABLE = 'COMPUTESIM_POSTGRES_BIN';

/** Thrown when no folder holds the programs: says where it looked and what to install. */
class MissingPostgresError extends Error {
  constructor(looked: readonly string[]) {
    super(
      `--pg-engine postgres needs a Postgres server's programs (${PROGRAMS.join(', ')}) and found ` +
        `none (looked in ${looked.length === 0 ? 'no folder' : looked.join(', ')}): install one ` +
        `(apt-get install postgresql) or name its folder in ${POSTGRES_BIN_VARIABLE}`,
    );
    this.name = 'MissingPostgresError';
  }
}

/**
 * The first folder that holds every program, with its version; `dir` (or else the environment's
 * folder), when given, is the only one looked at. Throws `MissingPostgresError` when none does.
 */
export function findPostgresBinaries(dir?: string): PostgresBinaries {
  const named = dir ?? (process.env[POSTGRES_BIN_VARIABLE] || undefined);
  const candidates = named === undefined ? [...pathDirs(), ...debianDirs()] : [named];
  for (const candidate of candidates) {
    if (!PROGRAMS.every((program) => isExecutable(join(candidate, program)))) continue;
    const version = serverVersion(candidate);
    if (version !== undefined) return { dir: candidate, ...version };
  }
  throw new MissingPostgresError([...new Set(candidates)]);
}

function pathDirs(): string[] {
  return (process.env['PATH'] ?? '').split(delimiter).filter((entry) => isAbsolute(entry));
}

/** Debian's folders, the newest major version first. */
function debianDirs(): string[] {
  let majors: string[];
  try {
    majors = readdirSync(DEBIAN_ROOT).filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  return majors
    .sort((a, b) => Number(b) - Number(a))
    .map((major) => join(DEBIAN_ROOT, major, 'bin'));
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** `postgres --version` read: `postgres (PostgreSQL) 15.14 (Debian 15.14-0+deb12u1)`. */
function serverVersion(dir: string): { version: string; major: number } | undefined {
  try {
    const said = execFileSync(join(dir, 'postgres'), ['--version'], {
      encoding: 'utf8',
      timeout: 10_000,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const found = /\(PostgreSQL\)\s+(\d+)(?:\.(\d+))?/.exec(said);
    if (found === null) return undefined;
    return { version: `${found[1]}.${found[2] ?? '0'}`, major: Number(found[1]) };
  } catch {
    return undefined;
  }
}
