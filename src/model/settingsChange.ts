/**
 * A change of settings from one instant on (what a fork of a run applies at its fork point): checked
 * against the state at that instant, and turned into the one `SettingsChanged` event recording it.
 */
import { z } from 'zod';
import { formatInstant } from '../core/instant.js';
import { own } from '../core/own.js';
import { entryOf } from './workingMaps.js';
import { err, ok, type Result } from '../core/result.js';
import { nonNegative, parseInput, strictObject, type Immutable } from '../core/schema.js';
import { changedProfile, type Profile, type ProfileOverrides } from '../domain/profile.js';
import type { Unstamped } from '../engine/loggedEvent.js';
import {
  expectedArrivals,
  nextArrival,
  RATES_SCHEMA,
  type DailyRates,
  type RatesInput,
} from '../workload/dailyRates.js';
import type {
  ComputeSettingsChange,
  SettingsChanged,
  WorkloadRatesChange,
} from './settingsEventTypes.js';
import { settingsProblem } from './newEndpoint.js';
import type { SimState, WorkloadState } from './state.js';

/** New settings of one compute (each field as `PATCH /endpoints` takes it, in computesim's units). */
export interface ComputeChange {
  readonly minCu?: number;
  readonly maxCu?: number;
  /** 0: the profile default, -1: never suspend, otherwise 60..604800 seconds. */
  readonly suspendTimeoutSeconds?: number;
}

/** New rates of one Poisson workload: new rates, a factor on the ones it has, or both (in order). */
export interface WorkloadChange {
  readonly rates?: RatesInput;
  readonly rateScale?: number;
}

/** What changes from an instant on; every part optional, `{}` changes nothing. */
export interface SettingsChange {
  /** Profile values laid over the profile in force (suspend timeout, autoscaling, latencies, faults). */
  readonly profile?: ProfileOverrides;
  /** New settings by compute id. */
  readonly computes?: Readonly<Record<string, ComputeChange>>;
  /** New rates by workload id (`w1`, `w2`, …). */
  readonly workloads?: Readonly<Record<string, Immutable<WorkloadChange>>>;
}

const number = z.number({ error: 'must be a number' });

const changeSchema = strictObject(
  {
    // Checked against the profile in force by changedProfile, which names the path.
    profile: z.unknown().optional(),
    computes: z
      .record(
        z.string(),
        strictObject({
          minCu: number.optional(),
          maxCu: number.optional(),
          suspendTimeoutSeconds: number.optional(),
        }),
        { error: 'must map compute ids to new settings' },
      )
      .optional(),
    workloads: z
      .record(
        z.string(),
        strictObject({
          rates: RATES_SCHEMA.optional(),
          rateScale: nonNegative('must be a finite number ≥ 0').optional(),
        }),
        { error: 'must map workload ids to new rates' },
      )
      .optional(),
  },
  'part',
);

/**
 * The event recording `change` at `now`, given the state and the profile in force; `undefined` when
 * it changes nothing (no part, or only values already in force). A refusal is one line naming what
 * cannot apply: an unknown compute or workload, a value out of range.
 */
export function settingsChangeAt(
  state: SimState,
  inForce: Profile,
  change: unknown,
  now: number,
): Result<Unstamped<SettingsChanged> | undefined, string> {
  const parsed = parseInput(changeSchema, change ?? {}, 'change');
  if (!parsed.ok) return parsed;
  const { computes = {}, workloads = {} } = parsed.value;
  let profile = inForce;
  if (parsed.value.profile !== undefined) {
    const changed = changedProfile(inForce, parsed.value.profile);
    if (!changed.ok) return err(`change.${changed.error}`);
    profile = changed.value;
  }
  const computeChanges: ComputeSettingsChange[] = [];
  for (const [endpointId, settings] of Object.entries(computes)) {
    const decided = computeChangeAt(state, profile, endpointId, settings, now);
    if (!decided.ok) return decided;
    if (decided.value !== undefined) computeChanges.push(decided.value);
  }
  const workloadChanges: WorkloadRatesChange[] = [];
  for (const [workloadId, rates] of Object.entries(workloads)) {
    const decided = workloadChangeAt(state, workloadId, rates, now);
    if (!decided.ok) return decided;
    if (decided.value !== undefined) workloadChanges.push(decided.value);
  }
  const profileChanged = JSON.stringify(profile) !== JSON.stringify(inForce);
  if (!profileChanged && computeChanges.length === 0 && workloadChanges.length === 0)
    return ok(undefined);
  return ok({
    type: 'SettingsChanged',
    ...(profileChanged ? { profile } : {}),
    ...(computeChanges.length === 0 ? {} : { computes: computeChanges }),
    ...(workloadChanges.length === 0 ? {} : { workloads: workloadChanges }),
  });
}

