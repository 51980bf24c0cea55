/**
 * The workload events: a workload attached, its sessions arriving (their meaning is in
 * workloadDeclarations.ts).
 */
import type { WorkloadSpec } from '../workload/workloadSpec.js';
import type { Stamp } from './eventStamp.js';

/** A workload was attached; its first session arrives at `firstAt` (`null`: it has none). */
interface WorkloadAttached extends Stamp {
  readonly type: 'WorkloadAttached';
  readonly workloadId: string;
  readonly spec: WorkloadSpec;
  readonly firstAt: number | null;
}

/** Session `index` of a workload arrived (its connection events follow); the next is due at `nextAt`. */
interface SessionArrived extends Stamp {
  readonly type: 'SessionArrived';
  readonly workloadId: string;
  readonly index: number;
  readonly nextAt: number | null;
}

/** Every event of a workload. */
export type WorkloadEvent = WorkloadAttached | SessionArrived;
