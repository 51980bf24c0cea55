/**
 * Handlers trust the public schema: a route reads its body as the schema's type and checks only
 * the domain's rules. So every body the schema accepts, however odd (the longest names, bounds,
 * `Infinity` in process, date-times a parser may not read), must get an answer, never a 500: a 2xx,
 * or a refusal that names what is wrong.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/api/routeTable.js';
import { Simulation } from '../../src/index.js';
import { publicContract, publicSchemaDocument } from '../../src/schema/publicSchema.js';
import { acceptedBodies } from '../support/schemaBodies.js';

const doc = publicSchemaDocument();
const contract = publicContract();

/** The routes whose operation declares a JSON body. */
const withBodies = ROUTES.filter((route) => {
  const operation = doc.paths[route.pattern]?.[route.method.toLowerCase()] as
    { requestBody?: { content?: Record<string, unknown> } } | undefined;
  return operation?.requestBody?.content?.['application/json'] !== undefined;
});

/** The key every request is sent with (a key made by `POST /api_keys` would require one). */
const apiKey = 'personal-key';

/** A project with a second branch, a role, a database and a compute, settled. */
function world() {
  const sim = new Simulation({ seed: 37, apiKeys: [{ key: apiKey, kind: 'personal' }] });
  const send = (path: string, body: unknown) => sim.request('POST', path, body, { apiKey });
  const created = send('/projects', { project: { name: 'bodies' } }).body;
  sim.runUntilIdle();
  const project: string = created.project.id;
  const branch: string = created.branch.id;
  const child = send(`/projects/${project}/branches`, { branch: { name: 'child' } });
  sim.runUntilIdle();
  return {
    sim,
    ids: {
      project_id: project,
      branch_id: branch,
      endpoint_id: created.endpoints[0].id as string,
      role_name: created.roles[0].name as string,
      database_name: created.databases[0].name as string,
      other_branch: child.body.branch.id as string,
    },
  };
}

describe('bodies the public schema accepts', () => {
  it('lists the routes that take a body', () => {
    expect(withBodies.map((route) => `${route.method} ${route.pattern}`).sort()).toEqual([
      'PATCH /projects/{project_id}',
      'PATCH /projects/{project_id}/branches/{branch_id}',
      'PATCH /projects/{project_id}/branches/{branch_id}/databases/{database_name}',
      'PATCH /projects/{project_id}/endpoints/{endpoint_id}',
      'POST /api_keys',
      'POST /projects',
      'POST /projects/{project_id}/branches',
      'POST /projects/{project_id}/branches/{branch_id}/databases',
      'POST /projects/{project_id}/branches/{branch_id}/restore',
      'POST /projects/{project_id}/branches/{branch_id}/roles',
      'POST /projects/{project_id}/endpoints',
    ]);
  });

  it.each(withBodies.map((route) => [route.method, route.pattern] as const))(
    '%s %s answers each of them without a 500',
    (method, pattern) => {
      const { sim, ids } = world();
      const path = pattern.replace(
        /\{(\w+)\}/g,
        (_, name: string) => ids[name as keyof typeof ids],
      );
      const bodies = acceptedBodies(doc, method, pattern, {
        branch_id: fc.constantFrom(ids.branch_id, ids.other_branch),
        parent_id: fc.constantFrom(ids.branch_id, ids.other_branch),
        source_branch_id: fc.constantFrom(ids.branch_id, ids.other_branch),
        owner_name: fc.constant(ids.role_name),
        region_id: fc.constantFrom(sim.profile.regionId, 'aws-eu-central-1'),
        provisioner: fc.constantFrom('k8s-neonvm', 'k8s-pod', 'serverless-platform'),
        source_lsn: fc.constantFrom('0/1500000', '0/0', 'FFFFFFFF/FFFFFFFF'),
      });
      fc.assert(
        fc.property(bodies, (body) => {
          fc.pre(contract.bodyProblem(method, pattern, body) === undefined);
          const response = sim.request(method, path, body, { apiKey });
          expect(response.status, JSON.stringify(response.body)).toBeLessThan(500);
          if (response.status >= 400)
            expect(response.body).toMatchObject({ message: expect.any(String) });
          sim.advance('1m');
        }),
        { numRuns: 150 },
      );
    },
  );
});
