/**
 * The official Neon CLI (`neonctl`, through its `--api-host` option) against `computesim serve`:
 * an everyday flow of projects, branches, computes, databases, roles, connection strings,
 * operations and the user, each command a real `neonctl` process that must exit 0 and print what
 * it should. Between commands the simulation runs until idle (through the control route, as a
 * client would), so no command waits on the operations of the one before.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Simulation } from '../../src/index.js';
import { SimServer } from '../../src/http/simServer.js';
import { callJson } from '../support/callJson.js';

const KEY = 'official-cli-key';
const CLI = fileURLToPath(new URL('../../node_modules/neonctl/bin/cli.js', import.meta.url));
let server: SimServer;
let base: string;
let configDir: string;

beforeAll(async () => {
  server = new SimServer(new Simulation({ seed: 14 }), {
    keys: [{ key: KEY, kind: 'personal' }],
    clock: { name: 'manual', rate: 0 },
  });
  base = await server.listen(0);
  configDir = mkdtempSync(join(tmpdir(), 'computesim-neonctl-'));
});
afterAll(async () => {
  await server.close();
  rmSync(configDir, { recursive: true, force: true });
});

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `neonctl ARGS` against the server; never rejects (the exit code says how it went). */
function neonctl(args: readonly string[]): Promise<Run> {
  const all = [
    CLI,
    '--api-host',
    base,
    '--api-key',
    KEY,
    '--config-dir',
    configDir,
    '--no-analytics',
    '--no-color',
    ...args,
  ];
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      all,
      { env: { ...process.env, NEON_API_KEY: KEY, CI: 'true' }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** Runs a command with `--output json`, expects exit 0, and parses what it printed. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function json(args: readonly string[]): Promise<any> {
  const run = await neonctl([...args, '--output', 'json']);
  expect(run.code, `neonctl ${args.join(' ')}\n${run.stderr}${run.stdout}`).toBe(0);
  return JSON.parse(run.stdout);
}

/** Runs a command, expects exit 0, and returns what it printed. */
async function ok(args: readonly string[]): Promise<string> {
  const run = await neonctl(args);
  expect(run.code, `neonctl ${args.join(' ')}\n${run.stderr}${run.stdout}`).toBe(0);
  return run.stdout;
}

/** Lets every operation under way finish, as a client of `serve` would through the control route. */
async function settle(): Promise<void> {
  const answer = await callJson(
    (url, init) => fetch(url, init),
    base,
    KEY,
    'POST',
    '/_sim/run_until_idle',
    {},
  );
  expect(answer.status).toBe(200);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
const named = (list: Json[], name: string): Json => list.find((item) => item.name === name);

describe('the official CLI (neonctl) against computesim serve', () => {
  it('runs an everyday flow: projects, branches, computes, databases, roles, URIs, operations, me', async () => {
    const me = await json(['me']);
    expect(me.id).toEqual(expect.any(String));
    expect(me.email).toContain('@');

    const created = await json(['projects', 'create', '--name', 'cli-demo']);
    const projectId: string = created.project.id;
    expect(created.project.name).toBe('cli-demo');
    expect(created.connection_uris[0].connection_uri).toMatch(/^postgresql:\/\/neondb_owner:/);
    await settle();
    const p = ['--project-id', projectId];

    expect((await json(['projects', 'list'])).projects.map((x: Json) => x.id)).toContain(projectId);
    expect((await json(['projects', 'get', projectId])).name).toBe('cli-demo');
    expect((await json(['projects', 'update', projectId, '--name', 'cli-renamed'])).name).toBe(
      'cli-renamed',
    );
    await settle();

    const branch = await json(['branches', 'create', ...p, '--name', 'dev']);
    expect(branch.branch.name).toBe('dev');
    await settle();
    const branches: Json[] = await json(['branches', 'list', ...p]);
    expect(branches.map((b) => b.name).sort()).toEqual(['dev', 'main']);
    expect((await json(['branches', 'get', 'dev', ...p])).id).toBe(branch.branch.id);

    expect((await json(['branches', 'rename', 'dev', 'feature', ...p])).name).toBe('feature');
    await settle();
    expect((await json(['branches', 'set-default', 'feature', ...p])).default).toBe(true);
    await settle();
    const afterDefault: Json[] = await json(['branches', 'list', ...p]);
    expect(named(afterDefault, 'feature').default).toBe(true);
    expect(named(afterDefault, 'main').default).toBe(false);
    await json(['branches', 'set-default', 'main', ...p]);
    await settle();

    const compute = await json(['branches', 'add-compute', 'feature', ...p, '--type', 'read_only']);
    expect(compute.type).toBe('read_only');
    await settle();

    await ok(['branches', 'reset', 'feature', '--parent', ...p]);
    await settle();
    await ok([
      'branches',
      'restore',
      'feature',
      '^parent',
      '--preserve-under-name',
      'feature-old',
      ...p,
    ]);
    await settle();
    const restored: Json[] = await json(['branches', 'list', ...p]);
    expect(restored.map((b) => b.name).sort()).toEqual(['feature', 'feature-old', 'main']);

    const role = await json(['roles', 'create', ...p, '--branch', 'main', '--name', 'app_user']);
    expect(role.name).toBe('app_user');
    await settle();
    const database = await json([
      'databases',
      'create',
      ...p,
      '--branch',
      'main',
      '--name',
      'app',
      '--owner-name',
      'app_user',
    ]);
    expect(database.name).toBe('app');
    expect(database.owner_name).toBe('app_user');
    await settle();
    expect(
      (await json(['roles', 'list', ...p, '--branch', 'main'])).map((r: Json) => r.name),
    ).toEqual(expect.arrayContaining(['neondb_owner', 'app_user']));
    expect(
      (await json(['databases', 'list', ...p, '--branch', 'main'])).map((d: Json) => d.name),
    ).toEqual(expect.arrayContaining(['neondb', 'app']));

    // With more than one role, neonctl asks which one (as it does against the real service).
    const uri = (
      await ok([
        'connection-string',
        ...p,
        '--role-name',
        'neondb_owner',
        '--database-name',
        'neondb',
      ])
    ).trim();
    const endpoints: Json[] = server.sim.request(
      'GET',
      `/projects/${projectId}/endpoints`,
      undefined,
      { apiKey: KEY },
    ).body.endpoints;
    const mainEndpoint = endpoints.find((e) => e.type === 'read_write');
    expect(uri).toMatch(/^postgresql:\/\/neondb_owner:[^@]+@/);
    expect(new URL(uri).hostname).toBe(mainEndpoint.host);
    expect(new URL(uri).pathname).toBe('/neondb');

    await json(['databases', 'delete', 'app', ...p, '--branch', 'main']);
    await settle();
    await json(['roles', 'delete', 'app_user', ...p, '--branch', 'main']);
    await settle();

    const operations: Json[] = await json(['operations', 'list', ...p]);
    expect(operations.length).toBeGreaterThan(3);
    expect(operations.every((o) => o.project_id === projectId)).toBe(true);

    // The kept branch is the restored one's parent now: children go first, as on the real service.
    const refused = await neonctl(['branches', 'delete', 'feature-old', ...p]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/child branch/);
    await json(['branches', 'delete', 'feature', ...p]);
    await settle();
    await json(['branches', 'delete', 'feature-old', ...p]);
    await settle();
    expect((await json(['branches', 'list', ...p])).map((b: Json) => b.name)).toEqual(['main']);
    await json(['projects', 'delete', projectId]);
    expect(
      server.sim.request('GET', `/projects/${projectId}`, undefined, { apiKey: KEY }).status,
    ).toBe(404);
  }, 180_000);
});
