/**
 * The project and branch routes of issue #14 over HTTP (the core's `fetch` in process, and a socket):
 * the answers the in-process surface gives, and the reach of a project-scoped key.
 */
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../src/index.js';
import { callJson } from '../support/callJson.js';
import { serveOver, TRANSPORTS } from '../support/transports.js';

describe.each(TRANSPORTS)('project and branch routes over HTTP (%s)', (transport) => {
  it('updates, lists, sets the default, restores and counts like sim.request does', async () => {
    const sim = new Simulation({ seed: 5 });
    const created = sim.request('POST', '/projects', { project: { name: 'wire' } });
    const p: string = created.body.project.id;
    const main: string = created.body.branch.id;
    sim.runUntilIdle();
    const { call } = await serveOver(transport, {}, sim);

    const shared = await call('GET', '/projects/shared');
    expect([shared.status, shared.body]).toEqual([200, { projects: [] }]);
    const found = await call('GET', '/projects?search=WIR');
    expect(found.body.projects.map((x: { id: string }) => x.id)).toEqual([p]);

    const patched = await call('PATCH', `/projects/${p}`, { project: { name: 'renamed' } });
    expect([patched.status, patched.body.project.name]).toEqual([200, 'renamed']);

    const dev = await call('POST', `/projects/${p}/branches`, {
      branch: { name: 'dev' },
      endpoints: [{ type: 'read_write' }],
    });
    const devId: string = dev.body.branch.id;
    await call('POST', '/_sim/run_until_idle');
    const renamed = await call('PATCH', `/projects/${p}/branches/${devId}`, {
      branch: { name: 'feature' },
    });
    expect(renamed.body.branch.name).toBe('feature');
    const reset = await call('POST', `/projects/${p}/branches/${devId}/restore`, {
      source_branch_id: main,
    });
    expect(reset.status).toBe(200);
    expect(reset.body.branch.last_reset_at).toEqual(expect.any(String));
    expect(reset.body.operations.map((o: { action: string }) => o.action)).toContain(
      'create_timeline',
    );
    await call('POST', '/_sim/run_until_idle');
    const made = await call('POST', `/projects/${p}/branches/${devId}/set_as_default`);
    expect(made.body.branch.default).toBe(true);
    expect((await call('GET', `/projects/${p}/branches/count`)).body).toEqual({ count: 2 });
    const endpoints = await call('GET', `/projects/${p}/branches/${devId}/endpoints`);
    expect(endpoints.body.endpoints).toHaveLength(1);
  });

  it("lets a project-scoped key change its project's branches and nothing of another project", async () => {
    const sim = new Simulation({ seed: 6 });
    const a: string = sim.request('POST', '/projects', { project: { name: 'a' } }).body.project.id;
    const b = sim.request('POST', '/projects', { project: { name: 'b' } }).body;
    sim.runUntilIdle();
    const { send, base } = await serveOver(
      transport,
      { keys: [{ key: 'scoped', kind: 'project', projectId: a }] },
      sim,
    );
    const scoped = (method: string, path: string, body?: unknown) =>
      callJson(send, base, 'scoped', method, path, body);
    expect((await scoped('PATCH', `/projects/${a}`, { project: { name: 'mine' } })).status).toBe(
      200,
    );
    expect((await scoped('GET', '/projects/shared')).body).toEqual({ projects: [] });
    const other = `/projects/${b.project.id}`;
    expect((await scoped('PATCH', other, { project: { name: 'theirs' } })).status).toBe(404);
    const restore = await scoped('POST', `${other}/branches/${b.branch.id}/restore`, {
      source_branch_id: b.branch.id,
    });
    expect(restore.status).toBe(404);
    expect(sim.state.projects[b.project.id]!.name).toBe('b');
  });
});
