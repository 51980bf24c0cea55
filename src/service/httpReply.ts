/**
 * Writing an answer as a reply: the response before it is a `Response`, with `Date` in virtual time,
 * the request id echoed, and a JSON, text or streamed body.
 */
import type { Answer } from './errorTable.js';
import { streamedBody } from './streamedBody.js';
import { INTERNAL_ERROR } from './thrownAnswer.js';

/**
 * A response before it is a `Response`: what `fetch` wraps in one, and what an adapter writing to
 * a socket takes as it is (a `Response` with a body costs a stream an adapter would read back).
 */
export interface Reply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** A whole text, a stream of bytes, or nothing (204). */
  readonly body: string | ReadableStream<Uint8Array> | null;
}

/** The content type of every JSON answer. */
export const JSON_TYPE = 'application/json; charset=utf-8';

/** `Date` headers for virtual time: whole seconds, so one text serves every reply in a second. */
export class VirtualDateHeader {
  /** The last text made, by the virtual second it names. */
  #last: { readonly second: number; readonly text: string } | undefined;

  /** The `Date` header for virtual time `now`. */
  at(now: number): string {
    const second = Math.floor(now / 1_000);
    if (this.#last?.second !== second)
      this.#last = { second, text: new Date(second * 1_000).toUTCString() };
    return this.#last.text;
  }
}

/** `answer` as a reply, with `date` as its `Date` and `requestId` echoed when the client sent one. */
export function replyOf(answer: Answer, date: string, requestId: string | undefined): Reply {
  const headers: Record<string, string> = { date };
  if (requestId !== undefined) headers['x-request-id'] = requestId;
  if (answer.headers !== undefined) Object.assign(headers, answer.headers);
  if (answer.stream !== undefined) {
    headers['content-type'] = answer.contentType ?? 'application/octet-stream';
    return { status: answer.status, headers, body: streamedBody(answer.stream) };
  }
  if (answer.status === 204 || answer.body === undefined)
    return { status: answer.status, headers, body: null };
  const text =
    typeof answer.body === 'string' && answer.contentType !== undefined
      ? answer.body
      : JSON.stringify(answer.body);
  headers['content-type'] = answer.contentType ?? JSON_TYPE;
  return { status: answer.status, headers, body: text };
}

/** The bare 500 for a failure outside the route handlers (reading, flushing, building the reply). */
export function internalErrorReply(): Reply {
  return {
    status: 500,
    headers: { 'content-type': JSON_TYPE },
    body: JSON.stringify(INTERNAL_ERROR),
  };
}
