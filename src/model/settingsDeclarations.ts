/**
 * What the events of settings and access mean (see eventDeclaration.ts): settings changed from an
 * instant on, API keys created and revoked, a request refused as locked; for each, how it changes
 * the state, the timers it arms, and its narration.
 */
import type { Profile } from '../domain/profile.js';
import type { Arm } from '../engine/decider.js';
import { armAutoscale, armDetach, armSuspend } from './computeTimers.js';
import type { Declarations } from './eventDeclaration.js';
import type { SettingsChanged } from './settingsEventTypes.js';
import type { SimState } from './state.js';
import type { TimerCommand } from './timers.js';
import { entryOf } from './workingMaps.js';

/** The declarations of the events of settings and access. */
export const SETTINGS_EVENTS: Declarations<
  'SettingsChanged' | 'RequestLocked' | 'ApiKeyCreated' | 'ApiKeyRevoked'
> = {
  SettingsChanged: {
    apply(write, e) {
      if (e.profile !== undefined) write.setProfile(e.profile);
      for (const { projectId, endpointId, changes } of e.computes ?? []) {
        const endpoint = write.entry(projectId, 'endpoints', endpointId);
        Object.assign(endpoint, changes);
        endpoint.updatedAt = e.at;
      }
      for (const { workloadId, spec, nextAt } of e.workloads ?? []) {
        const workload = write.rootEntry('workloads', workloadId);
        if (workload === undefined) continue;
        workload.spec = spec as typeof workload.spec;
        workload.nextAt = nextAt;
      }
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
    timers: 'none',
    narrate: (e) =>
      `423: ${e.method} ${e.route} refused, ${e.endpointId ?? e.branchId ?? e.projectId} is locked by an unfinished operation`,
  },

  ApiKeyCreated: {
    apply(write, e) {
      write.putRoot('apiKeys', String(e.keyId), {
        id: e.keyId,
        name: e.name,
        key: e.key,
        createdAt: e.at,
        revoked: false,
      });
    },
    timers: 'none',
    narrate: (e) => `API key ${e.keyId} (${e.name}) created`,
  },

  ApiKeyRevoked: {
    apply(write, e) {
      const key = write.rootEntry('apiKeys', String(e.keyId));
      if (key === undefined) return;
      key.revoked = true;
      key.revokedAt = e.at;
    },
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
