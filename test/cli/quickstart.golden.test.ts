/**
 * The quickstart scenario's narration is pinned: any change to what it prints is deliberate.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runText } from '../../src/report/runText.js';
import { quickstartScenario } from '../../src/scenario/quickstart.js';
import { runScenario } from '../../src/scenario/runScenario.js';

const GOLDEN = new URL('../golden/quickstart.txt', import.meta.url);
const quickstart = (seed: number) => runText(runScenario(quickstartScenario, { seed }));

describe('quickstart narration', () => {
  it('prints exactly the pinned timeline for seed 42 (UPDATE_GOLDEN=1 rewrites it after a deliberate change)', () => {
    const text = `${quickstart(42).join('\n')}\n`;
    if (process.env['UPDATE_GOLDEN'] === '1') writeFileSync(GOLDEN, text);
    expect(text).toBe(readFileSync(GOLDEN, 'utf8'));
  });

  it('is the same every time for a seed, differs across seeds, and passes for any seed', () => {
    expect(quickstart(7)).toEqual(quickstart(7));
    expect(quickstart(7)).not.toEqual(quickstart(8));
    for (const seed of [1, 2, 3, 99, 12345])
      expect(runScenario(quickstartScenario, { seed }).passed).toBe(true);
  });
});
