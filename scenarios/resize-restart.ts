/**
 * Resize restart: create a project, wait for its operations by polling every 5 s of virtual time,
 * connect a client, then resize the compute to a fixed 1 CU. A size change restarts the compute
 * (apply_config, suspend_compute, start_compute): the client is dropped with 57P01, and a new client
 * gets in once the compute is back.
 *
 * Run: npm start -- run scenarios/resize-restart.ts
 */
import { defineScenario } from '../src/index.js';

export default defineScenario({
  name: 'resize-restart',
  description: 'a resize restarts the compute and drops its clients',
  seed: 7,
  start: '2026-01-05T09:00:00Z',
  script(s) {
    const { project, endpoints, operations } = s.request('POST', '/projects', {
      project: { name: 'shop' },
    }).body;
    const endpointId: string = endpoints[0].id;
    const compute = () => s.state.projects[project.id]?.endpoints[endpointId];

    s.waitFor(operations, () => {
      const client = s.connect(endpointId);
      s.expect('the first client', client.state, 'open');
      const resized = s.request('PATCH', `/projects/${project.id}/endpoints/${endpointId}`, {
        endpoint: { autoscaling_limit_min_cu: 1, autoscaling_limit_max_cu: 1 },
      });
      s.note('a size change restarts the compute: its clients are dropped');
      s.waitFor(resized.body.operations, () => {
        s.expect('the first client after the restart', client.state, 'dropped');
        s.expect('why it was dropped', client.error?.sqlstate, '57P01');
        s.expect('compute size (min, max CU)', [compute()?.minCu, compute()?.maxCu], [1, 1]);
        s.expect('a new client', s.connect(endpointId).state, 'open');
      });
    });
  },
});
