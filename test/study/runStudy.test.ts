/**
 * One run of a study is measured as it goes, keeping no log: its figures are those `metricsOf` reads
 * off the full log of the same run kept in memory. `playStudy` is that run with its log kept.
 */
import { describe, expect, it } from 'vitest';
import { metricsOf, Simulation } from '../../src/index.js';
import { playStudy, runStudy } from '../../src/study/runStudy.js';
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

  it('plays the same run with its log kept (playStudy), for reports to draw', () => {
    const short = { ...tiny, duration: '2h' };
    const configuration = tiny.configurations[1]!;
    const sim = playStudy(short, configuration, 12);
    expect(sim.log.keepsEvents).toBe(true);
    expect(sim.now() - sim.log.get(0)!.at).toBe(2 * 3_600_000);
    const fromLog = metricsOf(sim.log).fleet;
    expect(fromLog.starts).toBeGreaterThan(0);
    expect(fromLog).toEqual(runStudy(short, configuration, 12));
    expect(fromLog).not.toEqual(runStudy(short, configuration, 13));
  });
});
