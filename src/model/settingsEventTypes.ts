/**
 * The events of settings and access: settings changed from an instant on, API keys created and
 * revoked, a request refused as locked (their meaning is in settingsDeclarations.ts).
 */
import type { Profile } from '../domain/profile.js';
import type { WorkloadSpec } from '../workload/workloadSpec.js';
import type { Stamp } from './eventStamp.js';
import type { EndpointSettings } from './state.js';

/**
 * Settings changed from this instant on (what a fork of a run applies at its fork point): the whole
 * profile in force, computes' settings, Poisson workloads' rates with their pending arrival redrawn.
 * Each part is absent when it does not change.
 */
export interface SettingsChanged extends Stamp {
  readonly type: 'SettingsChanged';
  readonly profile?: Profile;
  readonly computes?: readonly ComputeSettingsChange[];
  readonly workloads?: readonly WorkloadRatesChange[];
}

/** A compute's new settings in a `SettingsChanged`. */
export interface ComputeSettingsChange {
  readonly projectId: string;
  readonly endpointId: string;
  readonly changes: Partial<Pick<EndpointSettings, 'minCu' | 'maxCu' | 'suspendTimeoutSeconds'>>;
}

/** A workload's new spec in a `SettingsChanged`, and when its next session now arrives. */
export interface WorkloadRatesChange {
  readonly workloadId: string;
  readonly spec: WorkloadSpec;
  readonly nextAt: number | null;
}

/**
 * A request was refused with 423 because an unfinished operation locked what it named. State does
 * not change; the fact is kept so reports can count how often clients ran into locks.
 */
interface RequestLocked extends Stamp {
  readonly type: 'RequestLocked';
  readonly projectId: string;
  readonly method: string;
  readonly route: string;
  readonly endpointId?: string;
  readonly branchId?: string;
}

/** A personal API key was created through the API (its secret drawn from the seed, shown once). */
export interface ApiKeyCreated extends Stamp {
  readonly type: 'ApiKeyCreated';
  readonly keyId: number;
  readonly name: string;
  /** The secret a client sends as `Authorization: Bearer <key>`. */
  readonly key: string;
}

/** An API key was revoked: from now on it is refused with 401. */
interface ApiKeyRevoked extends Stamp {
  readonly type: 'ApiKeyRevoked';
  readonly keyId: number;
}

/** Every event of settings and access. */
export type SettingsEvent = SettingsChanged | RequestLocked | ApiKeyCreated | ApiKeyRevoked;
