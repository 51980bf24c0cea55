/**
 * Branch data lives beside the state file and comes back with it: a `serve` restarted on the same
 * state file and data folder serves the rows its clients wrote before, and the events of real
 * clients are in the log like any connection's.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { expect, it } from 'vitest';
import { SimServer } from '../../src/http/simServer.js';
import { StateFile } from '../../src/http/stateFile.js';
import { Simulation } from '../../src/simulation/simulation.js';
import { callJson } from '../support/callJson.js';

async function serveOn(path: string) {
  const stateFile = StateFile.open(path);
  const server = new SimServer(stateFile.simulation ?? new Simulation({ seed: 11 }), {
    keys: [{ key: 'k', kind: 'personal' }],
    // 1x, not faster: the wall time the front spends opening a database still passes as idle
    // virtual time (issue 34), and at 60x a loaded machine's seconds there scale the compute to
    // zero under the client's first statement.
    clock: { name: '1x', rate: 1 },
    stateFile,
  });
  const base = await server.listen(0);
  await server.listenPostgres(0, '127.0.0.1', { root: `${path}.pgdata` });
  const call = (method: string, route: string, body?: unknown) =>
    callJson(fetch, base, 'k', method, route, body);
  return { server, call };
}

it('serves the same rows after a restart on the same state file', async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'computesim-pg-restart-')), 'state.jsonl');
  const first = await serveOn(path);
  const created = await first.call('POST', '/projects', { project: { name: 'kept' } });
  const uri = created.body.connection_uris[0].connection_uri as string;
  const projectId = created.body.project.id as string;
  const writer = new pg.Client({ connectionString: uri, connectionTimeoutMillis: 20_000 });
  await writer.connect();
  await writer.query('create table notes (body text)');
  await writer.query("insert into notes values ('before the restart')");
  await writer.end();
  const opened = first.server.sim.log.slice().filter((e) => e.type === 'ConnectionOpened').length;
  expect(opened).toBe(1); // the pg client is a simulated connection, logged as one
  await first.server.close();

  const second = await serveOn(path);
  try {
    const again = await second.call(
      'GET',
      `/projects/${projectId}/connection_uri?role_name=neondb_owner&database_name=neondb`,
    );
    const port = second.server.postgres === undefined ? 0 : new URL(again.body.uri as string).port;
    expect(Number(port)).toBeGreaterThan(0);
    const reader = new pg.Client({
      connectionString: again.body.uri as string,
      connectionTimeoutMillis: 20_000,
    });
    await reader.connect();
    const rows = await reader.query('select body from notes');
    expect(rows.rows).toEqual([{ body: 'before the restart' }]);
    await reader.end();
  } finally {
    await second.server.close();
  }
});
