/**
 * The long moves of a served clock (an advance, a run until idle): one at a time, in slices with
 * other requests served in between, each slice flushed to the store. A move stops short when asked
 * to (`DELETE /_sim/advance`), when its client has gone, when the server stops, when memory runs
 * short or the store fails, or when the simulation is replaced under it.
 */
import { formatInstant } from '../core/instant.js';
import { ClockMove } from './clockMove.js';
import { errorAnswer, type Answer } from './errorTable.js';
import type { ServedSimulation } from './servedSimulation.js';
import { runSliced, type SliceResult, type SliceStop } from './slicedRun.js';

/** What a clock mover works with. */
interface ClockMoverOptions {
  /** The simulation served now: a move stops when it is no longer the one it moves. */
  readonly current: () => ServedSimulation;
  /** Writes a slice's events to the store; the answer when it could not (the move stops). */
  readonly flushSlice: (sim: ServedSimulation) => Answer | undefined;
  /** Told when a move is over, stopped or arrived, before anyone waiting on it goes on. */
  readonly ended: () => void;
  /** Says when memory is too full for a move to go on (it then stops with 507). */
  readonly memoryFull: (() => SliceStop | undefined) | undefined;
}

/** Moves one served clock, one move at a time. */
export class ClockMover {
  readonly #options: ClockMoverOptions;
  /** The clock move under way, if any. */
  #moving: ClockMove | undefined;
  #closing = false;

  constructor(options: ClockMoverOptions) {
    this.#options = options;
  }

  /** Whether a clock move is under way. */
  get moving(): boolean {
    return this.#moving !== undefined;
  }

  /** A 409 while a clock move is under way (the clock is busy), else `undefined`. */
  busy(): Answer | undefined {
    return this.#moving === undefined ? undefined : clockBusy(this.#moving.what);
  }

  /** Stops moves under way at their next slice (503): the server is stopping. */
  close(): void {
    this.#closing = true;
  }

  /**
   * Stops the move under way at its next slice and resolves once it has stopped; an answer when no
   * move is under way.
   */
  async stop(): Promise<Answer | undefined> {
    const moving = this.#moving;
    if (moving === undefined)
      return errorAnswer(
        'not_found',
        `no clock move is under way to stop; the clock is at ${formatInstant(this.#options.current().now())}`,
      );
    moving.stop();
    await moving.ended;
    return undefined;
  }

  /**
   * Moves the clock in slices (see `runSliced`), flushing each slice to the store, while other
   * requests are served in between. One move at a time: another gets 409. Resolves to an error
   * answer if the move stopped short (the clock then stays where the last whole slice left it):
   * asked to (`stop`), its client gone, memory short, the store failing.
   *
   * @param what - the move, as messages name it (`an advance to 2076-…`)
   * @param gone - whether the client that asked for it has gone
   */
  async move(
    what: string,
    slice: (sim: ServedSimulation, maxTimers: number) => SliceResult,
    gone: (() => boolean) | undefined,
  ): Promise<Answer | undefined> {
    if (this.#moving !== undefined) return clockBusy(this.#moving.what);
    const { current, flushSlice, ended: onEnded, memoryFull } = this.#options;
    const sim = current();
    const move = new ClockMove(what, gone);
    this.#moving = move;
    let ended: SliceResult | SliceStop;
    try {
      ended = await runSliced({
        slice: (maxTimers) => slice(sim, maxTimers),
        ...(memoryFull === undefined ? {} : { memoryFull }),
        afterSlice: (result) => {
          if (current() !== sim)
            return { code: 'service_unavailable', message: 'the simulation was replaced' };
          if (this.#closing)
            return { code: 'service_unavailable', message: 'the server is stopping' };
          const failed = flushSlice(sim);
          if (failed !== undefined)
            return {
              code: 'service_unavailable',
              message: (failed.body as { message: string }).message,
            };
          // Flushed first: a move stopped here is as durable as one that arrived. One that has
          // just arrived answers as arrived, whoever asked it to stop.
          return result === 'more' ? move.stopped() : undefined;
        },
      });
    } finally {
      this.#moving = undefined;
      onEnded();
      move.end();
    }
    if (ended === 'done') return undefined;
    const now = formatInstant(current().now());
    if (ended === 'deadline')
      return errorAnswer(
        'still_busy',
        `${what} gave up: work is still pending after the time allowed (within); ` +
          `the clock moved to ${now}`,
      );
    if (ended === 'more') throw new Error('a sliced run ended with work left');
    const answer = errorAnswer(
      ended.code,
      `${what} stopped: ${ended.message}; the clock is at ${now}`,
    );
    // Where the clock stopped, as `GET /_sim/clock` says it, for a client to go on from there.
    return { ...answer, body: { ...(answer.body as object), now, now_ms: current().now() } };
  }
}

function clockBusy(moving: string): Answer {
  return errorAnswer(
    'conflict',
    `the clock is busy with ${moving}: wait for it to answer, then try again`,
  );
}
