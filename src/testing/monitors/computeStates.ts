/**
 * The current and pending state of every compute, followed event by event (shared by the monitors
 * that ask whether a compute is running).
 */
import type { ComputeState } from '../../domain/computeState.js';
import type { SimEvent } from '../../model/events.js';

interface Followed {
  readonly projectId: string;
  readonly current: ComputeState;
  readonly pending: ComputeState | null;
}

/** No compute: what most events remove. */
const NONE: readonly string[] = [];

/**
 * Follows the computes that exist and their state changes; a compute not seen yet is `init`, and
 * one created is `init`, going `active`.
 */
export class ComputeStates {
  readonly #states = new Map<string, Followed>();

  /**
   * Updates from one event (creations, state changes, deletions and recoveries matter); returns the
   * computes the event removed.
   */
  follow(event: SimEvent): readonly string[] {
    switch (event.type) {
      case 'EndpointCreated':
        this.#states.set(event.endpointId, {
          projectId: event.projectId,
          current: 'init',
          pending: 'active',
        });
        return NONE;
      case 'ComputeStateChanged':
        this.#states.set(event.endpointId, {
          projectId: event.projectId,
          current: event.currentState,
          pending: event.pendingState,
        });
        return NONE;
      case 'EndpointDeleted':
        this.#states.delete(event.endpointId);
        return [event.endpointId];
      case 'ProjectDeleted': {
        const removed: string[] = [];
        for (const [id, followed] of this.#states)
          if (followed.projectId === event.projectId) removed.push(id);
        for (const id of removed) this.#states.delete(id);
        return removed;
      }
      case 'ProjectRecovered':
      case 'BranchRecovered':
        for (const id of event.endpointIds)
          this.#states.set(id, { projectId: event.projectId, current: 'idle', pending: null });
        return NONE;
      default:
        return NONE;
    }
  }

  /** The compute's current state. */
  of(endpointId: string): ComputeState {
    return this.#states.get(endpointId)?.current ?? 'init';
  }

  /** How the compute stands, for messages: `idle`, `active`, `active (going idle)`. */
  describe(endpointId: string): string {
    const followed = this.#states.get(endpointId);
    if (followed === undefined) return 'init';
    return followed.pending === null
      ? followed.current
      : `${followed.current} (going ${followed.pending})`;
  }

  /** True when the compute is active with nothing in progress (not starting, not suspending). */
  isSteadilyActive(endpointId: string): boolean {
    const followed = this.#states.get(endpointId);
    return followed?.current === 'active' && followed.pending === null;
  }
}
