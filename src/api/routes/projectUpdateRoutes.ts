/**
 * More project routes: update (name, history retention, default compute settings) and the listing of
 * projects shared with the account (the simulated account has none shared with it).
 */
import type { ProjectUpdateRequest } from '@neondatabase/api-client';
import { errorResponse } from '../apiResponse.js';
import { projectDto } from '../dto.js';
import { endpointDefaults } from '../endpointDefaultsBody.js';
import { presentFields } from '../presentFields.js';
import type { Route } from '../route.js';
import { findProject } from './lookup.js';
import { pageLimit } from './listingQuery.js';
import { executed, proxyHostOf, recordedOperations } from './responses.js';

/** PATCH /projects/{project_id} */
export const updateProjectRoute: Route<ProjectUpdateRequest> = {
  method: 'PATCH',
  pattern: '/projects/{project_id}',
  handle({ params, body, target }) {
    const found = findProject(target, params);
    if (!found.ok) return errorResponse(found.error);
    const { project } = body;
    const projectId = found.value.id;
    const result = target.execute({
      type: 'UpdateProject',
      projectId,
      ...presentFields({
        name: project.name,
        historyRetentionSeconds: project.history_retention_seconds,
        defaultEndpointSettings: endpointDefaults(project.default_endpoint_settings),
      }),
    });
    return executed(result, (events) => {
      const updated = target.state.projects[projectId];
      if (updated === undefined) throw new Error('updated project missing from state');
      return {
        status: 200,
        body: {
          project: projectDto(updated, proxyHostOf(updated, target.profile.hostDomain), target.now),
          operations: recordedOperations(target, projectId, events),
        },
      };
    });
  },
};

/** GET /projects/shared: projects other accounts share with this one (none in the simulator). */
export const listSharedProjectsRoute: Route = {
  method: 'GET',
  pattern: '/projects/shared',
  handle({ query }) {
    const limit = pageLimit(query);
    if (!limit.ok) return errorResponse(limit.error);
    return { status: 200, body: { projects: [] } };
  },
};
