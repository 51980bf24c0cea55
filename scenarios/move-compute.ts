/**
 * Moving a compute to another branch: create a branch without a compute, then point the project's
 * compute at it. The move suspends the compute (apply_config, suspend_compute) and drops its
 * clients; the next client starts it again, now on the new branch.
 *
 * Run: npm start -- run scenarios/move-compute.ts
 */
import { defineScenario } from '../src/index.js';

export default defineScenario({
  name: 'move-compute',
  description:
    'point a compute at another branch: it suspends, and the next client starts it there',
  seed: 12,
  start: '2026-01-05T09:00:00Z',
  script(s) {
    const { project, endpoints, operations } = s.request('POST', '/projects', {
      project: { name: 'mover' },
    }).body;
    const endpointId: string = endpoints[0].id;
    const compute = () => s.state.projects[project.id]?.endpoints[endpointId];

    s.waitFor(operations, () => {
      const created = s.request('POST', `/projects/${project.id}/branches`, {
        branch: { name: 'staging' },
      }).body;
      s.waitFor(created.operations, () => {
        const client = s.connect(endpointId);
        const moved = s.request('PATCH', `/projects/${project.id}/endpoints/${endpointId}`, {
          endpoint: { branch_id: created.branch.id },
        });
        s.expect('moving the compute', moved.status, 200);
        s.waitFor(moved.body.operations, () => {
          s.expect('branch of the compute', compute()?.branchId, created.branch.id);
          s.expect('state of the compute', compute()?.currentState, 'idle');
          s.expect('the client of the old branch', client.state, 'dropped');
          const next = s.connect(endpointId);
          s.at('+5s', () => {
            s.expect('a client of the new branch', next.state, 'open');
            s.expect('state of the compute', compute()?.currentState, 'active');
          });
        });
      });
    });
  },
});
