/**
 * Operation actions as the public v2 API names them, and the effect each has on its compute when it
 * starts running and when it finishes. Behaviour lives in this table, not in ifs in shared code.
 */
import type { ComputeState } from './computeState.js';

/** Every action identifier of the public v2 API's operation enum that the simulator records. */
export const OPERATION_ACTIONS = [
  'apply_config',
  'apply_storage_config',
  'check_availability',
  'create_branch',
  'create_timeline',
  'delete_timeline',
  'start_compute',
  'suspend_compute',
  'tenant_attach',
  'tenant_detach',
  'tenant_reattach',
  'timeline_archive',
  'timeline_unarchive',
] as const;

/** An operation action identifier. */
export type OperationAction = (typeof OPERATION_ACTIONS)[number];

/** How an operation changes its compute's `current_state` / `pending_state`. */
export interface ComputeEffect {
  readonly current?: ComputeState;
  /** `null` clears the pending state. */
  readonly pending: ComputeState | null;
}

/** The compute effects of one action, when it starts running and when it finishes. */
export interface ActionEffects {
  readonly onRunning?: ComputeEffect;
  readonly onFinished?: ComputeEffect;
}

/** Compute effects per action; actions absent here leave computes alone. */
export const ACTION_EFFECTS: Readonly<Partial<Record<OperationAction, ActionEffects>>> = {
  start_compute: {
    onRunning: { pending: 'active' },
    onFinished: { current: 'active', pending: null },
  },
  suspend_compute: {
    onRunning: { pending: 'idle' },
    onFinished: { current: 'idle', pending: null },
  },
};
