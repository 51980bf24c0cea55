/**
 * `computesim/model`: the model's vocabulary, for code that names it. The parts of the profile, the
 * rules' tables (operation actions and statuses, compute states and types), every state and event
 * type, settings changes, workload inputs, the options of the simulation's calls, and a scenario's
 * script, run and timeline. Most of these types are met through a value of the root entry;
 * import them from here to write them down.
 */
export {
  resolveProfile,
  CURRENT_PROFILE,
  PROFILE_NAMES,
  type ProfileChoice,
  type ProfileName,
  type LatencyProfile,
  type AutoscalingProfile,
  type ColdCacheProfile,
  type ConnectionsProfile,
  type RateLimitsProfile,
} from '../domain/profile.js';
export type { ConnectionLimits } from '../domain/computeSize.js';
export { OPERATION_ACTIONS, type OperationAction } from '../domain/operationAction.js';
export { OPERATION_STATUSES, isTerminal, type OperationStatus } from '../domain/operationStatus.js';
export {
  COMPUTE_STATES,
  COMPUTE_TYPES,
  type ComputeState,
  type ComputeType,
} from '../domain/computeState.js';
export type { Rejection, RejectionKind } from '../domain/rejection.js';
export type { DomainEvent } from '../model/events.js';
export type {
  SettingsChanged,
  ComputeSettingsChange,
  WorkloadRatesChange,
} from '../model/settingsEventTypes.js';
export type { SettingsChange, ComputeChange, WorkloadChange } from '../model/settingsChange.js';
export type { ForkOptions } from '../simulation/fork.js';
export type { LogKeeping } from '../engine/eventLog.js';
export type { LogSink } from '../engine/logStream.js';
export type { LogFileScan } from '../logfiles/logFile.js';
export type { RequestOptions } from '../api/requestPipeline.js';
export type { ConnectionActivity, StatementResult } from '../simulation/connection.js';
export { tryParseDuration } from '../core/duration.js';
export { tryParseInstant } from '../core/instant.js';
export type {
  PoissonInput,
  CronInput,
  WorkerInput,
  BurstInput,
  TraceInput,
  TraceRow,
  SessionInput,
  WorkloadSpec,
} from '../workload/workloadSpec.js';
export type { DistributionInput } from '../workload/distribution.js';
export type { DailyRates, RatesInput } from '../workload/dailyRates.js';
export { parseTrace } from '../workload/traceFile.js';
export type {
  ScenarioScript,
  When,
  EveryOptions,
  OperationRef,
  PolledOperation,
  ConnectionsOptions,
  LifecycleWindow,
} from '../scenario/scenarioScript.js';
export type { RunScenarioOptions, ScenarioRun, RunInfo } from '../scenario/runScenario.js';
export {
  TIMELINE_KINDS,
  type TimelineEntry,
  type TimelineKind,
} from '../scenario/timelineEntry.js';
export type { RunOptions } from '../engine/engineOptions.js';
