/**
 * A long answer (a log of millions of events, hundreds of MB of JSON Lines) as a byte stream made a
 * piece at a time, each piece in a turn of the event loop of its own (what a few ms make), taken in
 * turn with the other sliced runs (`sliceTurns.ts`). Pieces are made only when the reader asks,
 * so a slow reader holds one piece; and a fast one (on loopback the socket takes all) never has the
 * whole body made in one turn, which held every other request until it was done.
 */
import { nextSliceTurn } from './sliceTurns.js';

/** Wall ms a piece is made in at most (read between runs of `RUN_CHARS`). */
const PIECE_MS = 4;
/** Characters a piece holds at most (it ends at the first chunk past them): its memory bound. */
const PIECE_CHARS = 1 << 20;
/** Characters made between two reads of the clock. */
const RUN_CHARS = 65_536;

/**
 * `chunks` as a byte stream, one piece per turn (what a few ms make, 1 MiB at most): never joined
 * into one string.
 */
export function streamedBody(chunks: Iterable<string>): ReadableStream<Uint8Array> {
  const iterator = chunks[Symbol.iterator]();
  const encoder = new TextEncoder();
  let cancelled = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        await nextSliceTurn();
        if (cancelled) return;
        const started = performance.now();
        let pending = '';
        let checked = 0;
        for (;;) {
          const next = iterator.next();
          if (next.done === true) {
            if (pending !== '') controller.enqueue(encoder.encode(pending));
            controller.close();
            return;
          }
          pending += next.value;
          if (pending.length - checked < RUN_CHARS) continue;
          checked = pending.length;
          if (pending.length >= PIECE_CHARS || performance.now() - started >= PIECE_MS) {
            controller.enqueue(encoder.encode(pending));
            return;
          }
        }
      },
      cancel() {
        cancelled = true;
        iterator.return?.();
      },
    },
    // Made only when the reader has taken the last piece.
    { highWaterMark: 0 },
  );
}
