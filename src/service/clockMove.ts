/**
 * The clock move under way on a served simulation (a sliced advance or run until idle): what it is,
 * and whether it has been told to stop, by `DELETE /_sim/advance` or by its client going away. It
 * stops between slices, where everything moved so far is flushed, so a stopped move is as durable
 * and replayable as one that arrived.
 */
import type { SliceStop } from './slicedRun.js';

/** A clock move under way: asked to stop, or its client gone, it stops at its next slice. */
export class ClockMove {
  readonly #gone: (() => boolean) | undefined;
  #stopAsked = false;
  #end: () => void = () => undefined;
  /** Resolves once the move has stopped or arrived, and the clock is free again. */
  readonly ended: Promise<void>;

  /**
   * @param what - the move, as messages name it (`an advance to 2076-…`)
   * @param gone - whether the client that asked for it has gone (none: it never goes)
   */
  constructor(
    readonly what: string,
    gone?: () => boolean,
  ) {
    this.#gone = gone;
    this.ended = new Promise<void>((resolve) => {
      this.#end = resolve;
    });
  }

  /** Asks the move to stop at its next slice (`DELETE /_sim/advance`). */
  stop(): void {
    this.#stopAsked = true;
  }

  /** Why the move must stop now, if it must: checked between slices. */
  stopped(): SliceStop | undefined {
    if (this.#stopAsked) return { code: 'stopped', message: 'DELETE /_sim/advance stopped it' };
    if (this.#gone?.() === true) return { code: 'stopped', message: 'its client went away' };
    return undefined;
  }

  /** Marks the move over (stopped or arrived): whoever waits on `ended` goes on. */
  end(): void {
    this.#end();
  }
}
