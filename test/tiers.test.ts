/**
 * The two tiers of tests: which programs the system tier finds on PATH (or CHROMIUM_PATH), what a
 * missing one's skip says, and that every file named for the system tier is left out of `npm test`.
 */
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import unitConfig from '../vitest.config.js';
import systemConfig from '../vitest.system.config.js';
import { installHint, missingPrograms, programPath } from './support/systemPrograms.js';
import { SYSTEM_TEST_GLOBS, systemTestFiles } from './tiers/systemTests.js';
import { findPostgresBinaries } from '../src/pg/postgresBinaries.js';

const saved = {
  PATH: process.env['PATH'],
  CHROMIUM_PATH: process.env['CHROMIUM_PATH'],
  COMPUTESIM_POSTGRES_BIN: process.env['COMPUTESIM_POSTGRES_BIN'],
};
afterEach(() => {
  for (const [name, value] of Object.entries(saved))
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
});

/** A folder holding executables of these names (and a file of `plain` that cannot run). */
function binFolder(names: readonly string[], plain: readonly string[] = []): string {
  const dir = mkdtempSync(join(tmpdir(), 'computesim-bin-'));
  for (const name of [...names, ...plain]) writeFileSync(join(dir, name), '#!/bin/sh\n');
  for (const name of names) chmodSync(join(dir, name), 0o755);
  for (const name of plain) chmodSync(join(dir, name), 0o644);
  return dir;
}

describe('system programs', () => {
  it('are found as executables on PATH, and missing otherwise', () => {
    const dir = binFolder(['psql'], ['redis-server']);
    process.env['PATH'] = dir;
    process.env['COMPUTESIM_POSTGRES_BIN'] = dir;
    delete process.env['CHROMIUM_PATH'];
    expect(programPath('psql')).toBe(join(dir, 'psql'));
    expect(missingPrograms()).toEqual(['redis-server', 'chromium', 'postgres']);
  });

  it('find the browser through CHROMIUM_PATH first', () => {
    const dir = binFolder(['my-chromium']);
    process.env['PATH'] = '';
    process.env['CHROMIUM_PATH'] = join(dir, 'my-chromium');
    process.env['COMPUTESIM_POSTGRES_BIN'] = dir;
    expect(missingPrograms()).toEqual(['redis-server', 'psql', 'postgres']);
  });

  it("find a Postgres server's programs where COMPUTESIM_POSTGRES_BIN says, if they run", () => {
    const dir = binFolder(['initdb', 'pg_basebackup']);
    process.env['COMPUTESIM_POSTGRES_BIN'] = dir;
    expect(programPath('postgres')).toBeUndefined();
    writeFileSync(join(dir, 'postgres'), '#!/bin/sh\necho "postgres (PostgreSQL) 16.4"\n');
    chmodSync(join(dir, 'postgres'), 0o755);
    expect(programPath('postgres')).toBe(join(dir, 'postgres'));
    expect(findPostgresBinaries()).toEqual({ dir, version: '16.4', major: 16 });
    expect(installHint('postgres')).toBe(
      'no postgres on this machine (apt-get install postgresql)',
    );
  });

  it('name the Debian package to install when missing', () => {
    expect(installHint('psql')).toBe('no psql on this machine (apt-get install postgresql-client)');
  });
});

describe('the tiers', () => {
  it('split the files: npm test leaves out every file of the system tier, which takes them all', () => {
    expect(systemTestFiles()).toEqual(
      expect.arrayContaining(['cli/scaleOut.system.test.ts', 'report/htmlReport.browser.test.ts']),
    );
    expect(unitConfig.test?.exclude).toEqual(expect.arrayContaining([...SYSTEM_TEST_GLOBS]));
    expect(systemConfig.test?.include).toEqual([...SYSTEM_TEST_GLOBS]);
  });
});
