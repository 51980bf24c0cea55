/**
 * The outcome each operation of a log reached: `unfinished` from its creation until it finished,
 * errored or was cancelled. One fold for every projection that reports operations by outcome.
 */
import type { SimEvent } from '../model/events.js';

/** Where an operation ended, or `unfinished`. */
export type OperationOutcome = 'unfinished' | 'finished' | 'error' | 'cancelled';

/** Folds a log, event by event, into each operation's outcome. */
export class OperationOutcomes {
  readonly #outcomes = new Map<string, OperationOutcome>();

  /** Takes the next event of the log (events that concern no operation's outcome are ignored). */
  apply(event: SimEvent): void {
    switch (event.type) {
      case 'OperationCreated':
        this.#outcomes.set(event.operationId, 'unfinished');
        break;
      case 'OperationFinished':
        this.#outcomes.set(event.operationId, 'finished');
        break;
      case 'OperationErrored':
        this.#outcomes.set(event.operationId, 'error');
        break;
      case 'OperationCancelled':
        this.#outcomes.set(event.operationId, 'cancelled');
        break;
      default:
        break;
    }
  }

  /** The outcome of `operationId` so far (`unfinished` for one not seen). */
  of(operationId: string): OperationOutcome {
    return this.#outcomes.get(operationId) ?? 'unfinished';
  }

  /** Every operation seen, with its outcome, in creation order. */
  entries(): IterableIterator<[string, OperationOutcome]> {
    return this.#outcomes.entries();
  }
}
