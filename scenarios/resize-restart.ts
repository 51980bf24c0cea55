/**
 * Worked example: create a project, wait for its operations by polling every 5 s of virtual time,
 * connect a client, resize the compute and watch the restart drop the connection.
 *
 * Run: npx tsx scenarios/resize-restart.ts
 */
import { Simulation } from '../src/index.js';

const sim = new Simulation({ seed: 7, start: '2026-01-05T09:00:00Z' });
const say = (text: string) =>
  console.log(`${new Date(sim.now()).toISOString().slice(11, 23)}  ${text}`);

const { project, endpoints, operations } = sim.request('POST', '/projects', {
  project: { name: 'shop' },
}).body;
const endpointPath = `/projects/${project.id}/endpoints/${endpoints[0].id}`;
say(
  `created ${project.id}; waiting for ${operations.map((o: { action: string }) => o.action).join(' then ')}`,
);

/** Polls each operation every 5 s until it has finished, as the spec tells clients to. */
function waitFor(ops: readonly { id: string }[]): void {
  for (const op of ops) {
    for (;;) {
      const { operation } = sim.request('GET', `/projects/${project.id}/operations/${op.id}`).body;
      if (operation.status === 'finished') break;
      if (operation.status === 'error' || operation.status === 'cancelled')
        throw new Error(`${operation.action}: ${operation.status}`);
      sim.advance('5s');
    }
  }
}

waitFor(operations);
say(`ready: compute is ${sim.request('GET', endpointPath).body.endpoint.current_state}`);
const client = sim.connect(endpoints[0].id);
say(`a client connects: ${client.state}`);

const resized = sim.request('PATCH', endpointPath, {
  endpoint: { autoscaling_limit_min_cu: 1, autoscaling_limit_max_cu: 1 },
});
say(
  `PATCH size 1 CU → ${resized.status}: ${resized.body.operations.map((o: { action: string; status: string }) => `${o.action} (${o.status})`).join(', ')}`,
);
waitFor(resized.body.operations);
say(
  `the restart dropped the client: ${client.state}, ${client.error?.sqlstate} ${client.error?.message}`,
);
const { endpoint } = sim.request('GET', endpointPath).body;
say(
  `compute is ${endpoint.current_state} at ${endpoint.autoscaling_limit_max_cu} CU; a new client is ${sim.connect(endpoints[0].id).state}`,
);
