/**
 * A long answer (a log of millions of events, hundreds of MB of JSON Lines) as a byte stream made a
 * piece at a time, each piece in a turn of the event loop of its own, taken in turn with the other
 * sliced runs (`sliceTurns.ts`). Pieces are made only when the reader asks, so a slow reader holds
 * one piece; and a fast one (on loopback, the socket takes all) no longer had the whole body made
 * in one turn: a 79 MB log held every other request for 0.6 s.
 */
import { nextSliceTurn } from './sliceTurns.js';

/** Characters of text a piece holds (it ends at the first chunk past them). */
const PIECE_CHARS = 65_536;

/** `chunks` as a byte stream, in pieces of about 64 KiB, one per turn: never joined into one string. */
export function streamedBody(chunks: Iterable<string>): ReadableStream<Uint8Array> {
  const iterator = chunks[Symbol.iterator]();
  const encoder = new TextEncoder();
  let cancelled = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        await nextSliceTurn();
        if (cancelled) return;
        let pending = '';
        for (;;) {
          const next = iterator.next();
          if (next.done === true) {
            if (pending !== '') controller.enqueue(encoder.encode(pending));
            controller.close();
            return;
          }
          pending += next.value;
          if (pending.length >= PIECE_CHARS) {
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
