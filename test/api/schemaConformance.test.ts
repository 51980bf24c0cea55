/**
 * Every response of a broad flow, success and error alike, validates against the public v2 schema.
 */
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../src/index.js';
import { Router } from '../../src/api/router.js';
import { ROUTES } from '../../src/api/routeTable.js';
import { schemaProblems } from '../support/openApiValidator.js';

const router = new Router(ROUTES);

/** Sends a request and checks its body against the schema of its route and status. */
function checked(sim: Simulation, method: string, path: string, body?: unknown) {
  const response = sim.request(method, path, body);
  const match = router.match(method, path.split('?')[0] as string);
  if (!match.ok) throw new Error(`no route for ${method} ${path}`);
  const problems = schemaProblems(
    method,
    match.value.route.pattern,
    response.status,
    response.body,
  );
  expect(
    problems,
    `${method} ${path} → ${response.status} ${String(JSON.stringify(response.body)).slice(0, 300)}`,
  ).toEqual([]);
  return response;
}

describe('schema conformance of in-process responses', () => {
  it('validates every response of a full flow against the public v2 schema', () => {
    const sim = new Simulation({ seed: 9 });
    const settle = (p: string) =>
      sim.runUntil((s) => Object.keys(s.projects[p]?.pendingOperations ?? {}).length === 0);
    const created = checked(sim, 'POST', '/projects', {
      project: { name: 'conformance', pg_version: 16 },
    });
    const p = created.body.project.id as string;
    const main = created.body.branch.id as string;
    const primary = created.body.endpoints[0].id as string;
    checked(sim, 'POST', `/projects/${p}/branches`, {}); // 423 while create_timeline runs
    settle(p);
    checked(sim, 'GET', '/projects');
    checked(sim, 'GET', '/projects?limit=1');
    checked(sim, 'GET', `/projects/${p}`);
    const branch = checked(sim, 'POST', `/projects/${p}/branches`, {
      branch: { name: 'dev' },
      endpoints: [{ type: 'read_write' }],
    });
    checked(sim, 'GET', `/projects/${p}/branches`);
    checked(sim, 'GET', `/projects/${p}/branches/${branch.body.branch.id}`);
    settle(p);
    const replica = checked(sim, 'POST', `/projects/${p}/endpoints`, {
      endpoint: { branch_id: main, type: 'read_only' },
    });
    checked(sim, 'POST', `/projects/${p}/endpoints`, {
      endpoint: { branch_id: main, type: 'read_write' },
    }); // 409
    checked(sim, 'POST', `/projects/${p}/endpoints`, {
      endpoint: { branch_id: main, type: 'read_only', autoscaling_limit_min_cu: 3 },
    }); // 423 or 400
    settle(p);
    checked(sim, 'GET', `/projects/${p}/endpoints`);
    checked(sim, 'GET', `/projects/${p}/endpoints/${primary}`);
    checked(sim, 'PATCH', `/projects/${p}/endpoints/${primary}`, {
      endpoint: { autoscaling_limit_min_cu: 0.25, autoscaling_limit_max_cu: 2 },
    });
    checked(sim, 'POST', `/projects/${p}/endpoints/${primary}/restart`); // 423
    settle(p);
    checked(sim, 'POST', `/projects/${p}/endpoints/${primary}/restart`);
    settle(p);
    checked(sim, 'POST', `/projects/${p}/endpoints/${primary}/suspend`);
    settle(p);
    checked(sim, 'POST', `/projects/${p}/endpoints/${primary}/start`);
    settle(p);
    const page = checked(sim, 'GET', `/projects/${p}/operations?limit=3`);
    checked(
      sim,
      'GET',
      `/projects/${p}/operations?limit=3&cursor=${encodeURIComponent(page.body.pagination.cursor)}`,
    );
    checked(sim, 'GET', `/projects/${p}/operations/${page.body.operations[0].id}`);
    checked(sim, 'GET', `/projects/${p}/operations?limit=0`); // 400
    checked(sim, 'DELETE', `/projects/${p}/endpoints/${replica.body.endpoint.id}`);
    checked(sim, 'DELETE', `/projects/${p}/endpoints/${replica.body.endpoint.id}`); // 204
    checked(sim, 'DELETE', `/projects/${p}/branches/${branch.body.branch.id}`);
    checked(sim, 'DELETE', `/projects/${p}/branches/${branch.body.branch.id}`); // 204
    checked(sim, 'GET', `/projects/${p}/branches?include_deleted=true`);
    settle(p);
    checked(sim, 'POST', `/projects/${p}/branches/${branch.body.branch.id}/recover`);
    checked(sim, 'POST', `/projects/${p}/branches/${branch.body.branch.id}/recover`); // 409
    settle(p);
    checked(sim, 'DELETE', `/projects/${p}/branches/${branch.body.branch.id}?hard_delete=true`);
    checked(sim, 'GET', `/projects/${p}/endpoints/ep-none-none-000000`); // 404
    checked(sim, 'DELETE', `/projects/${p}`);
    checked(sim, 'GET', '/projects?recoverable=true');
    checked(sim, 'POST', `/projects/${p}/recover`);
    checked(sim, 'POST', `/projects/${p}/recover`); // 409
  });

  it('validates the user, API key and consumption responses', () => {
    const sim = new Simulation({ seed: 4 });
    const created = checked(sim, 'POST', '/projects', { project: { name: 'usage' } });
    const p = created.body.project.id as string;
    sim.runUntilIdle();
    sim.advance('2h');
    checked(sim, 'GET', `/projects/${p}`);
    checked(sim, 'GET', '/projects');
    checked(sim, 'GET', '/users/me');
    checked(sim, 'GET', '/users/me/organizations');
    const key = checked(sim, 'POST', '/api_keys', { key_name: 'conformance' });
    const as = { apiKey: key.body.key as string };
    const send = (method: string, path: string, body?: unknown) => {
      const response = sim.request(method, path, body, as);
      const match = router.match(method, path.split('?')[0] as string);
      if (!match.ok) throw new Error(`no route for ${method} ${path}`);
      const pattern = match.value.route.pattern;
      expect(schemaProblems(method, pattern, response.status, response.body)).toEqual([]);
      return response;
    };
    send('POST', '/api_keys', { key_name: 'second' });
    send('POST', '/api_keys', {}); // 400
    send('GET', '/api_keys');
    const second = send('GET', '/api_keys').body[1].id as number;
    send('DELETE', `/api_keys/${second}`);
    send('DELETE', `/api_keys/${second}`); // 404
    send('DELETE', '/api_keys/nan'); // 400
    const range = 'from=2026-01-05T00:00:00Z&to=2026-01-05T03:00:00Z';
    send('GET', `/consumption_history/projects?${range}&granularity=hourly`);
    send('GET', `/consumption_history/projects?${range}&granularity=daily&limit=1`);
    send('GET', `/consumption_history/projects?${range}&granularity=monthly&project_ids=${p}`);
    send(
      'GET',
      `/consumption_history/projects?${range}&granularity=hourly&metrics=active_time_seconds`,
    );
    send('GET', `/consumption_history/projects?${range}`); // 400
    send(
      'GET',
      '/consumption_history/projects?from=2025-01-01T00:00:00Z&to=2026-01-05T00:00:00Z&granularity=hourly',
    ); // 406
    send('GET', `/consumption_history/projects?${range}&granularity=daily&org_id=org-other-1`); // 404
    const org = sim.addApiKey({ kind: 'organization' });
    const forbidden = sim.request('GET', '/users/me', undefined, { apiKey: org });
    expect(forbidden.status).toBe(403);
    expect(schemaProblems('GET', '/users/me', 403, forbidden.body)).toEqual([]);
    const unknown = sim.request('GET', '/users/me', undefined, { apiKey: 'nope' });
    expect(schemaProblems('GET', '/users/me', 401, unknown.body)).toEqual([]);
  });

  it('validates the responses of project updates, shared listings and branch changes', () => {
    const sim = new Simulation({ seed: 10 });
    const settle = (p: string) =>
      sim.runUntil((s) => Object.keys(s.projects[p]?.pendingOperations ?? {}).length === 0);
    const created = checked(sim, 'POST', '/projects', { project: { name: 'changes' } });
    const p = created.body.project.id as string;
    const main = created.body.branch.id as string;
    settle(p);
    checked(sim, 'GET', '/projects/shared');
    checked(sim, 'GET', '/projects/shared?limit=500'); // 400
    checked(sim, 'GET', '/projects?search=chan&org_id=org-some-org-000000');
    checked(sim, 'PATCH', `/projects/${p}`, {
      project: {
        name: 'changed',
        history_retention_seconds: 7200,
        default_endpoint_settings: { autoscaling_limit_min_cu: 0.25, autoscaling_limit_max_cu: 1 },
      },
    });
    checked(sim, 'PATCH', `/projects/${p}`, { project: { history_retention_seconds: 60 } }); // 423
    checked(sim, 'PATCH', `/projects/${p}`, { project: { history_retention_seconds: -1 } }); // 400
    settle(p);
    checked(sim, 'GET', `/projects/${p}`);
    checked(sim, 'GET', '/projects');
    const dev = checked(sim, 'POST', `/projects/${p}/branches`, {
      branch: { name: 'dev' },
      endpoints: [{ type: 'read_write' }],
    });
    const devId = dev.body.branch.id as string;
    checked(sim, 'POST', `/projects/${p}/branches/${devId}/set_as_default`); // 423
    settle(p);
    checked(sim, 'GET', `/projects/${p}/branches/${devId}`);
    checked(sim, 'PATCH', `/projects/${p}/branches/${devId}`, {
      branch: { name: 'feature', protected: true },
    });
    checked(sim, 'PATCH', `/projects/${p}/branches/${devId}`, { branch: { name: 'main' } }); // 409
    checked(sim, 'GET', `/projects/${p}/branches/count`);
    checked(sim, 'GET', `/projects/${p}/branches/count?search=feat`);
    checked(sim, 'GET', `/projects/${p}/branches/${devId}/endpoints`);
    checked(sim, 'GET', `/projects/${p}/branches/br-none-none-000000/endpoints`); // 404
    sim.advance(60_000);
    checked(sim, 'POST', `/projects/${p}/branches/${devId}/restore`, {
      source_branch_id: main,
      preserve_under_name: 'feature_old',
    });
    checked(sim, 'POST', `/projects/${p}/branches/${devId}/restore`, { source_branch_id: main }); // 423
    settle(p);
    checked(sim, 'POST', `/projects/${p}/branches/${main}/restore`, {
      source_branch_id: main,
      source_timestamp: '2000-01-01T00:00:00Z',
      preserve_under_name: 'main_old',
    }); // 400
    checked(sim, 'POST', `/projects/${p}/branches/${devId}/set_as_default`);
    checked(sim, 'GET', `/projects/${p}/branches`);
    checked(sim, 'DELETE', `/projects/${p}/branches/${devId}`); // 400: the default branch
  });

  it('validates every role, database and connection URI response against the public v2 schema', () => {
    const sim = new Simulation({ seed: 10 });
    const settle = (p: string) =>
      sim.runUntil((s) => Object.keys(s.projects[p]?.pendingOperations ?? {}).length === 0);
    const created = checked(sim, 'POST', '/projects', { project: { name: 'roles' } });
    const p = created.body.project.id as string;
    const main = created.body.branch.id as string;
    const primary = created.body.endpoints[0].id as string;
    const on = (suffix: string, branch = main) => `/projects/${p}/branches/${branch}${suffix}`;
    checked(sim, 'POST', on('/roles'), { role: { name: 'app' } }); // 423 while create_timeline runs
    settle(p);
    checked(sim, 'GET', on('/roles'));
    checked(sim, 'POST', on('/roles'), { role: { name: 'app' } });
    checked(sim, 'POST', on('/roles'), { role: { name: 'app2' } }); // 423 while apply_config runs
    settle(p);
    checked(sim, 'POST', on('/roles'), { role: { name: 'app' } }); // 409
    checked(sim, 'POST', on('/roles'), { role: { name: 'pg_x' } }); // 400
    checked(sim, 'POST', on('/roles'), { role: {} }); // 400
    checked(sim, 'GET', on('/roles/app'));
    checked(sim, 'GET', on('/roles/ghost')); // 404
    checked(sim, 'GET', on('/roles/app/reveal_password'));
    checked(sim, 'GET', on('/roles/ghost/reveal_password')); // 404
    checked(sim, 'POST', on('/roles/app/reset_password'));
    settle(p);
    checked(sim, 'GET', on('/databases'));
    checked(sim, 'POST', on('/databases'), { database: { name: 'appdb', owner_name: 'app' } });
    settle(p);
    checked(sim, 'POST', on('/databases'), { database: { name: 'x', owner_name: 'ghost' } }); // 400
    checked(sim, 'POST', on('/databases'), { database: { name: 'appdb', owner_name: 'app' } }); // 409
    checked(sim, 'GET', on('/databases/appdb'));
    checked(sim, 'GET', on('/databases/ghost')); // 404
    checked(sim, 'DELETE', on('/roles/app')); // 409: it owns appdb
    checked(sim, 'PATCH', on('/databases/appdb'), { database: { name: 'shop' } });
    settle(p);
    checked(sim, 'PATCH', on('/databases/shop'), { database: { name: 'shop' } }); // no change
    const child = checked(sim, 'POST', `/projects/${p}/branches`, {
      endpoints: [{ type: 'read_write' }],
    });
    settle(p); // the project-wide lock of the first branch's creation
    const only = checked(sim, 'POST', `/projects/${p}/branches`, {});
    settle(p);
    checked(sim, 'GET', on('/roles', child.body.branch.id));
    checked(sim, 'GET', on('/databases', only.body.branch.id));
    const uri = `/projects/${p}/connection_uri?role_name=app&database_name=shop`;
    checked(sim, 'GET', uri);
    checked(sim, 'GET', `${uri}&pooled=true&endpoint_id=${primary}`);
    checked(sim, 'GET', `${uri}&branch_id=${child.body.branch.id}`);
    checked(sim, 'GET', `/projects/${p}/connection_uri?role_name=app`); // 400
    checked(sim, 'GET', `/projects/${p}/connection_uri?role_name=x&database_name=shop`); // 404
    // Now a suspended compute: changes activate it and suspend it again.
    checked(sim, 'POST', `/projects/${p}/endpoints/${primary}/suspend`);
    settle(p);
    checked(sim, 'DELETE', on('/databases/shop'));
    settle(p);
    checked(sim, 'DELETE', on('/databases/shop')); // 204
    checked(sim, 'DELETE', on('/roles/app'));
    settle(p);
    checked(sim, 'DELETE', on('/roles/app')); // 204
    checked(sim, 'DELETE', on('/roles/app', 'br-none-none-000000')); // 404
  });
});
