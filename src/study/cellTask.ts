/**
 * One unit of work a thread, a shard or a queue worker runs: a run of a sweep (by task index), or a
 * range of a fleet's projects. Plain data naming a definition file, so it can cross any boundary.
 */
import type { SweepOptions } from './sweepPlan.js';

/** A run of a sweep: the study file, the sweep's options and the run's index in the plan. */
export interface SweepCell {
  readonly kind: 'sweep';
  readonly url: string;
  readonly options: SweepOptions;
  readonly index: number;
  /** The sweep's fingerprint where the cell was made: a runner that plans another refuses it. */
  readonly expect?: string;
}

/** A range `[from, to)` of a fleet file's projects. */
export interface FleetCell {
  readonly kind: 'fleet';
  readonly url: string;
  /** Run each project for this long instead of the fleet's duration. */
  readonly duration?: string;
  readonly from: number;
  readonly to: number;
  /** The fleet's fingerprint where the cell was made: a runner that loads another refuses it. */
  readonly expect?: string;
}

/** Any unit of work. */
export type CellTask = SweepCell | FleetCell;
