/**
 * Bytes node cannot parse as a request (node's `clientError`). Alone on a connection they get a
 * JSON 400 (408, 431) and the connection is closed. After a request read whole and not answered
 * yet, they are left unanswered instead: that request may have changed the simulation (a DELETE
 * whose client wrote a body with no length sends the body as if it were the next request), so its
 * own answer goes out, and the connection is closed after it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { ERROR_STATUS } from '../service/errorTable.js';

/** The responses of each connection that are not finished yet, in the order of their requests. */
export class OpenReplies {
  readonly #open = new WeakMap<Duplex, Set<ServerResponse>>();
  /** Connections to close once their last whole request is answered. */
  readonly #closing = new WeakSet<Duplex>();

  /** Keeps `outgoing` among its connection's open responses until it closes. */
  opened(incoming: IncomingMessage, outgoing: ServerResponse): void {
    const socket = incoming.socket;
    let open = this.#open.get(socket);
    if (open === undefined) this.#open.set(socket, (open = new Set()));
    open.add(outgoing);
    const replies = open;
    outgoing.once('close', () => replies.delete(outgoing));
  }

  /** What node could not parse on `socket` (a `clientError` listener). */
  readonly clientError = (error: NodeJS.ErrnoException, socket: Duplex): void => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    if (this.#closing.has(socket)) return;
    const last = this.#lastWholeRequest(socket);
    if (last === undefined) {
      answerUnparsed(error, socket);
      return;
    }
    // The answer goes out whole with "Connection: close" (node closes the connection after it);
    // one already under way (a streamed body) is followed by the close.
    this.#closing.add(socket);
    if (!last.headersSent) last.setHeader('connection', 'close');
    last.once('close', () => socket.end());
  };

  /**
   * The response of the last request on `socket` that was read whole and is not answered yet. A
   * request whose body was still being read when the bytes broke it never had a body to act on.
   */
  #lastWholeRequest(socket: Duplex): ServerResponse | undefined {
    let last: ServerResponse | undefined;
    for (const outgoing of this.#open.get(socket) ?? [])
      if (outgoing.req.complete && !outgoing.writableFinished) last = outgoing;
    return last;
  }
}

/** A JSON error instead of node's empty one, then close. */
function answerUnparsed(error: NodeJS.ErrnoException, socket: Duplex): void {
  const [code, reason] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? (['headers_too_large', 'Request Header Fields Too Large'] as const)
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? (['request_timeout', 'Request Timeout'] as const)
        : (['invalid_input', 'Bad Request'] as const);
  const text = JSON.stringify({
    code,
    message: `the request is not valid HTTP (${error.code ?? 'parse error'})`,
  });
  socket.end(
    `HTTP/1.1 ${ERROR_STATUS[code]} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
}
