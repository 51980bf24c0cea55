/**
 * Ready means ready: a client that waits for `serve`'s API port, as a script or a CI service does,
 * and creates a project the moment the port answers, gets a connection URI that connects (the
 * Postgres front listens before the API does).
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import { callJson } from '../support/callJson.js';
import { killAllServeProcesses, SERVE_KEY } from '../support/serveProcess.js';

afterEach(killAllServeProcesses);

const root = fileURLToPath(new URL('../..', import.meta.url));

/** A port free a moment ago. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

it('answers its first request only once the Postgres front listens: the URI it gives connects', async () => {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      ...['--import', 'tsx', 'src/cli/run.ts', 'serve'],
      ...['--port', String(port), '--api-key', SERVE_KEY, '--pg-port', '0', '--clock', '600x'],
    ],
    { cwd: root, stdio: 'ignore' },
  );
  try {
    const base = `http://127.0.0.1:${port}/api/v2`;
    let created: { status: number; body: unknown } | undefined;
    let exited = false;
    child.once('exit', () => (exited = true));
    // Knock until the port answers, as a client that never reads serve's output does (however
    // long a busy machine takes to make the template database: the test's timeout bounds it).
    while (created === undefined && !exited) {
      created = await callJson(fetch, base, SERVE_KEY, 'POST', '/projects', {
        project: { name: 'at once' },
      }).catch(() => undefined);
      if (created === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(created?.status).toBe(201);
    const body = created?.body as { connection_uris: { connection_uri: string }[] };
    const uri = body.connection_uris[0]?.connection_uri as string;
    expect(uri).toMatch(/@127\.0\.0\.1:\d+\//);
    const client = new pg.Client(uri);
    await client.connect();
    try {
      expect((await client.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await client.end();
    }
  } finally {
    child.kill('SIGKILL');
  }
}, 300_000);
