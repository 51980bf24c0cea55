/**
 * The quickstart scenario: create a project, poll its operations every 5 seconds of virtual time
 * until they finish, then leave the compute alone and watch it scale to zero after 5 minutes.
 * Built in (the `demo` command and `npm start` run it); scenarios/quickstart.ts shows it too.
 */
import { Simulation } from '../simulation/simulation.js';
import { defineScenario } from './scenario.js';
import type { OperationRef } from './scenarioScript.js';

/** The quickstart scenario. */
export const quickstartScenario = defineScenario({
  name: 'quickstart',
  description: 'create a project, poll its operations every 5 s, watch the compute scale to zero',
  seed: 42,
  start: '2026-01-05T09:00:00Z',
  script(s) {
    const created = s.request<{
      project: { id: string };
      endpoints: { id: string }[];
      operations: OperationRef[];
    }>('POST', '/projects', { project: { name: 'quickstart' } });
    const { project, endpoints, operations } = created.body;
    const endpointId = (endpoints[0] as { id: string }).id;
    const state = () => s.state.projects[project.id]?.endpoints[endpointId]?.currentState;

    s.waitFor(operations, () => {
      s.expect(`state of compute ${endpointId}`, state(), 'active');
      s.note('all operations finished. Nobody connects for 6 minutes…');
      s.at('+6m', () => {
        s.expect(`state of compute ${endpointId}`, state(), 'idle');
        s.note('scaled to zero after the default 5-minute suspend timeout');
        const replayed = Simulation.replay(s.sim.log);
        s.expect(
          `replaying the ${s.sim.log.length} logged events gives the same state`,
          JSON.stringify(replayed.state) === JSON.stringify(s.state),
          true,
        );
      });
    });
  },
});