function computeChangeAt(
  state: SimState,
  profile: Profile,
  endpointId: string,
  settings: { readonly [K in keyof ComputeChange]?: number | undefined },
  now: number,
): Result<ComputeSettingsChange | undefined, string> {
  const project = state.projects[own(state.endpointOwners, endpointId) ?? ''];
  const endpoint = project === undefined ? undefined : own(project.endpoints, endpointId);
  if (project === undefined || endpoint === undefined)
    return err(`change.computes: there is no compute ${endpointId} at ${formatInstant(now)}`);
  const merged = {
    ...endpoint,
    minCu: settings.minCu ?? endpoint.minCu,
    maxCu: settings.maxCu ?? endpoint.maxCu,
    suspendTimeoutSeconds: settings.suspendTimeoutSeconds ?? endpoint.suspendTimeoutSeconds,
  };
  const problem = settingsProblem(merged, project.plan, profile.limits);
  if (problem !== undefined) return err(`change.computes.${endpointId}: ${problem.message}`);
  const changes: { -readonly [K in keyof ComputeChange]: ComputeChange[K] } = {};
  if (settings.minCu !== undefined && settings.minCu !== endpoint.minCu)
    changes.minCu = settings.minCu;
  if (settings.maxCu !== undefined && settings.maxCu !== endpoint.maxCu)
    changes.maxCu = settings.maxCu;
  const timeout = settings.suspendTimeoutSeconds;
  if (timeout !== undefined && timeout !== endpoint.suspendTimeoutSeconds)
    changes.suspendTimeoutSeconds = timeout;
  return ok(
    Object.keys(changes).length === 0 ? undefined : { projectId: project.id, endpointId, changes },
  );
}

function workloadChangeAt(
  state: SimState,
  workloadId: string,
  change: { readonly rates?: DailyRates | undefined; readonly rateScale?: number | undefined },
  now: number,
): Result<WorkloadRatesChange | undefined, string> {
  const workload = entryOf(state.workloads, workloadId);
  if (workload === undefined)
    return err(`change.workloads: there is no workload ${workloadId} at ${formatInstant(now)}`);
  const { spec } = workload;
  if (spec.kind !== 'poisson')
    return err(
      `change.workloads.${workloadId}: a ${spec.kind} workload has no rates (only poisson ones do)`,
    );
  const base = change.rates ?? spec.rates;
  const scale = change.rateScale ?? 1;
  const rates: DailyRates = {
    weekday: base.weekday.map((r) => r * scale),
    weekend: base.weekend.map((r) => r * scale),
  };
  if (JSON.stringify(rates) === JSON.stringify(spec.rates)) return ok(undefined);
  return ok({ workloadId, spec: { ...spec, rates }, nextAt: redrawn(workload, rates, now) });
}

/**
 * When the pending session arrives under the new rates: the part of its draw not yet used up at
 * `now` (at the old rates) is waited through at the new ones, so the same draw decides it.
 */
function redrawn(workload: WorkloadState, rates: DailyRates, now: number): number | null {
  const { spec, nextAt } = workload;
  if (spec.kind !== 'poisson' || nextAt === null || nextAt <= now) return nextAt;
  const left = expectedArrivals(spec.rates, now, nextAt, spec.utcOffsetMs);
  const at = nextArrival(rates, now, left, spec.utcOffsetMs);
  return at === null || (spec.endAt !== null && at >= spec.endAt) ? null : at;
}
