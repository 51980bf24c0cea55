/**
 * What an operation does to the objects around it when it starts running or finishes, as data. A
 * request decides these when it records the operation (the same action does different things to an
 * idle compute and an active one); the operation engine carries them out at the right moment.
 */
import type { ComputeState } from '../domain/computeState.js';

/** One effect of an operation. */
export type OperationEffect =
  /** Set the compute's current state (if given) and pending state (`null` clears it). */
  | {
      readonly kind: 'computeState';
      readonly current?: ComputeState;
      readonly pending: ComputeState | null;
      /** Only if the compute is still down then (a client may have woken it meanwhile). */
      readonly whenDown?: true;
    }
  /** Terminate every connection of the compute (restart, resize, suspend, reassignment). */
  | { readonly kind: 'dropConnections' }
  /** The compute is up: connections waiting for it open (or are refused past capacity). */
  | { readonly kind: 'openWaiting' }
  /** The branch finished being created. */
  | { readonly kind: 'branchReady' }
  /** The compute just went idle: if connections are waiting for it, start it again. */
  | { readonly kind: 'wakeIfWaiting' }
  /** The project's storage was detached (`tenant_detach`) or attached again (`tenant_reattach`). */
  | { readonly kind: 'tenantAttached'; readonly attached: boolean };
