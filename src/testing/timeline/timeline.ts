/**
 * A timeline: what happens around a client, as data a property test can generate and shrink. Steps
 * come one after another, each `gapMs` after the one before; objects are named by their position
 * among those that exist when the step runs (wrapping around), so a shrunk timeline stays valid.
 */
import type { FaultProfile } from '../faultProfile.js';

/** One thing that happens. `project`, `branch` and `compute` pick among the existing ones. */
export type TimelineAction =
  | { readonly kind: 'createProject' }
  | { readonly kind: 'createBranch'; readonly project: number; readonly withCompute: boolean }
  | { readonly kind: 'createReplica'; readonly branch: number }
  | { readonly kind: 'createPrimary'; readonly branch: number }
  | {
      readonly kind: 'resize';
      readonly compute: number;
      readonly minCu: number;
      readonly maxCu: number;
    }
  | { readonly kind: 'setSuspendTimeout'; readonly compute: number; readonly seconds: number }
  | { readonly kind: 'restart'; readonly compute: number }
  | { readonly kind: 'suspend'; readonly compute: number }
  | { readonly kind: 'start'; readonly compute: number }
  | { readonly kind: 'deleteCompute'; readonly compute: number }
  | { readonly kind: 'deleteBranch'; readonly branch: number }
  | { readonly kind: 'connect'; readonly compute: number; readonly holdMs: number }
  | { readonly kind: 'dropConnections'; readonly compute: number }
  /** Create the role `role<role>` on a branch (a second one with the same name is a 409). */
  | { readonly kind: 'createRole'; readonly branch: number; readonly role: number }
  /** Create the database `db<database>` on a branch, owned by the branch's first role. */
  | { readonly kind: 'createDatabase'; readonly branch: number; readonly database: number };

/** A step: wait `gapMs` of virtual time, then do `action`. */
export interface TimelineStep {
  readonly gapMs: number;
  readonly action: TimelineAction;
}

/** A whole run's surroundings: the seed, the faults, and the steps. */
export interface Timeline {
  readonly seed: number;
  readonly faults: FaultProfile;
  readonly steps: readonly TimelineStep[];
}

/** Total virtual time the steps span, ms. */
export function timelineSpanMs(steps: readonly TimelineStep[]): number {
  return steps.reduce((sum, step) => sum + step.gapMs, 0);
}
