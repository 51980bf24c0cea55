/**
 * Fleets split by project range: identical sums and counts on one thread or two (and in any split),
 * percentiles within the stated bound of the exact ones, a project's results independent of the
 * range that ran it, and clear refusals of parts that do not belong together.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  fleetResult,
  runFleet,
  runFleetFile,
  runFleetRange,
  type FleetResult,
} from '../../src/entries/studies.js';
import { percentiles, type Percentiles } from '../../src/projection/percentiles.js';
import { runProject } from '../../src/study/fleetRun.js';
import { LatencyHistogram, PERCENTILE_RELATIVE_ERROR } from '../../src/study/latencyHistogram.js';
import { paramFleet } from '../fixtures/paramFleet.js';

/** Sums and counts of a result (everything but the percentiles). */
function exactPart({ metrics }: FleetResult) {
  const { coldStartWaitMs: _, coldCacheDelayMs: __, ...rest } = metrics;
  return rest;
}

function withinBound(read: Percentiles, exact: Percentiles): void {
  expect(read.count).toBe(exact.count);
  for (const key of ['p50', 'p95', 'p99', 'max'] as const) {
    expect(read[key]).toBeGreaterThanOrEqual(exact[key]);
    expect(read[key]).toBeLessThanOrEqual(exact[key] * (1 + PERCENTILE_RELATIVE_ERROR));
  }
}

describe('fleet', () => {
  it('gives identical sums, counts and histograms split in two as whole (what 2 threads do), percentiles within the bound', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000 }),
        fc.integer({ min: 2, max: 6 }),
        fc.nat(),
        (seed, projects, cut) => {
          const fleet = paramFleet(seed, projects);
          const at = 1 + (cut % (projects - 1));
          const whole = runFleet(fleet);
          const split = fleetResult([
            runFleetRange(fleet, at, projects),
            runFleetRange(fleet, 0, at),
          ]);
          expect(exactPart(split)).toEqual(exactPart(whole));
          expect(split.metrics.coldStartWaitMs).toEqual(whole.metrics.coldStartWaitMs);
          const waits: number[] = [];
          for (let i = 0; i < projects; i++)
            runProject(fleet, i, (figure, ms) => figure === 'coldStartWaitMs' && waits.push(ms));
          withinBound(whole.metrics.coldStartWaitMs, percentiles(waits));
          expect(whole.percentileRelativeError).toBe(PERCENTILE_RELATIVE_ERROR);
        },
      ),
      { numRuns: 20 },
    );
  }, 120_000);

  it('gives identical sums and counts, and percentiles, on 1 worker thread and on 2 (over seeds and fleet sizes)', async () => {
    const fixture = pathToFileURL('test/fixtures/paramFleet.ts').href;
    const dir = mkdtempSync(join(tmpdir(), 'computesim-fleet-'));
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 10_000 }),
        fc.integer({ min: 1, max: 6 }),
        async (seed, projects) => {
          const url = join(dir, `fleet-${seed}-${projects}.mts`);
          writeFileSync(
            url,
            `import { paramFleet } from ${JSON.stringify(fixture)};\n` +
              `export default paramFleet(${seed}, ${projects});\n`,
          );
          const one = await runFleetFile(url, { threads: 1 });
          const two = await runFleetFile(url, { threads: 2 });
          expect(one.projects).toBe(projects);
          expect(exactPart(two)).toEqual(exactPart(one));
          withinBound(two.metrics.coldStartWaitMs, one.metrics.coldStartWaitMs);
          expect(JSON.stringify(two)).toBe(JSON.stringify(one));
        },
      ),
      { numRuns: 4 },
    );
  }, 120_000);

  it('gives the same result on worker threads as in this thread', async () => {
    const one = await runFleetFile('test/fixtures/tinyFleet.ts', { threads: 2 });
    const tiny = (await import('../fixtures/tinyFleet.js')).default;
    expect(JSON.stringify(runFleet(tiny))).toBe(JSON.stringify(one));
    expect(one.metrics.coldStarts).toBeGreaterThan(0);
  }, 60_000);

  it('runs a project the same whichever range holds it (its own seed, its own streams)', () => {
    const fleet = paramFleet(3, 4);
    const alone = runFleetRange(fleet, 2, 3);
    const among = runFleetRange(fleet, 1, 4);
    const rest = fleetResult([
      runFleetRange(fleet, 0, 1),
      alone,
      runFleetRange(fleet, 1, 2),
      runFleetRange(fleet, 3, 4),
    ]);
    expect(exactPart(rest)).toEqual(exactPart(fleetResult([runFleetRange(fleet, 0, 1), among])));
  }, 60_000);

  it('refuses overlapping, missing or foreign parts', () => {
    const fleet = paramFleet(1, 3);
    const first = runFleetRange(fleet, 0, 2);
    const last = runFleetRange(fleet, 2, 3);
    expect(() => fleetResult([first, runFleetRange(fleet, 1, 3)])).toThrow(
      /projects 1-2 are measured twice/,
    );
    expect(() => fleetResult([first])).toThrow(/projects missing \(measured 0-1 of 0-2\)/);
    expect(() => fleetResult([first, runFleetRange(paramFleet(2, 3), 2, 3)])).toThrow(
      /a part of another fleet run \(param-fleet, 3 projects, seed 2/,
    );
    expect(fleetResult([last, first]).projects).toBe(3);
  }, 60_000);

  it('reads percentiles from the histogram at most the stated fraction above the exact ones', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 10_000_000 }), { minLength: 1, maxLength: 300 }),
        (samples) => {
          const histogram = LatencyHistogram.empty();
          for (const sample of samples) histogram.record(sample);
          withinBound(
            LatencyHistogram.decode(histogram.encode()).percentiles(),
            percentiles(samples),
          );
        },
      ),
    );
  });
});
