/**
 * The soak of issue 36: a `serve --state-file` process of its own, given a state of millions of
 * events, then for a minute at once: 200 readers of `/_sim/events` that never read (one the server
 * lets go is replaced by a new one, as a page reconnecting), the report and the view of the whole
 * run read again and again, 8 writing clients, and a long `POST /_sim/advance` under way (stopped
 * at the end by `DELETE /_sim/advance`). Then SIGKILL, a restart on the same file, and every
 * acknowledged write asked for. Targets: the writers' p99 ≤ 100 ms; the heap the soaked server
 * holds after a full collection within 150 MB of what a server started afresh on the same file
 * holds (what it keeps beyond the state the soak made); no acknowledged write lost; no 5xx; every
 * stalled reader of the first 200 let go. RSS is stated beside it.
 *
 * Run: npm run bench -- soak   (SOAK_SECONDS shortens it)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { percentiles } from '../src/projection/percentiles.js';
import { lostWrites } from '../test/support/acknowledgedWrites.js';
import {
  killAllServeProcesses,
  startServe,
  type ServeProcess,
} from '../test/support/serveProcess.js';
import { runSoakMix, type SoakMixResult } from '../test/support/soakMix.js';
import { heapAfterFullCollection, inspectorUrl } from './support/inspectedHeap.js';
import { wholeFromEnv } from './support/measure.js';
import {
  residentBytes,
  sampleResidentMemory,
  type ResidentMemory,
} from './support/residentMemory.js';

const SECONDS = wholeFromEnv('SOAK_SECONDS', 60);
const READERS = 200;
const WRITERS = 8;
/** Projects of the prepared state, and how far it is advanced: about 3 M events. */
const PROJECTS = 1_000;
const PREPARED_BY = '2500d';
/** The move under way during the soak: far longer than it lasts. */
const SOAK_ADVANCE = '1000000d';
const P99_TARGET_MS = 100;
const MB = 2 ** 20;
/**
 * The bound on what the soaked server holds beyond its state: its heap after a full collection at
 * the end, less that of a server started afresh on the same file (the soak's writes and clock move
 * grow the state itself, by hundreds of MB in a minute). Its RSS is no measure of that: it keeps
 * the room the heap grew into for the garbage of a busy minute.
 */
const HEAP_BEYOND_STATE_MB = 150;
/** Node's options for both servers: an inspector on loopback, to collect garbage before weighing. */
const INSPECTED = ['--inspect=127.0.0.1:0'];

/** How many events the served log holds (the view says, for the whole log). */
async function eventCount(server: ServeProcess): Promise<number> {
  const view = await server.call('GET', '/_sim/view?first=0&count=1');
  return view.body?.['events'] as number;
}

/** A served state of millions of events: PROJECTS projects, advanced PREPARED_BY in one move. */
async function prepare(server: ServeProcess): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < PROJECTS) {
        const created = await server.call('POST', '/projects', { project: { name: `p${next++}` } });
        if (created.status !== 201) throw new Error(`preparing: POST /projects ${created.status}`);
      }
    }),
  );
  const moved = await server.call('POST', '/_sim/advance', { by: PREPARED_BY });
  if (moved.status !== 200) throw new Error(`preparing: advance ${moved.status}`);
}

/** Seconds since `started` (an `hrtime.bigint()`). */
function since(started: bigint): number {
  return Number(process.hrtime.bigint() - started) / 1e9;
}

/** The machine's load averages over 1, 5 and 15 minutes (other work shares its cores). */
function load(): string {
  return loadavg()
    .map((value) => value.toFixed(1))
    .join(' / ');
}

/** Prints one figure: its label in a column, then what was measured. */
function row(label: string, text: string): void {
  console.log(`${label.padEnd(28)}${text}`);
}

/** `met` or `MISSED`. */
function verdict(met: boolean): string {
  return met ? 'met' : 'MISSED';
}

