/**
 * The soak of issue 36 against a `serve` process, all at once: readers of `/_sim/events` that never
 * read, the report and the view of the whole run read again and again, writing clients keeping
 * what was acknowledged, and one long clock move under way the whole time (stopped at the end with
 * `DELETE /_sim/advance`). The benchmark runs it for a minute and times it; the system test runs
 * it small and checks only what it must find.
 */
import {
  AcknowledgedWrites,
  writeInLoop,
  writerFigures,
  type CallServer,
  type WriterFigures,
} from './acknowledgedWrites.js';
import { SERVE_KEY, type ServeProcess } from './serveProcess.js';
import { StalledReaderPool } from './stalledReaderPool.js';
import type { ReaderEnd } from './stalledReaders.js';

/** How the mix runs. */
export interface SoakMixOptions {
  /** Readers of the event stream stalled at once. */
  readonly readers: number;
  /** Whether a stalled reader the server lets go is replaced by a new one (a page reconnecting). */
  readonly replaceDropped: boolean;
  /** Writing clients. */
  readonly writers: number;
  /** The clock move under way meanwhile (`POST /_sim/advance`'s `by`): longer than the mix. */
  readonly advanceBy: string;
  /** Resolves when the mix is to stop, told how it goes. */
  readonly stopWhen: (progress: SoakProgress) => Promise<void>;
}

/** How a mix under way goes. */
export interface SoakProgress {
  readonly acked: AcknowledgedWrites;
  readonly readers: StalledReaderPool;
}

/** What a mix did and saw. */
export interface SoakMixResult {
  readonly acked: AcknowledgedWrites;
  readonly writes: WriterFigures;
  /** Readers opened in all, and how many of them the server let go while the mix ran. */
  readonly readers: { readonly opened: number; readonly dropped: number };
  /** How each reader open at the end found its stream when it read at last. */
  readonly readerEnds: readonly ReaderEnd[];
  /** Milliseconds each whole read took, of the report and of the view (failures counted apart). */
  readonly reads: { readonly report: number[]; readonly view: number[]; failed: number };
  /** The clock move's own answer (409 once stopped) and the stop's (`DELETE /_sim/advance`: 200). */
  readonly advance: { readonly status: number; readonly stopStatus: number };
}

/** How long a reader let go at the end may take to read what its socket holds and see the end. */
const LET_GO_GRACE_MS = 5_000;

/** Runs the mix against `server` (its key is `SERVE_KEY`). */
export async function runSoakMix(
  server: ServeProcess,
  options: SoakMixOptions,
): Promise<SoakMixResult> {
  const call: CallServer = (method, path, body) => server.call(method, path, body);
  const acked = new AcknowledgedWrites();
  const writes = writerFigures();
  let stopping = false;

  const clockNow = async () => (await call('GET', '/_sim/clock')).body?.['now_ms'] as number;
  const before = await clockNow();
  const advance = call('POST', '/_sim/advance', { by: options.advanceBy });
  // Everything else starts once the move is seen under way (the clock past where it was).
  const bound = Date.now() + 20_000;
  while ((await clockNow()) <= before)
    if (Date.now() > bound) throw new Error(`the clock never moved past ${before}`);

  const readers = new StalledReaderPool({
    pid: server.child.pid as number,
    base: server.base,
    key: SERVE_KEY,
    readers: options.readers,
    replaceDropped: options.replaceDropped,
  });
  const reads = readRepeatedly(call, () => stopping);
  const writers = Array.from({ length: options.writers }, (_, writer) =>
    writeInLoop(call, writer, acked, writes, () => stopping),
  );
  await options.stopWhen({ acked, readers });
  stopping = true;
  await Promise.all(writers);
  const readFigures = await reads;
  const stop = await call('DELETE', '/_sim/advance');
  const moved = await advance;
  readers.check();
  return {
    acked,
    writes,
    readers: { opened: readers.opened, dropped: readers.dropped },
    readerEnds: await readers.letGoAll(LET_GO_GRACE_MS),
    reads: readFigures,
    advance: { status: moved.status, stopStatus: stop.status },
  };
}

/** The report, then the view (a first window of lanes), again and again until `stopping()`. */
async function readRepeatedly(call: CallServer, stopping: () => boolean) {
  const figures = { report: [] as number[], view: [] as number[], failed: 0 };
  const timed = async (path: string, into: number[]) => {
    const started = performance.now();
    const { status } = await call('GET', path);
    if (status === 200) into.push(performance.now() - started);
    else figures.failed++;
  };
  while (!stopping()) {
    await timed('/_sim/report', figures.report);
    if (!stopping()) await timed('/_sim/view?first=0&count=12', figures.view);
  }
  return figures;
}
