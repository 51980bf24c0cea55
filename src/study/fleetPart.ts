/**
 * What a range of a fleet's projects measured, in a form that merges exactly: counts add up, sums of
 * fractions are exact sums (the same total whatever the split), distributions are latency histograms.
 * Parts of disjoint ranges merge into a part of their union; a part of every project gives the
 * fleet's metrics.
 */
import { ExactSum } from '../core/exactSum.js';
import type { FleetMetrics, SampledFigure } from '../projection/metrics.js';
import { LatencyHistogram } from './latencyHistogram.js';

const COUNTS = [
  'computes',
  'starts',
  'suspends',
  'resizes',
  'sessions',
  'coldStarts',
  'operationRetries',
  'lockedRequests',
] as const;
const SUMS = ['cuHours', 'activeHours'] as const;
const TABLES = ['refused', 'dropped', 'failedStatements'] as const;

/** The format tag of fleet part files. */
const FLEET_PART_FORMAT = 'computesim-fleet-part/1';

/** What identifies a fleet run: parts merge only when theirs are equal. */
export interface FleetMeta {
  readonly fleet: string;
  readonly description?: string;
  readonly projects: number;
  readonly seed: number;
  readonly duration: string | number;
  readonly pricePerCuHour: number;
}

/** A mergeable measurement of some of a fleet's projects. Plain data (JSON, threads, queues). */
export interface FleetPart {
  readonly format: typeof FLEET_PART_FORMAT;
  readonly meta: FleetMeta;
  /** The project ranges `[from, to)` measured, in order, disjoint. */
  readonly ranges: readonly (readonly [number, number])[];
  readonly from: number;
  readonly until: number;
  readonly counts: Readonly<Record<(typeof COUNTS)[number], number>>;
  /** Exact-sum partials (see `ExactSum`). */
  readonly sums: Readonly<Record<(typeof SUMS)[number], readonly number[]>>;
  readonly tables: Readonly<Record<(typeof TABLES)[number], Readonly<Record<string, number>>>>;
  readonly operations: Readonly<Record<string, Readonly<Record<string, number>>>>;
  /** Encoded `LatencyHistogram`s. */
  readonly histograms: Readonly<Record<SampledFigure, string>>;
}

