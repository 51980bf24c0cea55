/**
 * One run of a study is measured as it goes, keeping no log: its figures are those `metricsOf` reads
 * off the full log of the same run kept in memory.
 */
import { describe, expect, it } from 'vitest';
import { metricsOf, Simulation } from '../../src/index.js';
import { runStudy } from '../../src/study/runStudy.js';
import tiny from '../fixtures/tinyStudy.js';

describe('runStudy', () => {
  it('gives the figures metricsOf reads off the same run’s full log', () => {
    for (const configuration of tiny.configurations) {
      for (const seed of [11, 12]) {
        const kept = new Simulation({
          seed,
          log: 'memory',
          ...(tiny.start === undefined ? {} : { start: tiny.start }),
        });
        tiny.setup(kept, configuration);
        kept.advance(tiny.duration, { stepLimit: Number.MAX_SAFE_INTEGER });
        const fromLog = metricsOf(kept.log).fleet;
        expect(fromLog.sessions).toBeGreaterThan(0);
        expect(runStudy(tiny, configuration, seed)).toEqual(fromLog);
      }
    }
  });

  it('keeps no log while it runs', () => {
    let seen: Simulation | undefined;
    runStudy(
      { ...tiny, setup: (sim, c) => ((seen = sim), tiny.setup(sim, c)) },
      tiny.configurations[0]!,
    );
    expect(seen?.log.keepsEvents).toBe(false);
  });
});
