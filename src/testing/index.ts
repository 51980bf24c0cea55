/**
 * `computesim/testing`: what property-based tests of client code need. A harness that runs an async
 * client against an in-process simulation in virtual time (fetch, axios adapter, virtual timers),
 * fault profiles, client-behaviour oracles, fast-check arbitraries with timelines that shrink
 * toward fewer steps, shorter gaps and fewer faults, and a determinism self-check.
 * Exports are listed by name. Needs `fast-check` (a peer dependency) for the arbitraries.
 */
export {
  SimHarness,
  runClient,
  type HarnessOptions,
  type ClientContext,
  type ClientRun,
  type ClientRunOptions,
  type ClientOutcome,
} from './simHarness.js';
export { clientProperty, type ClientProperty, type ClientPropertySpec } from './clientProperty.js';
export { judgeRun, type ClientVerdict, type JobExpectation } from './clientVerdict.js';
export { ClientPropertyError, CounterexampleError, replayTest } from './counterexample.js';
export { ClientEdge, type EdgeResponse } from './clientEdge.js';
export { createSimFetch, SIM_ORIGIN, type SimFetch } from './simFetch.js';
export {
  createAxiosAdapter,
  type SimAxiosAdapter,
  type AxiosLikeConfig,
  type AxiosLikeResponse,
} from './axiosAdapter.js';
export { VirtualTimers, type VirtualTimeout } from './virtualTimers.js';
export {
  isMutating,
  type ClientRecord,
  type RecordedRequest,
  type RecordedStatement,
  type RecordedConnection,
} from './clientRecord.js';
export { withFaults, faultProfileProblem, type FaultProfile } from './faultProfile.js';
export {
  RequestFaultInjector,
  requestFaultsProblem,
  type RequestFaults,
  type LockedFaults,
  type RateLimitedFaults,
  type UnavailableFaults,
  type InjectedFault,
} from './requestFaults.js';
export { ConnectionDropper } from './connectionDropper.js';
export {
  checkClient,
  assertClient,
  formatFinding,
  requestLine,
  ClientBehaviourError,
  type ClientOracle,
  type OracleFinding,
} from './oracles/clientOracle.js';
export { waitsForOperations } from './oracles/waitsForOperations.js';
export { pollsNoFasterThan } from './oracles/pollsNoFasterThan.js';
export { retriesWithBackoff, type BackoffOptions } from './oracles/retriesWithBackoff.js';
export { handlesFailedOperations } from './oracles/handlesFailedOperations.js';
export { usesReadWriteForWrites } from './oracles/usesReadWriteForWrites.js';
export { usesLiveIds } from './oracles/usesLiveIds.js';
export { waitsForOpenConnections } from './oracles/waitsForOpenConnections.js';
export { defaultOracles } from './oracles/defaultOracles.js';
export {
  timelineSpanMs,
  type Timeline,
  type TimelineStep,
  type TimelineAction,
} from './timeline/timeline.js';
export { playStep, type StepHost } from './timeline/playStep.js';
export { TimelineWorld, playTimeline } from './timeline/timelineWorld.js';
export {
  checkTimeline,
  assertTimelineClean,
  timelineSimulation,
  type TimelineCheckOptions,
} from './timeline/checkTimeline.js';
export {
  formatTimeline,
  describeAction,
  timelineScenario,
  attachTimelineString,
} from './timeline/formatTimeline.js';
export { timelineLiteral } from './timeline/timelineLiteral.js';
export {
  computeSize,
  autoscalingRange,
  invalidAutoscalingRange,
  suspendTimeoutSeconds,
  plan,
} from './arbitraries/computeArbitraries.js';
export {
  createProjectBody,
  invalidCreateProjectBody,
  updateEndpointBody,
  invalidUpdateEndpointBody,
  createEndpointBody,
  createRoleBody,
  invalidCreateRoleBody,
  createDatabaseBody,
  invalidCreateDatabaseBody,
} from './arbitraries/bodyArbitraries.js';
export {
  faultProfile,
  type FaultPreset,
  type FaultProfileConstraints,
} from './arbitraries/faultArbitraries.js';
export { workload } from './arbitraries/workloadArbitraries.js';
export {
  timeline,
  timelineSteps,
  timelineAction,
  type TimelineConstraints,
} from './arbitraries/timelineArbitraries.js';
export {
  assertDeterministic,
  firstDivergence,
  DeterminismError,
  type Divergence,
  type SimulationRun,
} from './determinism.js';
export * from './monitors/index.js';