/** A running tally of projects' metrics that becomes a `FleetPart`. */
export class FleetTally {
  readonly #counts = Object.fromEntries(COUNTS.map((k) => [k, 0])) as Record<
    (typeof COUNTS)[number],
    number
  >;
  readonly #sums = { cuHours: new ExactSum(), activeHours: new ExactSum() };
  readonly #tables = { refused: {}, dropped: {}, failedStatements: {} } as Record<
    (typeof TABLES)[number],
    Record<string, number>
  >;
  readonly #operations: Record<string, Record<string, number>> = {};
  readonly #histograms = {
    coldStartWaitMs: LatencyHistogram.empty(),
    coldCacheDelayMs: LatencyHistogram.empty(),
  };
  #ranges: [number, number][] = [];
  #from = Number.POSITIVE_INFINITY;
  #until = Number.NEGATIVE_INFINITY;

  constructor(readonly meta: FleetMeta) {}

  /** Adds one project's metrics (its samples go through `record`). */
  addProject(index: number, metrics: FleetMetrics): void {
    this.#cover(index, index + 1);
    this.#span(metrics.from, metrics.until);
    for (const key of COUNTS) this.#counts[key] += metrics[key];
    for (const key of SUMS) this.#sums[key].add(metrics[key]);
    for (const key of TABLES) addTable(this.#tables[key], metrics[key]);
    for (const [action, byStatus] of Object.entries(metrics.operations))
      addTable((this.#operations[action] ??= {}), byStatus);
  }

  /** Records one sample of a distribution. */
  record(figure: SampledFigure, ms: number): void {
    this.#histograms[figure].record(ms);
  }

  /** Adds a part of other projects of the same fleet (a `RangeError` for another fleet's). */
  merge(part: FleetPart): void {
    if (JSON.stringify(part.meta) !== JSON.stringify(this.meta))
      throw new RangeError(
        `a part of another fleet run (${part.meta.fleet}, ${part.meta.projects} projects, seed ${part.meta.seed}, ${String(part.meta.duration)})`,
      );
    for (const [from, to] of part.ranges) this.#cover(from, to);
    if (part.ranges.length > 0) this.#span(part.from, part.until);
    for (const key of COUNTS) this.#counts[key] += part.counts[key];
    for (const key of SUMS) this.#sums[key].merge(new ExactSum(part.sums[key]));
    for (const key of TABLES) addTable(this.#tables[key], part.tables[key]);
    for (const [action, byStatus] of Object.entries(part.operations))
      addTable((this.#operations[action] ??= {}), byStatus);
    for (const figure of ['coldStartWaitMs', 'coldCacheDelayMs'] as const)
      this.#histograms[figure].merge(LatencyHistogram.decode(part.histograms[figure]));
  }

  /** Whether the tally covers every project of the fleet. */
  complete(): boolean {
    return (
      this.#ranges.length === 1 &&
      this.#ranges[0]![0] === 0 &&
      this.#ranges[0]![1] === this.meta.projects
    );
  }

  /** The ranges covered so far. */
  ranges(): readonly (readonly [number, number])[] {
    return this.#ranges;
  }

  /** The tally as plain data. */
  part(): FleetPart {
    return {
      format: FLEET_PART_FORMAT,
      meta: this.meta,
      ranges: this.#ranges.map(([a, b]) => [a, b] as const),
      // An empty part (a shard with no projects) spans nothing; JSON has no infinities.
      from: this.#ranges.length === 0 ? 0 : this.#from,
      until: this.#ranges.length === 0 ? 0 : this.#until,
      counts: { ...this.#counts },
      sums: {
        cuHours: [...this.#sums.cuHours.partials],
        activeHours: [...this.#sums.activeHours.partials],
      },
      tables: {
        refused: sorted(this.#tables.refused),
        dropped: sorted(this.#tables.dropped),
        failedStatements: sorted(this.#tables.failedStatements),
      },
      operations: Object.fromEntries(
        Object.keys(this.#operations)
          .sort()
          .map((action) => [action, sorted(this.#operations[action]!)]),
      ),
      histograms: {
        coldStartWaitMs: this.#histograms.coldStartWaitMs.encode(),
        coldCacheDelayMs: this.#histograms.coldCacheDelayMs.encode(),
      },
    };
  }

  /**
   * The fleet-wide metrics of the projects tallied: sums and counts exact, percentiles within
   * `PERCENTILE_RELATIVE_ERROR` of the exact ones.
   */
  metrics(): FleetMetrics {
    const part = this.part();
    const cuHours = this.#sums.cuHours.total();
    return {
      from: part.from,
      until: part.until,
      computes: part.counts.computes,
      cuHours,
      activeHours: this.#sums.activeHours.total(),
      costEstimate: cuHours * this.meta.pricePerCuHour,
      pricePerCuHour: this.meta.pricePerCuHour,
      starts: part.counts.starts,
      suspends: part.counts.suspends,
      resizes: part.counts.resizes,
      sessions: part.counts.sessions,
      coldStarts: part.counts.coldStarts,
      coldStartWaitMs: this.#histograms.coldStartWaitMs.percentiles(),
      coldCacheDelayMs: this.#histograms.coldCacheDelayMs.percentiles(),
      refused: part.tables.refused,
      dropped: part.tables.dropped,
      failedStatements: part.tables.failedStatements,
      operations: part.operations,
      operationRetries: part.counts.operationRetries,
      lockedRequests: part.counts.lockedRequests,
    };
  }

  /** Adds `[from, to)` to the covered ranges; throws a `RangeError` when it overlaps one. */
  #cover(from: number, to: number): void {
    if (from < 0 || to > this.meta.projects || from >= to)
      throw new RangeError(`no projects [${from}, ${to}) in ${this.meta.projects}`);
    const overlap = this.#ranges.find(([a, b]) => from < b && a < to);
    if (overlap !== undefined)
      throw new RangeError(
        `projects ${from}-${to - 1} are measured twice (they overlap ${overlap[0]}-${overlap[1] - 1})`,
      );
    const ranges = [...this.#ranges, [from, to] as [number, number]].sort((x, y) => x[0] - y[0]);
    this.#ranges = ranges.reduce<[number, number][]>((joined, range) => {
      const last = joined[joined.length - 1];
      if (last !== undefined && last[1] === range[0]) last[1] = range[1];
      else joined.push([...range]);
      return joined;
    }, []);
  }

  #span(from: number, until: number): void {
    this.#from = Math.min(this.#from, from);
    this.#until = Math.max(this.#until, until);
  }
}

function addTable(into: Record<string, number>, table: Readonly<Record<string, number>>): void {
  for (const [key, n] of Object.entries(table)) into[key] = (into[key] ?? 0) + n;
}

function sorted(table: Readonly<Record<string, number>>): Record<string, number> {
  return Object.fromEntries(
    Object.keys(table)
      .sort()
      .map((key) => [key, table[key] as number]),
  );
}
