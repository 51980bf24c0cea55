/**
 * Durability of `computesim serve --state-file`: kill the server with SIGKILL in the middle of a
 * load of writes, start it again on the same file, and find every acknowledged change.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const KEY = 'durable-key';
const children: ChildProcess[] = [];

/** Starts `computesim serve` in its own process; resolves to it and its base URL. */
function start(stateFile: string): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/cli/run.ts',
      'serve',
      '--port',
      '0',
      '--api-key',
      KEY,
      '--state-file',
      stateFile,
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /serving (http:\/\/\S+)/.exec(out)?.[1];
      if (url !== undefined) resolve({ child, base: url });
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
  });
}

const post = (base: string, name: string) =>
  fetch(`${base}/projects`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ project: { name } }),
  });

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

describe('serve --state-file', () => {
  it('loses no acknowledged change when killed with SIGKILL under load', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'computesim-durable-')), 'events.jsonl');
    const first = await start(file);
    const acknowledged: string[] = [];
    let sent = 0;
    const client = async (n: number) => {
      for (;;) {
        const name = `p-${n}-${sent++}`;
        try {
          const response = await post(first.base, name);
          if (response.status !== 201) throw new Error(`status ${response.status}`);
          acknowledged.push(((await response.json()) as { project: { id: string } }).project.id);
        } catch {
          return; // the server is gone
        }
      }
    };
    const load = Promise.all([1, 2, 3, 4].map(client));
    while (acknowledged.length < 40) await new Promise((r) => setTimeout(r, 5));
    first.child.kill('SIGKILL');
    await load;

    const second = await start(file);
    const missing: string[] = [];
    for (const id of acknowledged) {
      const response = await fetch(`${second.base}/projects/${id}`, {
        headers: { authorization: `Bearer ${KEY}` },
      });
      if (response.status !== 200) missing.push(id);
    }
    expect(acknowledged.length).toBeGreaterThanOrEqual(40);
    expect(missing).toEqual([]);
    expect((await post(second.base, 'after restart')).status).toBe(201);
  }, 60_000);
});

describe('serve --scenario', () => {
  it('serves the world a scenario leaves, announcing its URL and key on one line', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'computesim-scenario-')), 'events.jsonl');
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'src/cli/run.ts',
        'serve',
        '--port',
        '0',
        '--api-key',
        KEY,
        '--scenario',
        'scenarios/quickstart.ts',
        '--state-file',
        file,
      ],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    children.push(child);
    const line = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('\n')) resolve(out.split('\n')[0]!);
      });
      child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
    });
    expect(line).toMatch(
      /^computesim serving http:\/\/127\.0\.0\.1:\d+\/api\/v2 · key durable-key · clock manual · seed 42$/,
    );
    const base = /(http:\S+)/.exec(line)![1]!;
    const response = await fetch(`${base}/projects`, {
      headers: { authorization: `Bearer ${KEY}` },
    });
    const { projects } = (await response.json()) as { projects: { name: string }[] };
    expect(projects.map((p) => p.name)).toEqual(['quickstart']);
  }, 60_000);
});
