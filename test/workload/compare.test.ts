/**
 * Comparisons: the same sessions under every configuration, results that move the way the settings
 * say they should, and a table with one column and delta per configuration, values and deltas lined
 * up.
 */
import { describe, expect, it } from 'vitest';
import { officeHours, type Simulation } from '../../src/index.js';
import { compare, comparisonTable } from '../../src/entries/studies.js';
import { expectDeltasInColumns } from '../support/deltaColumns.js';

function smallFleet(sim: Simulation, suspendTimeoutSeconds: number): void {
  for (let i = 0; i < 5; i++) {
    const created = sim.request('POST', '/projects', {
      project: { default_endpoint_settings: { suspend_timeout_seconds: suspendTimeoutSeconds } },
    });
    sim.addWorkload({
      kind: 'poisson',
      endpointId: created.body.endpoints[0].id,
      rates: officeHours({ peak: 6, offPeak: 0.5 }),
      session: { duration: { dist: 'exponential', mean: '2m' } },
    });
  }
}

const study = {
  seed: 3,
  start: '2026-01-05T00:00:00Z',
  duration: '2d',
  setup: (sim: Simulation, c: { params?: number }) => smallFleet(sim, c.params ?? 300),
};

describe('compare', () => {
  const comparison = compare(study, [
    { name: '300 s', params: 300 },
    { name: '60 s', params: 60 },
    { name: 'never', params: -1 },
  ]);
  const [base, short, never] = comparison.rows.map((r) => r.fleet);

  it('runs every configuration on the same sessions', () => {
    expect(base!.sessions).toBeGreaterThan(100);
    expect(short!.sessions).toBe(base!.sessions);
    expect(never!.sessions).toBe(base!.sessions);
  });

  it('moves the figures the way the settings say: shorter timeouts cost less and start more', () => {
    expect(short!.cuHours).toBeLessThan(base!.cuHours);
    expect(base!.cuHours).toBeLessThan(never!.cuHours);
    expect(short!.coldStarts).toBeGreaterThan(base!.coldStarts);
    expect(never!.coldStarts).toBe(0);
    expect(never!.starts).toBe(5);
  });

  it('prints one column per configuration, with deltas against the first', () => {
    const table = comparisonTable(comparison).split('\n');
    expect(table[0]).toMatch(/300 s\s+60 s \(Δ\)\s+never \(Δ\)$/);
    const cu = table.find((line) => line.startsWith('CU-hours'))!;
    expect(cu).toMatch(/\(−[\d.,]+, −\d+%\).*\(\+[\d.,]+, \+\d+%\)$/);
    expect(table).toHaveLength(17);
  });

  it("lines up each configuration's values, and its deltas, on every row", () => {
    expectDeltasInColumns(comparisonTable(comparison));
  });

  it('is deterministic', () => {
    const again = compare(study, [{ name: '300 s', params: 300 }]);
    expect(again.rows[0]!.fleet).toEqual(base);
  });

  it('refuses no configurations, or two with one name', () => {
    expect(() => compare(study, [])).toThrow(/at least one/);
    expect(() => compare(study, [{ name: 'a' }, { name: 'a' }])).toThrow(/unique/);
  });
});
