/**
 * A look at a batch of client messages (whole protocol messages, `type(1) length(4) payload`)
 * without copying it: the SQL of each Query and Parse (after the name of the statement a Parse
 * prepares), and whether the backend must end its answer with a ReadyForQuery. Bind values and
 * COPY data are skipped, so a look costs the statements' size, not the batch's.
 */
import { FUNCTION_CALL, PARSE, QUERY, SYNC } from './messageTypes.js';

/** Whether the batch holds a message the backend must answer with a ReadyForQuery. */
export function awaitsReady(batch: Uint8Array): boolean {
  const view = Buffer.from(batch.buffer, batch.byteOffset, batch.byteLength);
  for (let offset = 0; offset + 5 <= view.length; offset += 1 + view.readUInt32BE(offset + 1)) {
    const type = view[offset];
    if (type === QUERY || type === SYNC || type === FUNCTION_CALL) return true;
  }
  return false;
}

/** The SQL of every Query and Parse in `messages` (whole protocol messages), in order. */
export function statementTexts(messages: Uint8Array): string[] {
  const view = Buffer.from(messages.buffer, messages.byteOffset, messages.byteLength);
  const texts: string[] = [];
  for (let offset = 0; offset + 5 <= view.length; offset += 1 + view.readUInt32BE(offset + 1)) {
    const type = view[offset];
    if (type !== QUERY && type !== PARSE) continue;
    const end = Math.min(view.length, offset + 1 + view.readUInt32BE(offset + 1));
    // A Parse names its statement first; a Query is its text.
    const start = type === QUERY ? offset + 5 : view.indexOf(0, offset + 5) + 1;
    if (start <= 0 || start > end) continue;
    const textEnd = view.indexOf(0, start);
    texts.push(view.toString('utf8', start, textEnd < 0 || textEnd > end ? end : textEnd));
  }
  return texts;
}
