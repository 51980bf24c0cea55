/**
 * Whether every compute of a project is idle with nothing pending: the condition for detaching its
 * storage, checked by the timer that arms the detach and by the handler it fires.
 */
import type { ProjectState } from './state.js';

/** True when each of `project`'s computes is idle and not changing state. */
export function allIdle(project: ProjectState): boolean {
  for (const id in project.endpoints) {
    const endpoint = project.endpoints[id];
    if (
      endpoint !== undefined &&
      (endpoint.currentState !== 'idle' || endpoint.pendingState !== undefined)
    )
      return false;
  }
  return true;
}
