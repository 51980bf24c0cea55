/**
 * A client's bytes cut into messages whatever chunks they come in: untyped ones up to the startup
 * message, typed ones from it on (a driver that sends its password right behind its startup, in
 * the same chunk or the next); a length the protocol cannot have, a length over Postgres's limit
 * for the message's type, an unknown type, or too much before login is a violation.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backendMessage } from '../../src/pg/backendMessages.js';
import {
  ClientMessages,
  isLoggedInMessageType,
  MESSAGE_LIMITS,
} from '../../src/pg/clientMessages.js';

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

  it('says a startup packet of impossible length is a violation, closed without a word', () => {
    const zero = Buffer.alloc(8);
    const read = new ClientMessages().read(zero);
    expect(read.violation?.message).toMatch(/invalid length of startup packet/);
    expect(read.quiet).toBe(true);
    // What a client that ends at once sends: Terminate where a startup packet would be.
    const terminate = new ClientMessages().read(backendMessage('X'));
    expect(terminate.violation?.message).toMatch(/invalid length of startup packet/);
    expect(terminate.quiet).toBe(true);
  });
});

/** A reader past the startup message (and, if `loggedIn`, past the login). */
function typedReader(loggedIn: boolean): ClientMessages {
  const reader = new ClientMessages();
  expect(reader.read(startup).messages).toHaveLength(1);
  if (loggedIn) reader.loggedIn();
  return reader;
}

/** A typed message header declaring `length`, with no body. */
function header(type: string, length: number): Buffer {
  const bytes = Buffer.alloc(5);
  bytes.write(type, 0, 'latin1');
  bytes.writeUInt32BE(length, 1);
  return bytes;
}

describe('the limits on what a client sends', () => {
  it('refuses a declared length over the limit as soon as the header is read', () => {
    const cases: [boolean, string, number][] = [
      [false, 'p', MESSAGE_LIMITS.auth + 5], // a password before login
      [true, 'Q', MESSAGE_LIMITS.large + 5], // a query
      [true, 'S', MESSAGE_LIMITS.small + 5], // a Sync
      [true, 'Q', 0x3fffffff], // the 1 GiB a hostile client declares
      [true, 'Q', 3], // shorter than its own length field
    ];
    for (const [loggedIn, type, length] of cases) {
      const read = typedReader(loggedIn).read(header(type, length));
      expect(read.violation).toEqual({
        sqlstate: '08P01',
        message: `invalid message length ${length}`,
      });
      expect(read.quiet).toBeUndefined();
    }
  });

  it('takes messages just at the limits', () => {
    const password = backendMessage('p', Buffer.alloc(MESSAGE_LIMITS.auth - 4));
    expect(typedReader(false).read(password).messages).toHaveLength(1);
    const sync = backendMessage('S', Buffer.alloc(MESSAGE_LIMITS.small - 4));
    expect(typedReader(true).read(sync).messages).toHaveLength(1);
  });

  it('refuses a type the protocol does not have, and a password once logged in', () => {
    const junk = Buffer.from([0x01, 0, 0, 0, 5, 0x78]); // type 1, length 5, 'x'
    expect(typedReader(true).read(junk).violation).toEqual({
      sqlstate: '08P01',
      message: 'invalid frontend message type 1',
    });
    expect(typedReader(true).read(backendMessage('p', Buffer.from('again\0'))).violation).toEqual({
      sqlstate: '08P01',
      message: 'invalid frontend message type 112',
    });
    expect(isLoggedInMessageType(0x70)).toBe(false);
    expect(isLoggedInMessageType(0x51)).toBe(true);
  });

  it('refuses more than its budget of bytes before login, whole messages or not', () => {
    const reader = typedReader(false);
    const query = backendMessage('Q', Buffer.alloc(64 * 1024));
    let violation;
    let sent = 0;
    while (violation === undefined && sent < 2 * MESSAGE_LIMITS.beforeLogin) {
      violation = reader.read(query).violation;
      sent += query.length;
    }
    expect(violation?.message).toMatch(/before authentication/);
    expect(sent).toBeLessThanOrEqual(MESSAGE_LIMITS.beforeLogin + query.length);
    // Once logged in the same messages are read without end.
    const after = typedReader(true);
    for (let i = 0; i < 40; i += 1) expect(after.read(query).violation).toBeUndefined();
  });

  it('joins a large message from many chunks into the same bytes', () => {
    const body = Buffer.alloc(3 * 1024 * 1024, 7);
    body.write('select 1', 0);
    const message = backendMessage('Q', body);
    const reader = typedReader(true);
    const read: Uint8Array[] = [];
    for (let at = 0; at < message.length; at += 1000)
      read.push(...reader.read(message.subarray(at, at + 1000)).messages);
    expect(read).toHaveLength(1);
    expect(Buffer.compare(Buffer.from(read[0] as Uint8Array), message)).toBe(0);
    expect(reader.buffered).toBe(0);
  });
});
