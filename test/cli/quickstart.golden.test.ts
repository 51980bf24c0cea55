import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { quickstart } from '../../src/scenario/quickstart.js';

const GOLDEN = new URL('../golden/quickstart.txt', import.meta.url);

describe('quickstart narration', () => {
  it('prints exactly the pinned timeline for seed 42 (UPDATE_GOLDEN=1 rewrites it after a deliberate change)', () => {
    const text = `${quickstart(42).join('\n')}\n`;
    if (process.env['UPDATE_GOLDEN'] === '1') writeFileSync(GOLDEN, text);
    expect(text).toBe(readFileSync(GOLDEN, 'utf8'));
  });

  it('is the same every time for a seed, and differs across seeds', () => {
    expect(quickstart(7)).toEqual(quickstart(7));
    expect(quickstart(7)).not.toEqual(quickstart(8));
  });
});
