/**
 * The current user and its organizations: one simulated account, the same in every simulation, that
 * owns every project and every API key.
 */
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../src/index.js';

describe('GET /users/me', () => {
  it('describes the one simulated user, the same whatever the seed', () => {
    // Given two simulations with different seeds
    const [a, b] = [new Simulation({ seed: 1 }), new Simulation({ seed: 99 })];
    // When each is asked for the current user
    const me = a.request('GET', '/users/me');
    // Then it is a user with an email, a name and limits, and the same in both
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      id: expect.any(String),
      email: expect.stringContaining('@'),
      name: expect.any(String),
      projects_limit: expect.any(Number),
      auth_accounts: [expect.objectContaining({ email: me.body.email })],
    });
    expect(b.request('GET', '/users/me').body).toEqual(me.body);
  });

  it('is the owner of projects and the creator of API keys', () => {
    const sim = new Simulation({ seed: 3 });
    const me = sim.request('GET', '/users/me').body;
    const project = sim.request('POST', '/projects', { project: {} }).body.project;
    expect(project.owner_id).toBe(me.id);
    const key = sim.request('POST', '/api_keys', { key_name: 'mine' }).body;
    expect(key.created_by).toBe(me.id);
    const listed = sim.request('GET', '/api_keys', undefined, { apiKey: key.key }).body;
    expect(listed[0].created_by).toMatchObject({ id: me.id, name: me.name });
  });
});

describe('GET /users/me/organizations', () => {
  it('lists the one organization of the simulated account', () => {
    const sim = new Simulation({ seed: 3 });
    const { organizations } = sim.request('GET', '/users/me/organizations').body;
    expect(organizations).toHaveLength(1);
    expect(organizations[0]).toMatchObject({ id: expect.stringMatching(/^[a-z0-9-]{1,60}$/) });
    // The history of another organization is 404, of this one 200.
    const history = (org: string) =>
      sim.request(
        'GET',
        `/consumption_history/projects?from=2026-01-05T00:00:00Z&to=2026-01-05T01:00:00Z&granularity=hourly&org_id=${org}`,
      ).status;
    expect(history(organizations[0].id)).toBe(200);
    expect(history('org-another-1')).toBe(404);
  });
});
