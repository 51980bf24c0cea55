/**
 * A short text summary of a state: each project with its computes and how its operations stand.
 */
import { formatInstant } from '../core/instant.js';
import type { SimState } from '../model/state.js';
import { operationsOf } from '../model/operationStore.js';

/** Lines describing `state`, one block per project. */
export function summarizeState(state: SimState): string[] {
  const projects = Object.values(state.projects);
  if (projects.length === 0) return ['  no projects'];
  const lines: string[] = [];
  for (const project of projects) {
    lines.push(`  project ${project.id} "${project.name}" (${project.regionId})`);
    for (const endpoint of Object.values(project.endpoints)) {
      const pending =
        endpoint.pendingState === undefined ? '' : `, pending ${endpoint.pendingState}`;
      const lastActive =
        endpoint.lastActive === undefined
          ? ''
          : `, last active ${formatInstant(endpoint.lastActive)}`;
      lines.push(
        `    compute ${endpoint.id} ${endpoint.type} ${endpoint.currentState}${pending}${lastActive}`,
      );
    }
    const counts = new Map<string, number>();
    for (const operation of operationsOf(project)) {
      counts.set(operation.status, (counts.get(operation.status) ?? 0) + 1);
    }
    lines.push(
      `    operations: ${[...counts].map(([status, n]) => `${n} ${status}`).join(', ') || 'none'}`,
    );
  }
  return lines;
}
