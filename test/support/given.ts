/**
 * Given-helpers for control-plane tests: a simulation with a project whose operations have settled,
 * and shorthands for its compute and operations.
 */
import { Simulation, type SimulationOptions } from '../../src/index.js';
import { asOverrides } from '../../src/domain/profile.js';

/**
 * A project created and settled (its compute active), with shorthands. Ended operations are kept
 * (`operationRetentionMs: 0`) unless the profile says otherwise, so tests can read a run's history.
 */
export function givenProject(options: SimulationOptions = {}) {
  const sim = new Simulation({
    seed: 11,
    ...options,
    profile: { operationRetentionMs: 0, ...asOverrides(options.profile) },
  });
  const created = sim.request('POST', '/projects', { project: { name: 'given' } });
  if (created.status !== 201)
    throw new Error(`project not created: ${JSON.stringify(created.body)}`);
  const projectId: string = created.body.project.id;
  const branchId: string = created.body.branch.id;
  const endpointId: string = created.body.endpoints[0].id;
  const project = () => sim.state.projects[projectId]!;
  const endpoint = (id = endpointId) => project().endpoints[id]!;
  const settle = () =>
    sim.runUntil((s) => Object.keys(s.projects[projectId]?.pendingOperations ?? {}).length === 0, {
      stepLimit: 100_000,
    });
  const path = (suffix = '') => `/projects/${projectId}${suffix}`;
  settle();
  return { sim, projectId, branchId, endpointId, project, endpoint, settle, path };
}
