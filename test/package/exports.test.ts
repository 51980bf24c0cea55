import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('the built package', () => {
  beforeAll(() => {
    execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'pipe' });
  }, 120_000);

  it('is importable as "computesim" by plain Node, without tsx, with type declarations', () => {
    const script = `
      import { Simulation } from 'computesim';
      const sim = new Simulation({ seed: 1 });
      const res = sim.request('POST', '/projects');
      sim.runUntilIdle();
      console.log(JSON.stringify({ status: res.status, events: sim.log.length }));`;
    const output = execFileSync('node', ['--input-type=module', '-e', script], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(JSON.parse(output)).toEqual({ status: 201, events: 16 });
    expect(existsSync(`${root}/dist/index.d.ts`)).toBe(true);
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
});
