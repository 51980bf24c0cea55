/**
 * A client's bytes cut into messages whatever chunks they come in: untyped ones up to the startup
 * message, typed ones from it on (a driver that sends its password right behind its startup, in
 * the same chunk or the next); a length the protocol cannot have is a violation.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backendMessage } from '../../src/pg/backendMessages.js';
import { ClientMessages } from '../../src/pg/clientMessages.js';

function untyped(code: number, payload: Buffer = Buffer.alloc(0)): Buffer {
  const message = Buffer.alloc(8 + payload.length);
  message.writeInt32BE(message.length, 0);
  message.writeInt32BE(code, 4);
  payload.copy(message, 8);
  return message;
}

const sslRequest = untyped(80_877_103);
const startup = untyped(196_608, Buffer.from('user\0neondb_owner\0\0'));
const password = backendMessage('p', Buffer.from('secret\0'));
const query = backendMessage('Q', Buffer.from('select 1\0'));

describe('ClientMessages', () => {
  it('reads an SSL request, a startup, then typed messages, however the bytes are cut', () => {
    const all = Buffer.concat([sslRequest, startup, password, query]);
    fc.assert(
      fc.property(fc.array(fc.nat(all.length), { maxLength: 6 }), (cuts) => {
        const reader = new ClientMessages();
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const read: Buffer[] = [];
        let previous = 0;
        for (const point of [...points, all.length]) {
          const got = reader.read(all.subarray(previous, point));
          expect(got.violation).toBeUndefined();
          read.push(...got.messages.map((m) => Buffer.from(m)));
          previous = point;
        }
        expect(read).toEqual([sslRequest, startup, password, query]);
      }),
    );
  });

  it('says a startup packet of impossible length is a violation', () => {
    const zero = Buffer.alloc(8);
    expect(new ClientMessages().read(zero).violation).toMatch(/invalid length of startup packet/);
  });
});
