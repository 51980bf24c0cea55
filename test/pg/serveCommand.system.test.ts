/**
 * `computesim serve --pg-port` as a user runs it: the line it prints names the Postgres address and
 * the data folder, `psql` connects through the URI the API gives, and through the one the official
 * CLI builds (TLS, the compute named by SNI, SCRAM with channel binding), and SIGTERM stops it
 * cleanly with the branch data kept beside the state file.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { killAllServeProcesses, SERVE_KEY, startServe } from '../support/serveProcess.js';
import { describeWith } from '../support/systemPrograms.js';

afterEach(killAllServeProcesses);

describeWith('psql', 'psql against computesim serve --pg-port', () => {
  it('serves psql through the URI of a created project, and keeps the data beside the state file', async () => {
    const state = join(mkdtempSync(join(tmpdir(), 'computesim-pg-cli-')), 'sim.jsonl');
    const serve = await startServe(['--clock', '10x', '--state-file', state, '--pg-port', '0']);
    const created = await serve.call('POST', '/projects', { project: { name: 'cli' } });
    const uri = created.body?.['connection_uris'][0].connection_uri as string;
    expect(uri).toMatch(
      /^postgresql:\/\/neondb_owner:.+@127\.0\.0\.1:\d+\/neondb\?sslmode=disable&options=endpoint%3Dep-/,
    );
    const psql = (sql: string) =>
      promisify(execFile)('psql', [uri, '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-c', sql], {
        timeout: 30_000,
      });
    await psql('create table t (x int); insert into t values (41), (1)');
    expect((await psql('select sum(x) from t')).stdout.trim()).toBe('42');
    expect(await serve.stop()).toBe(0);
    expect(existsSync(`${state}.pgdata`)).toBe(true);
    // The one project, and the mark of a root laid out by id.
    expect(readdirSync(`${state}.pgdata`).sort()).toEqual(['.layout', expect.any(String)]);
  });

  it("serves psql through the official CLI's connection string, unchanged", async () => {
    const serve = await startServe(['--clock', '60x', '--pg-port', '0']);
    const port = Number(/postgres [^:]+:(\d+)/.exec(serve.stdout())?.[1]);
    const created = await serve.call('POST', '/projects', { project: { name: 'cli-uri' } });
    const projectId = created.body?.['project'].id as string;
    const cli = fileURLToPath(new URL('../../node_modules/neonctl/bin/cli.js', import.meta.url));
    const configDir = mkdtempSync(join(tmpdir(), 'computesim-neonctl-'));
    const { stdout: uri } = await promisify(execFile)(
      process.execPath,
      [
        cli,
        ...['--api-host', serve.base, '--api-key', SERVE_KEY, '--config-dir', configDir],
        ...['--no-analytics', '--no-color', 'connection-string', '--project-id', projectId],
      ],
      { timeout: 60_000 },
    );
    expect(uri.trim()).toMatch(
      /^postgresql:\/\/neondb_owner:.+@ep-[^/]+\/neondb\?sslmode=require&channel_binding=require$/,
    );
    const { stdout } = await promisify(execFile)(
      'psql',
      [uri.trim(), '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-c', 'select 40 + 2'],
      { timeout: 30_000, env: { ...process.env, PGHOSTADDR: '127.0.0.1', PGPORT: String(port) } },
    );
    expect(stdout.trim()).toBe('42');
    expect(await serve.stop()).toBe(0);
  });

  it('serves psql at once after a project is created, every time', async () => {
    const serve = await startServe(['--clock', '10x', '--pg-port', '0']);
    for (let i = 0; i < 5; i += 1) {
      const created = await serve.call('POST', '/projects', { project: { name: `at-once-${i}` } });
      const uri = created.body?.['connection_uris'][0].connection_uri as string;
      const { stdout } = await promisify(execFile)(
        'psql',
        [uri, '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-c', `select ${i} + 1`],
        { timeout: 30_000 },
      );
      expect(stdout.trim()).toBe(String(i + 1));
    }
    expect(await serve.stop()).toBe(0);
  });
});
