/**
 * More project routes: update (name, history retention, default compute settings) and the listing of
 * projects shared with the account (the simulated account has none shared with it).
 */
import { errorResponse } from '../apiResponse.js';
import { BodyReader } from '../bodyReader.js';
import { projectDto } from '../dto.js';
import { readEndpointDefaults } from '../endpointDefaultsBody.js';
import type { Route } from '../route.js';
import { findProject } from './lookup.js';
import { pageLimit } from './listingQuery.js';
import { executed, proxyHostOf, recordedOperations } from './responses.js';

/** The bounds of `history_retention_seconds` in the public schema (0 to 30 days). */
const RETENTION_MAX_SECONDS = 2_592_000;

/** PATCH /projects/{project_id} */
export const updateProjectRoute: Route = {
  method: 'PATCH',
  pattern: '/projects/{project_id}',
  handle({ params, body, target }) {
    const found = findProject(target, params);
    if (!found.ok) return errorResponse(found.error);
    const reader = BodyReader.ofBody(body);
    if (reader.object['project'] === undefined) reader.fail('project is required');
    const project = reader.object_('project');
    const name = project.string('name', /^.{1,256}$/su, 'a string of 1 to 256 characters');
    const retention = project.number('history_retention_seconds', true);
    if (retention !== undefined && (retention < 0 || retention > RETENTION_MAX_SECONDS))
      project.fail(`project.history_retention_seconds must be 0 to ${RETENTION_MAX_SECONDS}`);
    const defaults = readEndpointDefaults(project.object_('default_endpoint_settings'));
    if (reader.problem !== undefined) return errorResponse(reader.problem);
    const projectId = found.value.id;
    const result = target.execute({
      type: 'UpdateProject',
      projectId,
      ...(name === undefined ? {} : { name }),
      ...(retention === undefined ? {} : { historyRetentionSeconds: retention }),
      ...(defaults === undefined ? {} : { defaultEndpointSettings: defaults }),
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
