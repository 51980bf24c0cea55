/**
 * Durability of `computesim serve --state-file`: kill the server with SIGKILL in the middle of a
 * load of writes, start it again on the same file, and find every acknowledged change.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pollUntil } from '../support/pollUntil.js';
import { killAllServeProcesses, SERVE_KEY, startServe } from '../support/serveProcess.js';

afterEach(killAllServeProcesses);

describe('serve --state-file', () => {
  it('loses no acknowledged change when killed with SIGKILL under load', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'computesim-durable-')), 'events.jsonl');
    const first = await startServe(['--state-file', file]);
    const acknowledged: string[] = [];
    let sent = 0;
    const client = async (n: number) => {
      for (;;) {
        try {
          const created = await first.call('POST', '/projects', {
            project: { name: `p-${n}-${sent++}` },
          });
          if (created.status !== 201) throw new Error(`status ${created.status}`);
          acknowledged.push((created.body?.['project'] as { id: string }).id);
        } catch {
          return; // the server is gone
        }
      }
    };
    const load = Promise.all([1, 2, 3, 4].map(client));
    while (acknowledged.length < 40) await new Promise((r) => setTimeout(r, 5));
    await first.kill();
    await load;

    const second = await startServe(['--state-file', file]);
    const missing: string[] = [];
    for (const id of acknowledged)
      if ((await second.call('GET', `/projects/${id}`)).status !== 200) missing.push(id);
    expect(acknowledged.length).toBeGreaterThanOrEqual(40);
    expect(missing).toEqual([]);
    const after = await second.call('POST', '/projects', { project: { name: 'after restart' } });
    expect(after.status).toBe(201);
  }, 60_000);
});

describe('serve --scenario', () => {
  it('serves the world a scenario leaves, announcing its URL and key on one line', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'computesim-scenario-')), 'events.jsonl');
    const served = await startServe([
      '--scenario',
      'scenarios/quickstart.ts',
      '--state-file',
      file,
    ]);
    await pollUntil(
      () => served.stdout().includes('\n'),
      () => served.stdout(),
    );
    const line = served.stdout().split('\n')[0];
    expect(line).toMatch(
      new RegExp(
        `^computesim serving http://127\\.0\\.0\\.1:\\d+/api/v2 · key ${SERVE_KEY} · clock manual · seed 42$`,
      ),
    );
    expect(line).toContain(served.base);
    const listed = await served.call('GET', '/projects');
    const projects = listed.body?.['projects'] as { name: string }[];
    expect(projects.map((p) => p.name)).toEqual(['quickstart']);
  }, 60_000);
});
