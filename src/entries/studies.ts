/**
 * `computesim/studies`: capacity studies and reports. Compare configurations (side by side, as a
 * fork, paired), define and sweep studies over grids of settings and seeds (worker threads, shards,
 * merged parts), split fleets by project range, read a log's metrics as it runs, its time series and
 * lifecycles, and render a run as text. The root's `metricsOf` is the way in.
 */
export { compare, comparisonTable, type Comparison, type ComparisonRow } from '../study/compare.js';
export {
  compareFork,
  forkTable,
  AS_RUN,
  type CompareForkOptions,
  type ForkComparison,
} from '../study/forkComparison.js';
export {
  defineStudy,
  type Configuration,
  type Study,
  type StudyDefinition,
  type Params,
  type ParamValue,
  type ParamLabel,
} from '../study/study.js';
export { runStudy, playStudy } from '../study/runStudy.js';
export {
  pairedComparison,
  pairedTable,
  type PairedComparison,
  type PairedArm,
} from '../study/pairedComparison.js';
export { sweep, sweepStudyFile, sweepShardOfFile, type FileSweepOptions } from '../study/sweep.js';
export type { SweepOptions, SweepProgress } from '../study/sweepPlan.js';
export type { SweepResult, SweepPoint, SweepRun } from '../study/sweepResult.js';
export { meanInterval, type MeanInterval } from '../study/interval.js';
export { FIGURES, type Figure } from '../study/figures.js';
export { sweepTable, sweepCsv } from '../study/sweepOutput.js';
export { mergeSweepParts, type Shard, type SweepPart } from '../study/sweepShard.js';
export { defineFleet, type FleetDefinition } from '../study/fleet.js';
export { runFleet, runFleetRange, fleetResult, type FleetResult } from '../study/fleetRun.js';
export { runFleetFile, fleetShardOfFile, type FleetFileOptions } from '../study/fleetFile.js';
export type { FleetPart } from '../study/fleetPart.js';
export {
  MetricsProjection,
  DEFAULT_PRICE_PER_CU_HOUR,
  type FollowedRun,
  type MetricsOptions,
  type FleetMetrics,
  type ComputeMetrics,
} from '../projection/metrics.js';
export type { Percentiles } from '../projection/percentiles.js';
export { timeSeriesOf, type TimeSample, type TimeSeriesOptions } from '../projection/timeSeries.js';
export { lifecycleOf, matchesLifecycle, type LifecycleOptions } from '../projection/lifecycle.js';
export { runText } from '../report/runText.js';
export { metricsSummary } from '../report/metricsSummary.js';
