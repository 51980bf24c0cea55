/**
 * DeleteProject: every connection of its computes is terminated and the project goes, with its
 * branches, computes and operations, kept for recovery for the profile's `recoveryWindowMs`.
 * Unfinished operations are cancelled with it (their timers turn stale).
 */
import { ok } from '../../core/result.js';
import { SQL_STATES } from '../../domain/sqlState.js';
import type { DeleteProject } from '../commands.js';
import type { Handler, Pending } from '../decideContext.js';
import { findProject } from '../lookups.js';
import { dropConnections } from '../connectionEvents.js';

/** Decides a project deletion. */
export const deleteProject: Handler<DeleteProject> = (state, command, context) => {
  const project = findProject(state, command.projectId);
  if (!project.ok) return project;
  const events: Pending = [];
  for (const endpoint of Object.values(project.value.endpoints)) {
    events.push(
      ...dropConnections(state, project.value.id, endpoint.id, SQL_STATES.endpointNotFound, 'all'),
    );
  }
  const window = context.profile.recoveryWindowMs;
  events.push({
    type: 'ProjectDeleted',
    projectId: project.value.id,
    ...(window > 0 ? { recoverableUntil: context.now + window } : {}),
  });
  return ok(events);
};
