/**
 * Cancel keys, as Postgres hands them out: after authentication each session is told a process id
 * and a secret (BackendKeyData); a CancelRequest on a new connection that names both cancels that
 * session's running statement. A request naming a wrong secret does nothing.
 */
import { randomInt } from 'node:crypto';
import { BACKEND_KEY_DATA } from './messageTypes.js';

/** A session's process id and secret. */
export interface BackendKey {
  readonly processId: number;
  readonly secret: number;
}

const CANCEL_REQUEST_CODE = 80_877_102;

/** Hands out keys: process ids counted up from `first`, secrets drawn at random. */
export class CancelKeys {
  #next: number;

  constructor(first = 10_000) {
    this.#next = first;
  }

  /** A new session's key. */
  issue(): BackendKey {
    return { processId: this.#next++, secret: randomInt(1, 0x7fffffff) };
  }
}

/** The BackendKeyData message for `key`. */
export function backendKeyData(key: BackendKey): Uint8Array {
  const message = Buffer.alloc(13);
  message[0] = BACKEND_KEY_DATA;
  message.writeInt32BE(12, 1);
  message.writeInt32BE(key.processId, 5);
  message.writeInt32BE(key.secret, 9);
  return message;
}

/** A CancelRequest for the session with `key` (sent on a connection of its own). */
export function cancelRequest(key: BackendKey): Buffer {
  const request = Buffer.alloc(16);
  request.writeInt32BE(16, 0);
  request.writeInt32BE(CANCEL_REQUEST_CODE, 4);
  request.writeInt32BE(key.processId, 8);
  request.writeInt32BE(key.secret, 12);
  return request;
}

/**
 * The key a CancelRequest names (length 16, the code 80877102, process id, secret), or `undefined`
 * when `data` is not one.
 */
export function cancelTarget(data: Uint8Array): BackendKey | undefined {
  if (data.length !== 16) return undefined;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (view.getInt32(0) !== 16 || view.getInt32(4) !== CANCEL_REQUEST_CODE) return undefined;
  return { processId: view.getInt32(8), secret: view.getInt32(12) };
}
