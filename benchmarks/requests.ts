/**
 * Request benchmark: requests/s of `sim.request` for creating projects, getting one operation and
 * listing operations of a project that has 1,000, beside the engine floor (the (due, seq) typed-array
 * heap on the hold model) measured in the same run.
 *
 * Run: npm run bench -- requests
 */
import { Simulation } from '../src/index.js';
import { floorRun } from './support/floor.js';
import { measure, rate, type Measurement } from './support/measure.js';

const CREATES = 5_000;
const GETS = 200_000;
const LISTS = 20_000;

/** A project with `count` operations (restarts, each waited for). */
function projectWithOperations(count: number): {
  sim: Simulation;
  projectId: string;
  operationId: string;
} {
  const sim = new Simulation({ seed: 1 });
  const created = sim.request('POST', '/projects', { project: {} });
  const projectId: string = created.body.project.id;
  const endpointId: string = created.body.endpoints[0].id;
  const settle = () =>
    sim.runUntil((s) => Object.keys(s.projects[projectId]!.pendingOperations).length === 0);
  settle();
  while (Object.keys(sim.state.projects[projectId]!.operations).length < count) {
    sim.request('POST', `/projects/${projectId}/endpoints/${endpointId}/restart`);
    settle();
  }
  return { sim, projectId, operationId: created.body.operations[0].id };
}

/** Runs the request benchmark; returns whether every request kind answered correctly. */
export function runRequestsBenchmark(): boolean {
  const floor = measure('floor: typed-array heap on (due, seq)', floorRun);
  const world = projectWithOperations(1_000);
  const operations = Object.keys(world.sim.state.projects[world.projectId]!.operations).length;
  let ok = true;
  const rows: Measurement[] = [
    measure(`POST /projects (create a project)`, () => {
      const sim = new Simulation({ seed: 2 });
      for (let i = 0; i < CREATES; i++)
        ok = sim.request('POST', '/projects', { project: {} }).status === 201 && ok;
      return CREATES;
    }),
    measure(`GET one operation (${operations} in the project)`, () => {
      const path = `/projects/${world.projectId}/operations/${world.operationId}`;
      for (let i = 0; i < GETS; i++) ok = world.sim.request('GET', path).status === 200 && ok;
      return GETS;
    }),
    measure(`GET operations, first page of 10 (${operations})`, () => {
      const path = `/projects/${world.projectId}/operations`;
      for (let i = 0; i < LISTS; i++) ok = world.sim.request('GET', path).status === 200 && ok;
      return LISTS;
    }),
    measure(`GET operations?limit=1000 (${operations})`, () => {
      const path = `/projects/${world.projectId}/operations?limit=1000`;
      for (let i = 0; i < LISTS / 20; i++) ok = world.sim.request('GET', path).status === 200 && ok;
      return LISTS / 20;
    }),
  ];
  console.log(
    `\nRequests through sim.request (median of 3), beside the engine floor of the same run`,
  );
  console.log(
    `${'request'.padEnd(46)} ${'count'.padStart(8)} ${'seconds'.padStart(8)} ${'requests/s'.padStart(14)}  per floor event`,
  );
  console.log(
    `${floor.name.padEnd(46)} ${floor.events.toLocaleString('en-US').padStart(8)} ${floor.seconds.toFixed(3).padStart(8)} ${rate(floor.eventsPerSecond).padStart(14)}  1.0000`,
  );
  for (const row of rows) {
    const ratio = row.eventsPerSecond / floor.eventsPerSecond;
    console.log(
      `${row.name.padEnd(46)} ${row.events.toLocaleString('en-US').padStart(8)} ${row.seconds.toFixed(3).padStart(8)} ${rate(row.eventsPerSecond).padStart(14)}  ${ratio.toFixed(4)}`,
    );
  }
  if (!ok) console.log('Some requests did not answer as expected.');
  return ok;
}

if (import.meta.url === `file://${process.argv[1]}`) runRequestsBenchmark();
