/**
 * API keys through the API: a created key works at once and its secret is shown once, drawn from
 * the seed; the list never shows secrets; a revoked key gets 401; keys survive replay of the log;
 * only a personal key may manage keys or read the user.
 */
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../src/index.js';
import { immerFold } from '../support/immerFold.js';

/** A simulation that requires keys, with the personal key `k1`. */
function givenASimulationWithKeys(seed = 5) {
  const sim = new Simulation({ seed });
  sim.addApiKey({ kind: 'personal', key: 'k1' });
  const as = (apiKey: string | undefined, method: string, path: string, body?: unknown) =>
    sim.request(method, path, body, apiKey === undefined ? {} : { apiKey });
  return { sim, as };
}

describe('creating an API key', () => {
  it('answers with its secret once, and the secret works at once', () => {
    // Given a simulation that requires keys
    const { as } = givenASimulationWithKeys();
    // When a key is created
    const created = as('k1', 'POST', '/api_keys', { key_name: 'ci' });
    // Then the answer carries its id, name and a 64-character secret
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ id: expect.any(Number), name: 'ci' });
    expect(created.body.key).toMatch(/^[a-z0-9]{64}$/);
    // And the secret is accepted at once, for any route a personal key may use
    expect(as(created.body.key, 'GET', '/projects').status).toBe(200);
    expect(as(created.body.key, 'POST', '/projects', { project: {} }).status).toBe(201);
    expect(as(created.body.key, 'GET', '/users/me').status).toBe(200);
    // And the list shows it without its secret
    const listed = as('k1', 'GET', '/api_keys');
    expect(listed.body).toEqual([expect.objectContaining({ id: created.body.id, name: 'ci' })]);
    expect(JSON.stringify(listed.body)).not.toContain(created.body.key);
  });

  it('draws secrets from the seed: the same run gives the same secrets, another seed others', () => {
    const secrets = (seed: number) => {
      const { as } = givenASimulationWithKeys(seed);
      return [1, 2].map(() => as('k1', 'POST', '/api_keys', { key_name: 'x' }).body.key as string);
    };
    const first = secrets(5);
    expect(secrets(5)).toEqual(first);
    expect(first[0]).not.toBe(first[1]);
    expect(secrets(6)[0]).not.toBe(first[0]);
  });

  it('refuses a body without a usable key_name, and changes nothing', () => {
    const { sim, as } = givenASimulationWithKeys();
    const before = sim.toJSONL();
    for (const body of [undefined, {}, { key_name: 7 }, { key_name: 'x'.repeat(65) }, [1]]) {
      const response = as('k1', 'POST', '/api_keys', body);
      expect(response.status).toBe(400);
      expect(response.body.message).toMatch(
        /key_name|JSON object|body: is required|must be object/,
      );
    }
    expect(sim.toJSONL()).toBe(before);
  });

  it('switches authentication on in a simulation that had no keys', () => {
    const sim = new Simulation({ seed: 5 });
    expect(sim.request('GET', '/projects').status).toBe(200);
    const key = sim.request('POST', '/api_keys', { key_name: 'first' }).body.key as string;
    expect(sim.request('GET', '/projects').status).toBe(401);
    expect(sim.request('GET', '/projects', undefined, { apiKey: key }).status).toBe(200);
  });
});

describe('revoking an API key', () => {
  it('makes the key get 401 while other keys keep working', () => {
    // Given two created keys
    const { as } = givenASimulationWithKeys();
    const a = as('k1', 'POST', '/api_keys', { key_name: 'a' }).body;
    const b = as('k1', 'POST', '/api_keys', { key_name: 'b' }).body;
    // When one is revoked with the other
    const revoked = as(b.key, 'DELETE', `/api_keys/${a.id}`);
    // Then the answer says so, and the revoked key is refused from then on
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: a.id, name: 'a', revoked: true });
    expect(as(a.key, 'GET', '/projects')).toMatchObject({
      status: 401,
      body: { code: '', message: expect.stringMatching(/key/) },
    });
    expect(as(b.key, 'GET', '/projects').status).toBe(200);
    // And the list no longer shows it
    expect(as('k1', 'GET', '/api_keys').body.map((k: { id: number }) => k.id)).toEqual([b.id]);
  });

  it('answers 404 for an unknown or already revoked key and 400 for an id that is not a number', () => {
    const { as } = givenASimulationWithKeys();
    const a = as('k1', 'POST', '/api_keys', { key_name: 'a' }).body;
    expect(as('k1', 'DELETE', `/api_keys/${a.id}`).status).toBe(200);
    expect(as('k1', 'DELETE', `/api_keys/${a.id}`).status).toBe(404);
    expect(as('k1', 'DELETE', '/api_keys/999').status).toBe(404);
    expect(as('k1', 'DELETE', '/api_keys/abc').status).toBe(400);
  });
});

describe('keys created through the API', () => {
  it('survive replay of the log: the created key works, the revoked one gets 401', () => {
    // Given a created key and a created-then-revoked key
    const { sim, as } = givenASimulationWithKeys();
    const kept = as('k1', 'POST', '/api_keys', { key_name: 'kept' }).body;
    const gone = as('k1', 'POST', '/api_keys', { key_name: 'gone' }).body;
    as('k1', 'DELETE', `/api_keys/${gone.id}`);
    // When the simulation is rebuilt from its log (the configured key is not in the log)
    const replayed = Simulation.fromJSONL(sim.toJSONL()).simulation;
    // Then the created key works and the revoked one is refused, even with no key configured
    const as2 = (apiKey: string) => replayed.request('GET', '/projects', undefined, { apiKey });
    expect(as2(kept.key).status).toBe(200);
    expect(as2(gone.key).status).toBe(401);
    expect(replayed.knowsApiKey(kept.key)).toBe(true);
    expect(replayed.knowsApiKey(gone.key)).toBe(false);
    expect(replayed.request('GET', '/api_keys', undefined, { apiKey: kept.key }).body).toEqual(
      sim.request('GET', '/api_keys', undefined, { apiKey: 'k1' }).body,
    );
    // And the state of the keys is a plain fold of the log, live and replayed alike
    expect(replayed.state).toEqual(sim.state);
    expect(sim.state).toEqual(immerFold(sim.log));
  });
});

describe('what each kind of key may do with users and keys', () => {
  it.each([
    ['organization', '/users/me', 'GET', 403],
    ['organization', '/api_keys', 'GET', 403],
    ['organization', '/api_keys', 'POST', 403],
    ['organization', '/users/me/organizations', 'GET', 200],
    ['project', '/users/me', 'GET', 403],
    ['project', '/api_keys', 'POST', 403],
    ['project', '/api_keys/1', 'DELETE', 403],
    ['project', '/users/me/organizations', 'GET', 200],
    ['personal', '/users/me', 'GET', 200],
    ['personal', '/api_keys', 'GET', 200],
  ] as const)('a %s key: %s %s → %d', (kind, path, method, status) => {
    const { sim, as } = givenASimulationWithKeys();
    as('k1', 'POST', '/api_keys', { key_name: 'one' });
    const project = as('k1', 'POST', '/projects', { project: {} }).body.project.id as string;
    const key = sim.addApiKey(
      kind === 'project' ? { kind, projectId: project } : { kind: kind as 'organization' },
    );
    const response = as(key, method, path, method === 'POST' ? { key_name: 'x' } : undefined);
    expect(response.status).toBe(status);
  });
});
