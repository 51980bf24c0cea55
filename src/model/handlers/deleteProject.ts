/**
 * DeleteProject: every connection of its computes is terminated and the project goes, with its
 * branches, computes and operations. Unfinished operations go with it (their timers turn stale).
 */
import { ok } from '../../core/result.js';
import { SQL_STATES } from '../../domain/sqlState.js';
import type { DeleteProject } from '../commands.js';
import type { Handler, Pending } from '../decideContext.js';
import { findProject } from '../lookups.js';
import { dropConnections } from '../connectionEvents.js';

/** Decides a project deletion. */
export const deleteProject: Handler<DeleteProject> = (state, command) => {
  const project = findProject(state, command.projectId);
  if (!project.ok) return project;
  const events: Pending = [];
  for (const endpoint of Object.values(project.value.endpoints)) {
    events.push(
      ...dropConnections(state, project.value.id, endpoint.id, SQL_STATES.endpointNotFound, 'all'),
    );
  }
  events.push({ type: 'ProjectDeleted', projectId: project.value.id });
  return ok(events);
};
