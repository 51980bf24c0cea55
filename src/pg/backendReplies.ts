/**
 * Reading what a backend answered the front's own statements: the first value of the first row,
 * the first error.
 */
import type { SqlError } from '../domain/sqlState.js';
import { DATA_ROW, ERROR_RESPONSE } from './messageTypes.js';

/** The first column of the first row of a reply, as text. */
export function firstValue(reply: Uint8Array): string | undefined {
  const view = Buffer.from(reply.buffer, reply.byteOffset, reply.byteLength);
  for (let offset = 0; offset + 5 <= view.length; offset += 1 + view.readUInt32BE(offset + 1)) {
    if (view[offset] !== DATA_ROW) continue;
    const length = view.readInt32BE(offset + 7);
    return length < 0 ? undefined : view.toString('utf8', offset + 11, offset + 11 + length);
  }
  return undefined;
}

/** The first ErrorResponse of a reply, as a SQLSTATE and message. */
export function errorOf(reply: Uint8Array): SqlError | undefined {
  const view = Buffer.from(reply.buffer, reply.byteOffset, reply.byteLength);
  for (let offset = 0; offset + 5 <= view.length; offset += 1 + view.readUInt32BE(offset + 1)) {
    if (view[offset] !== ERROR_RESPONSE) continue;
    const end = offset + 1 + view.readUInt32BE(offset + 1);
    const fields = new Map<string, string>();
    for (let at = offset + 5; at < end && view[at] !== 0;) {
      const close = view.indexOf(0, at + 1);
      fields.set(String.fromCharCode(view[at] as number), view.toString('utf8', at + 1, close));
      at = close + 1;
    }
    return { sqlstate: fields.get('C') ?? 'XX000', message: fields.get('M') ?? 'error' };
  }
  return undefined;
}
