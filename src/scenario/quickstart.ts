/**
 * The quickstart demo: create a project, poll its operations every 5 seconds of virtual time until
 * they finish, then leave the compute alone and watch it scale to zero after 5 minutes.
 */
import { formatInstant } from '../core/instant.js';
import { Simulation } from '../engine/simulation.js';
import type { SimEvent } from '../model/events.js';
import { createNarrator } from '../report/narrator.js';
import { timelineLine } from '../report/timelineLine.js';

interface OperationJson {
  readonly id: string;
  readonly action: string;
  readonly status: string;
}

/** Runs the quickstart and returns the narrated lines (the CLI and a golden test print them). */
export function quickstart(seed = 42): string[] {
  const lines: string[] = [];
  const sim = new Simulation({ seed, start: '2026-01-05T09:00:00Z' });
  const start = sim.now();
  const say = (text: string) => lines.push(timelineLine(sim.now(), start, text));
  const narrate = createNarrator();
  sim.events$.subscribe((event: SimEvent) => {
    const text = narrate(event);
    if (text !== undefined) lines.push(timelineLine(event.at, start, `  · ${text}`));
  });

  lines.push(`computesim quickstart, seed ${seed}, virtual start ${formatInstant(start)}`);
  say('POST /projects {"project":{"name":"quickstart"}}');
  const created = sim.request('POST', '/projects', { project: { name: 'quickstart' } });
  const body = created.body as {
    project: { id: string };
    endpoints: { id: string }[];
    operations: OperationJson[];
  };
  say(
    `→ ${created.status}: project ${body.project.id}, ${body.operations.length} operations to wait for`,
  );

  const projectId = body.project.id;
  let pending = body.operations.map((o) => o.id);
  while (pending.length > 0) {
    sim.advance('5s');
    const statuses = pending.map((id) => {
      const polled = sim.request('GET', `/projects/${projectId}/operations/${id}`).body as {
        operation: OperationJson;
      };
      return polled.operation;
    });
    say(`poll: ${statuses.map((o) => `${o.action}=${o.status}`).join(', ')}`);
    pending = statuses.filter((o) => o.status !== 'finished').map((o) => o.id);
  }

  const endpointId = (body.endpoints[0] as { id: string }).id;
  const state = () =>
    (
      sim.request('GET', `/projects/${projectId}/endpoints/${endpointId}`).body as {
        endpoint: { current_state: string };
      }
    ).endpoint.current_state;
  say(
    `all operations finished; compute ${endpointId} is ${state()}. Nobody connects for 6 minutes…`,
  );
  sim.advance('6m');
  say(`compute ${endpointId} is ${state()}: scaled to zero after the default 5-minute timeout`);
  const replayed = Simulation.replay(sim.log);
  const same =
    JSON.stringify(replayed.state) === JSON.stringify(sim.state) && replayed.now() === sim.now();
  lines.push(
    `${sim.log.length} events in the log; replaying it gives the same state and time: ${same}`,
  );
  return lines;
}
