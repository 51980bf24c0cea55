/**
 * What the compute events mean (see eventDeclaration.ts): a compute created, its settings changed,
 * deleted, its state changed (started, suspended, idle), resized by autoscaling; for each, how it
 * changes the state, what it changes, and the timers it arms.
 */
import { armAutoscale, armDetach, armSuspend } from './computeTimers.js';
import { countUsage, refreshIdleSince } from './computeUsage.js';
import { clearField } from './clearField.js';
import { UNUSED_COMPUTE } from './deletedObjects.js';
import type { Declarations } from './eventDeclaration.js';
import type { ComputeStateChanged, EndpointDeleted } from './events.js';
import type { ComputeState } from '../domain/computeState.js';
import type { Unstamped } from '../engine/loggedEvent.js';
import { endpointOf, projectOf } from './stateAccess.js';
import { endpoint as computePath, projectFields } from './touchPaths.js';
import { deleteEntry } from './workingMaps.js';
import { describeChanges } from './narrationWords.js';

/**
 * A compute's state change as decided (the engine stamps it): every place that decides one makes it
 * here, so the log's field order is the same from all of them.
 */
export function computeStateChanged(
  projectId: string,
  endpointId: string,
  currentState: ComputeState,
  pendingState: ComputeState | null,
  releaseVersion?: string,
): Unstamped<ComputeStateChanged> {
  const changed = {
    type: 'ComputeStateChanged' as const,
    projectId,
    endpointId,
    currentState,
    pendingState,
  };
  return releaseVersion === undefined ? changed : { ...changed, releaseVersion };
}

/** A compute's deletion as decided (the engine stamps it). */
export function endpointDeleted(projectId: string, endpointId: string): Unstamped<EndpointDeleted> {
  return { type: 'EndpointDeleted', projectId, endpointId };
}

/** The compute events' declarations. */
export const COMPUTE_EVENTS: Declarations<
  | 'EndpointCreated'
  | 'EndpointUpdated'
  | 'EndpointDeleted'
  | 'ComputeStateChanged'
  | 'ComputeResized'
> = {
  EndpointCreated: {
    apply(draft, e) {
      projectOf(draft, e.projectId).endpoints[e.endpointId] = {
        id: e.endpointId,
        projectId: e.projectId,
        branchId: e.branchId,
        type: e.endpointType,
        ...(e.name === undefined ? {} : { name: e.name }),
        host: e.host,
        proxyHost: e.proxyHost,
        regionId: e.regionId,
        minCu: e.minCu,
        maxCu: e.maxCu,
        currentState: 'init',
        pendingState: 'active',
        suspendTimeoutSeconds: e.suspendTimeoutSeconds,
        poolerEnabled: e.poolerEnabled,
        poolerMode: e.poolerMode,
        disabled: e.disabled,
        passwordlessAccess: e.passwordlessAccess,
        pgSettings: { ...e.pgSettings },
        provisioner: e.provisioner,
        creationSource: e.creationSource,
        createdAt: e.at,
        updatedAt: e.at,
        ...UNUSED_COMPUTE,
      };
      draft.endpointOwners[e.endpointId] = e.projectId;
    },
    touches(e, touch) {
      computePath(touch, e.projectId, e.endpointId);
      touch('endpointOwners', e.endpointId);
    },
    timers: 'none',
    narrate(e) {
      const size = e.minCu === e.maxCu ? `${e.minCu} CU` : `${e.minCu}-${e.maxCu} CU`;
      return `compute ${e.endpointId} (${e.endpointType}, ${size}) created on ${e.branchId}`;
    },
  },

  EndpointUpdated: {
    apply(draft, e) {
      const endpoint = endpointOf(draft, e.projectId, e.endpointId);
      const { pgSettings, ...rest } = e.changes;
      Object.assign(endpoint, rest);
      if (pgSettings !== undefined) endpoint.pgSettings = { ...pgSettings };
      endpoint.updatedAt = e.at;
    },
    touches: (e, touch) => computePath(touch, e.projectId, e.endpointId),
    timers(e, state, profile, arm) {
      armSuspend(state, e.projectId, e.endpointId, e.at, profile, arm);
    },
    narrate: (e) => `compute ${e.endpointId} updated: ${describeChanges(e.changes)}`,
  },

  EndpointDeleted: {
    apply(draft, e) {
      const deleted = projectOf(draft, e.projectId).endpoints[e.endpointId];
      if (deleted !== undefined) countUsage(projectOf(draft, e.projectId), deleted, e.at);
      delete projectOf(draft, e.projectId).endpoints[e.endpointId];
      delete draft.endpointOwners[e.endpointId];
      deleteEntry(draft.liveConnections, e.endpointId);
    },
    touches(e, touch) {
      computePath(touch, e.projectId, e.endpointId);
      projectFields(touch, e.projectId);
      touch('endpointOwners', e.endpointId);
      touch('liveConnections', e.endpointId);
    },
    timers: 'none',
    narrate: (e) => `compute ${e.endpointId} deleted`,
  },

  ComputeStateChanged: {
    apply(draft, e) {
      const endpoint = endpointOf(draft, e.projectId, e.endpointId);
      const wasActive = endpoint.currentState === 'active';
      endpoint.currentState = e.currentState;
      if (e.pendingState === null) clearField(endpoint, 'pendingState');
      else endpoint.pendingState = e.pendingState;
      endpoint.updatedAt = e.at;
      if (e.releaseVersion !== undefined) endpoint.computeReleaseVersion = e.releaseVersion;
      if (e.currentState === 'active' && !wasActive) {
        endpoint.startedAt = e.at;
        endpoint.lastActive = e.at;
        endpoint.allocatedCu = endpoint.minCu;
        endpoint.usageCountedTo = e.at;
      } else if (e.currentState !== 'active' && wasActive) {
        countUsage(projectOf(draft, e.projectId), endpoint, e.at);
        clearField(endpoint, 'usageCountedTo');
        endpoint.suspendedAt = e.at;
        clearField(endpoint, 'allocatedCu');
      }
      if (e.currentState === 'idle') clearField(endpoint, 'failedSuspends');
      refreshIdleSince(endpoint, e.at);
    },
    touches(e, touch) {
      computePath(touch, e.projectId, e.endpointId);
      projectFields(touch, e.projectId);
    },
    timers(e, state, profile, arm) {
      armAutoscale(state, e.projectId, e.endpointId, e.at, profile, arm);
      armSuspend(state, e.projectId, e.endpointId, e.at, profile, arm);
      if (e.currentState === 'idle' && e.pendingState === null)
        armDetach(state, e.projectId, e.at, profile, arm);
    },
    narrate: (e) =>
      `compute ${e.endpointId} is ${e.currentState}${e.pendingState === null ? '' : `, pending ${e.pendingState}`}`,
  },

  ComputeResized: {
    apply(draft, e) {
      const endpoint = endpointOf(draft, e.projectId, e.endpointId);
      countUsage(projectOf(draft, e.projectId), endpoint, e.at);
      endpoint.allocatedCu = e.toCu;
    },
    touches(e, touch) {
      computePath(touch, e.projectId, e.endpointId);
      projectFields(touch, e.projectId);
    },
    timers: 'none',
    narrate: (e) =>
      `compute ${e.endpointId} autoscaled ${e.toCu > e.fromCu ? 'up' : 'down'}: ${e.fromCu} → ${e.toCu} CU`,
  },
};
