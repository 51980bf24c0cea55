/**
 * `serve --pg-engine postgres` on a machine without a Postgres server's programs: one line that
 * says what is missing and how to get it, exit 1, nothing left listening.
 */
import { afterEach, expect, it } from 'vitest';
import { killAllServeProcesses, runServeToExit } from '../support/serveProcess.js';

afterEach(killAllServeProcesses);

it('says in one line what to install when no Postgres server is found', async () => {
  const saved = process.env['COMPUTESIM_POSTGRES_BIN'];
  process.env['COMPUTESIM_POSTGRES_BIN'] = '/nowhere/bin';
  try {
    const ran = await runServeToExit(['--pg-port', '0', '--pg-engine', 'postgres']);
    expect(ran.code).toBe(1);
    const lines = ran.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /needs a Postgres server's programs \(postgres, initdb, pg_basebackup\) and found none \(looked in \/nowhere\/bin\): install one \(apt-get install postgresql\) or name its folder in COMPUTESIM_POSTGRES_BIN/,
    );
    expect(ran.stdout).toBe('');
  } finally {
    if (saved === undefined) delete process.env['COMPUTESIM_POSTGRES_BIN'];
    else process.env['COMPUTESIM_POSTGRES_BIN'] = saved;
  }
});
