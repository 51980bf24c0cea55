/**
 * computesim's public API. Exports are listed by name; anything not here is internal. Sections:
 * the simulation, time and randomness, rules and profile, state and events, workloads, metrics,
 * studies, scenarios and reports. The generic engine underneath is `computesim/engine`; the testing
 * toolkit is `computesim/testing`. Loading this entry loads no worker threads and no file system
 * code until a function that needs them is called.
 */

// The simulation: create, drive, request, connect, replay.
export { Simulation, DEFAULT_START, type SimulationOptions } from './simulation/simulation.js';
export { fetchHandler } from './service/fetchHandler.js';
export type { RunOptions } from './engine/engine.js';
export type { EventLog, LogKeeping } from './engine/eventLog.js';
export type { LogSink } from './engine/logStream.js';
export { LogFileSink } from './files/logFileSink.js';
export { LogFile, type LogFileScan } from './files/logFile.js';
export { parseJsonLines, type ParsedLog } from './engine/jsonLines.js';
export type { LoggedEvent, SimulationStarted } from './engine/loggedEvent.js';
export {
  ClockError,
  LogFormatError,
  LogUnavailableError,
  ReentrancyError,
  StepLimitError,
} from './engine/errors.js';
export type { ApiResponse, ErrorBody } from './api/apiResponse.js';
export type { RequestOptions } from './api/requestPipeline.js';
export type { Connection, ConnectionActivity, StatementResult } from './simulation/connection.js';

// Time and randomness.
export { formatDuration, parseDuration, tryParseDuration, type Duration } from './core/duration.js';
export { formatInstant, parseInstant, tryParseInstant, type Instant } from './core/instant.js';
export { RandomSource } from './core/randomSource.js';
export { ok, err, type Result } from './core/result.js';

// Rules and the profile.
export {
  DEFAULT_PROFILE,
  resolveProfile,
  type Profile,
  type ProfileOverrides,
  type LatencyProfile,
  type AutoscalingProfile,
  type ColdCacheProfile,
  CURRENT_PROFILE,
  PROFILE_NAMES,
  type ProfileChoice,
  type ProfileName,
  type ConnectionsProfile,
  type RateLimitsProfile,
} from './domain/profile.js';
export type { ConnectionLimits } from './domain/computeSize.js';
export { OPERATION_ACTIONS, type OperationAction } from './domain/operationAction.js';
export { OPERATION_STATUSES, isTerminal, type OperationStatus } from './domain/operationStatus.js';
export {
  COMPUTE_STATES,
  COMPUTE_TYPES,
  type ComputeState,
  type ComputeType,
} from './domain/computeState.js';
export type { Rejection, RejectionKind } from './domain/rejection.js';

// State and events.
export type {
  SimState,
  ProjectState,
  BranchState,
  EndpointState,
  OperationState,
} from './model/state.js';
export type {
  SimEvent,
  DomainEvent,
  SettingsChanged,
  ComputeSettingsChange,
  WorkloadRatesChange,
} from './model/events.js';
export type { SettingsChange, ComputeChange, WorkloadChange } from './model/settingsChange.js';
export type { ForkOptions } from './simulation/fork.js';

// Workloads.
export type {
  WorkloadInput,
  PoissonInput,
  CronInput,
  WorkerInput,
  BurstInput,
  TraceInput,
  TraceRow,
  SessionInput,
  WorkloadSpec,
} from './workload/workloadSpec.js';
export type { DistributionInput } from './workload/distribution.js';
export { officeHours, type DailyRates, type RatesInput } from './workload/dailyRates.js';
export { parseTrace } from './workload/traceFile.js';

// Metrics and projections of a log.
export {
  metricsOf,
  MetricsProjection,
  type FollowedRun,
  DEFAULT_PRICE_PER_CU_HOUR,
  type Metrics,
  type MetricsOptions,
  type FleetMetrics,
  type ComputeMetrics,
} from './projection/metrics.js';
export type { Percentiles } from './projection/percentiles.js';
export { timeSeriesOf, type TimeSample, type TimeSeriesOptions } from './projection/timeSeries.js';
export { lifecycleOf, matchesLifecycle, type LifecycleOptions } from './projection/lifecycle.js';

// Studies: compare configurations, sweep grids.
export { compare, comparisonTable, type Comparison, type ComparisonRow } from './study/compare.js';
export {
  compareFork,
  forkTable,
  AS_RUN,
  type CompareForkOptions,
  type ForkComparison,
} from './study/forkComparison.js';
export {
  defineStudy,
  type Configuration,
  type Study,
  type StudyDefinition,
  type Params,
  type ParamValue,
  type ParamLabel,
} from './study/study.js';
export { runStudy, playStudy } from './study/runStudy.js';
export {
  pairedComparison,
  pairedTable,
  type PairedComparison,
  type PairedArm,
} from './study/pairedComparison.js';
export { sweep, sweepStudyFile, type FileSweepOptions } from './study/sweep.js';
export type { SweepOptions, SweepProgress } from './study/sweepPlan.js';
export type { SweepResult, SweepPoint, SweepRun } from './study/sweepResult.js';
export { meanInterval, type MeanInterval } from './study/interval.js';
export { FIGURES, type Figure } from './study/figures.js';
export { sweepTable, sweepCsv } from './study/sweepOutput.js';
export { sweepShardOfFile } from './study/sweep.js';
export { mergeSweepParts, type Shard, type SweepPart } from './study/sweepShard.js';
// Fleets: independent projects split by project range across threads, shards and queue workers.
export { defineFleet, type FleetDefinition } from './study/fleet.js';
export { runFleet, runFleetRange, fleetResult, type FleetResult } from './study/fleetRun.js';
export { runFleetFile, fleetShardOfFile, type FleetFileOptions } from './study/fleetFile.js';
export type { FleetPart } from './study/fleetPart.js';

// Scenarios and reports.
export { defineScenario, type ScenarioDefinition } from './scenario/scenario.js';
export type {
  ScenarioScript,
  When,
  EveryOptions,
  OperationRef,
  PolledOperation,
} from './scenario/scenarioScript.js';
export {
  runScenario,
  type RunScenarioOptions,
  type ScenarioRun,
  type RunInfo,
} from './scenario/runScenario.js';
export { TIMELINE_KINDS, type TimelineEntry, type TimelineKind } from './scenario/timelineEntry.js';
export { runText } from './report/runText.js';
export { metricsSummary } from './report/metricsSummary.js';
export type { ConnectionsOptions, LifecycleWindow } from './scenario/scenarioScript.js';
