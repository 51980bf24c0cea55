/**
 * docs/serving.md's Postgres examples run as written, each in a process of its own against `serve`'s
 * Postgres front at 60x: a real `pg` pool through a connection URI the API gave (the compute woken
 * from zero), and the serverless driver over HTTP and a WebSocket through the compute's host.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { startPgServe } from '../support/pgServe.js';
import { documentation } from '../support/documentation.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const readme = documentation(); // the examples live in docs/serving.md
const example = /<!-- pg-example:start -->\s*```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
const serverless =
  /<!-- serverless-example:start -->\s*```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';

/** Runs `code` as a module inside the checkout (so its packages resolve); resolves to its stdout. */
async function runExample(name: string, code: string, env: Record<string, string>) {
  const dir = join(root, 'test-output', 'pg-readme');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}.mts`);
  writeFileSync(file, code);
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', file], {
    cwd: root,
    env: { ...process.env, ...env },
    timeout: 60_000,
  });
  return stdout.trim();
}

it('runs the pg example of docs/serving.md against a served compute, cold start included', async () => {
  expect(example).toContain("from 'pg'");
  const serve = await startPgServe({ clock: '60x' });
  try {
    const project = await serve.project('readme');
    await serve.advance('10m'); // the compute has scaled to zero: the example wakes it
    expect(await runExample('example', example, { DATABASE_URL: project.uri })).toBe('2');
    const state = await serve.call(
      'GET',
      `/projects/${project.id}/endpoints/${project.endpointId}`,
    );
    expect(state.body['endpoint'].current_state).toBe('active');
  } finally {
    await serve.stop();
  }
});

it('runs the serverless-driver example of docs/serving.md over HTTP and a WebSocket', async () => {
  expect(serverless).toContain("from '@neondatabase/serverless'");
  const serve = await startPgServe({ clock: '60x' });
  try {
    const project = await serve.project('serverless-readme');
    const endpoint = await serve.call(
      'GET',
      `/projects/${project.id}/endpoints/${project.endpointId}`,
    );
    const url = new URL(project.uri);
    const host = endpoint.body['endpoint'].host as string;
    const databaseUrl = `postgresql://${url.username}:${url.password}@${host}/neondb?sslmode=require`;
    const origin = new URL(serve.base).origin;
    expect(
      await runExample('serverless', serverless, {
        DATABASE_URL: databaseUrl,
        COMPUTESIM_URL: origin,
      }),
    ).toBe('2');
  } finally {
    await serve.stop();
  }
});
