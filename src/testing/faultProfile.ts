/**
 * A fault profile: the faults a test runs a client under, as plain data. Operation faults go to the
 * simulation's profile (and so into its log); request and connection faults are injected by the
 * harness at the client's edge. The same seed replays the same faults.
 */
import type { z } from 'zod';
import { asOverrides, FAULTS_SCHEMA } from '../domain/profile.js';
import { nonNegative, parseInput, strictObject, type Immutable } from '../core/schema.js';
import type { SimulationOptions } from '../simulation/simulationOptions.js';
import { REQUEST_FAULTS_SCHEMA } from './requestFaults.js';

/** Faults to run a client under; every part is optional and off when absent. */
const faultProfileSchema = strictObject(
  {
    /**
     * By operation action (or `wake_compute` for wake-ups): attempts that fail and are retried, end
     * in `error`, or stay `scheduling` for a while (see `FaultSpec`).
     */
    operations: FAULTS_SCHEMA.optional(),
    /** 423 bursts and 429s answered to the client instead of the simulation's answer. */
    requests: REQUEST_FAULTS_SCHEMA.optional(),
    /** Open connections dropped (57P01) at random times, on average this many times an hour. */
    connections: strictObject({
      dropsPerHour: nonNegative('must be a number ≥ 0'),
    }).optional(),
  },
  'part',
);

/** Faults to run a client under; every part is optional and off when absent. */
export type FaultProfile = Immutable<z.input<typeof faultProfileSchema>>;

/**
 * What is wrong with a fault profile, or undefined when it is valid: one line naming the path
 * (`faults.operations.start_compute: unknown field "failRate" (known: …)`).
 */
export function faultProfileProblem(faults: FaultProfile): string | undefined {
  if (typeof faults !== 'object' || faults === null) return 'faults must be an object';
  const parsed = parseInput(faultProfileSchema, faults, 'faults');
  return parsed.ok ? undefined : parsed.error;
}

/**
 * Simulation options with the profile's operation faults added to `options.profile.faults` (its own
 * entries win over the options' for the same action). Throws a `RangeError` for an invalid profile.
 */
export function withFaults(
  options: SimulationOptions,
  faults: FaultProfile = {},
): SimulationOptions {
  const problem = faultProfileProblem(faults);
  if (problem !== undefined) throw new RangeError(problem);
  if (faults.operations === undefined) return options;
  return {
    ...options,
    profile: {
      ...asOverrides(options.profile),
      faults: { ...asOverrides(options.profile).faults, ...faults.operations },
    },
  };
}
