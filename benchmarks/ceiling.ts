/**
 * The engine's ceiling under the region-sized fleet: two busy hours of the 10,000-compute fleet's
 * own events (support/engineCeiling.ts) played through the engine and its log with no control
 * plane, with the log in memory, streamed to a file as `fleet-30d-10k` does, and kept nowhere; then
 * the same events with every id (a string field whose key ends in `Id`) replaced by a small
 * integer, which no lookup in the log's string table has to find. Interleaved rounds, medians.
 * The played events are colder in the cache than a live run's; the integer ids take away the
 * lookups a live run must do: the two bound what this engine and log cost that fleet an event.
 *
 * Run: npm run bench -- ceiling   (FLEET_PROJECTS shrinks the fleet)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LogFileSink, type Simulation } from '../src/index.js';
import type { LoggedEvent } from '../src/engine/index.js';
import type { LogKeeping } from '../src/engine/eventLog.js';
import { captureEvents, playThroughEngine, type CapturedEvents } from './support/engineCeiling.js';
import { buildFleet, runFleet } from './support/fleet.js';
import { median, wholeFromEnv } from './support/measure.js';

const PROJECTS = wholeFromEnv('FLEET_PROJECTS', 10_000);
/** The 10,000-compute month's events (deterministic for the benchmark fleet's seed) and its target. */
const MONTH_EVENTS_10K = 189_752_237;
const TARGET_SECONDS = 300;
/** Live timers the 10,000-compute fleet keeps in a busy hour (about five a compute). */
const TIMERS_PER_PROJECT = 5;
const PLAYED = 4_000_000;
const ROUNDS = 3;

/** Two busy hours (10:00 to 12:00 of the second day) of `sim`'s events, copied afresh. */
function busyHours(sim: Simulation): CapturedEvents {
  runFleet(sim, 1);
  sim.advance('10h');
  const captured = captureEvents(sim, () => sim.advance('2h'));
  return captured.map((event) => withFields(event, (_key, value) => value));
}

/** A copy of `event` whose every field is `map(key, value)`. */
function withFields(
  event: LoggedEvent,
  map: (key: string, value: unknown) => unknown,
): LoggedEvent {
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(event)) copy[key] = map(key, value);
  return copy as unknown as LoggedEvent;
}

/** `events` with each id (a string under a key ending in `Id`) replaced by a small integer. */
function withIntegerIds(events: CapturedEvents): CapturedEvents {
  const handles = new Map<string, number>();
  const handleOf = (id: string): number => {
    let handle = handles.get(id);
    if (handle === undefined) handles.set(id, (handle = handles.size));
    return handle;
  };
  return events.map((event) =>
    withFields(event, (key, value) =>
      key.endsWith('Id') && typeof value === 'string' ? handleOf(value) : value,
    ),
  );
}

/** Runs the ceiling benchmark; it has no target of its own (it bounds fleet-30d-10k's). */
export function runCeilingBenchmark(): boolean {
  const sim = buildFleet(PROJECTS, 'none', undefined, { operationRetentionMs: 86_400_000 });
  const events = busyHours(sim);
  const integerIds = withIntegerIds(events);
  const timers = Math.min(PROJECTS * TIMERS_PER_PROJECT, PLAYED);
  const dir = mkdtempSync(join(tmpdir(), 'computesim-ceiling-'));
  const cases: readonly {
    readonly name: string;
    readonly events: CapturedEvents;
    readonly log: () => LogKeeping;
  }[] = [
    { name: 'string ids, log in memory', events, log: () => 'memory' },
    {
      name: 'string ids, log streamed to a file',
      events,
      log: () => LogFileSink.create(join(dir, 'ceiling.csimlog')),
    },
    { name: 'string ids, no log', events, log: () => 'none' },
    { name: 'integer ids, log in memory', events: integerIds, log: () => 'memory' },
    { name: 'integer ids, no log', events: integerIds, log: () => 'none' },
  ];
  const samples = cases.map(() => [] as number[]);
  try {
    for (let round = 0; round < ROUNDS; round++)
      cases.forEach((c, i) => {
        const log = c.log();
        const run = playThroughEngine(c.events, PLAYED, log, timers);
        if (typeof log === 'object') log.close?.();
        samples[i]?.push((run.seconds * 1e6) / run.events);
      });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(
    `\nEngine ceiling: ${events.length.toLocaleString('en-US')} events of ${PROJECTS.toLocaleString('en-US')} computes' ` +
      `two busy hours, ${PLAYED.toLocaleString('en-US')} played per sample with ${timers.toLocaleString('en-US')} live timers (median of ${ROUNDS})`,
  );
  const month = PROJECTS === 10_000 ? MONTH_EVENTS_10K : undefined;
  cases.forEach((c, i) => {
    const micros = median(samples[i] ?? []);
    const monthText =
      month === undefined
        ? ''
        : `: the 10,000-compute month ${((micros * month) / 1e6).toFixed(0)} s`;
    console.log(`${c.name.padEnd(36)} ${micros.toFixed(2)} µs an event${monthText}`);
  });
  if (month !== undefined)
    console.log(
      `fleet-30d-10k's target (${TARGET_SECONDS} s for ${month.toLocaleString('en-US')} events) is ` +
        `${((TARGET_SECONDS * 1e6) / month).toFixed(2)} µs an event, control plane included`,
    );
  return true;
}

if (import.meta.url === `file://${process.argv[1]}`) runCeilingBenchmark();
