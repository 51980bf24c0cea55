/**
 * What a deletion keeps for recovery: a project or branch as it will come back, its computes idle
 * with no connection or load, its unfinished operations cancelled (their timers then find nothing to do).
 */
import { isTerminal } from '../domain/operationStatus.js';
import type {
  BranchState,
  DeletedBranchState,
  EndpointState,
  OperationState,
  ProjectState,
} from './state.js';

/** A compute as it comes back from a deletion at `at`: idle, no connection, no load, nothing counted. */
function idleEndpoint(endpoint: EndpointState, at: number): EndpointState {
  const {
    pendingState: _pending,
    idleSince: _idleSince,
    failedSuspends: _failedSuspends,
    allocatedCu: _allocatedCu,
    usageCountedTo: _usageCountedTo,
    loadChangedAt: _loadChangedAt,
    ...kept
  } = endpoint;
  return {
    ...kept,
    currentState: 'idle',
    ...(endpoint.currentState === 'idle' && endpoint.pendingState === undefined
      ? {}
      : { suspendedAt: at }),
    ...UNUSED_COMPUTE,
  };
}

/** A compute's counters with no connection and no load: a new compute's, or one coming back. */
export const UNUSED_COMPUTE = {
  directConnections: 0,
  pooledConnections: 0,
  activeConnections: 0,
  loadMilliCpu: 0,
  loadMemoryMb: 0,
  loadCacheMb: 0,
} as const satisfies Partial<EndpointState>;

/**
 * A branch as it comes back: ready (a creation cut short by the deletion does not resume), not
 * scheduled for an availability check until one of its computes is used again.
 */
function keptBranch(branch: BranchState): BranchState {
  const { nextCheckAt: _nextCheckAt, ...kept } = branch;
  return { ...kept, currentState: 'ready', usedSinceCheck: false };
}

/** A branch deleted at `at` with `endpoints` (its computes), kept until `recoverableUntil`. */
export function deletedBranch(
  branch: BranchState,
  endpoints: readonly EndpointState[],
  at: number,
  recoverableUntil: number,
): DeletedBranchState {
  const kept: Record<string, EndpointState> = {};
  for (const endpoint of endpoints) kept[endpoint.id] = idleEndpoint(endpoint, at);
  return { branch: keptBranch(branch), endpoints: kept, deletedAt: at, recoverableUntil };
}

/** A project deleted at `at`, as it comes back: every compute idle, every operation ended. */
export function keptProject(project: ProjectState, at: number): ProjectState {
  const branches: Record<string, BranchState> = {};
  for (const [id, branch] of Object.entries(project.branches)) branches[id] = keptBranch(branch);
  const endpoints: Record<string, EndpointState> = {};
  for (const [id, endpoint] of Object.entries(project.endpoints))
    endpoints[id] = idleEndpoint(endpoint, at);
  const operations: Record<string, OperationState> = {};
  for (const [id, operation] of Object.entries(project.operations)) {
    if (isTerminal(operation.status)) {
      operations[id] = operation;
      continue;
    }
    const { retryAt: _retryAt, ...rest } = operation;
    operations[id] = {
      ...rest,
      status: 'cancelled',
      updatedAt: at,
      totalDurationMs: at - operation.createdAt,
    };
  }
  return { ...project, branches, endpoints, operations, pendingOperations: {} };
}
