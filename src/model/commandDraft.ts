/**
 * One command being decided: the state and context it is decided against and the events decided so
 * far. Decide helpers (operation planning, effects, chains) read it and add to it, so each sees what
 * the others decided earlier in the same command without a list of prior events threaded by hand.
 */
import type { ComputeState } from '../domain/computeState.js';
import { operationKind, type OperationRole } from '../domain/operationKinds.js';
import type { Unstamped } from '../engine/loggedEvent.js';
import type { ModelContext, Pending } from './decideContext.js';
import type { DomainEvent } from './events.js';
import { firstOperationCreated } from './operationDeclarations.js';
import type { EndpointState, SimState } from './state.js';

/** A compute's current and pending state (`pending: null`: not changing). */
export interface ComputeStateNow {
  readonly current: ComputeState;
  readonly pending: ComputeState | null;
}

/** The events a command has decided so far, with questions about the state they lead to. */
export class CommandDraft {
  /** The events decided so far, in order (what the handler returns). */
  readonly events: Pending = [];

  constructor(
    /** The state before the command (decided events are not applied to it). */
    readonly state: SimState,
    readonly context: ModelContext,
  ) {}

  /** Adds one decided event. */
  push(event: Unstamped<DomainEvent>): void {
    this.events.push(event);
  }

  /** Adds decided events, in order. */
  pushAll(events: readonly Unstamped<DomainEvent>[]): void {
    for (const event of events) this.events.push(event);
  }

  /** A compute's current and pending state once the events decided so far apply. */
  computeStateOf(endpoint: EndpointState): ComputeStateNow {
    let current = endpoint.currentState;
    let pending: ComputeState | null = endpoint.pendingState ?? null;
    for (const event of this.events) {
      if (event.type === 'ComputeStateChanged' && event.endpointId === endpoint.id) {
        current = event.currentState;
        pending = event.pendingState;
      }
    }
    return { current, pending };
  }

  /** The id of the first operation recorded so far in this command whose kind has `role`. */
  recordedOperation(role: OperationRole): string | undefined {
    return firstOperationCreated(this.events, (action) => operationKind(action)[role]);
  }

  /** True when this command already scheduled an availability check of the branch. */
  schedulesCheck(branchId: string): boolean {
    return this.events.some(
      (e) => e.type === 'AvailabilityCheckScheduled' && e.branchId === branchId,
    );
  }
}
