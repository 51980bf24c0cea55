/**
 * What-if comparisons: the same study (world, workloads, span) under several configurations with the
 * same seed. Workload sessions depend on the seed alone (common random numbers), so differences in
 * the results come from the configurations, not from luck. Prints a side-by-side table with deltas.
 */
import { parseDuration, type Duration } from '../core/duration.js';
import type { Instant } from '../core/instant.js';
import type { ProfileOverrides } from '../domain/profile.js';
import { Simulation } from '../engine/simulation.js';
import { metricsOf, type FleetMetrics } from './metrics.js';

/** One configuration of a comparison: a name, profile overrides, and anything the study reads. */
export interface Configuration<P = unknown> {
  readonly name: string;
  readonly profile?: ProfileOverrides;
  /** Study-specific settings (for example the compute settings to create), passed to `setup`. */
  readonly params?: P;
}

/** A study to run under each configuration. */
export interface Study<P = unknown> {
  readonly seed?: number;
  readonly start?: Instant;
  /** How long each run lasts after setup. */
  readonly duration: Duration;
  /** Builds the world and attaches workloads (the same calls for every configuration). */
  readonly setup: (sim: Simulation, configuration: Configuration<P>) => void;
  readonly pricePerCuHour?: number;
}

/** The results of one configuration. */
export interface ComparisonRow {
  readonly name: string;
  readonly fleet: FleetMetrics;
}

/** The results of a comparison, in configuration order (the first is the baseline). */
export interface Comparison {
  readonly rows: readonly ComparisonRow[];
}

/** Runs `study` under each configuration (at least one) and collects the fleet metrics. */
export function compare<P>(
  study: Study<P>,
  configurations: readonly Configuration<P>[],
): Comparison {
  if (configurations.length === 0) throw new RangeError('compare: give at least one configuration');
  const names = new Set(configurations.map((c) => c.name));
  if (names.size !== configurations.length)
    throw new RangeError('compare: configuration names must be unique');
  const duration = parseDuration(study.duration);
  const rows = configurations.map((configuration) => {
    const sim = new Simulation({
      seed: study.seed ?? 1,
      ...(study.start === undefined ? {} : { start: study.start }),
      ...(configuration.profile === undefined ? {} : { profile: configuration.profile }),
    });
    study.setup(sim, configuration);
    sim.advance(duration, { stepLimit: Number.MAX_SAFE_INTEGER });
    const options =
      study.pricePerCuHour === undefined ? {} : { pricePerCuHour: study.pricePerCuHour };
    return { name: configuration.name, fleet: metricsOf(sim.log, options).fleet };
  });
  return { rows };
}

/** The figures a comparison table shows, in order. */
const FIGURES: readonly {
  readonly label: string;
  readonly value: (m: FleetMetrics) => number;
  readonly digits: number;
}[] = [
  { label: 'CU-hours', value: (m) => m.cuHours, digits: 1 },
  { label: 'cost estimate', value: (m) => m.costEstimate, digits: 2 },
  { label: 'active compute-hours', value: (m) => m.activeHours, digits: 1 },
  { label: 'starts', value: (m) => m.starts, digits: 0 },
  { label: 'suspends', value: (m) => m.suspends, digits: 0 },
  { label: 'autoscaling moves', value: (m) => m.resizes, digits: 0 },
  { label: 'sessions', value: (m) => m.sessions, digits: 0 },
  { label: 'cold starts felt', value: (m) => m.coldStarts, digits: 0 },
  { label: 'cold-start wait p50 (ms)', value: (m) => m.coldStartWaitMs.p50, digits: 0 },
  { label: 'cold-start wait p95 (ms)', value: (m) => m.coldStartWaitMs.p95, digits: 0 },
  { label: 'cold-start wait p99 (ms)', value: (m) => m.coldStartWaitMs.p99, digits: 0 },
  { label: 'cold-cache delay p95 (ms)', value: (m) => m.coldCacheDelayMs.p95, digits: 0 },
  { label: 'connections refused', value: (m) => sum(m.refused), digits: 0 },
  { label: 'connections dropped', value: (m) => sum(m.dropped), digits: 0 },
  { label: 'operations', value: (m) => sumNested(m.operations), digits: 0 },
  { label: 'requests refused 423', value: (m) => m.lockedRequests, digits: 0 },
];

/** A plain-text table: one column per configuration, each after the first with its delta. */
export function comparisonTable(comparison: Comparison): string {
  const [baseline] = comparison.rows;
  if (baseline === undefined) return '';
  const header = ['', ...comparison.rows.map((r, i) => (i === 0 ? r.name : `${r.name} (Δ)`))];
  const lines = FIGURES.map((figure) => {
    const base = figure.value(baseline.fleet);
    return [
      figure.label,
      ...comparison.rows.map((row, i) => {
        const value = figure.value(row.fleet);
        const text = format(value, figure.digits);
        return i === 0 ? text : `${text} (${delta(value, base, figure.digits)})`;
      }),
    ];
  });
  const table = [header, ...lines];
  const widths = header.map((_, c) => Math.max(...table.map((line) => (line[c] ?? '').length)));
  return table
    .map((line) =>
      line
        .map((cell, c) => (c === 0 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0)))
        .join('  '),
    )
    .join('\n');
}

function format(value: number, digits: number): string {
  return value.toLocaleString('en-US', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

function delta(value: number, base: number, digits: number): string {
  const difference = value - base;
  const sign = difference > 0 ? '+' : difference < 0 ? '−' : '±';
  const percent = base === 0 ? '' : `, ${sign}${Math.abs((difference / base) * 100).toFixed(0)}%`;
  return `${sign}${format(Math.abs(difference), digits)}${percent}`;
}

function sum(table: Readonly<Record<string, number>>): number {
  return Object.values(table).reduce((a, b) => a + b, 0);
}

function sumNested(table: Readonly<Record<string, Readonly<Record<string, number>>>>): number {
  return Object.values(table).reduce((a, inner) => a + sum(inner), 0);
}
