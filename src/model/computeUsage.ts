/**
 * A compute's usage and idle clock, kept as events change it: the active time and CU-time counted
 * into its project, and since when it has been idle (what scale to zero waits on). Compute and
 * connection events change both.
 */
import type { Draft } from 'immer';
import { clearField } from './clearField.js';
import type { EndpointState, ProjectState } from './state.js';

/**
 * Adds an active compute's usage since its `usageCountedTo` (at its current size) to its project's
 * totals, and moves the mark to `at`. Nothing for a compute that is not active.
 */
export function countUsage(
  project: Pick<Draft<ProjectState>, 'usedActiveMs' | 'usedCuMs'>,
  endpoint: Draft<EndpointState>,
  at: number,
): void {
  const from = endpoint.usageCountedTo;
  if (from === undefined) return;
  const span = Math.max(0, at - from);
  project.usedActiveMs = (project.usedActiveMs ?? 0) + span;
  project.usedCuMs = (project.usedCuMs ?? 0) + span * (endpoint.allocatedCu ?? endpoint.minCu);
  endpoint.usageCountedTo = at;
}

/**
 * The scale-to-zero clock: a compute that is active, not changing state and has no active connection
 * (idle connections do not count) is idle since the last activity: the moment that became true, or
 * a later `activity` (a connection logging in, a statement or transaction ending).
 */
export function refreshIdleSince(
  endpoint: Draft<EndpointState>,
  at: number,
  activity = false,
): void {
  if (
    endpoint.currentState === 'active' &&
    endpoint.pendingState === undefined &&
    endpoint.activeConnections === 0
  ) {
    if (activity) endpoint.idleSince = at;
    else endpoint.idleSince ??= at;
  } else {
    clearField(endpoint, 'idleSince');
  }
}
