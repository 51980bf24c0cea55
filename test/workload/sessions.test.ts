/**
 * Sessions on a compute: a session opening while the cache is cold after a start holds its
 * connection longer (tapering over the warm-up), one on a warm cache holds exactly its duration, and
 * a statement needing more temp disk than the compute has fails with 53100 at once.
 */
import { describe, expect, it } from 'vitest';
import { Simulation, metricsOf, type SimEvent } from '../../src/index.js';

const START = Date.parse('2026-01-05T00:00:00Z');

function givenIdleCompute() {
  const sim = new Simulation({
    seed: 4,
    start: START,
    profile: {
      latency: { wake_compute: [500, 500] },
      coldCache: { warmupMs: 60_000, penaltyMs: 1_000 },
      availabilityChecks: { intervalMs: 0, backoff: 1, maxIntervalMs: 0 },
      tenantDetachAfterMs: 0,
    },
  });
  const endpointId: string = sim.request('POST', '/projects', { project: {} }).body.endpoints[0].id;
  sim.runUntilIdle();
  return { sim, endpointId, from: sim.now() + 60_000 };
}

/** How long each session held its connection, by connection id, from open to close. */
function heldFor(sim: Simulation): number[] {
  const opened = new Map<string, number>();
  const held: number[] = [];
  for (const event of sim.log as Iterable<SimEvent>) {
    if (event.type === 'ConnectionOpened') opened.set(event.connectionId, event.at);
    if (event.type === 'ConnectionClosed') held.push(event.at - opened.get(event.connectionId)!);
  }
  return held;
}

describe('sessions', () => {
  it('hold longer on a cold cache right after a start, tapering to nothing once it is warm', () => {
    const { sim, endpointId, from } = givenIdleCompute();
    sim.addWorkload({
      kind: 'trace',
      rows: [
        { at: from, endpointId, duration: '10s' }, // wakes the compute: opens at the start
        { at: from + 30_500, endpointId, duration: '10s' }, // 30 s into the warm-up
        { at: from + 120_000, endpointId, duration: '10s' }, // warm
      ],
    });
    sim.advance('10m');
    expect(heldFor(sim)).toEqual([11_000, 10_500, 10_000]);
    expect(metricsOf(sim.log).fleet.coldCacheDelayMs).toMatchObject({
      count: 2,
      p50: 500,
      max: 1_000,
    });
  });

  it('end at once with 53100 when a statement needs more temp disk than the compute has', () => {
    const { sim, endpointId, from } = givenIdleCompute();
    sim.addWorkload({
      kind: 'trace',
      rows: [{ at: from, endpointId, duration: '10m' }],
    });
    sim.addWorkload({
      kind: 'burst',
      endpointId,
      after: '61s',
      count: 1,
      within: '1s',
      session: { duration: '10m', tempDiskGb: 21 },
    });
    sim.advance('2m');
    const failed = [...sim.log].filter((e) => e.type === 'StatementFailed');
    expect(failed).toEqual([
      expect.objectContaining({ sqlstate: '53100', message: expect.stringMatching(/No space/) }),
    ]);
    expect(heldFor(sim)).toEqual([0]);
  });

  it('are numbered w1, w2, … in the order workloads are attached, and a replay goes on counting', () => {
    const { sim, endpointId, from } = givenIdleCompute();
    const trace = (offset: number) => ({
      kind: 'trace' as const,
      rows: [{ at: from + offset, endpointId, duration: '10s' }],
    });
    expect([sim.addWorkload(trace(0)), sim.addWorkload(trace(1_000))]).toEqual(['w1', 'w2']);
    sim.advance('5m');
    expect(sim.addWorkload(trace(600_000))).toBe('w3');
    const replayed = Simulation.replay(sim.log);
    expect(replayed.addWorkload(trace(700_000))).toBe('w4');
    expect(Object.keys(replayed.state.workloads)).toEqual(['w1', 'w2', 'w3', 'w4']);
  });
});
