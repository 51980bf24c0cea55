/**
 * Real Postgres clients against `serve`'s Postgres front: node-postgres (`pg`) connects through
 * the connection URIs the API gives, wakes computes and waits for them, keeps data across scale
 * to zero, sees the parent's data on a branch, and meets the refusals and drops the real service
 * gives (XX000 for a failed login, as the real proxy; 53300, 25006, 57P01).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metricsOf } from '../../src/projection/metrics.js';
import { droppedWith, startPgServe, type PgServe } from '../support/pgServe.js';

function settledWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return Promise.race([
    promise.then(
      () => true,
      () => true,
    ),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms)),
  ]);
}

async function computeState(serve: PgServe, projectId: string, endpointId: string) {
  const got = await serve.call('GET', `/projects/${projectId}/endpoints/${endpointId}`);
  return got.body['endpoint'].current_state as string;
}

describe('real clients on a manual clock', () => {
  let serve: PgServe;
  let project: Awaited<ReturnType<PgServe['project']>>;

  beforeAll(async () => {
    serve = await startPgServe();
    project = await serve.project();
    await serve.advance('10s');
  });
  afterAll(async () => {
    await serve.stop();
  });

  it('gives connection URIs that point at the front and name the compute', () => {
    expect(project.uri).toBe(
      project.uri.replace(/@.*$/, '') +
        `@127.0.0.1:${serve.postgres.port}/neondb?sslmode=disable&options=endpoint%3D${project.endpointId}`,
    );
  });

  it('wakes an idle compute: the client waits for the start_compute operation', async () => {
    await serve.advance('6m');
    expect(await computeState(serve, project.id, project.endpointId)).toBe('idle');
    const client = new pg.Client(project.uri);
    const connecting = client.connect();
    // However long the client takes to reach the front, the front then asks for the start...
    await expect
      .poll(
        async () => {
          const operations = await serve.call('GET', `/projects/${project.id}/operations`);
          return operations.body['operations'].find(
            (op: { action: string }) => op.action === 'start_compute',
          )?.status as string;
        },
        { timeout: 30_000 },
      )
      .toMatch(/scheduling|running/);
    // ...and the client waits, for the clock has not moved.
    expect(await settledWithin(connecting, 300)).toBe(false);
    await serve.advance('10s');
    await connecting;
    expect(await computeState(serve, project.id, project.endpointId)).toBe('active');
    expect((await client.query('select 1 + 1 as two')).rows).toEqual([{ two: 2 }]);
    await client.end();
  });

  it('counts each client as a session, and a cold start it waited out as felt', async () => {
    const before = metricsOf(serve.server.sim.log).fleet;
    const warm = new pg.Client(project.uri);
    await serve.connect(warm); // the compute is active: no wait
    await warm.end();
    await serve.advance('6m');
    const cold = new pg.Client(project.uri);
    await serve.connect(cold);
    await cold.end();
    const after = metricsOf(serve.server.sim.log).fleet;
    expect(after.sessions - before.sessions).toBe(2);
    expect(after.coldStarts - before.coldStarts).toBe(1);
    expect(after.coldStartWaitMs.count).toBeGreaterThan(before.coldStartWaitMs.count);
  });

  it('keeps the data across scale to zero: rows written, compute suspended, rows read back', async () => {
    const writer = new pg.Client(project.uri);
    await serve.connect(writer);
    await writer.query('create table orders (id int primary key, item text)');
    await writer.query("insert into orders values (1, 'tea'), (2, 'cake')");
    await writer.end();
    await serve.advance('6m');
    expect(await computeState(serve, project.id, project.endpointId)).toBe('idle');
    await expect.poll(() => serve.server.postgres?.databases.openCount).toBe(0);

    const reader = new pg.Client(project.uri);
    await serve.connect(reader);
    const rows = await reader.query('select item from orders order by id');
    expect(rows.rows.map((r) => r.item)).toEqual(['tea', 'cake']);
    await reader.end();
  });

  it("gives a new branch its parent's rows, then each diverges", async () => {
    const branched = await serve.call('POST', `/projects/${project.id}/branches`, {
      branch: { name: 'preview' },
      endpoints: [{ type: 'read_write' }],
    });
    expect(branched.status).toBe(201);
    const childUri = branched.body['connection_uris'][0].connection_uri as string;
    const child = new pg.Client(childUri);
    await serve.connect(child);
    const seen = await child.query('select item from orders order by id');
    expect(seen.rows.map((r) => r.item)).toEqual(['tea', 'cake']);
    await child.query("insert into orders values (3, 'pie')");

    const parent = new pg.Client(project.uri);
    await serve.connect(parent);
    await parent.query("insert into orders values (4, 'jam')");
    const inParent = await parent.query('select id from orders order by id');
    const inChild = await child.query('select id from orders order by id');
    expect(inParent.rows.map((r) => r.id)).toEqual([1, 2, 4]);
    expect(inChild.rows.map((r) => r.id)).toEqual([1, 2, 3]);
    await Promise.all([child.end(), parent.end()]);
  });

  it('refuses writes on a read replica with 25006, and serves reads', async () => {
    const created = await serve.call('POST', `/projects/${project.id}/endpoints`, {
      endpoint: { branch_id: project.branchId, type: 'read_only' },
    });
    expect(created.status).toBe(201);
    const replicaId = created.body['endpoint'].id as string;
    const uri = await serve.call(
      'GET',
      `/projects/${project.id}/connection_uri?endpoint_id=${replicaId}&role_name=neondb_owner&database_name=neondb`,
    );
    const replica = new pg.Client(uri.body['uri'] as string);
    await serve.connect(replica);
    expect((await replica.query('select count(*)::int as n from orders')).rows).toEqual([{ n: 3 }]);
    await expect(replica.query("insert into orders values (9, 'x')")).rejects.toMatchObject({
      code: '25006',
    });
    await replica.end();
    // The read-write compute still writes.
    const writer = new pg.Client(project.uri);
    await serve.connect(writer);
    await writer.query("insert into orders values (5, 'bun')");
    await writer.end();
  });

  it('refuses a wrong password and an unknown compute alike, as the real proxy does, and a missing one clearly', async () => {
    const refused = {
      code: 'XX000',
      message: "password authentication failed for user 'neondb_owner'",
    };
    const wrong = new pg.Client(project.uri.replace(/:[^:@/]+@/, ':not-the-password@'));
    await expect(wrong.connect()).rejects.toMatchObject(refused);
    // An unknown compute is not told apart from a wrong password: a client cannot probe for ids.
    const unknown = new pg.Client(project.uri.replace(/endpoint%3D[^&]+/, 'endpoint%3Dep-gone-1'));
    await expect(unknown.connect()).rejects.toMatchObject(refused);
    // No compute named: over TLS the password is asked in clear, and must name it; without TLS
    // the password would go in clear, and the connection is refused as the real proxy does.
    const unnamed = new pg.Client({
      connectionString: project.uri.replace(/\?.*$/, ''),
      ssl: { rejectUnauthorized: false },
    });
    await expect(unnamed.connect()).rejects.toMatchObject({
      message: expect.stringContaining('The endpoint ID is not specified'),
    });
    const insecure = new pg.Client(project.uri.replace(/&options=.*$/, ''));
    await expect(insecure.connect()).rejects.toMatchObject({
      message: 'connection is insecure (try using `sslmode=require`)',
    });
    const noDatabase = new pg.Client(project.uri.replace('/neondb?', '/nodb?'));
    await expect(noDatabase.connect()).rejects.toMatchObject({ code: '3D000' });
  });

  it('accepts the endpoint in the password (endpoint=<id>;<password>) over TLS', async () => {
    const url = new URL(project.uri);
    const password = decodeURIComponent(url.password);
    const client = new pg.Client({
      host: '127.0.0.1',
      port: serve.postgres.port,
      user: 'neondb_owner',
      database: 'neondb',
      password: `endpoint=${project.endpointId};${password}`,
      ssl: { rejectUnauthorized: false },
    });
    await serve.connect(client);
    const { rows } = await client.query<{ items: string }>(
      "select string_agg(item, ',' order by id) as items from orders",
    );
    await client.end();
    expect(rows[0]?.items).toBe('tea,cake,jam,bun');
  });

  it('drops open clients with 57P01 on a resize, and a retrying client gets back in', async () => {
    const client = new pg.Client(project.uri);
    await serve.connect(client);
    const dropped = droppedWith(client);
    expect(await serve.resize(project, 1)).toBe(200);
    await serve.advance('1s');
    expect(await dropped).toMatchObject({ code: '57P01' });

    let rows: unknown[] | undefined;
    for (let attempt = 0; attempt < 5 && rows === undefined; attempt += 1) {
      const retry = new pg.Client(project.uri);
      try {
        await serve.connect(retry);
        rows = (await retry.query('select count(*)::int as n from orders')).rows;
        await retry.end();
      } catch {
        await retry.end().catch(() => undefined);
      }
    }
    expect(rows).toEqual([{ n: 4 }]);
  });
});

describe('max_connections', () => {
  it('refuses the 113th direct connection to a 0.25 CU compute with 53300', async () => {
    const serve = await startPgServe();
    try {
      const project = await serve.project('crowded');
      await serve.advance('10s');
      const clients = Array.from({ length: 112 }, () => new pg.Client(project.uri));
      await Promise.all(clients.map((c) => c.connect()));
      const extra = new pg.Client(project.uri);
      await expect(extra.connect()).rejects.toMatchObject({
        code: '53300',
        message: 'sorry, too many clients already',
      });
      await clients[0]?.end();
      const next = new pg.Client(project.uri);
      await next.connect(); // a slot freed: the next one gets in
      await Promise.all([...clients.slice(1), next].map((c) => c.end()));
    } finally {
      await serve.stop();
    }
  });
});

describe('a pool against a cold start on a paced clock', () => {
  it('fails with a connect timeout shorter than the start, and succeeds with a longer one', async () => {
    const serve = await startPgServe({ clock: '10x' });
    try {
      const project = await serve.project('cold');
      await serve.advance('10m'); // started, then scaled to zero: the next connection is a cold start
      const impatient = new pg.Pool({ connectionString: project.uri, connectionTimeoutMillis: 30 });
      await expect(impatient.query('select 1')).rejects.toThrow(/timeout/i);
      await impatient.end();
      const patient = new pg.Pool({
        connectionString: project.uri,
        connectionTimeoutMillis: 20_000,
      });
      const started = Date.now();
      expect((await patient.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
      expect(Date.now() - started).toBeGreaterThan(50); // the cold start was felt
      await patient.end();
    } finally {
      await serve.stop();
    }
  });
});
