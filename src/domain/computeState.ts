/**
 * Compute (endpoint) states as the public v2 API reports them in `current_state` and `pending_state`.
 */

/** The states a compute can be in or be moving to. */
export const COMPUTE_STATES = ['init', 'active', 'idle'] as const;

/** A compute state. */
export type ComputeState = (typeof COMPUTE_STATES)[number];

/** Compute types: one primary read-write per branch, any number of read replicas. */
export const COMPUTE_TYPES = ['read_write', 'read_only'] as const;

/** A compute type. */
export type ComputeType = (typeof COMPUTE_TYPES)[number];

/**
 * True when a compute is down and nothing is changing it, so a start would bring it up: `idle`, or
 * `init` left behind by a first start that gave up.
 */
export function isDown(current: ComputeState, pending: ComputeState | undefined): boolean {
  return pending === undefined && (current === 'idle' || current === 'init');
}
