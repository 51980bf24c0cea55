/**
 * The corpus of client bugs (issue 47), with fewer runs than `npm run bench -- toolkit`: each bug
 * client must be found, by the verdict that should find it, within 100 runs (half the benchmark's
 * budget, under the recipe's first property or its second); each careful client must do its job
 * with no finding over 250 runs (a quarter of the benchmark's), and end (report, not wait forever)
 * over 100 runs under harsh faults. Rows that do not hold yet are skipped, saying what they wait for (a verdict, or
 * default faults a careful client survives): remove a row from `NOT_YET` once it has come.
 */
import { describe, expect, it } from 'vitest';
import { BUG_CLIENTS, CAREFUL_CLIENTS } from './corpus/index.js';
import { searchBug, tallyCareful } from './corpus/recipe.js';

/** What each row that does not hold today waits for. */
const NOT_YET: Readonly<Record<string, string>> = {};

const BUG_RUNS = 100;
const CAREFUL_RUNS = 250;
const HARSH_RUNS = 100;

describe('each bug client is found by the verdict that should find it', () => {
  for (const entry of BUG_CLIENTS) {
    const waitsFor = NOT_YET[entry.name];
    const test = waitsFor === undefined ? it : it.skip;
    const title = `bug ${entry.bugClass}, ${entry.name} (${entry.summary}): found by ${entry.judgedBy ?? 'an oracle'}`;
    test(waitsFor === undefined ? title : `${title}; not yet: ${waitsFor}`, async () => {
      const search = await searchBug(entry, { numRuns: BUG_RUNS, shrink: false });
      expect(search.first?.labels ?? [], search.first?.message).toContain(entry.judgedBy);
      expect(search.found).toBe(true);
    });
  }
});

describe('each careful client does its job and nothing finds fault with it', () => {
  for (const entry of CAREFUL_CLIENTS) {
    const waitsFor = NOT_YET[entry.name];
    const test = waitsFor === undefined ? it : it.skip;
    const title = `${entry.name} (${entry.summary}): ${CAREFUL_RUNS} runs, no finding, no failed job; ends under harsh faults`;
    test(waitsFor === undefined ? title : `${title}; not yet: ${waitsFor}`, async () => {
      const tally = await tallyCareful(entry, { numRuns: CAREFUL_RUNS });
      expect(tally.withFindings, tally.firstFinding?.message).toBe(0);
      expect(tally.jobsFailed, tally.firstJobFailure?.message).toBe(0);
      // Under harsh faults its job may fail, but it reports and ends: it never waits forever.
      const harsh = await tallyCareful(entry, { numRuns: HARSH_RUNS, preset: 'harsh' });
      expect(harsh.jobsFailed, harsh.firstJobFailure?.message).toBe(0);
    });
  }
});
