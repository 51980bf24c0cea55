/**
 * docs/testing.md stays true: its complete example is the tested file test/examples/guide.test.ts,
 * and its fault profile example is a valid profile.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { faultProfileProblem, runClient } from '../src/testing/index.js';

const guide = readFileSync(new URL('../docs/testing.md', import.meta.url), 'utf8');

describe('docs/testing.md', () => {
  it('shows the tested example, word for word', () => {
    const tested = readFileSync(new URL('./examples/guide.test.ts', import.meta.url), 'utf8')
      .split('// guide:start\n')[1]!
      .split('// guide:end')[0]!
      .replace(`'../../src/testing/index.js'`, `'computesim/testing'`);
    expect(guide).toContain('```ts\n' + tested + '```');
  });

  it('gives a fault profile that is valid and runs', async () => {
    const literal = /const faults = (\{[\s\S]*?\n\});/.exec(guide)?.[1];
    expect(literal).toBeDefined();
    const faults = new Function(`return ${literal!}`)() as object;
    expect(faultProfileProblem(faults)).toBeUndefined();
    expect(faults).toHaveProperty(['requests', 'routes']);
    const run = await runClient(({ fetch, baseURL }) => fetch(`${baseURL}/projects`), {
      seed: 1,
      faults,
    });
    expect(run.outcome).toBe('returned');
  });
});
