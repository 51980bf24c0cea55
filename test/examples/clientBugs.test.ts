/**
 * The testing toolkit catching real bugs: three deliberately faulty versions of a small client, each
 * found by the default oracles within fast-check's default number of runs and shrunk to a short
 * timeline, while the correct client passes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  assertClient,
  defaultOracles,
  faultProfile,
  timeline,
  type Timeline,
} from '../../src/testing/index.js';
import type { Bug } from './clients/migrationClient.js';
import { runMigration, type WorldMode } from './migrationWorld.js';

/** Branch setups: computes created (or deleted) on the two branches in any order. */
const branchSetups = fc.oneof(
  fc.record({
    kind: fc.constantFrom('createReplica' as const, 'createPrimary' as const),
    branch: fc.nat({ max: 3 }),
  }),
  fc.record({ kind: fc.constant('deleteCompute' as const), compute: fc.nat({ max: 3 }) }),
);

const worlds: Record<WorldMode, fc.Arbitrary<Timeline>> = {
  alongside: timeline({ maxSteps: 12, faults: faultProfile() }),
  before: timeline({ maxSteps: 8, actions: branchSetups, faults: fc.constant({}) }),
};

const behaves = (mode: WorldMode, bug?: Bug) =>
  fc.asyncProperty(worlds[mode], async (world) => {
    const run = await runMigration(world, mode, bug);
    assertClient(run.record, defaultOracles());
  });

describe('the toolkit finds each faulty client and shrinks the timeline', () => {
  const cases: { bug: Bug; mode: WorldMode; oracle: string; maxSteps: number }[] = [
    { bug: 'ignoresLocked', mode: 'alongside', oracle: 'retriesWithBackoff', maxSteps: 1 },
    { bug: 'doesNotWait', mode: 'alongside', oracle: 'waitsForOperations', maxSteps: 0 },
    { bug: 'firstCompute', mode: 'before', oracle: 'usesReadWriteForWrites', maxSteps: 2 },
  ];
  for (const { bug, mode, oracle, maxSteps } of cases) {
    it(`${bug}: found by ${oracle}, shrunk to at most ${maxSteps} step(s)`, async () => {
      const details = await fc.check(behaves(mode, bug));
      expect(details.failed).toBe(true);
      expect(details.numRuns).toBeLessThanOrEqual(100);
      expect(String(details.errorInstance)).toContain(oracle);
      const [shrunk] = details.counterexample as [Timeline];
      expect(shrunk.steps.length).toBeLessThanOrEqual(maxSteps);
      // What fast-check printed ends with the world as a literal: run again, it fails the same way.
      const printed = fc.stringify(shrunk);
      expect(printed).toContain(`seed ${shrunk.seed}`);
      const literal = printed.split('as a literal, to replay it:\n')[1]!.replace(/\]$/, '');
      const world = new Function(`return ${literal};`)() as Timeline;
      const replayed = await runMigration(world, mode, bug);
      expect(() => assertClient(replayed.record, defaultOracles())).toThrow(oracle);
    });
  }
});

describe('a timeline whose steps only fail together or alone', () => {
  // With this seed fast-check's own shrinking stopped at 3 steps (two replicas on the main branch,
  // then one on the migration branch): dropping either earlier step moved the last one earlier,
  // where the project was still locked and the replica was refused. Alone, the last step fails.
  it('still shrinks to its one failing step', async () => {
    const details = await fc.check(behaves('before', 'firstCompute'), { seed: -1492605010 });
    expect(details.failed).toBe(true);
    const [shrunk] = details.counterexample as [Timeline];
    expect(shrunk.steps).toHaveLength(1);
    expect(shrunk.steps[0]?.action).toMatchObject({ kind: 'createReplica' });
  });
});

describe('the correct client', () => {
  it('passes every oracle in worlds alongside it, with faults', async () => {
    await fc.assert(behaves('alongside'));
  });

  // This seed's world deletes the migration branch while the client connects to its compute for
  // writes: the client chose the read_write compute, and the world took it away.
  it('passes when the world deletes its branch under it', async () => {
    await fc.assert(behaves('alongside'), { seed: 241305772 });
  });

  it('passes every oracle whatever computes its branch has', async () => {
    await fc.assert(behaves('before'));
  });
});
