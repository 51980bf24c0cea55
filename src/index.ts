/**
 * computesim's root entry: the simulation and what every user of it needs. Exports are listed by
 * name; the rest sits behind a subpath by job: `computesim/model` (the model's vocabulary: state,
 * events, profile parts, workloads), `computesim/studies` (comparisons, sweeps, fleets, metrics and
 * reports), `computesim/testing`, `computesim/serve`, `computesim/msw` and `computesim/engine`.
 * docs/exports.md lists every name of every entry. Loading this entry loads no worker threads and
 * no file system code until a function that needs them is called.
 */

// The simulation: create, drive, request, connect, replay.
export { Simulation } from './simulation/simulation.js';
export { DEFAULT_START, type SimulationOptions } from './simulation/simulationOptions.js';
export type { Connection } from './simulation/connection.js';
export type { ApiResponse, ErrorBody } from './api/apiResponse.js';
export type { LoggedEvent } from './engine/loggedEvent.js';
export {
  ClockError,
  LogFormatError,
  LogUnavailableError,
  ReentrancyError,
  StepLimitError,
} from './engine/errors.js';
export { LogFileSink } from './logfiles/logFileSink.js';
export { LogFile } from './logfiles/logFile.js';

// Time.
export { formatDuration, parseDuration, type Duration } from './core/duration.js';
export { formatInstant, parseInstant, type Instant } from './core/instant.js';

// The profile, state and events.
export { DEFAULT_PROFILE, type Profile, type ProfileOverrides } from './domain/profile.js';
export type {
  SimState,
  ProjectState,
  BranchState,
  EndpointState,
  OperationState,
} from './model/state.js';
export type { SimEvent } from './model/events.js';

// Workloads, metrics, scenarios.
export type { WorkloadInput } from './workload/workloadSpec.js';
export { officeHours } from './workload/dailyRates.js';
export { metricsOf, type Metrics } from './projection/metrics.js';
export { defineScenario, type ScenarioDefinition } from './scenario/scenario.js';
export { runScenario } from './scenario/runScenario.js';
