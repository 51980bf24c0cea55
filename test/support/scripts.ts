/**
 * Random scripts of public calls (requests, clock moves, runs to idle) for property tests of the
 * engine's guarantees: determinism, replay, time travel.
 */
import fc from 'fast-check';
import { Simulation, type SimulationOptions } from '../../src/index.js';

/** One public call of a script. */
export type Step =
  | { readonly kind: 'createProject'; readonly name?: string }
  | { readonly kind: 'advance'; readonly ms: number }
  | { readonly kind: 'runUntilIdle' }
  | { readonly kind: 'listOperations'; readonly projectIndex: number }
  | { readonly kind: 'deleteProject'; readonly projectIndex: number }
  | { readonly kind: 'recoverProject'; readonly projectIndex: number };

/**
 * Arbitrary step; clock moves span milliseconds to an hour so timers fire between and within them
 * (and rarely days); projects are deleted and recovered (or found gone for good).
 */
export const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('createProject' as const) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('createProject' as const),
      name: fc.string({ minLength: 1, maxLength: 20 }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('advance' as const),
      ms: fc.integer({ min: 0, max: 3_600_000 }),
    }),
  },
  {
    // rarely days, so a deleted project's recovery window ends within a script
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('advance' as const),
      ms: fc.integer({ min: 0, max: 8 * 86_400_000 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('runUntilIdle' as const) }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('deleteProject' as const), projectIndex: fc.nat(3) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('recoverProject' as const), projectIndex: fc.nat(3) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('listOperations' as const),
      projectIndex: fc.nat(10),
    }),
  },
);

/** Arbitrary script of up to `maxLength` steps. */
export const scriptArb = (maxLength = 25): fc.Arbitrary<Step[]> => fc.array(stepArb, { maxLength });

/** Runs `script` on `sim`, returning the virtual time after each step. */
export function runScript(sim: Simulation, script: readonly Step[]): number[] {
  const times: number[] = [];
  const projectIds: string[] = [];
  for (const step of script) {
    switch (step.kind) {
      case 'createProject': {
        const body = { project: step.name === undefined ? {} : { name: step.name } };
        const response = sim.request('POST', '/projects', body);
        if (response.status === 201)
          projectIds.push((response.body as { project: { id: string } }).project.id);
        break;
      }
      case 'advance':
        sim.advance(step.ms);
        break;
      case 'runUntilIdle':
        sim.runUntilIdle();
        break;
      case 'listOperations': {
        const id =
          projectIds.length === 0 ? 'none' : projectIds[step.projectIndex % projectIds.length];
        sim.request('GET', `/projects/${id}/operations`);
        break;
      }
      case 'deleteProject':
      case 'recoverProject': {
        const id = projectIds[step.projectIndex % Math.max(1, projectIds.length)] ?? 'none';
        if (step.kind === 'deleteProject') sim.request('DELETE', `/projects/${id}`);
        else sim.request('POST', `/projects/${id}/recover`);
        break;
      }
    }
    times.push(sim.now());
  }
  return times;
}

/** A fresh simulation that has run `script`. */
export function simulate(script: readonly Step[], options: SimulationOptions = {}): Simulation {
  const sim = new Simulation(options);
  runScript(sim, script);
  return sim;
}
