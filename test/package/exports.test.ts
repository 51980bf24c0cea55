import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('the built package', () => {
  beforeAll(() => {
    execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'pipe' });
  }, 120_000);

  it('is importable as "computesim" by plain Node, without tsx, with type declarations', () => {
    const script = `
      import { Simulation } from 'computesim';
      const sim = new Simulation({ seed: 1 });
      const res = sim.request('POST', '/projects', { project: {} });
      sim.runUntilIdle();
      console.log(JSON.stringify({ status: res.status, events: sim.log.length }));`;
    const output = execFileSync('node', ['--input-type=module', '-e', script], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(JSON.parse(output)).toEqual({ status: 201, events: 16 });
    expect(existsSync(`${root}/dist/index.d.ts`)).toBe(true);
  });

  it('loads no worker threads with the root entry, and serves the engine as "computesim/engine"', () => {
    const script = `
      import { Simulation } from 'computesim';
      const threads = process.moduleLoadList.filter((m) => m.includes('worker_threads')).length;
      const { Engine, Agenda } = await import('computesim/engine');
      console.log(JSON.stringify({ threads, engine: typeof Engine, agenda: typeof Agenda, sim: typeof Simulation }));`;
    const output = execFileSync('node', ['--input-type=module', '-e', script], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(JSON.parse(output)).toEqual({
      threads: 0,
      engine: 'function',
      agenda: 'function',
      sim: 'function',
    });
    expect(existsSync(`${root}/dist/engine/index.d.ts`)).toBe(true);
  });

  it('serves every subpath package.json declares to plain Node, with its type declarations', () => {
    const { exports } = JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as {
      exports: Record<string, string | { types: string; import: string }>;
    };
    const subpaths = Object.entries(exports).flatMap(([subpath, target]) =>
      typeof target === 'string' ? [] : [{ specifier: `computesim${subpath.slice(1)}`, target }],
    );
    expect(subpaths.map((s) => s.specifier)).toEqual(
      expect.arrayContaining(['computesim/studies', 'computesim/serve', 'computesim/model']),
    );
    const script = `
      const counts = {};
      for (const specifier of ${JSON.stringify(subpaths.map((s) => s.specifier))})
        counts[specifier] = Object.keys(await import(specifier)).length;
      console.log(JSON.stringify(counts));`;
    const counts = JSON.parse(
      execFileSync('node', ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' }),
    ) as Record<string, number>;
    for (const { specifier, target } of subpaths) {
      expect(counts[specifier], specifier).toBeGreaterThan(0);
      expect(existsSync(join(root, target.types)), target.types).toBe(true);
    }
  });

  it('serves "computesim/testing" to plain Node: a fetch client runs in virtual time', () => {
    const script = `
      import { runClient, defaultOracles, checkClient } from 'computesim/testing';
      const run = await runClient(async ({ fetch, baseURL, sleep }) => {
        const res = await fetch(baseURL + '/projects', { method: 'POST', body: '{"project":{}}' });
        const { project, operations } = await res.json();
        for (const op of operations)
          while ((await (await fetch(baseURL + '/projects/' + project.id + '/operations/' + op.id)).json()).operation.status !== 'finished')
            await sleep(5000);
        return project.id;
      }, { seed: 1 });
      console.log(JSON.stringify({ outcome: run.outcome, findings: checkClient(run.record, defaultOracles()).length }));`;
    const output = execFileSync('node', ['--input-type=module', '-e', script], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(JSON.parse(output)).toEqual({ outcome: 'returned', findings: 0 });
    expect(existsSync(`${root}/dist/testing/index.d.ts`)).toBe(true);
  });

  it('runs the computesim bin', () => {
    const output = execFileSync('node', ['bin/computesim.js', 'demo'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(output).toMatch(/scaled to zero/);
  });

  it('sweeps a TypeScript study file with the compiled bin, on worker threads', () => {
    const output = execFileSync(
      'node',
      [
        'bin/computesim.js',
        'sweep',
        'test/fixtures/tinyStudy.ts',
        '--seeds',
        '2',
        '--duration',
        '1h',
        '--workers',
        '2',
      ],
      { cwd: root, encoding: 'utf8' },
    );
    expect(output).toMatch(/^3 points × 2 seeds \(11, 12\), 1h of virtual time each/m);
    expect(output).toMatch(/^suspendTimeout=-1\s+2\s/m);
  }, 60_000);

  it('serves the dashboard with the page script the build bundled, and packs that script', () => {
    const script = `
      import { SimServer } from 'computesim/serve';
      import { Simulation } from 'computesim';
      const server = new SimServer(new Simulation({ seed: 1 }), {
        keys: [{ key: 'k', kind: 'personal' }],
        clock: { name: 'manual', rate: 0 },
      });
      const base = await server.listen(0);
      const page = await (await fetch(base.replace(/\\/api\\/v2$/, '/'))).text();
      await server.close();
      console.log(JSON.stringify(page));`;
    const page = JSON.parse(
      execFileSync('node', ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' }),
    ) as string;
    const bundled = readFileSync(`${root}/dist/browser/dashboard.js`, 'utf8');
    expect(page).toContain(`<script>${bundled}</script>`);
    expect(existsSync(`${root}/dist/browser/pageElements.js`)).toBe(false);
    const [packed] = JSON.parse(
      execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
        cwd: root,
        encoding: 'utf8',
      }),
    ) as [{ files: { path: string }[] }];
    expect(packed.files.map((file) => file.path)).toContain('dist/browser/dashboard.js');
  });

  it('builds dist/ on prepare when it is missing (how npm builds a git dependency), not again', () => {
    const { scripts } = JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as {
      scripts: Record<string, string>;
    };
    // A stand-in package with computesim's prepare and a build that only leaves a mark.
    const dir = mkdtempSync(join(tmpdir(), 'computesim-prepare-'));
    const build = `node -e "require('node:fs').writeFileSync('built', '')"`;
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({
        name: 'stand-in',
        type: 'module',
        scripts: { prepare: scripts['prepare'], build },
      }),
    );
    const prepare = () => execFileSync('npm', ['run', '--silent', 'prepare'], { cwd: dir });
    prepare();
    expect(existsSync(join(dir, 'built'))).toBe(true);
    rmSync(join(dir, 'built'));
    mkdirSync(join(dir, 'dist'));
    writeFileSync(join(dir, 'dist', 'index.js'), '');
    prepare();
    expect(existsSync(join(dir, 'built'))).toBe(false);
  });
});
