/**
 * Running one case and judging it: the bystander's latencies and the server's RSS and threads from
 * the case's start to a few seconds after its hostile client is gone, printed as found; then every
 * case's row against the targets, in one table. The rows of a run are kept here, and only here.
 */
import { percentiles } from '../../src/projection/percentiles.js';
import { errorText, MB, mb, secondsSince, sleep, tally, within } from './common.js';
import { collectedResident, threadCount, watchMemory } from './memory.js';
import type { Intact, Target } from './targets.js';

/** The bystander's p99 (corrected for coordinated omission) a case may cost, at most. */
const P99_TARGET_MS = 100;
/** How far the server's RSS may stay above where it was before a case, at most. */
const RSS_TARGET_MB = 100;
/** How long after a case's hostile client is gone its RSS is read (and the bystander still runs). */
export const SETTLE_MS = 5_000;
/** The longest a case may take before it is reported as hung. */
const CASE_TIMEOUT_MS = 150_000;

/** What one case found of its hostile client. */
export interface CaseOutcome {
  /** What became of the hostile client, in words. */
  readonly outcome: string;
  /** Whether it ended as it should: refused or disconnected, and nothing else hung. */
  readonly clientOk: boolean;
  /** The victim's data, where the case touches it. */
  readonly data?: Intact;
}

/** A case's line of the summary. */
interface CaseRow {
  readonly id: string;
  readonly title: string;
  readonly outcome: CaseOutcome;
  /** The bystander's p99, corrected for coordinated omission (what the target is judged on). */
  readonly p99Ms: number;
  /** The p99 of the statements the bystander did send (a stall counts once). */
  readonly rawP99Ms: number;
  readonly maxMs: number;
  readonly statements: number;
  /** The API loop's p99 (corrected) and longest wait: the server's main thread alone. */
  readonly apiP99Ms: number;
  readonly apiMaxMs: number;
  readonly rss: {
    readonly before: number;
    readonly peak: number;
    readonly after: number;
    /** After a full collection in the server, forced through its inspector once `after` was read. */
    readonly collected: number | undefined;
  };
  /** The server's threads (each open branch database has one) before the case and after it. */
  readonly threads: { readonly before: number; readonly after: number };
  readonly alive: boolean;
  readonly seconds: number;
  /** A reference (no hostile client): shown, not judged. */
  readonly reference: boolean;
}

const signed = (megabytes: number) => `${megabytes >= 0 ? '+' : ''}${megabytes.toFixed(0)}`;

export const rows: CaseRow[] = [];

/**
 * Runs one case against `target`: the bystander's samples and the RSS from its start to
 * SETTLE_MS after the hostile client is gone; prints what it found.
 */
export async function runCase(
  target: Target,
  id: string,
  title: string,
  body: () => Promise<CaseOutcome>,
  reference = false,
): Promise<void> {
  const { server, bystander } = target;
  await bystander.take();
  const started = performance.now();
  const threadsBefore = threadCount(server.pid);
  const memory = watchMemory(server.pid);
  let outcome: CaseOutcome;
  if (!server.alive()) {
    outcome = { outcome: 'not run: the server is gone', clientOk: false };
  } else {
    try {
      outcome = await within(body(), CASE_TIMEOUT_MS, `case ${id}`);
    } catch (error) {
      outcome = { outcome: `FAILED: ${errorText(error)}`, clientOk: false };
    }
  }
  const seconds = secondsSince(started);
  if (server.alive()) await sleep(SETTLE_MS);
  const rss = memory.stop();
  const threads = { before: threadsBefore, after: threadCount(server.pid) };
  const samples = await bystander.take();
  const collected = await collectedResident(server);
  const latency = percentiles(samples.sql.latenciesMs);
  const corrected = percentiles(samples.sql.correctedMs);
  const api = percentiles(samples.api.correctedMs);
  const apiAsSent = percentiles(samples.api.latenciesMs);
  const row: CaseRow = {
    id,
    title,
    outcome,
    p99Ms: corrected.p99,
    rawP99Ms: latency.p99,
    maxMs: latency.max,
    statements: latency.count,
    apiP99Ms: api.p99,
    apiMaxMs: apiAsSent.max,
    rss: { ...rss, collected },
    threads,
    alive: server.alive(),
    seconds,
    reference,
  };
  rows.push(row);
  console.log(`\n${id.padEnd(4)}${title}  (${seconds.toFixed(1)} s)`);
  console.log(`    client:    ${outcome.outcome}${outcome.clientOk ? '' : '  [NOT AS EXPECTED]'}`);
  if (outcome.data !== undefined)
    console.log(
      `    data:      ${outcome.data.text}${outcome.data.ok ? '' : '  [LOST OR UNREADABLE]'}`,
    );
  console.log(
    `    bystander: p99 ${corrected.p99.toFixed(1)} ms corrected for coordinated omission ` +
      `(as sent: p50 ${latency.p50.toFixed(1)}, p99 ${latency.p99.toFixed(1)}, max ${latency.max.toFixed(1)} ms ` +
      `over ${latency.count} statements)` +
      `${samples.sql.errors.length === 0 ? '' : `; errors: ${tally(samples.sql.errors)}`}`,
  );
  console.log(
    `    API:       p99 ${api.p99.toFixed(1)} ms corrected, max ${apiAsSent.max.toFixed(1)} ms over ${apiAsSent.count} requests ` +
      `(GET /projects?limit=1: the main thread alone)` +
      `${samples.api.errors.length === 0 ? '' : `; errors: ${tally(samples.api.errors)}`}`,
  );
  console.log(
    `    RSS:       before ${mb(rss.before)}, peak ${mb(rss.peak)}, ${SETTLE_MS / 1000} s after ${mb(rss.after)} ` +
      `(${signed((rss.after - rss.before) / MB)} MB); after a full collection ` +
      `${collected === undefined ? '—' : `${mb(collected)} (${signed((collected - rss.before) / MB)} MB)`}; ` +
      `threads ${threads.before} → ${threads.after}`,
  );
  if (!row.alive) {
    console.log(`    SERVER GONE: ${JSON.stringify(server.exit())}; its last words:`);
    console.log(server.stderr().split('\n').slice(-15).join('\n'));
  }
}

