/**
 * The packed package as a user gets it: `npm install` of the tarball into an empty project, from
 * the registry (or npm's cache), with the peers a `computesim/testing` and `computesim/msw` user
 * adds (fast-check, msw). npm brings none of the optional packages; the in-process API, the two
 * entries, sweeps on worker threads and `serve` work without them; each feature that needs one
 * fails with its one line on stderr and exit code 1. In the system tier: it runs npm against the
 * registry and takes half a minute or more.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ts from 'typescript';
import { OPTIONAL_FEATURES } from '../../src/packages/optionalFeatures.js';
import { documentation } from '../support/documentation.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
let project: string;

/** The environment without what `npm run` sets, so the inner npm works on the project alone. */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
}

/** The version of `name` this checkout has installed (the one npm's cache holds). */
function installedVersion(name: string): string {
  const manifest = join(root, 'node_modules', name, 'package.json');
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

/** Runs the installed bin with `args` in the project; its exit code and output. */
function computesim(args: readonly string[]) {
  const bin = join(project, 'node_modules', 'computesim', 'bin', 'computesim.js');
  const run = spawnSync(process.execPath, [bin, ...args], {
    cwd: project,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** A study small enough to sweep in a second, as JavaScript (any .mjs file name) or TypeScript. */
const STUDY = `import { defineStudy } from 'computesim/studies';
export default defineStudy({
  name: 'tiny',
  seed: 11,
  start: '2026-01-05T08:00:00Z',
  duration: '1h',
  configurations: [{ name: 'one', params: {} }],
  setup: (sim) => {
    sim.request('POST', '/projects', { project: {} });
  },
});
`;

describe('the package installed from its tarball, without the optional packages', () => {
  beforeAll(() => {
    execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'pipe' });
    project = mkdtempSync(join(tmpdir(), 'computesim-installed-'));
    const packed = JSON.parse(
      execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', project], {
        cwd: root,
        encoding: 'utf8',
        env: cleanEnv(),
      }),
    ) as [{ filename: string }];
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'user-project', private: true, type: 'module' }),
    );
    execFileSync(
      'npm',
      [
        'install',
        join(project, packed[0].filename),
        `fast-check@${installedVersion('fast-check')}`,
        `msw@${installedVersion('msw')}`,
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
      ],
      { cwd: project, stdio: 'pipe', env: cleanEnv() },
    );
    writeFileSync(join(project, 'study.mjs'), STUDY);
    writeFileSync(join(project, 'study.ts'), STUDY);
  }, 300_000);

  afterAll(() => {
    if (project !== undefined) rmSync(project, { recursive: true, force: true });
  });

  it('has none of them, nor esbuild', () => {
    const packages = [...OPTIONAL_FEATURES.flatMap((feature) => feature.packages), 'esbuild'];
    expect(packages.filter((name) => existsSync(join(project, 'node_modules', name)))).toEqual([]);
  });

  it.each([
    ['fetch-example', '201 demo'],
    ['serve-library-example', '201 demo'],
    ['log-example', 'true true'],
    ['fork-example', 'SettingsChanged'],
  ])(
    "runs the guides' %s as copied (its types stripped), from the subpaths it imports",
    (name, first) => {
      const code = new RegExp(`<!-- ${name}:start -->\\s*\`\`\`ts\\n([\\s\\S]*?)\`\`\``).exec(
        documentation(),
      )?.[1];
      expect(code, name).toBeDefined();
      expect(code).toMatch(/from 'computesim\/(studies|serve)'/);
      const file = join(project, `${name}.mjs`);
      writeFileSync(
        file,
        ts.transpileModule(code as string, {
          compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
        }).outputText,
      );
      const run = spawnSync(process.execPath, [file], {
        cwd: project,
        encoding: 'utf8',
        env: { ...process.env, TMPDIR: project },
      });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout.split('\n')[0]).toBe(first);
    },
  );

  it('runs the in-process API, computesim/testing and computesim/msw', () => {
    const script = `
      import { Simulation } from 'computesim';
      import { runClient } from 'computesim/testing';
      import { neonHandlers } from 'computesim/msw';
      import { setupServer } from 'msw/node';

      const sim = new Simulation({ seed: 1 });
      const created = sim.request('POST', '/projects', { project: {} });
      sim.advance('10m');
      const state = sim.request('GET', '/projects/' + created.body.project.id + '/endpoints').body
        .endpoints[0].current_state;

      const client = await runClient(
        async ({ fetch, baseURL }) =>
          (await fetch(baseURL + '/projects', { method: 'POST', body: '{"project":{}}' })).status,
        { seed: 1 },
      );

      const handlers = neonHandlers(new Simulation({ seed: 2 }));
      const server = setupServer(...handlers);
      server.listen({ onUnhandledRequest: 'error' });
      const api = await fetch('https://console.neon.tech/api/v2/projects', {
        method: 'POST',
        headers: { authorization: 'Bearer key', 'content-type': 'application/json' },
        body: '{"project":{}}',
      });
      const uri = new URL((await api.json()).connection_uris[0].connection_uri);
      const sql = await fetch('https://api.' + uri.hostname.split('.').slice(1).join('.') + '/sql', {
        method: 'POST',
        headers: { 'neon-connection-string': uri.href, 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'select 1', params: [] }),
      });
      const sqlError = (await sql.json()).message;
      await handlers.close();
      server.close();
      console.log(JSON.stringify({ status: created.status, state, client: client.value, api: api.status, sql: sql.status, sqlError }));`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: project,
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout.trim().split('\n').at(-1) as string)).toEqual({
      status: 201,
      state: 'idle',
      client: 201,
      api: 201,
      sql: 500,
      sqlError:
        'SQL over HTTP in computesim/msw needs the package "@electric-sql/pglite": npm install @electric-sql/pglite',
    });
  });

  it('sweeps a JavaScript study on worker threads', () => {
    const run = computesim(['sweep', 'study.mjs', '--seeds', '2', '--workers', '2']);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^1 points × 2 seeds \(11, 12\)/m);
    expect(run.code).toBe(0);
  });

  it('serves the API without --pg-port', async () => {
    const bin = join(project, 'node_modules', 'computesim', 'bin', 'computesim.js');
    const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--api-key', 'key'], {
      cwd: project,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      const base = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const url = /serving (http:\/\/\S+)/.exec(out)?.[1];
          if (url !== undefined) resolve(url);
        });
        void exited.then((code) => reject(new Error(`serve exited with ${code}: ${out}`)));
      });
      const created = await fetch(`${base}/projects`, {
        method: 'POST',
        headers: { authorization: 'Bearer key', 'content-type': 'application/json' },
        body: '{"project":{}}',
      });
      expect(created.status).toBe(201);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });

  it.each([
    [
      'serve --pg-port',
      ['serve', '--port', '0', '--pg-port', '0'],
      'serve --pg-port needs the package "@electric-sql/pglite": npm install @electric-sql/pglite ws selfsigned',
    ],
    [
      'sweep --queue',
      ['sweep', 'study.mjs', '--queue', 'redis://127.0.0.1:1'],
      'the Redis queue (--queue) needs the package "ioredis": npm install bullmq ioredis',
    ],
    [
      'worker --queue',
      ['worker', '--queue', 'redis://127.0.0.1:1'],
      'the Redis queue (--queue) needs the package "ioredis": npm install bullmq ioredis',
    ],
    [
      'a TypeScript study',
      ['sweep', 'study.ts'],
      'a TypeScript scenario, study or fleet file needs the package "tsx": npm install tsx',
    ],
  ])('%s without its packages: one line naming them, exit code 1', (_, args, message) => {
    const run = computesim(args);
    expect(run.stderr).toBe(`computesim: ${message}\n`);
    expect(run.stdout).toBe('');
    expect(run.code).toBe(1);
  });
});
