/**
 * Closing a client's connection so that it is really gone: the last words are flushed if the client
 * reads them, what it still sends is read and dropped (a paused socket never sees the client's own
 * FIN), and a client that neither reads nor hangs up is cut off after a grace period, so a dead or
 * hostile client never keeps a socket and its buffers.
 */
import type { Duplex } from 'node:stream';

/** How long a closed connection may take to flush its last words before it is destroyed. */
const GRACE_MS = 2_000;

/** Ends `socket` (after what was written), then destroys it if it has not closed by the grace. */
export function hangUp(socket: Duplex): void {
  if (socket.destroyed) return;
  socket.removeAllListeners('data');
  socket.on('data', () => undefined);
  socket.resume();
  if (!socket.writableEnded) socket.end();
  const timer = setTimeout(() => socket.destroy(), GRACE_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}
