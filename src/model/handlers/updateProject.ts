/**
 * UpdateProject: a new name, history retention or default compute settings. A changed retention is
 * storage configuration: it records `apply_storage_config` on the default branch (the spec names that
 * operation for "a changed history retention period"), and is refused with 423 while the default
 * branch is locked. A rename or new defaults alone record nothing and never lock.
 */
import { err, ok } from '../../core/result.js';
import { ENDPOINT_DEFAULTS } from '../../domain/endpointDefaults.js';
import type { UpdateProject } from '../commands.js';
import { CommandDraft } from '../commandDraft.js';
import type { Handler } from '../decideContext.js';
import { lockedRefusal } from '../lockedRefusal.js';
import { findProject, lockedBy } from '../lookups.js';
import { settingsProblem } from '../newEndpoint.js';
import { recordOperations } from '../operationPlanner.js';
import type { ProjectEndpointDefaults } from '../state.js';

/** Decides a project update. */
export const updateProject: Handler<UpdateProject> = (state, command, context) => {
  const found = findProject(state, command.projectId);
  if (!found.ok) return found;
  const project = found.value;
  const defaults =
    command.defaultEndpointSettings === undefined
      ? undefined
      : { ...project.defaultEndpointSettings, ...command.defaultEndpointSettings };
  if (defaults !== undefined) {
    const problem = settingsProblem(asSettings(defaults), project.plan, context.profile.limits);
    if (problem !== undefined) return err(problem);
  }
  const retentionChanges =
    command.historyRetentionSeconds !== undefined &&
    command.historyRetentionSeconds !== project.historyRetentionSeconds;
  if (retentionChanges) {
    const locked = lockedBy(project, { branchId: project.defaultBranchId }, context.profile.locks);
    if (locked !== undefined) return lockedRefusal(locked, command, {});
  }

  const draft = new CommandDraft(state, context);
  draft.push({
    type: 'ProjectUpdated',
    projectId: project.id,
    ...(command.name === undefined ? {} : { name: command.name }),
    ...(command.historyRetentionSeconds === undefined
      ? {}
      : { historyRetentionSeconds: command.historyRetentionSeconds }),
    ...(defaults === undefined ? {} : { defaultEndpointSettings: defaults }),
  });
  if (retentionChanges)
    recordOperations(draft, project.id, [
      {
        action: 'apply_storage_config',
        branchId: project.defaultBranchId,
        latency: 'apply_config',
      },
    ]);
  return ok(draft.events);
};

/** Default settings as the full settings of a compute (a lone size limit fixes the size). */
function asSettings(defaults: ProjectEndpointDefaults) {
  const minCu = defaults.minCu ?? defaults.maxCu ?? ENDPOINT_DEFAULTS.minCu;
  const maxCu = defaults.maxCu ?? defaults.minCu ?? ENDPOINT_DEFAULTS.maxCu;
  return {
    ...ENDPOINT_DEFAULTS,
    suspendTimeoutSeconds:
      defaults.suspendTimeoutSeconds ?? ENDPOINT_DEFAULTS.suspendTimeoutSeconds,
    pgSettings: { ...defaults.pgSettings },
    minCu,
    maxCu,
  };
}
