/**
 * A state file past every whole-string limit: 200 projects run for decades through the server until
 * the file passes 700 MiB (more than 4.6 M events), then SIGKILL, restart, and every acknowledged
 * project is served, and the snapshot streams the whole log. Prints the restart's peak RSS.
 */
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { killAllServeProcesses, SERVE_KEY, startServe } from '../support/serveProcess.js';

afterEach(killAllServeProcesses);

const MiB = 2 ** 20;

it('restarts from a state file over 700 MiB and serves every acknowledged project', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'computesim-large-')), 'state.jsonl');
  const first = await startServe(['--state-file', file]);
  const acknowledged: string[] = [];
  for (let i = 0; i < 200; i++) {
    const created = await first.call('POST', '/projects', { project: { name: `p${i}` } });
    expect(created.status).toBe(201);
    acknowledged.push(created.body?.['project'].id as string);
  }
  while (statSync(file).size < 700 * MiB)
    expect((await first.call('POST', '/_sim/advance', { by: '3650d' })).status).toBe(200);
  const clock = (await first.call('GET', '/_sim/clock')).body;
  await first.kill();
  const size = statSync(file).size;

  const second = await startServe(['--state-file', file]);
  const peakRss =
    Number(
      /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${second.child.pid}/status`, 'utf8'))?.[1],
    ) * 1024;
  console.log(
    `state file ${(size / MiB).toFixed(0)} MiB: restart peak RSS ${(peakRss / MiB).toFixed(0)} MiB`,
  );
  expect((await second.call('GET', '/_sim/clock')).body).toEqual(clock);
  for (const id of acknowledged)
    expect((await second.call('GET', `/projects/${id}`)).status, id).toBe(200);

  const snapshot = await fetch(`${second.base}/_sim/snapshot`, {
    headers: { authorization: `Bearer ${SERVE_KEY}` },
  });
  expect(snapshot.status).toBe(200);
  let lines = 0;
  let bytes = 0;
  let lastLine = '';
  const decoder = new TextDecoder();
  for await (const chunk of snapshot.body as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    const buffer = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    for (let at = buffer.indexOf(0x0a); at !== -1; at = buffer.indexOf(0x0a, at + 1)) lines++;
    lastLine = (lastLine + decoder.decode(chunk)).slice(-400);
  }
  const last = JSON.parse(lastLine.trimEnd().split('\n').pop() as string) as { seq: number };
  expect(lines).toBeGreaterThan(4_600_000);
  expect(last.seq).toBe(lines - 1);
  expect(bytes).toBeGreaterThan(512 * MiB);
}, 600_000);