/** Whether a row met every target. */
function judged(row: CaseRow) {
  const p99 = row.p99Ms <= P99_TARGET_MS && row.statements > 0;
  const rss = row.rss.after - row.rss.before <= RSS_TARGET_MB * MB;
  const client = row.outcome.clientOk;
  const data = row.outcome.data?.ok ?? true;
  // A reference row has no hostile client: only its figures are judged (for comparison).
  return {
    p99,
    rss,
    client,
    data,
    alive: row.alive,
    all: p99 && rss && client && data && row.alive,
  };
}

/** Prints every row against the targets, in case order; returns whether every judged row met them. */
export function printSummary(): boolean {
  console.log(
    `\nhostile: summary. Targets: the bystander's p99 (corrected for coordinated omission) ≤ ${P99_TARGET_MS} ms; ` +
      `RSS ${SETTLE_MS / 1000} s after − before ≤ ${RSS_TARGET_MB} MB; the client refused or disconnected; data intact; ` +
      'the server alive. Rows in parentheses have no hostile client: a reference, not judged. ' +
      '"as sent": the p99 of the statements the bystander sent; "max": its longest wait; "API": the p99 and longest wait ' +
      'of GET /projects?limit=1 beside it (the main thread alone). "GC Δ": RSS after a forced full collection − before. ' +
      'Only the first p99 and ΔRSS are judged. Times in ms, memory in MB.',
  );
  console.log(
    `${'case'.padEnd(5)}${'title'.padEnd(41)}${'client'.padEnd(7)}${'data'.padEnd(5)}` +
      `${'p99'.padStart(6)}${'as sent'.padStart(8)}${'max'.padStart(6)}${'API'.padStart(6)}${'max'.padStart(6)}  ` +
      `${'RSS before/peak/after'.padEnd(22)}${'ΔRSS'.padStart(5)}${'GC Δ'.padStart(6)}  verdict`,
  );
  let allMet = true;
  for (const row of [...rows].sort((x, y) => x.id.localeCompare(y.id, 'en', { numeric: true }))) {
    const verdict = judged(row);
    if (!row.reference) allMet &&= verdict.all;
    const missed = [
      verdict.p99 ? '' : 'p99',
      verdict.rss ? '' : 'RSS',
      verdict.client ? '' : 'client',
      verdict.data ? '' : 'data',
      verdict.alive ? '' : 'server died',
    ].filter(Boolean);
    const text = missed.length === 0 ? 'met' : `MISSED (${missed.join(', ')})`;
    const { before, peak, after, collected } = row.rss;
    const rss = `${(before / MB).toFixed(0)} / ${(peak / MB).toFixed(0)} / ${(after / MB).toFixed(0)}`;
    console.log(
      `${row.id.padEnd(5)}${row.title.slice(0, 40).padEnd(41)}` +
        `${(row.reference ? '—' : verdict.client ? 'ok' : 'NO').padEnd(7)}` +
        `${(row.outcome.data === undefined ? '—' : verdict.data ? 'ok' : 'LOST').padEnd(5)}` +
        `${row.p99Ms.toFixed(0).padStart(6)}${row.rawP99Ms.toFixed(0).padStart(8)}${row.maxMs.toFixed(0).padStart(6)}` +
        `${row.apiP99Ms.toFixed(0).padStart(6)}${row.apiMaxMs.toFixed(0).padStart(6)}  ` +
        `${rss.padEnd(22)}${signed((after - before) / MB).padStart(5)}` +
        `${(collected === undefined ? '—' : signed((collected - before) / MB)).padStart(6)}  ` +
        `${row.reference ? `(${text})` : text}`,
    );
  }
  return allMet;
}
