/**
 * Request bodies checked as the real service checks them (fidelity.md, audit 2026-11-23): a new
 * compute says its type; a compute lives in its project's region; a project's region is one the
 * service has. Each case is given / when / then.
 */
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../src/index.js';
import { givenProject } from '../support/given.js';

describe('a new compute', () => {
  it('needs its type, on its own and with a branch', () => {
    // given a settled project
    const { sim, path, branchId } = givenProject();
    const before = sim.state;
    // when a compute is asked for without a type, on its own or with a new branch
    const alone = sim.request('POST', path('/endpoints'), { endpoint: { branch_id: branchId } });
    const withBranch = sim.request('POST', path('/branches'), { endpoints: [{}] });
    // then both are refused, saying which field is missing, and nothing changes
    expect(alone).toMatchObject({
      status: 400,
      body: { message: expect.stringMatching(/endpoint\.type:? is required/) },
    });
    expect(withBranch).toMatchObject({
      status: 400,
      body: { message: expect.stringMatching(/type:? is required/) },
    });
    expect(sim.state).toBe(before);
  });

  it('lives in its project’s region', () => {
    // given a settled project in the profile's region
    const { sim, path, branchId, project } = givenProject();
    // when a compute is asked for in another region, then it is refused
    const elsewhere = sim.request('POST', path('/endpoints'), {
      endpoint: { branch_id: branchId, type: 'read_only', region_id: 'aws-eu-central-1' },
    });
    expect(elsewhere).toMatchObject({
      status: 400,
      body: { message: expect.stringMatching(/region_id must be the project's region/) },
    });
    // and in the project's own region it is created
    const here = sim.request('POST', path('/endpoints'), {
      endpoint: { branch_id: branchId, type: 'read_only', region_id: project().regionId },
    });
    expect(here.status).toBe(201);
  });
});

describe('a new project', () => {
  it('is refused in a region the service does not have, and accepted in one it has', () => {
    // given a simulation
    const sim = new Simulation();
    // when projects are asked for in an unknown and in a known region
    const unknown = sim.request('POST', '/projects', { project: { region_id: 'aws-mars-1' } });
    const known = sim.request('POST', '/projects', { project: { region_id: 'aws-eu-central-1' } });
    // then the unknown one is refused, naming the region, and the known one is created there
    expect(unknown).toMatchObject({
      status: 400,
      body: { message: expect.stringMatching(/unknown region "aws-mars-1"/) },
    });
    expect(known.status).toBe(201);
    expect(known.body.project.region_id).toBe('aws-eu-central-1');
  });

  it('may be created in the profile’s own region even when the service has no such region', () => {
    const sim = new Simulation({ profile: { regionId: 'lab-local-1' } });
    const created = sim.request('POST', '/projects', { project: { region_id: 'lab-local-1' } });
    expect(created.status).toBe(201);
  });
});

describe('a 404', () => {
  it('reads as the real service writes it, without the id, which goes in detail', () => {
    // given a settled project with the real service's error codes, and one with computesim's
    const { sim, path, branchId } = givenProject();
    const own = givenProject({ profile: { errorCodes: 'computesim' } });
    // when a client names a project, branch, compute, operation, role and database that do not exist
    const missing = {
      project: sim.request('GET', '/projects/no-such-project'),
      branch: sim.request('GET', path('/branches/br-none')),
      endpoint: sim.request('GET', path('/endpoints/ep-none')),
      operation: sim.request('GET', path('/operations/00000000-0000-4000-8000-000000000000')),
      role: sim.request('GET', path(`/branches/${branchId}/roles/nobody`)),
      database: sim.request('GET', path(`/branches/${branchId}/databases/nothing`)),
    };
    // then each message is `<object> not found` with the empty code, and detail names the id
    for (const [what, response] of Object.entries(missing)) {
      expect(response, what).toMatchObject({
        status: 404,
        body: { code: '', message: `${what} not found`, detail: expect.stringContaining(what) },
      });
    }
    expect(missing.branch.body.detail).toBe('branch "br-none"');
    // and with errorCodes: 'computesim' the same message carries computesim's code
    expect(own.sim.request('GET', own.path('/branches/br-none'))).toMatchObject({
      status: 404,
      body: { code: 'not_found', message: 'branch not found' },
    });
  });
});
