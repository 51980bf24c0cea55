/**
 * The documented recipe, run over the corpus: each run a generated timeline with faults
 * (`timeline({ maxSteps: 10, faults: faultProfile() })`), a `SimHarness` with its seed and faults,
 * the entry's setup made on the simulation, the client run with the timeline alongside within a
 * day, then the default oracles over the record and the monitors over the log; and whether the
 * client's job succeeded (it returned without throwing). A run fails when any of these says so.
 *
 * The recipe's second property, under `faultProfile({ preset: 'harsh' })`: operations may end in
 * error or stay stuck for days, so a careful job may fail, but its client reports and ends: a run
 * fails only when the client does not end within its span, 6 hours here (it waits forever). The oracles and
 * monitors judge the first property, where a careful client's job succeeds.
 */
import fc from 'fast-check';
import {
  clientProperty,
  ClientPropertyError,
  faultProfile,
  timeline,
  type ClientProperty,
  type ClientVerdict,
  type Timeline,
} from '../../../src/testing/index.js';
import { BUG_CLIENTS, CAREFUL_CLIENTS, type CorpusEntry } from './index.js';

/** How hard the faults are: the recipe's first property, or its second. */
export type Preset = 'honest' | 'harsh';

/** The worlds of the recipe, by preset. */
const WORLDS: Readonly<Record<Preset, fc.Arbitrary<Timeline>>> = {
  honest: timeline({ maxSteps: 10, faults: faultProfile() }),
  harsh: timeline({ maxSteps: 10, faults: faultProfile({ preset: 'harsh' }) }),
};

/** The seed every corpus check starts fast-check from. */
export const CORPUS_SEED = 47;

/** What one run of a client came to (`clientProperty`'s verdict). */
export type Verdict = ClientVerdict;

const PROPERTIES = new Map<string, ClientProperty<unknown>>();

/**
 * The recipe for one entry as a `clientProperty` named after the client: its setup, its job, the
 * worlds of `preset`; the first property expects the job to succeed and judges it with the default
 * oracles and monitors, the second only expects it to end.
 */
export function corpusProperty(name: string, preset: Preset = 'honest'): ClientProperty<unknown> {
  const key = `${name}/${preset}`;
  const known = PROPERTIES.get(key);
  if (known !== undefined) return known;
  const entry = [...BUG_CLIENTS, ...CAREFUL_CLIENTS].find((e) => e.name === name);
  if (entry === undefined) throw new RangeError(`no corpus client is called ${name}`);
  const property = clientProperty({
    name: entry.name,
    setup: entry.prepare,
    client: (ctx, job) => job(ctx),
    worlds: WORLDS[preset],
    expect: preset === 'honest' ? 'success' : 'end',
    // A client with no deadline polls until the run's end: a shorter span makes each of its runs
    // (and its shrinking) a quarter as long, and a careful client's deadlines are far inside it.
    within: preset === 'honest' ? '1d' : '6h',
  });
  PROPERTIES.set(key, property);
  return property;
}

/** Runs `entry` once in `world` and judges it (under the harsh preset: only whether it ended). */
export function judge(
  entry: CorpusEntry,
  world: Timeline,
  preset: Preset = 'honest',
): Promise<Verdict> {
  return corpusProperty(entry.name, preset).judge(world);
}

/** The recipe as a property: it fails when an oracle, a monitor or the job's outcome says so. */
export function recipe(
  entry: CorpusEntry,
  onRun: (verdict: Verdict) => void = () => {},
  preset: Preset = 'honest',
): fc.IAsyncPropertyWithHooks<[Timeline]> {
  return fc.asyncProperty(WORLDS[preset], async (world) => {
    const verdict = await judge(entry, world, preset);
    onRun(verdict);
    if (verdict.labels.length > 0) throw new ClientPropertyError(entry.name, world, verdict);
  });
}

/** What looking for a bug client's bug came to. */
export interface BugSearch {
  /** The property whose runs these are: the recipe's first (`honest`) or its second (`harsh`). */
  readonly preset: Preset;
  /** A run failed and it showed this bug (see `CorpusEntry.shows`). */
  readonly found: boolean;
  /** A run failed (for this bug or another reason). */
  readonly failed: boolean;
  /** Runs up to and including the first failure (all of them when none failed). */
  readonly runs: number;
  /** The first failing run's verdict. */
  readonly first?: Verdict;
  /** The shrunk counterexample: its steps and its verdict (when shrinking). */
  readonly shrunk?: { readonly steps: number; readonly verdict: Verdict; readonly world: Timeline };
  readonly seconds: number;
}

