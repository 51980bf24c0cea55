/**
 * The current state of every compute, followed event by event (shared by the monitors that ask
 * whether a compute is running).
 */
import type { ComputeState } from '../../domain/computeState.js';
import type { SimEvent } from '../../model/events.js';

/** Follows `ComputeStateChanged` events; computes not seen yet are `init`. */
export class ComputeStates {
  readonly #states = new Map<string, ComputeState>();

  /** Updates from one event (only state changes and deletions matter). */
  follow(event: SimEvent): void {
    if (event.type === 'ComputeStateChanged')
      this.#states.set(event.endpointId, event.currentState);
    else if (event.type === 'EndpointDeleted') this.#states.delete(event.endpointId);
  }

  /** The compute's current state. */
  of(endpointId: string): ComputeState {
    return this.#states.get(endpointId) ?? 'init';
  }
}
