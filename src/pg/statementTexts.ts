/**
 * The SQL texts of a batch of client messages: each Query's, and each Parse's (after the name of
 * the statement it prepares). Everything else (Bind values, COPY data) is skipped without a copy,
 * so a look at what a batch asks costs its statements' size, not the batch's.
 */

const QUERY = 0x51; // 'Q'
const PARSE = 0x50; // 'P'

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
