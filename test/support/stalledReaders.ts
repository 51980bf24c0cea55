/**
 * Readers of a server's `/_sim/events` that do not read: a raw HTTP/1.0 request on a paused socket
 * (no chunked framing: the body is the bytes after the head, and the server closes the connection
 * at its end), and what such a reader finds once it reads at last: what reached it, and whether
 * the server had already let it go.
 */
import { connect, type Socket } from 'node:net';
import { lastEvent } from './streamMessages.js';

/** Opens `/_sim/events` of the server at `base` with `key` on a socket that does not read. */
export function stalledReader(base: string, key: string, lastEventId?: string): Socket {
  const url = new URL(base);
  const socket = connect(Number(url.port), url.hostname);
  // The server dropping it (or closing at the end of a test) is expected.
  socket.on('error', () => undefined);
  socket.pause();
  const idLine = lastEventId === undefined ? '' : `last-event-id: ${lastEventId}\r\n`;
  socket.write(
    `GET ${url.pathname}/_sim/events HTTP/1.0\r\nauthorization: Bearer ${key}\r\n${idLine}\r\n`,
  );
  return socket;
}

/** Everything `socket` receives until it ends. */
export function readToEnd(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('close', () => resolve(text));
    socket.resume();
  });
}

/** What a stalled reader found when it read at last. */
export interface ReaderEnd {
  /** Whether the server had ended the stream (sent it all, then closed or dropped it). */
  readonly ended: boolean;
  /** Bytes it received in all (what the socket buffers held for it, and any rest). */
  readonly bytes: number;
  /** The event of the last whole message it received (`resync`, `feed`, …), if any. */
  readonly lastEvent: string | undefined;
}

/** Characters of the end of a stream kept to find its last whole message (≥ 2 messages). */
const TAIL = 64 * 1024;

/**
 * Lets `socket` read at last, for up to `graceMs`: a stream the server has ended gives what the
 * socket buffers held and closes; one it still feeds is destroyed at the bound.
 */
export function letGo(socket: Socket, graceMs: number): Promise<ReaderEnd> {
  return new Promise((resolve) => {
    let bytes = 0;
    let tail = '';
    let held = false;
    const bound = setTimeout(() => {
      held = true;
      socket.destroy();
    }, graceMs);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      bytes += Buffer.byteLength(chunk);
      tail = (tail + chunk).slice(-TAIL);
    });
    // Closed by the server, whether with an end or a reset: either way it let the stream go.
    socket.on('close', () => {
      clearTimeout(bound);
      resolve({ ended: !held, bytes, lastEvent: lastEvent(tail) });
    });
    socket.resume();
  });
}
