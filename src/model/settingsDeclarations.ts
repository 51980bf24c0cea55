/**
 * What the events of settings and access mean (see eventDeclaration.ts): settings changed from an instant on, API keys created and revoked, a request refused as locked; for each, how it changes the state, what
 * it changes, the timers it arms, and its narration.
 */
import type { Draft } from 'immer';
import type { Profile } from '../domain/profile.js';
import type { Arm } from '../engine/decider.js';
import type { WorkloadSpec } from '../workload/workloadSpec.js';
import { armAutoscale, armDetach, armSuspend } from './computeTimers.js';
import type { Declarations } from './eventDeclaration.js';
import type { SettingsChanged } from './events.js';
import type { SimState } from './state.js';
import { endpointOf } from './stateAccess.js';
import type { TimerCommand } from './timers.js';
import { endpoint } from './touchPaths.js';
import { entryOf } from './workingMaps.js';

/** The declarations of the events of settings and access. */
export const SETTINGS_EVENTS: Declarations<
  'SettingsChanged' | 'RequestLocked' | 'ApiKeyCreated' | 'ApiKeyRevoked'
> = {
  SettingsChanged: {
    apply(draft, e) {
      if (e.profile !== undefined) draft.profile = e.profile as Draft<Profile>;
      for (const { projectId, endpointId, changes } of e.computes ?? []) {
        const endpoint = endpointOf(draft, projectId, endpointId);
        Object.assign(endpoint, changes);
        endpoint.updatedAt = e.at;
      }
      for (const { workloadId, spec, nextAt } of e.workloads ?? []) {
        const workload = entryOf(draft.workloads, workloadId);
        if (workload === undefined) continue;
        workload.spec = spec as Draft<WorkloadSpec>;
        workload.nextAt = nextAt;
      }
    },
    touches: (e, touch) => {
      if (e.profile !== undefined) touch('profile');
      for (const change of e.computes ?? []) endpoint(touch, change.projectId, change.endpointId);
      for (const change of e.workloads ?? []) touch('workloads', change.workloadId);
    },
    timers(e, state, profile, arm) {
      armAfterChange(e, state, profile, arm);
    },
    narrate: (e) => `settings changed from here on: ${changedParts(e).join(', ')}`,
  },

  RequestLocked: {
    apply() {
      // A fact for reports: a 423 changes nothing.
    },
    touches: () => undefined,
    timers: 'none',
    narrate: (e) =>
      `423: ${e.method} ${e.route} refused, ${e.endpointId ?? e.branchId ?? e.projectId} is locked by an unfinished operation`,
  },

  ApiKeyCreated: {
    apply(draft, e) {
      draft.apiKeys ??= {};
      draft.apiKeys[String(e.keyId)] = {
        id: e.keyId,
        name: e.name,
        key: e.key,
        createdAt: e.at,
        revoked: false,
      };
    },
    touches: (_e, touch) => touch('apiKeys'),
    timers: 'none',
    narrate: (e) => `API key ${e.keyId} (${e.name}) created`,
  },

  ApiKeyRevoked: {
    apply(draft, e) {
      const key = draft.apiKeys?.[String(e.keyId)];
      if (key === undefined) return;
      key.revoked = true;
      key.revokedAt = e.at;
    },
    touches: (_e, touch) => touch('apiKeys'),
    timers: 'none',
    narrate: (e) => `API key ${e.keyId} revoked`,
  },
};

/**
 * After settings change, every check that reads them is armed again under the new values: timers
 * armed under the old ones stay, and find themselves stale or early when they fire.
 */
function armAfterChange(
  event: SettingsChanged,
  state: SimState,
  profile: Profile,
  arm: Arm<TimerCommand>,
): void {
  const changed = new Set((event.computes ?? []).map((c) => c.endpointId));
  for (const project of Object.values(state.projects)) {
    for (const endpointId of Object.keys(project.endpoints)) {
      if (event.profile === undefined && !changed.has(endpointId)) continue;
      armSuspend(state, project.id, endpointId, event.at, profile, arm);
      armAutoscale(state, project.id, endpointId, event.at, profile, arm);
    }
    if (event.profile !== undefined) armDetach(state, project.id, event.at, profile, arm);
  }
  for (const { workloadId } of event.workloads ?? []) {
    const workload = entryOf(state.workloads, workloadId);
    if (workload === undefined || workload.nextAt === null) continue;
    const timer = { type: 'ArriveSession', workloadId, index: workload.nextIndex } as const;
    arm(Math.max(event.at, workload.nextAt), timer, true);
  }
}

/** What a settings change changed, named for a timeline line. */
function changedParts(event: SettingsChanged): string[] {
  const parts: string[] = [];
  if (event.profile !== undefined) parts.push('the profile');
  for (const { endpointId, changes } of event.computes ?? [])
    parts.push(
      `compute ${endpointId} (${Object.entries(changes)
        .map(([key, value]) => `${key} ${String(value)}`)
        .join(', ')})`,
    );
  for (const { workloadId } of event.workloads ?? []) parts.push(`workload ${workloadId}'s rates`);
  return parts;
}
