/**
 * The messages of a server-sent event stream as tests read them: the whole ones in a body (a
 * message cut off at its end is not one, so its id is never taken), parsed, or just the event of
 * the last one.
 */

/** One server-sent message of an event stream. */
export interface StreamMessage {
  readonly event: string;
  readonly id?: string;
  readonly data: unknown;
}

/** The blocks of a stream's body that are whole messages (comments left out). */
function wholeBlocks(body: string): string[] {
  const blocks = body.split('\n\n');
  blocks.pop();
  return blocks.filter((block) => !block.startsWith(':'));
}

/** The value of field `name` of a message block. */
function field(block: string, name: string): string | undefined {
  return block
    .split('\n')
    .find((line) => line.startsWith(`${name}: `))
    ?.slice(name.length + 2);
}

/** The complete messages in (the start of) a stream's body. */
export function bodyMessages(body: string): StreamMessage[] {
  return wholeBlocks(body).map((block) => {
    const id = field(block, 'id');
    return {
      event: field(block, 'event') ?? 'message',
      ...(id === undefined ? {} : { id }),
      data: JSON.parse(field(block, 'data') ?? 'null'),
    };
  });
}

/** The complete messages in the body of a raw HTTP/1.0 response (head included). */
export function streamMessages(raw: string): StreamMessage[] {
  return bodyMessages(raw.slice(raw.indexOf('\r\n\r\n') + 4));
}

/**
 * The event of the last whole message in `tail`, the end of a body (at least two messages long,
 * the first maybe cut at its start), without parsing the data.
 */
export function lastEvent(tail: string): string | undefined {
  const last = wholeBlocks(tail).at(-1);
  return last === undefined ? undefined : (field(last, 'event') ?? 'message');
}
