/**
 * What a pg client's work means to the control plane: an open transaction keeps its compute up past
 * the scale-to-zero timeout (idle in transaction counts as active), and once it commits the idle
 * clock runs again. A CancelRequest is answered by closing its connection, quietly.
 */
import net from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { startPgServe, type PgServe } from '../support/pgServe.js';
import { cancelRequest } from '../../src/pg/cancelKeys.js';

let serve: PgServe;
let project: Awaited<ReturnType<PgServe['project']>>;

beforeAll(async () => {
  serve = await startPgServe();
  project = await serve.project('busy');
  await serve.advance('10s');
});
afterAll(async () => {
  await serve.stop();
});

async function computeState(): Promise<string> {
  const got = await serve.call('GET', `/projects/${project.id}/endpoints/${project.endpointId}`);
  return got.body['endpoint'].current_state as string;
}

it('keeps the compute up while a transaction is open, and lets it scale to zero after', async () => {
  const client = new pg.Client(project.uri);
  await client.connect();
  await client.query('begin');
  await client.query('create table t (x int)');
  await serve.advance('6m'); // past the 5-minute timeout, idle in transaction
  expect(await computeState()).toBe('active');
  await client.query('commit');
  const dropped = new Promise<Error & { code?: string }>((resolve) => client.on('error', resolve));
  await serve.advance('6m');
  expect(await computeState()).toBe('idle');
  expect(await dropped).toMatchObject({ code: '57P01' });
  await client.end().catch(() => undefined);
});

it('closes a CancelRequest connection without a reply or a server error, and keeps serving', async () => {
  const errors = vi.spyOn(console, 'error');
  const request = cancelRequest({ processId: 0, secret: 0 });
  const received: Buffer[] = [];
  await new Promise<void>((resolve, reject) => {
    const socket = net.connect(serve.postgres.port, '127.0.0.1', () => socket.write(request));
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve());
  });
  expect(Buffer.concat(received)).toHaveLength(0);
  expect(errors).not.toHaveBeenCalled();
  errors.mockRestore();
  const client = new pg.Client(project.uri);
  let connected = false;
  const connecting = client.connect().then(() => (connected = true));
  while (!connected) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    if (!connected) await serve.advance('1s');
  }
  await connecting;
  expect((await client.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
  await client.end();
});
