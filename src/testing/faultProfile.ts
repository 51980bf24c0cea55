/**
 * A fault profile: the faults a test runs a client under, as plain data. Operation faults go to the
 * simulation's profile (and so into its log); request and connection faults are injected by the
 * harness at the client's edge. The same seed replays the same faults.
 */
import { resolveProfile, type FaultSpec, type FaultTarget } from '../domain/profile.js';
import type { SimulationOptions } from '../simulation/simulation.js';
import { requestFaultsProblem, type RequestFaults } from './requestFaults.js';

/** Faults to run a client under; every part is optional and off when absent. */
export interface FaultProfile {
  /**
   * By operation action (or `wake_compute` for wake-ups): attempts that fail and are retried, end in
   * `error`, or stay `scheduling` for a while (see `FaultSpec`).
   */
  readonly operations?: Readonly<Partial<Record<FaultTarget, FaultSpec>>>;
  /** 423 bursts and 429s answered to the client instead of the simulation's answer. */
  readonly requests?: RequestFaults;
  /** Open connections dropped (57P01) at random times, on average this many times an hour. */
  readonly connections?: { readonly dropsPerHour: number };
}

/** What is wrong with a fault profile, or undefined when it is valid. */
export function faultProfileProblem(faults: FaultProfile): string | undefined {
  if (typeof faults !== 'object' || faults === null) return 'faults must be an object';
  const unknown = Object.keys(faults).filter(
    (k) => !['operations', 'requests', 'connections'].includes(k),
  );
  if (unknown.length > 0)
    return `faults: unknown part "${unknown[0]}" (known: operations, requests, connections)`;
  if (faults.operations !== undefined) {
    const resolved = resolveProfile({ faults: faults.operations });
    if (!resolved.ok) return resolved.error.replace('profile.faults', 'faults.operations');
  }
  if (faults.requests !== undefined) {
    const problem = requestFaultsProblem(faults.requests);
    if (problem !== undefined) return `faults.requests: ${problem}`;
  }
  if (faults.connections !== undefined) {
    const rate = faults.connections.dropsPerHour;
    if (typeof rate !== 'number' || !(rate >= 0) || !Number.isFinite(rate))
      return 'faults.connections.dropsPerHour must be a number ≥ 0';
  }
  return undefined;
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
      ...options.profile,
      faults: { ...options.profile?.faults, ...faults.operations },
    },
  };
}
