/**
 * Reads the text of a `text/event-stream` as it arrives, in chunks cut anywhere: a message is read
 * only once its blank line has come, so a message cut by a dropped connection is never read.
 */

/** One message: its id (the cursor after it), its event name, and its data (JSON text, or ''). */
export interface StreamMessage {
  readonly id: string | undefined;
  readonly event: string;
  readonly data: string;
}

/** The messages of one stream, read from its text chunk by chunk. */
export class EventStreamText {
  #buffer = '';

  /** The messages `chunk` completes, in order (comments are messages with no id and no data). */
  take(chunk: string): StreamMessage[] {
    this.#buffer += chunk;
    const messages: StreamMessage[] = [];
    let end: number;
    while ((end = this.#buffer.indexOf('\n\n')) >= 0) {
      messages.push(message(this.#buffer.slice(0, end)));
      this.#buffer = this.#buffer.slice(end + 2);
    }
    return messages;
  }
}

function message(block: string): StreamMessage {
  let id: string | undefined;
  let event = 'message';
  let data = '';
  for (const line of block.split('\n')) {
    if (line.startsWith('id: ')) id = line.slice(4);
    else if (line.startsWith('event: ')) event = line.slice(7);
    else if (line.startsWith('data: ')) data += line.slice(6);
  }
  return { id, event, data };
}
