/**
 * The README's "Connect your application" example runs as written: a real `pg` pool in a process of
 * its own, against `serve`'s Postgres front, through a connection URI the API gave.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { startPgServe } from '../support/pgServe.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const example = /<!-- pg-example:start -->\s*```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';

it('runs the README pg example against a served compute, cold start included', async () => {
  expect(example).toContain("from 'pg'");
  // At 1x: the wall time the front spends opening a database still passes as idle virtual time,
  // and at 60x a loaded machine's few seconds there are minutes, enough to scale the compute to
  // zero under the waiting client (issue 34 makes serving a client count as activity).
  const serve = await startPgServe({ clock: '1x' });
  try {
    const project = await serve.project('readme');
    await serve.advance('10m'); // the compute has scaled to zero: the example wakes it
    // Inside the checkout, so that `pg` resolves from its node_modules.
    const dir = join(root, 'test-output', 'pg-readme');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'example.mts');
    writeFileSync(file, example);
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', file], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: project.uri },
      timeout: 60_000,
    });
    expect(stdout.trim()).toBe('2');
    const state = await serve.call(
      'GET',
      `/projects/${project.id}/endpoints/${project.endpointId}`,
    );
    expect(state.body['endpoint'].current_state).toBe('active');
  } finally {
    await serve.stop();
  }
});
