/**
 * A bounded load on loopback: concurrent clients mixing reads and writes (creates, polls, resizes,
 * clock moves, deletes) get no 5xx, and every operation a response announced is in the state, once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Simulation } from '../../src/index.js';
import { SimServer } from '../../src/http/simServer.js';

const KEY = 'load-key';
const CLIENTS = 8;
const ROUNDS = 15;
let server: SimServer;
let base: string;

beforeAll(async () => {
  server = new SimServer(new Simulation({ seed: 5 }), {
    keys: [{ key: KEY, kind: 'personal' }],
    clock: { name: 'manual', rate: 0 },
  });
  base = await server.listen(0);
});
afterAll(() => server.close());

async function call(method: string, path: string, body?: unknown) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

describe('load over HTTP', () => {
  it('serves concurrent clients without a 5xx, losing or repeating no operation', async () => {
    const statuses = new Map<number, number>();
    const announced: { projectId: string; id: string }[] = [];
    const deleted = new Set<string>();
    const note = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
    const client = async (n: number) => {
      const created = await call('POST', '/projects', { project: { name: `load-${n}` } });
      note(created.status);
      const projectId: string = created.body.project.id;
      const endpointId: string = created.body.endpoints[0].id;
      for (const op of created.body.operations) announced.push({ projectId, id: op.id });
      for (let round = 0; round < ROUNDS; round++) {
        const step = (n + round) % 5;
        const response =
          step === 0
            ? await call('POST', '/_sim/advance', { by: '2s' })
            : step === 1
              ? await call('PATCH', `/projects/${projectId}/endpoints/${endpointId}`, {
                  endpoint: { suspend_timeout_seconds: 60 + round },
                })
              : step === 2
                ? await call('GET', `/projects/${projectId}/operations?limit=5`)
                : step === 3
                  ? await call('POST', `/projects/${projectId}/endpoints/${endpointId}/restart`)
                  : await call('GET', `/projects/${projectId}/endpoints/${endpointId}`);
        note(response.status);
        if ((step === 1 || step === 3) && response.status === 200)
          for (const op of response.body.operations) announced.push({ projectId, id: op.id });
      }
      if (n % 2 === 0) {
        const removed = await call('DELETE', `/projects/${projectId}`);
        note(removed.status);
        if (removed.status === 200) deleted.add(projectId);
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, (_, n) => client(n)));

    const serverErrors = [...statuses].filter(([status]) => status >= 500);
    expect(serverErrors).toEqual([]);
    expect(statuses.get(200)).toBeGreaterThan(CLIENTS * ROUNDS * 0.5);
    expect(new Set(announced.map((o) => o.id)).size).toBe(announced.length);
    const state = server.sim.state;
    const lost = announced.filter(
      (o) =>
        !deleted.has(o.projectId) && state.projects[o.projectId]?.operations[o.id] === undefined,
    );
    expect(lost).toEqual([]);
    for (const projectId of deleted) expect(state.projects[projectId]).toBeUndefined();
  }, 60_000);
});
