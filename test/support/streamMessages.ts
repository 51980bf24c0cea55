/**
 * The messages of a server-sent event stream as tests read them: the whole ones in a body (a
 * message cut off at its end is not one, so its id is never taken), parsed, or just the event of
 * the last one; and the feed's lines read off a stream as they come.
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

/** A line of the dashboard's feed as tests compare them. */
export interface FeedItem {
  readonly text: string;
  readonly seq?: number;
}

/**
 * The feed lines read off `reader` (a stream's body), a read always waiting as a page's does:
 * `until(last)` reads on until a line reads `last`; `items` are all read so far.
 */
export function feedItems(reader: ReadableStreamDefaultReader<Uint8Array>) {
  const decoder = new TextDecoder();
  const items: FeedItem[] = [];
  let text = '';
  const until = async (last: string): Promise<FeedItem[]> => {
    while (!items.some((item) => item.text === last)) {
      const next = await reader.read();
      if (next.done === true) throw new Error('the stream ended');
      text += decoder.decode(next.value, { stream: true });
      const cut = text.lastIndexOf('\n\n') + 2;
      for (const message of bodyMessages(text.slice(0, cut)))
        if (message.event === 'feed') items.push(...(message.data as FeedItem[]));
      text = text.slice(cut);
    }
    return items;
  };
  return { items, until };
}
