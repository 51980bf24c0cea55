import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../src/index.js';

describe('request errors', () => {
  // computesim's own error codes, which tests may ask for (the default is the real service's).
  const sim = new Simulation({ profile: { errorCodes: 'computesim' } });
  const projectId = (
    sim.request('POST', '/projects', { project: {} }).body as { project: { id: string } }
  ).project.id;

  it.each([
    ['GET', '/projects/nope', 404, 'not_found'],
    ['GET', `/projects/${'x'}/operations`, 404, 'not_found'],
    ['GET', '/projects/PROJECT/operations/00000000-0000-4000-8000-000000000000', 404, 'not_found'],
    ['GET', '/projects/PROJECT/endpoints/ep-none', 404, 'not_found'],
    ['GET', '/no/such/route', 404, 'not_found'],
    ['DELETE', '/projects', 405, 'method_not_allowed'],
    ['BREW', '/projects', 405, 'method_not_allowed'],
  ])('%s %s gives %d %s', (method, path, status, code) => {
    const response = sim.request(method, path.replace('PROJECT', projectId));
    expect(response.status).toBe(status);
    expect(response.body).toMatchObject({ code, message: expect.any(String) });
  });

  it.each([
    [5, /^body: must be object$/],
    [[], /^body: must be object$/],
    [{ project: 'x' }, /^project: must be object$/],
    [{ project: { name: '' } }, /project.name/],
    [{ project: { name: 7 } }, /project.name/],
    [{ project: { region_id: 'Not A Region' } }, /project.region_id/],
  ])(
    'POST /projects with %j is a 400 that says what is wrong, and changes nothing',
    (body, message) => {
      const before = sim.state;
      const length = sim.log.length;
      const response = sim.request('POST', '/projects', body);
      expect(response.status).toBe(400);
      expect((response.body as { message: string }).message).toMatch(message);
      expect(sim.state).toBe(before);
      expect(sim.log.length).toBe(length);
    },
  );

  it('echoes the request id in error bodies', () => {
    const response = sim.request('GET', '/projects/nope', undefined, { requestId: 'req-1' });
    expect(response.body).toEqual({
      code: 'not_found',
      message: 'project not found',
      detail: 'project "nope"',
      request_id: 'req-1',
    });
  });

  it('answers errors as the real service by default: an empty code and a generated request_id', () => {
    // given a simulation with the default profile
    const run = () => {
      const service = new Simulation();
      // when a client without X-Request-ID asks for unknown things twice
      return [
        service.request('GET', '/projects/nope'),
        service.request('DELETE', '/projects'),
        service.request('GET', '/projects/nope', undefined, { requestId: 'mine' }),
      ];
    };
    const [missing, wrongMethod, echoed] = run();
    // then each error has the schema's default code, a message, and its own request id
    expect(missing).toMatchObject({
      status: 404,
      body: { code: '', message: 'project not found', request_id: expect.any(String) },
    });
    expect(wrongMethod).toMatchObject({ status: 405, body: { code: '' } });
    expect(missing?.body.request_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4/);
    expect(missing?.body.request_id).not.toBe(wrongMethod?.body.request_id);
    expect(echoed?.body.request_id).toBe('mine');
    // ...drawn from the seed, not the wall: the same requests get the same ids on every run
    expect(run().map((r) => r.body.request_id)).toEqual(
      [missing, wrongMethod, echoed].map((r) => r?.body.request_id),
    );
  });

  it('accepts paths with the /api/v2 prefix and a query string', () => {
    expect(sim.request('GET', `/api/v2/projects/${projectId}/operations?limit=10`).status).toBe(
      200,
    );
  });
});

describe('request fuzzing', () => {
  const jsonArb = fc.jsonValue({ maxDepth: 3 });
  const fieldArb = fc.oneof(
    fc.constantFrom(
      'autoscaling_limit_min_cu',
      'autoscaling_limit_max_cu',
      'suspend_timeout_seconds',
      'type',
      'branch_id',
    ),
    fc.constantFrom(
      'disabled',
      'pooler_enabled',
      'pooler_mode',
      'provisioner',
      'settings',
      'name',
      'parent_id',
      'region_id',
    ),
  );
  // Bodies shaped like the real ones ({ endpoint: { field: anything } }), as well as anything at all.
  const bodyArb = fc.oneof(
    jsonArb,
    fc
      .record({
        wrapper: fc.constantFrom('endpoint', 'project', 'branch', 'endpoints'),
        fields: fc.dictionary(
          fieldArb,
          fc.oneof(
            jsonArb,
            fc.constantFrom(
              0.25,
              1,
              56,
              -1,
              300,
              'read_write',
              'read_only',
              'constructor',
              '__proto__',
            ),
          ),
        ),
      })
      .map(({ wrapper, fields }) => ({ [wrapper]: wrapper === 'endpoints' ? [fields] : fields })),
  );
  const segmentArb = fc.oneof(
    fc.constantFrom(
      'projects',
      'endpoints',
      'operations',
      'branches',
      'restart',
      'start',
      'suspend',
      'api',
      'v2',
    ),
    fc.constantFrom('PROJECT', 'BRANCH', 'ENDPOINT', 'OPERATION', '%', '%E0%A4%A', '..', ''),
    fc.constantFrom('constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'),
    fc.string({ maxLength: 12 }),
  );
  const pathArb = fc
    .array(segmentArb, { maxLength: 6 })
    .map((parts) => `/${parts.join('/')}`)
    .chain((path) =>
      fc.oneof(
        fc.constant(path),
        fc.constant(`${path}?limit=2`),
        fc.string().map((q) => `${path}?${q}`),
      ),
    );
  const methodArb = fc.oneof(
    fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE', 'get', 'PUT'),
    fc.string({ maxLength: 6 }),
  );

  it('never answers 5xx but 501 and never throws, whatever the method, path and body, on every route', () => {
    const sim = new Simulation();
    const created = sim.request('POST', '/projects', { project: {} }).body;
    sim.runUntilIdle();
    const ids = {
      PROJECT: created.project.id,
      BRANCH: created.branch.id,
      ENDPOINT: created.endpoints[0].id,
      OPERATION: created.operations[0].id,
    };
    fc.assert(
      fc.property(
        methodArb,
        pathArb,
        fc.option(bodyArb),
        fc.boolean(),
        (method, path, body, realIds) => {
          const realPath = realIds
            ? path.replace(/PROJECT|BRANCH|ENDPOINT|OPERATION/g, (k) => ids[k as keyof typeof ids])
            : path;
          const response = sim.request(method, realPath, body ?? undefined);
          // 501 only for an operation of the public schema that computesim does not simulate.
          if (response.status === 501)
            expect(response.body.message).toMatch(/ is not simulated by computesim$/);
          else expect(response.status).toBeLessThan(500);
          if (response.status >= 400)
            expect(response.body).toMatchObject({
              code: expect.any(String),
              message: expect.any(String),
            });
        },
      ),
      { numRuns: 2000 },
    );
    // Whatever the fuzzing did (it may have deleted the project), the simulation still answers
    // normally and its log still replays.
    expect(sim.request('GET', '/projects').status).toBe(200);
    expect(Simulation.replay(sim.log).state).toEqual(sim.state);
  });
});
