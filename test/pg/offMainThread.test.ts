/**
 * Statements run off serve's main thread, each branch database in its own worker: a long statement
 * holds up neither the API nor the clients of other databases; a CancelRequest stops it (57014) and
 * the session goes on; a large result streams with backpressure, so a client that stops reading
 * holds back its own backend rather than filling the server's memory; a client that goes away
 * mid-result has its statement stopped.
 */
import { connect, type Socket } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientConfig, startPgServe, type PgServe } from '../support/pgServe.js';
import { cancelRequest } from '../../src/pg/cancelKeys.js';

type Project = Awaited<ReturnType<PgServe['project']>>;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Settles a promise into which came first: its value, or `'pending'` after `ms`. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | 'pending'> {
  return Promise.race([promise, pause(ms).then(() => 'pending' as const)]);
}

/** The socket under a node-postgres client (to pause it, or cut it). */
function socketOf(client: pg.Client): Socket {
  return (client as unknown as { connection: { stream: Socket } }).connection.stream;
}

/** Sends a CancelRequest for the session `processId`/`secret` on a connection of its own. */
function sendCancel(port: number, processId: number, secret: number): void {
  const request = cancelRequest({ processId, secret });
  const socket = connect(port, '127.0.0.1', () => socket.end(request));
  socket.on('error', () => undefined);
}

describe('statements off the main thread', () => {
  let serve: PgServe;
  let first: Project;
  let second: Project;

  beforeAll(async () => {
    serve = await startPgServe();
    first = await serve.project('first');
    second = await serve.project('second');
    await serve.advance('10s');
  });
  afterAll(async () => {
    await serve.stop();
  });

  it('answers the API and a client of another database while a statement sleeps', async () => {
    const sleeper = new pg.Client(first.uri);
    const other = new pg.Client(second.uri);
    await Promise.all([sleeper.connect(), other.connect()]);
    let slept = false;
    const sleeping = sleeper.query('select pg_sleep(3)').then(() => (slept = true));
    await pause(100); // the statement is running
    const api = await serve.call('GET', `/projects/${second.id}`);
    expect(api.status).toBe(200);
    expect((await other.query('select 2 as two')).rows).toEqual([{ two: 2 }]);
    expect(slept).toBe(false); // both answered while the statement still ran
    await sleeping;
    await Promise.all([sleeper.end(), other.end()]);
  });

  it('cancels a running statement with 57014 on a CancelRequest, and the session goes on', async () => {
    const client = new pg.Client(first.uri);
    await client.connect();
    const running = client.query('select pg_sleep(60)');
    const failed = running.then(
      () => undefined,
      (error: Error & { code?: string }) => error,
    );
    // A cancel as libpq and node-postgres send it: a new connection with the CancelRequest that
    // names the key the session was given (node-postgres's own `cancel` reads a getter it
    // deprecates). One that comes before the statement runs finds nothing to cancel: sent again.
    const { processID, secretKey } = client as unknown as { processID: number; secretKey: number };
    let settled = false;
    void failed.then(() => (settled = true));
    for (let i = 0; i < 100 && !settled; i++) {
      sendCancel(Number(new URL(first.uri).port), processID, secretKey);
      await within(failed, 200);
    }
    expect(await within(failed, 20_000)).toMatchObject({
      code: '57014',
      message: 'canceling statement due to user request',
    });
    expect((await client.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    await client.end();
  });

  it('stops a statement past its statement_timeout with 57014, set at startup or by SET', async () => {
    const client = new pg.Client(
      clientConfig(first.uri, { options: `endpoint=${first.endpointId} -c statement_timeout=300` }),
    );
    await client.connect();
    await expect(client.query('select pg_sleep(30)')).rejects.toMatchObject({
      code: '57014',
      message: 'canceling statement due to statement timeout',
    });
    expect((await client.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    await client.query("set statement_timeout = '200ms'");
    await expect(client.query('select pg_sleep(30)')).rejects.toMatchObject({ code: '57014' });
    await client.query('set statement_timeout = 0');
    expect((await client.query('select pg_sleep(0.5), 2 as two')).rows[0]).toMatchObject({
      two: 2,
    });
    await client.end();
  });

  it('holds back the backend of a client that stops reading, not the server memory', async () => {
    const client = new pg.Client(first.uri);
    await client.connect();
    const before = process.memoryUsage().arrayBuffers;
    const socket = socketOf(client);
    socket.pause();
    const rows = client.query("select g, repeat('x', 300) from generate_series(1, 800000) g");
    rows.catch(() => undefined);
    await pause(2_000); // ~250 MB of rows, were it all sent at once
    const held = process.memoryUsage().arrayBuffers - before;
    expect(held).toBeLessThan(64 * 1024 * 1024);
    socket.resume();
    const result = await rows;
    expect(result.rowCount).toBe(800_000);
    await client.end();
  });

  it('stops the statement of a client that goes away mid-result', async () => {
    const client = new pg.Client(first.uri);
    await client.connect();
    client.on('error', () => undefined);
    const opens = serve.server.postgres?.databases.opens ?? 0;
    // Rows of 10 kB, one every 10 ms for a quarter of an hour: the first proves the statement runs.
    const rows = new pg.Query(
      "select repeat('x', 10000), pg_sleep(0.01) from generate_series(1, 100000)",
    );
    const running = new Promise((resolve) => rows.once('row', resolve));
    client.query(rows).on('error', () => undefined);
    await running;
    socketOf(client).destroy();
    // The next client gets the database at once: it is not waiting for the rest to be made.
    const next = new pg.Client(first.uri);
    await next.connect();
    expect(await within(next.query('select 3 as three'), 30_000)).toMatchObject({
      rows: [{ three: 3 }],
    });
    expect(serve.server.postgres?.databases.opens).toBe(opens + 1); // reopened after the stop
    await next.end();
  });
});
