/**
 * Carries out one timeline action against a simulation, through the same surface a scenario script
 * has (`request`, `connect`, `at`), so a step reads the same in a property test and in a scenario.
 */
import type { ApiResponse } from '../../api/apiResponse.js';
import type { Connection } from '../../simulation/connection.js';
import type { SimState } from '../../model/state.js';
import type { TimelineAction } from './timeline.js';

/** What playing a step needs: a scenario script has all of it. */
export interface StepHost {
  readonly state: SimState;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  request(method: string, path: string, body?: unknown): ApiResponse<any>;
  connect(endpointId: string): Connection;
  /** Runs `step` at `when`, here always a time from now like `'+1500ms'`. */
  at(when: string, step: () => void): void;
  readonly sim: { dropConnections(endpointId: string): number };
}

/**
 * Plays `action` on `host`. Returns the response of its request (undefined for a connection, or
 * when nothing it names exists yet: the step is skipped). Refusals are answers, not errors.
 */
export function playStep(host: StepHost, action: TimelineAction): ApiResponse | undefined {
  const state = host.state;
  switch (action.kind) {
    case 'createProject':
      return host.request('POST', '/projects', { project: {} });
    case 'createBranch': {
      const project = pick(Object.keys(state.projects), action.project);
      if (project === undefined) return undefined;
      const body = action.withCompute ? { endpoints: [{ type: 'read_write' }] } : {};
      return host.request('POST', `/projects/${project}/branches`, body);
    }
    case 'createReplica':
    case 'createPrimary': {
      const branch = pickBranch(state, action.branch);
      if (branch === undefined) return undefined;
      const type = action.kind === 'createReplica' ? 'read_only' : 'read_write';
      return host.request('POST', `/projects/${branch.projectId}/endpoints`, {
        endpoint: { branch_id: branch.id, type },
      });
    }
    case 'deleteBranch': {
      const branch = pickBranch(state, action.branch);
      if (branch === undefined) return undefined;
      return host.request('DELETE', `/projects/${branch.projectId}/branches/${branch.id}`);
    }
    case 'connect': {
      const compute = pickCompute(state, action.compute);
      if (compute === undefined) return undefined;
      const connection = host.connect(compute.id);
      host.at(`+${action.holdMs}ms`, () => connection.close());
      return undefined;
    }
    case 'dropConnections': {
      const compute = pickCompute(state, action.compute);
      if (compute !== undefined) host.sim.dropConnections(compute.id);
      return undefined;
    }
    case 'createRole': {
      const branch = pickBranch(state, action.branch);
      if (branch === undefined) return undefined;
      return host.request('POST', `/projects/${branch.projectId}/branches/${branch.id}/roles`, {
        role: { name: `role${action.role}` },
      });
    }
    case 'createDatabase': {
      const branch = pickBranch(state, action.branch);
      const owner = branch?.firstRole;
      if (branch === undefined || owner === undefined) return undefined;
      const path = `/projects/${branch.projectId}/branches/${branch.id}/databases`;
      return host.request('POST', path, {
        database: { name: `db${action.database}`, owner_name: owner },
      });
    }
    default: {
      const compute = pickCompute(state, action.compute);
      if (compute === undefined) return undefined;
      const path = `/projects/${compute.projectId}/endpoints/${compute.id}`;
      switch (action.kind) {
        case 'resize':
          return host.request('PATCH', path, {
            endpoint: {
              autoscaling_limit_min_cu: action.minCu,
              autoscaling_limit_max_cu: action.maxCu,
            },
          });
        case 'setSuspendTimeout':
          return host.request('PATCH', path, {
            endpoint: { suspend_timeout_seconds: action.seconds },
          });
        case 'deleteCompute':
          return host.request('DELETE', path);
        default:
          return host.request('POST', `${path}/${action.kind}`);
      }
    }
  }
}

/**
 * The `index`-th branch (wrapping around), counting every project's branches in the order they were
 * created, with its project and first role; undefined when there is none. Found by counting, so a
 * step builds no list of every branch.
 */
function pickBranch(
  state: SimState,
  index: number,
): { id: string; projectId: string; firstRole: string | undefined } | undefined {
  const found = nth(state, index, (p) => p.branches);
  if (found === undefined) return undefined;
  const branch = found.project.branches[
    found.id
  ] as SimState['projects'][string]['branches'][string];
  return { id: branch.id, projectId: found.project.id, firstRole: branch.roles[0]?.name };
}

/** The `index`-th compute (wrapping around), counted as `pickBranch` counts branches. */
function pickCompute(
  state: SimState,
  index: number,
): { id: string; projectId: string } | undefined {
  const found = nth(state, index, (p) => p.endpoints);
  return found === undefined ? undefined : { id: found.id, projectId: found.project.id };
}

type Project = SimState['projects'][string];

/** The key of the `index % count`-th record of `records` over all projects in order, with its project. */
function nth(
  state: SimState,
  index: number,
  records: (project: Project) => object,
): { project: Project; id: string } | undefined {
  const projects = Object.values(state.projects);
  let count = 0;
  for (const project of projects) count += Object.keys(records(project)).length;
  if (count === 0) return undefined;
  let rest = index % count;
  for (const project of projects) {
    const ids = Object.keys(records(project));
    if (rest < ids.length) return { project, id: ids[rest] as string };
    rest -= ids.length;
  }
  return undefined;
}

function pick<T>(items: readonly T[], index: number): T | undefined {
  return items.length === 0 ? undefined : items[index % items.length];
}
