/**
 * The soak of issue 36, small and without timings (the benchmark `npm run bench -- soak` times the
 * full one): `serve --state-file` with 20 readers of the event stream that never read, the report
 * and the view read again and again, 2 writers and a clock move under way, until the writers have
 * had 60 writes acknowledged and the server has let every stalled reader go; then SIGKILL and a
 * restart on the same file. Every acknowledged write is there, the server answered throughout,
 * and the readers were let go (their connections closed by the server, seen in /proc) while they
 * never read, instead of being buffered for.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { lostWrites } from '../support/acknowledgedWrites.js';
import { pollUntil } from '../support/pollUntil.js';
import { killAllServeProcesses, startServe, type ServeProcess } from '../support/serveProcess.js';
import { runSoakMix } from '../support/soakMix.js';

afterEach(killAllServeProcesses);

const READERS = 20;
const WRITES = 60;

/**
 * Requests with 4,000-character paths until `done()`: each is a line of the feed that long, so
 * the stalled readers' sockets fill in seconds (the writers' lines alone take minutes).
 */
async function longRequests(server: ServeProcess, done: () => boolean): Promise<void> {
  const filler = 'x'.repeat(4_000);
  for (let i = 0; !done(); i++) await server.call('GET', `/projects?limit=1&i=${i}&f=${filler}`);
}

it('keeps every acknowledged write, and lets readers that never read go, under the soak mix', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'computesim-soak-'));
  const file = join(folder, 'state.jsonl');
  const server = await startServe(['--state-file', file]);
  for (let i = 0; i < 20; i++)
    expect((await server.call('POST', '/projects', { project: { name: `p${i}` } })).status).toBe(
      201,
    );
  const mix = await runSoakMix(server, {
    readers: READERS,
    replaceDropped: false,
    writers: 2,
    advanceBy: '1000000d',
    stopWhen: async ({ acked, readers }) => {
      let allGone = false;
      const filling = longRequests(server, () => allGone);
      await pollUntil(
        () => acked.count >= WRITES,
        () => ({ acknowledged: acked.count }),
        120,
      );
      await pollUntil(
        () => readers.held() === 0 && readers.dropped === READERS,
        () => ({ held: readers.held(), dropped: readers.dropped }),
        120,
      );
      allGone = true;
      await filling;
    },
  });
  expect(mix.writes.failed).toBe(0);
  expect(mix.reads.failed).toBe(0);
  expect(mix.reads.report.length).toBeGreaterThan(0);
  // The clock move ran the whole time, and DELETE /_sim/advance stopped it.
  expect(mix.advance).toEqual({ status: 409, stopStatus: 200 });
  // Each reader the server held, it let go while the reader never read: when it read at last,
  // what its socket held ended.
  expect(mix.readers).toEqual({ opened: READERS, dropped: READERS });
  expect(mix.readerEnds.map((end) => end.ended)).toEqual(Array(READERS).fill(true));
  expect((await server.call('GET', '/_sim/clock')).status).toBe(200);

  await server.kill();
  const restarted = await startServe(['--state-file', file]);
  expect(mix.acked.count).toBeGreaterThanOrEqual(WRITES);
  expect(await lostWrites(restarted.call, mix.acked)).toEqual([]);
  expect((await restarted.call('GET', '/projects?limit=1')).status).toBe(200);
  // The clock move wrote some 100 MB: the file goes once the test has passed.
  await restarted.stop();
  rmSync(folder, { recursive: true, force: true });
}, 300_000);
