/**
 * What the compute events mean (see eventDeclaration.ts): a compute created, its settings changed,
 * deleted, its state changed (started, suspended, idle), resized by autoscaling; for each, how it
 * changes the state and the timers it arms.
 */
import { armAutoscale, armDetach, armSuspend } from './computeTimers.js';
import { countUsage, refreshIdleSince } from './computeUsage.js';
import { clearField } from './clearField.js';
import { UNUSED_COMPUTE } from './deletedObjects.js';
import type { Declarations } from './eventDeclaration.js';
import type { ComputeStateChanged, EndpointDeleted } from './computeEventTypes.js';
import type { DomainEvent } from './events.js';
import type { ComputeState } from '../domain/computeState.js';
import type { Unstamped } from '../engine/loggedEvent.js';
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

/** The id of the compute `events` created, if they created one. */
export function computeCreated(events: readonly Unstamped<DomainEvent>[]): string | undefined {
  for (const event of events) if (event.type === 'EndpointCreated') return event.endpointId;
  return undefined;
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
    apply(write, e) {
      write.put(e.projectId, 'endpoints', e.endpointId, {
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
      });
      write.putRoot('endpointOwners', e.endpointId, e.projectId);
    },
    timers: 'none',
    narrate(e) {
      const size = e.minCu === e.maxCu ? `${e.minCu} CU` : `${e.minCu}-${e.maxCu} CU`;
      return `compute ${e.endpointId} (${e.endpointType}, ${size}) created on ${e.branchId}`;
    },
  },

  EndpointUpdated: {
    apply(write, e) {
      const endpoint = write.entry(e.projectId, 'endpoints', e.endpointId);
      const { pgSettings, ...rest } = e.changes;
      Object.assign(endpoint, rest);
      if (pgSettings !== undefined) endpoint.pgSettings = { ...pgSettings };
      endpoint.updatedAt = e.at;
    },
    timers(e, state, profile, arm) {
      armSuspend(state, e.projectId, e.endpointId, e.at, profile, arm);
    },
    narrate: (e) => `compute ${e.endpointId} updated: ${describeChanges(e.changes)}`,
  },

  EndpointDeleted: {
    apply(write, e) {
      const deleted = write.entryIfAny(e.projectId, 'endpoints', e.endpointId);
      if (deleted !== undefined) countUsage(write.project(e.projectId), deleted, e.at);
      write.remove(e.projectId, 'endpoints', e.endpointId);
      write.removeRoot('endpointOwners', e.endpointId);
      write.dropLive(e.endpointId);
    },
    timers: 'none',
    narrate: (e) => `compute ${e.endpointId} deleted`,
  },

  ComputeStateChanged: {
    apply(write, e) {
      const endpoint = write.entry(e.projectId, 'endpoints', e.endpointId);
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
        countUsage(write.project(e.projectId), endpoint, e.at);
        clearField(endpoint, 'usageCountedTo');
        endpoint.suspendedAt = e.at;
        clearField(endpoint, 'allocatedCu');
      }
      if (e.currentState === 'idle') clearField(endpoint, 'failedSuspends');
      refreshIdleSince(endpoint, e.at);
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
    apply(write, e) {
      const endpoint = write.entry(e.projectId, 'endpoints', e.endpointId);
      countUsage(write.project(e.projectId), endpoint, e.at);
      endpoint.allocatedCu = e.toCu;
    },
    timers: 'none',
    narrate: (e) =>
      `compute ${e.endpointId} autoscaled ${e.toCu > e.fromCu ? 'up' : 'down'}: ${e.fromCu} → ${e.toCu} CU`,
  },
};
