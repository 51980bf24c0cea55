/**
 * Crash recovery of `serve --state-file` under a mixed write load: the server is killed with SIGKILL
 * at random points two dozen times; after each restart every acknowledged change is there (projects,
 * branches, deletions, the clock) and every project is whole (its default branch and a compute), so
 * no request was ever replayed in part. A deletion the server never answered may have happened or
 * not, and only such a deletion may take away a project the clients were told exists.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { Simulation } from '../../src/index.js';
import {
  killAllServeProcesses,
  SERVE_KEY,
  startServe,
  type ServeProcess,
} from '../support/serveProcess.js';

afterEach(killAllServeProcesses);

const KILLS = 24;

/** What the clients were told succeeded. */
interface Acknowledged {
  readonly projects: Set<string>;
  readonly branches: Map<string, string>; // branch id → project id
  readonly deleted: Set<string>;
  /**
   * Projects whose deletion was sent but never answered (the server was killed meanwhile): it may
   * have been made durable before the kill, or cut with the unfinished request. Either is right;
   * the next restart tells which, and the test goes on from there.
   */
  readonly deleting: Set<string>;
  clockMs: number;
}

/** A deterministic stream of numbers in [0, 1) for the load's choices (the test is reproducible). */
function numbers(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

/** One client: random writes until the server goes away; records what was acknowledged. */
async function client(
  server: ServeProcess,
  acked: Acknowledged,
  next: () => number,
): Promise<void> {
  for (let n = 0; ; n++) {
    const live = [...acked.projects].filter(
      (id) => !acked.deleted.has(id) && !acked.deleting.has(id),
    );
    const pick = next();
    try {
      if (pick < 0.45 || live.length === 0) {
        const created = await server.call('POST', '/projects', { project: { name: `c${n}` } });
        if (created.status === 201) acked.projects.add(created.body?.['project'].id as string);
      } else if (pick < 0.75) {
        const project = live[Math.floor(next() * live.length)] as string;
        const created = await server.call('POST', `/projects/${project}/branches`, {
          endpoints: [{ type: 'read_write' }],
        });
        if (created.status === 201)
          acked.branches.set(created.body?.['branch'].id as string, project);
      } else if (pick < 0.85) {
        const project = live[Math.floor(next() * live.length)] as string;
        acked.deleting.add(project);
        const deleted = await server.call('DELETE', `/projects/${project}`);
        acked.deleting.delete(project);
        if (deleted.status === 200) acked.deleted.add(project);
      } else {
        const by = `${1 + Math.floor(next() * 20)}m`;
        const advanced = await server.call('POST', '/_sim/advance', { by });
        if (advanced.status === 200)
          acked.clockMs = Math.max(acked.clockMs, advanced.body?.['now_ms'] as number);
      }
    } catch {
      return; // the server was killed
    }
  }
}

/**
 * Checks the restarted server against everything acknowledged, on the state its snapshot rebuilds
 * (one request, however many projects), and asks the API for a few of them too. Every project must
 * be whole: one default branch, and a compute.
 */
async function verify(server: ServeProcess, acked: Acknowledged): Promise<void> {
  const clock = await server.call('GET', '/_sim/clock');
  expect(clock.body?.['now_ms']).toBeGreaterThanOrEqual(acked.clockMs);
  const snapshot = await fetch(`${server.base}/_sim/snapshot`, {
    headers: { authorization: `Bearer ${SERVE_KEY}` },
  });
  const { projects } = Simulation.fromJSONL(await snapshot.text()).simulation.state;
  for (const id of acked.deleting) if (projects[id] === undefined) acked.deleted.add(id);
  acked.deleting.clear();
  for (const id of acked.projects)
    expect(projects[id] !== undefined, `project ${id}`).toBe(!acked.deleted.has(id));
  for (const [branch, project] of acked.branches)
    if (!acked.deleted.has(project))
      expect(projects[project]?.branches[branch], `branch ${branch}`).toBeDefined();
  for (const project of Object.values(projects)) {
    const branches = Object.values(project.branches);
    expect(
      branches.filter((b) => b.isDefault),
      `default branch of ${project.id}`,
    ).toHaveLength(1);
    expect(Object.keys(project.endpoints).length, `computes of ${project.id}`).toBeGreaterThan(0);
  }
  for (const id of [...acked.projects].slice(-5))
    expect((await server.call('GET', `/projects/${id}`)).status).toBe(
      acked.deleted.has(id) ? 404 : 200,
    );
}

it(`keeps every acknowledged change and every project whole across ${KILLS} SIGKILLs under load`, async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'computesim-crash-')), 'state.jsonl');
  const acked: Acknowledged = {
    projects: new Set(),
    branches: new Map(),
    deleted: new Set(),
    deleting: new Set(),
    clockMs: 0,
  };
  const next = numbers(21);
  let torn = 0;
  for (let kill = 0; kill < KILLS; kill++) {
    const server = await startServe(['--state-file', file]);
    if (/unfinished request/.test(server.stderr())) torn++;
    await verify(server, acked);
    const load = Promise.all([1, 2].map(() => client(server, acked, next)));
    await new Promise((resolve) => setTimeout(resolve, 80 + Math.floor(next() * 220)));
    await server.kill();
    await load;
  }
  const last = await startServe(['--state-file', file]);
  await verify(last, acked);
  console.log(
    `${KILLS} kills: ${acked.projects.size} projects, ${acked.branches.size} branches, ` +
      `${acked.deleted.size} deletions acknowledged; ${torn} restarts cut an unfinished request`,
  );
  expect(acked.projects.size).toBeGreaterThan(KILLS);
}, 300_000);
