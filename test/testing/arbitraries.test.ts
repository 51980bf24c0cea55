import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createDatabaseBody,
  createEndpointBody,
  createProjectBody,
  createRoleBody,
  invalidCreateDatabaseBody,
  invalidCreateRoleBody,
  faultProfile,
  faultProfileProblem,
  invalidCreateProjectBody,
  invalidUpdateEndpointBody,
  updateEndpointBody,
  withFaults,
  workload,
} from '../../src/testing/index.js';
import { Simulation } from '../../src/index.js';
import { givenProject } from '../support/given.js';

const world = givenProject({ seed: 21 });

describe('body arbitraries', () => {
  it('valid create-project bodies are accepted', () => {
    fc.assert(
      fc.property(createProjectBody(), (body) => {
        const sim = new Simulation({ seed: 1 });
        const answer = sim.request('POST', '/projects', body);
        expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      }),
      { numRuns: 60 },
    );
  });

  it('invalid create-project bodies are refused with {code, message} and change nothing', () => {
    fc.assert(
      fc.property(invalidCreateProjectBody(), (body) => {
        const sim = new Simulation({ seed: 1 });
        const before = sim.state;
        const logged = sim.log.length;
        const answer = sim.request('POST', '/projects', body);
        expect(answer.status).toBeGreaterThanOrEqual(400);
        expect(answer.status).toBeLessThan(500);
        expect(answer.body).toMatchObject({
          code: expect.any(String),
          message: expect.any(String),
        });
        expect(sim.state).toBe(before);
        expect(sim.log.length).toBe(logged);
      }),
      { numRuns: 60 },
    );
  });

  it('valid endpoint updates are accepted and invalid ones refused, state unchanged', () => {
    const { sim, path, endpointId, settle } = world;
    fc.assert(
      fc.property(updateEndpointBody(), invalidUpdateEndpointBody(), (good, bad) => {
        const before = sim.state;
        const refused = sim.request('PATCH', path(`/endpoints/${endpointId}`), bad);
        expect(refused.status).toBe(400);
        expect(sim.state).toBe(before);
        const accepted = sim.request('PATCH', path(`/endpoints/${endpointId}`), good);
        expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
        settle();
      }),
      { numRuns: 40 },
    );
  });

  it('valid create-compute bodies are accepted (a read_write only where none is)', () => {
    fc.assert(
      fc.property(createEndpointBody('br-x'), (body) => {
        const { sim, path, branchId, project, settle } = givenProject({ seed: 3 });
        const branchOnly = sim.request('POST', path('/branches'), { branch: { name: 'b' } });
        const freeBranch: string = branchOnly.body.branch.id;
        settle();
        const endpoint = (body as { endpoint: { type: string } }).endpoint;
        const target = endpoint.type === 'read_write' ? freeBranch : branchId;
        const answer = sim.request('POST', path('/endpoints'), {
          endpoint: { ...endpoint, branch_id: target },
        });
        expect(answer.status, JSON.stringify(answer.body)).toBe(201);
        expect(Object.keys(project().endpoints)).toHaveLength(2);
      }),
      { numRuns: 20 },
    );
  });
});

describe('fault and workload arbitraries', () => {
  it('every generated fault profile is valid and builds a simulation', () => {
    fc.assert(
      fc.property(faultProfile(), (faults) => {
        expect(faultProfileProblem(faults)).toBeUndefined();
        expect(() => new Simulation(withFaults({ seed: 1 }, faults))).not.toThrow();
      }),
      { numRuns: 100 },
    );
  });

  it('draws the harsh preset valid too, and only it with errors and operations stuck for days', () => {
    const honest = fc.sample(faultProfile(), { numRuns: 300, seed: 3 });
    const harsh = fc.sample(faultProfile({ preset: 'harsh' }), { numRuns: 300, seed: 3 });
    for (const faults of [...honest, ...harsh]) expect(faultProfileProblem(faults)).toBeUndefined();
    const specs = (profiles: typeof honest) =>
      profiles.flatMap((profile) => Object.values(profile.operations ?? {}));
    // Honest: every operation fault is recovered from, slow starts last a minute at most, 423
    // bursts are three at most.
    for (const spec of specs(honest)) {
      expect(spec.endsInError).toBe(false);
      expect(spec.delayMs?.[1] ?? 0).toBeLessThanOrEqual(60_000);
    }
    for (const profile of honest)
      expect(profile.requests?.locked?.burst?.[1] ?? 0).toBeLessThanOrEqual(3);
    // Harsh: some operations may end in error, some stay scheduling past a day.
    expect(
      specs(harsh).some((spec) => spec.endsInError === undefined && spec.failureRate > 0),
    ).toBe(true);
    expect(specs(harsh).some((spec) => (spec.delayMs?.[0] ?? 0) > 86_400_000)).toBe(true);
  });

  it('every generated workload is accepted and produces sessions', () => {
    fc.assert(
      fc.property(workload(world.endpointId), (spec) => {
        const { sim, endpointId } = givenProject({ seed: 5 });
        const input = { ...spec, endpointId } as typeof spec;
        const logged = sim.log.length;
        expect(() => sim.addWorkload(input)).not.toThrow();
        sim.advance('1d');
        expect(sim.log.length).toBeGreaterThan(logged);
      }),
      { numRuns: 25 },
    );
  });
});

describe('role and database body arbitraries', () => {
  it('valid role and database bodies are accepted on a fresh branch, and can be read back', () => {
    fc.assert(
      fc.property(createRoleBody(), createDatabaseBody('neondb_owner'), (role, database) => {
        const { sim, path, branchId, settle } = givenProject({ seed: 4 });
        const on = (suffix: string) => path(`/branches/${branchId}${suffix}`);
        const created = sim.request('POST', on('/roles'), role);
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        settle();
        const name = created.body.role.name as string;
        expect(sim.request('GET', on(`/roles/${encodeURIComponent(name)}`)).status).toBe(200);
        const db = sim.request('POST', on('/databases'), database);
        expect(db.status, JSON.stringify(db.body)).toBe(201);
        const dbName = db.body.database.name as string;
        expect(sim.request('GET', on(`/databases/${encodeURIComponent(dbName)}`)).status).toBe(200);
      }),
      { numRuns: 30 },
    );
  });

  it('invalid role and database bodies are refused with 400 and change nothing', () => {
    const { sim, path, branchId } = world;
    const on = (suffix: string) => path(`/branches/${branchId}${suffix}`);
    fc.assert(
      fc.property(invalidCreateRoleBody(), invalidCreateDatabaseBody('neondb_owner'), (r, d) => {
        const before = sim.state;
        const logged = sim.log.length;
        expect(sim.request('POST', on('/roles'), r).status).toBe(400);
        expect(sim.request('POST', on('/databases'), d).status).toBe(400);
        expect(sim.state).toBe(before);
        expect(sim.log.length).toBe(logged);
      }),
      { numRuns: 60 },
    );
  });
});
