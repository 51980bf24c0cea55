/**
 * The in-process API loads the schema's validator (Ajv) and YAML parser only when a request needs a
 * body checked: importing computesim, making a simulation, reading and advancing load neither. Run
 * in a fresh process, since this one has loaded them for other tests.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const INDEX = fileURLToPath(new URL('../../src/index.ts', import.meta.url));

/** What a fresh process has loaded of ajv, ajv-formats and js-yaml after each step. */
const PROBE = `
import { createRequire } from 'node:module';
const { Simulation } = await import(${JSON.stringify(INDEX)});
const cache = createRequire(import.meta.url).cache;
const loaded = () => [...new Set(Object.keys(cache)
  .map((file) => /node_modules\\/(ajv|ajv-formats|js-yaml)\\//.exec(file)?.[1])
  .filter((name) => name !== undefined))].sort();
const steps = {};
const sim = new Simulation({ seed: 1 });
steps.created = loaded();
sim.request('GET', '/projects');
sim.advance('1h');
steps.readAndAdvanced = loaded();
const created = sim.request('POST', '/projects', { project: {} });
steps.posted = loaded();
steps.status = created.status;
steps.refused = sim.request('POST', '/projects', { project: { name: 7 } }).status;
console.log(JSON.stringify(steps));
`;

describe('the public schema, on demand', () => {
  it('is not loaded until a body is checked, then checks it', () => {
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '--eval', PROBE],
      { encoding: 'utf8' },
    );
    expect(run.stderr).toBe('');
    const steps = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(steps).toMatchObject({ created: [], readAndAdvanced: [], status: 201, refused: 400 });
    expect(steps['posted']).toEqual(expect.arrayContaining(['ajv', 'ajv-formats']));
  }, 60_000);
});
