/**
 * Where a reader of the event stream is: which served simulation (its epoch), how many of its
 * log's events and of its answered requests it has had. Each message of the stream carries the
 * cursor after it as its SSE id, so a reader that reconnects with `Last-Event-ID` resumes exactly
 * there: nothing lost, nothing repeated.
 */

/** A position in the stream of one served simulation. */
export interface StreamCursor {
  /** Names the served simulation (a reset or a restart starts another epoch). */
  readonly epoch: string;
  /** Events of the log had: the next one to send has this sequence number. */
  readonly seq: number;
  /** Answered requests had: the next one to send has this number. */
  readonly req: number;
}

/** `epoch.seq.req`, the SSE id of the message that brings a reader there. */
export function formatCursor(cursor: StreamCursor): string {
  return `${cursor.epoch}.${cursor.seq}.${cursor.req}`;
}

/** The cursor `text` names, or `undefined` when it names none (a reader then starts afresh). */
export function parseCursor(text: string | null | undefined): StreamCursor | undefined {
  const match = /^([A-Za-z0-9_-]{1,64})\.(\d{1,15})\.(\d{1,15})$/.exec(text?.trim() ?? '');
  if (match === null) return undefined;
  return { epoch: match[1] as string, seq: Number(match[2]), req: Number(match[3]) };
}
