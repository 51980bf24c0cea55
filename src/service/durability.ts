/**
 * Keeping served changes durable: the store (the state file) is written before every response. When
 * it refuses a write, the simulation goes back to what the store holds, so no change is
 * acknowledged, or seen, that a restart would lose; writes are then refused, with a growing
 * back-off, until the store looks writable again.
 */
import type { LoggedEvent } from '../engine/loggedEvent.js';
import { errorAnswer, type Answer } from './errorTable.js';
import type { ServedSimulation } from './servedSimulation.js';
import { firstLine } from './thrownAnswer.js';

/** Where served events are kept (the state file): written before every response. */
export interface SimStore {
  /** How many of the log's events the store holds durably. */
  readonly written: number;
  /** Appends the events it does not hold yet; throws when it cannot (the change is then undone). */
  flush(sim: ServedSimulation): void;
  /** Replaces everything it holds with `sim`'s log (on reset). */
  rewrite(sim: ServedSimulation): void;
  /** After a failure: whether a write looks likely to succeed again (default: yes). */
  looksWritable?(): boolean;
}

/** How the core makes a new simulation: for `_sim/reset` and to roll back what a store refused. */
export interface Renewal {
  fresh(seed: number): ServedSimulation;
  fromJSONL(text: string): ServedSimulation;
  replay(events: Iterable<LoggedEvent>): ServedSimulation;
}

/** A front's change was not kept: the store cannot take writes (nothing changed). */
class NotServedError extends Error {
  override readonly name = 'NotServedError';
}

/** The error a front's change throws when `refusal` kept it from being served. */
export function notServed(refusal: Answer): Error {
  const body = refusal.body as { message?: unknown } | undefined;
  return new NotServedError(
    typeof body?.message === 'string' ? body.message : 'the change was not applied',
  );
}

/** What durability works with: the store, and how to roll back to what it holds. */
interface DurabilityOptions {
  /** None: nothing is kept, and every write succeeds. */
  readonly store: SimStore | undefined;
  /** Needed with a store: a refused write is rolled back by a replay. */
  readonly renew: Renewal | undefined;
  readonly wallNow: () => number;
  /** Takes the simulation rolled back to what the store holds, in place of the one served. */
  readonly rolledBack: (sim: ServedSimulation) => void;
}

/** The store of one served simulation, and what the core does while it fails. */
export class Durability {
  readonly #options: DurabilityOptions;
  /** Since the store last failed a write (cleared by a request's write that succeeds). */
  #writeFailures: { count: number; reason: string; retryAt: number } | undefined;

  constructor(options: DurabilityOptions) {
    this.#options = options;
  }

  /** Whether the store has failed a write since a request's write last succeeded. */
  get failing(): boolean {
    return this.#writeFailures !== undefined;
  }

  /** Writes the events of `sim` the store does not hold yet; throws when it cannot. */
  writeAll(sim: ServedSimulation): void {
    this.#options.store?.flush(sim);
  }

  /** Replaces what the store holds with `sim`'s log (on reset). */
  rewrite(sim: ServedSimulation): void {
    this.#options.store?.rewrite(sim);
  }

  /**
   * Writes what a request added to `sim`: a write that succeeds ends a failure. The answer when the
   * store refused (the simulation is rolled back then).
   */
  flush(sim: ServedSimulation): Answer | undefined {
    const store = this.#options.store;
    try {
      const before = store?.written;
      store?.flush(sim);
      if (store?.written !== before) this.#writeFailures = undefined;
      return undefined;
    } catch (error) {
      return this.#rollBack(sim, error);
    }
  }

  /**
   * Writes what a slice of a clock move added to `sim`, as `flush` does, except that a slice's
   * write leaves a failure for the request's own write to end.
   */
  flushSlice(sim: ServedSimulation): Answer | undefined {
    try {
      this.#options.store?.flush(sim);
      return undefined;
    } catch (error) {
      return this.#rollBack(sim, error);
    }
  }

  /**
   * After the store failed a write: a 503 for a request that may write, unless the store looks
   * writable again (a state file that opens for appending, on a disk with room) and any back-off
   * has passed.
   */
  refusal(): Answer | undefined {
    const failed = this.#writeFailures;
    if (failed === undefined) return undefined;
    const store = this.#options.store;
    if (this.#options.wallNow() >= failed.retryAt && store?.looksWritable?.() !== false)
      return undefined;
    return errorAnswer(
      'service_unavailable',
      `the state file cannot be written (${failed.reason}): only reads are served until it can; ` +
        'nothing was changed',
    );
  }

  /** The store could not take the events of `sim`: go back to the simulation it holds. */
  #rollBack(sim: ServedSimulation, error: unknown): Answer {
    const store = this.#options.store as SimStore;
    const renew = this.#options.renew as Renewal;
    this.#options.rolledBack(renew.replay(sim.log.range(0, store.written)));
    // Replaying costs time in proportion to the log: until the store can be written again, writes
    // are refused before they run, and a store that keeps failing is tried less and less often.
    const count = (this.#writeFailures?.count ?? 0) + 1;
    const wait = count === 1 ? 0 : Math.min(60_000, 1_000 * 2 ** (count - 2));
    this.#writeFailures = {
      count,
      reason: firstLine(error),
      retryAt: this.#options.wallNow() + wait,
    };
    return errorAnswer('service_unavailable', `the change was not applied: ${firstLine(error)}`);
  }
}
