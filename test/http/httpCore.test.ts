/**
 * The HTTP core in process: `fetchHandler(sim)` answers a `Request` as `sim.request` does and as the server
 * does over a socket, and the core imports nothing of node, so it runs in any runtime with `fetch`.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../src/index.js';
import { fetchHandler } from '../../src/entries/serve.js';

const ORIGIN = 'http://any.origin';

describe('fetchHandler(sim)', () => {
  it('answers a Request exactly as sim.request answers, with Date in virtual time', async () => {
    const sim = new Simulation({ seed: 5 });
    const created = await fetchHandler(sim)(
      new Request(`${ORIGIN}/api/v2/projects`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-request-id': 'r-1' },
        body: JSON.stringify({ project: { name: 'web' } }),
      }),
    );
    expect(created.status).toBe(201);
    expect(created.headers.get('date')).toBe(new Date(sim.now()).toUTCString());
    expect(created.headers.get('x-request-id')).toBe('r-1');
    const { project } = (await created.json()) as { project: { id: string } };
    const overFetch = await fetchHandler(sim)(
      new Request(`${ORIGIN}/api/v2/projects/${project.id}`),
    );
    expect(await overFetch.json()).toEqual(sim.request('GET', `/projects/${project.id}`).body);
  });

  it('serves the control routes but reset (a simulation cannot replace itself)', async () => {
    const sim = new Simulation({ seed: 5 });
    const start = sim.now();
    const post = (path: string, body: unknown) =>
      fetchHandler(sim)(
        new Request(`${ORIGIN}/api/v2/_sim/${path}`, {
          method: 'POST',
          body: JSON.stringify(body),
        }),
      );
    const advanced = await post('advance', { by: '1m' });
    expect(advanced.status).toBe(200);
    expect(sim.now()).toBe(start + 60_000);
    const reset = await post('reset', { seed: 2 });
    expect(reset.status).toBe(501);
    expect(await reset.json()).toMatchObject({ code: 'not_implemented' });
    const snapshot = await fetchHandler(sim)(new Request(`${ORIGIN}/api/v2/_sim/snapshot`));
    expect(snapshot.headers.get('content-type')).toBe('application/x-ndjson');
    expect(Simulation.fromJSONL(await snapshot.text()).simulation.state).toEqual(sim.state);
  });

  it('checks the simulation’s own keys, and keeps project keys away from the controls', async () => {
    const sim = new Simulation({ seed: 5 });
    const project = sim.request('POST', '/projects', { project: {} }).body.project.id as string;
    const scoped = sim.addApiKey({ kind: 'project', projectId: project });
    const get = async (path: string, key?: string) =>
      (
        await fetchHandler(sim)(
          new Request(`${ORIGIN}/api/v2${path}`, {
            headers: key === undefined ? {} : { authorization: `Bearer ${key}` },
          }),
        )
      ).status;
    expect(await get('/projects')).toBe(401);
    expect(await get(`/projects/${project}`, scoped)).toBe(200);
    expect(await get('/_sim/clock', scoped)).toBe(403);
    expect(await get('/_sim/clock')).toBe(401);
  });
});

describe('the HTTP core', () => {
  it('imports nothing of node (the node adapter injects the state file, wall clock, memory check)', () => {
    const root = join(dirname(fileURLToPath(import.meta.url)), '../../src');
    const seen = new Set<string>();
    const nodeImports: string[] = [];
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(file, 'utf8');
      for (const [, type, spec] of text.matchAll(/^import (type )?[^;]*?from '([^']+)';/gms)) {
        if (type !== undefined || spec === undefined) continue; // erased at runtime
        if (spec.startsWith('.')) visit(join(dirname(file), spec.replace(/\.js$/, '.ts')));
        else if (spec.startsWith('node:') || !spec.includes('/'))
          nodeImports.push(`${file}: ${spec}`);
      }
    };
    visit(join(root, 'service/httpCore.ts'));
    expect(seen.size).toBeGreaterThan(20); // the walk follows the route table into the model
    expect(seen.has(join(root, 'http/simServer.ts'))).toBe(false);
    expect(nodeImports.filter((line) => line.includes('node:'))).toEqual([]);
  });
});