/** Prints what the mix did; returns whether its own targets were met. */
function printMix(mix: SoakMixResult, memory: ResidentMemory): boolean {
  const latency = percentiles(mix.writes.latenciesMs);
  const { projects, branches, suspendTimeouts } = mix.acked;
  const p99Met = latency.p99 <= P99_TARGET_MS;
  const growth = (memory.end - memory.start) / MB;
  const cleanMet = mix.writes.failed === 0;
  const ended = mix.readerEnds.filter((end) => end.ended);
  const resynced = ended.filter((end) => end.lastEvent === 'resync').length;
  const readersMet = mix.readers.dropped >= READERS;
  const mostBytes = Math.max(0, ...mix.readerEnds.map((end) => end.bytes));
  const report = percentiles(mix.reads.report);
  const view = percentiles(mix.reads.view);
  row(
    `writers (${WRITERS})`,
    `${latency.count.toLocaleString('en-US')} answers: p50 ${latency.p50.toFixed(1)} ms, ` +
      `p99 ${latency.p99.toFixed(1)} ms, max ${latency.max.toFixed(1)} ms ` +
      `(target: p99 ≤ ${P99_TARGET_MS} ms: ${verdict(p99Met)})`,
  );
  const refused = [...mix.writes.refused].map(([status, count]) => `${count} × ${status}`);
  row(
    'acknowledged writes',
    `${mix.acked.count.toLocaleString('en-US')} (${projects.size} projects, ` +
      `${branches.size} branches, ${suspendTimeouts.size} suspend timeouts); refused (not ready yet): ` +
      `${refused.length === 0 ? 'none' : refused.join(', ')}; ${mix.writes.failed} failed ` +
      `(target: none failed: ${verdict(cleanMet)})`,
  );
  row(
    'server RSS',
    `start ${(memory.start / MB).toFixed(0)} MB, peak ${(memory.peak / MB).toFixed(0)} MB, ` +
      `end ${(memory.end / MB).toFixed(0)} MB: growth ${growth.toFixed(0)} MB, peak +${((memory.peak - memory.start) / MB).toFixed(0)} MB ` +
      `(${memory.samples} samples, one a second)`,
  );
  row(
    `readers (${READERS} stalled)`,
    `${mix.readers.opened} opened; the server let go of ${mix.readers.dropped} ` +
      `while they never read (each replaced); at the end ${ended.length} of ${mix.readerEnds.length} let go ` +
      `(${resynced} last sent resync), the most one had received ${(mostBytes / MB).toFixed(1)} MB ` +
      `(target: the first ${READERS} let go: ${verdict(readersMet)})`,
  );
  row(
    'heavy reads',
    `report ${report.count}× (p50 ${(report.p50 / 1000).toFixed(1)} s, max ` +
      `${(report.max / 1000).toFixed(1)} s), view ${view.count}× (p50 ${(view.p50 / 1000).toFixed(1)} s, max ` +
      `${(view.max / 1000).toFixed(1)} s), ${mix.reads.failed} failed`,
  );
  row(
    'clock move',
    `stopped by DELETE /_sim/advance (${mix.advance.stopStatus}); its own answer ${mix.advance.status}`,
  );
  return p99Met && cleanMet && readersMet && mix.advance.stopStatus === 200;
}

/** Runs the soak; returns whether every target was met. */
export async function runSoakBenchmark(): Promise<boolean> {
  const folder = mkdtempSync(join(tmpdir(), 'computesim-soak-'));
  const file = join(folder, 'state.jsonl');
  try {
    const server = await startServe(['--state-file', file], INSPECTED);
    const preparing = process.hrtime.bigint();
    await prepare(server);
    const events = await eventCount(server);
    console.log(
      `\nsoak: serve --state-file, ${SECONDS} s of ${READERS} stalled readers, the report and view, ` +
        `${WRITERS} writers and a running advance`,
    );
    row(
      'prepared state',
      `${events.toLocaleString('en-US')} events (${PROJECTS} projects advanced ` +
        `${PREPARED_BY}) in ${since(preparing).toFixed(1)} s`,
    );
    row('machine load average', `${load()} (1 / 5 / 15 min) before the soak`);
    const memory = sampleResidentMemory(server.child.pid as number);
    const mix = await runSoakMix(server, {
      readers: READERS,
      replaceDropped: true,
      writers: WRITERS,
      advanceBy: SOAK_ADVANCE,
      stopWhen: () => new Promise((resolve) => setTimeout(resolve, SECONDS * 1000)),
    });
    const rss = memory.stop();
    const after = await eventCount(server);
    const soakedHeap = await heapAfterFullCollection(inspectorUrl(server.stderr()));
    const soakedRss = residentBytes(server.child.pid as number);
    let met = printMix(mix, rss);
    row('machine load average', `${load()} after the soak`);
    row(
      'state after',
      `${after.toLocaleString('en-US')} events (+${(after - events).toLocaleString('en-US')} in the soak)`,
    );

    await server.kill();
    const restarting = process.hrtime.bigint();
    const restarted = await startServe(['--state-file', file], INSPECTED);
    const restartSeconds = since(restarting);
    const lost = await lostWrites(restarted.call, mix.acked);
    const lostMet = lost.length === 0;
    met &&= lostMet;
    row(
      'after SIGKILL and restart',
      `${lost.length} of ${mix.acked.count.toLocaleString('en-US')} acknowledged writes lost ` +
        `(restart ${restartSeconds.toFixed(1)} s; target: none lost: ${verdict(lostMet)})`,
    );
    for (const line of lost.slice(0, 10)) console.log(`  lost: ${line}`);
    const fresh = residentBytes(restarted.child.pid as number);
    const freshHeap = await heapAfterFullCollection(inspectorUrl(restarted.stderr()));
    const beyond = (soakedHeap - freshHeap) / MB;
    const heapMet = beyond <= HEAP_BEYOND_STATE_MB;
    met &&= heapMet;
    row(
      'heap beyond the state',
      `after a full collection: ${(soakedHeap / MB).toFixed(0)} MB at the end of the soak, ` +
        `${(freshHeap / MB).toFixed(0)} MB for a server started afresh on the same file and asked ` +
        `for every write: ${beyond.toFixed(0)} MB (target: ≤ ${HEAP_BEYOND_STATE_MB} MB: ${verdict(heapMet)})`,
    );
    row(
      'RSS beside it',
      `${(rss.end / MB).toFixed(0)} MB at the end of the soak (${(soakedRss / MB).toFixed(0)} MB ` +
        `after the collection), ${(fresh / MB).toFixed(0)} MB for the fresh server`,
    );
    await restarted.stop();
    return met;
  } finally {
    killAllServeProcesses();
    rmSync(folder, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runSoakBenchmark();