/**
 * Runs the recipe on a bug client until a run fails (at most `numRuns`), then shrinks it: its
 * first property, then, when that found nothing, its second (the runs are that property's).
 */
export async function searchBug(
  entry: CorpusEntry,
  options: { readonly numRuns: number; readonly shrink: boolean },
): Promise<BugSearch> {
  const honest = await searchWith(entry, options, 'honest');
  if (honest.found) return honest;
  const harsh = await searchWith(entry, options, 'harsh');
  return harsh.found
    ? { ...harsh, seconds: honest.seconds + harsh.seconds }
    : { ...honest, seconds: honest.seconds + harsh.seconds };
}

async function searchWith(
  entry: CorpusEntry,
  options: { readonly numRuns: number; readonly shrink: boolean },
  preset: Preset,
): Promise<BugSearch> {
  const started = performance.now();
  let first: Verdict | undefined;
  const details = await fc.check(
    recipe(
      entry,
      (verdict) => {
        if (first === undefined && verdict.labels.length > 0) first = verdict;
      },
      preset,
    ),
    { numRuns: options.numRuns, seed: CORPUS_SEED, endOnFailure: !options.shrink },
  );
  const counterexample = details.counterexample?.[0];
  const shrunk =
    options.shrink && counterexample !== undefined
      ? {
          steps: counterexample.steps.length,
          verdict: await judge(entry, counterexample, preset),
          world: counterexample,
        }
      : undefined;
  const shows = entry.shows ?? ((verdict: Verdict) => verdict.findings.length > 0);
  return {
    preset,
    found: details.failed && first !== undefined && shows(first),
    failed: details.failed,
    runs: details.numRuns,
    ...(first === undefined ? {} : { first }),
    ...(shrunk === undefined ? {} : { shrunk }),
    seconds: (performance.now() - started) / 1000,
  };
}

/** What running a careful client many times came to. */
export interface CarefulTally {
  readonly runs: number;
  /** Runs with an oracle finding or a monitor violation. */
  readonly withFindings: number;
  /** Runs whose job did not return (threw, timed out, got stuck or busy). */
  readonly jobsFailed: number;
  /** Findings by oracle or monitor name, and failed jobs by outcome. */
  readonly byLabel: ReadonlyMap<string, number>;
  /** The first run with a finding, and the first whose job failed. */
  readonly firstFinding?: Verdict;
  readonly firstJobFailure?: Verdict;
  /** Why jobs failed: the error's first line, counted. */
  readonly failures: ReadonlyMap<string, number>;
  readonly seconds: number;
}

/** Runs the recipe on a careful client `numRuns` times, counting what fails. */
export async function tallyCareful(
  entry: CorpusEntry,
  options: { readonly numRuns: number; readonly preset?: Preset },
): Promise<CarefulTally> {
  const preset = options.preset ?? 'honest';
  const started = performance.now();
  let runs = 0;
  let withFindings = 0;
  let jobsFailed = 0;
  const byLabel = new Map<string, number>();
  const failures = new Map<string, number>();
  let firstFinding: Verdict | undefined;
  let firstJobFailure: Verdict | undefined;
  const count = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
  await fc.check(
    fc.asyncProperty(WORLDS[preset], async (world) => {
      const verdict = await judge(entry, world, preset);
      runs += 1;
      for (const label of verdict.labels) count(byLabel, label);
      if (verdict.findings.length > 0 || verdict.violation !== undefined) {
        withFindings += 1;
        firstFinding ??= verdict;
      }
      // Under the harsh preset a job may fail; its client must still end.
      const failed =
        preset === 'harsh'
          ? verdict.run.outcome !== 'returned' && verdict.run.outcome !== 'threw'
          : verdict.run.outcome !== 'returned';
      if (failed) {
        jobsFailed += 1;
        firstJobFailure ??= verdict;
        count(
          failures,
          verdict.run.outcome === 'threw' ? errorText(verdict.run.error) : verdict.run.outcome,
        );
      }
    }),
    { numRuns: options.numRuns, seed: CORPUS_SEED },
  );
  return {
    runs,
    withFindings,
    jobsFailed,
    byLabel,
    ...(firstFinding === undefined ? {} : { firstFinding }),
    ...(firstJobFailure === undefined ? {} : { firstJobFailure }),
    failures,
    seconds: (performance.now() - started) / 1000,
  };
}

/** An error's first line. */
export function errorText(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.split('\n')[0] ?? text;
}
