/**
 * The messages the front itself sends a Postgres client, before and beside what the branch
 * database answers: authentication requests, parameter status, the cancel key, ready for query,
 * errors; and the simple query it sends the database for its own statements. Each is `type(1)
 * length(4, including itself) payload`.
 */

/** One backend message of `type` with `payload`. */
export function backendMessage(type: string, payload: Uint8Array = new Uint8Array(0)): Buffer {
  const message = Buffer.alloc(5 + payload.length);
  message.write(type, 0, 'latin1');
  message.writeUInt32BE(4 + payload.length, 1);
  message.set(payload, 5);
  return message;
}

/** A 16-bit integer, big-endian, as the protocol writes counts. */
export function int16(value: number): Buffer {
  const bytes = Buffer.alloc(2);
  bytes.writeInt16BE(value);
  return bytes;
}

/** A 32-bit integer, big-endian, as the protocol writes lengths. */
export function int32(value: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeInt32BE(value);
  return bytes;
}

function cstring(text: string): Buffer {
  return Buffer.from(`${text}\0`, 'utf8');
}

/** A simple query (`Q`) of `sql`, as the front sends its own statements to a database. */
export function queryMessage(sql: string): Buffer {
  return backendMessage('Q', Buffer.from(`${sql}\0`, 'utf8'));
}

/** AuthenticationOk. */
export function authenticationOk(): Buffer {
  return backendMessage('R', int32(0));
}

/** AuthenticationCleartextPassword. */
export function cleartextPasswordRequest(): Buffer {
  return backendMessage('R', int32(3));
}

/** AuthenticationSASL, offering `mechanisms` in order of preference. */
export function saslRequest(mechanisms: readonly string[]): Buffer {
  return backendMessage(
    'R',
    Buffer.concat([int32(10), ...mechanisms.map(cstring), Buffer.from([0])]),
  );
}

/** AuthenticationSASLContinue with the server-first message. */
export function saslContinue(data: string): Buffer {
  return backendMessage('R', Buffer.concat([int32(11), Buffer.from(data, 'utf8')]));
}

/** AuthenticationSASLFinal with the server-final message. */
export function saslFinal(data: string): Buffer {
  return backendMessage('R', Buffer.concat([int32(12), Buffer.from(data, 'utf8')]));
}

/** ParameterStatus `name` = `value`. */
export function parameterStatus(name: string, value: string): Buffer {
  return backendMessage('S', Buffer.concat([cstring(name), cstring(value)]));
}

/** ReadyForQuery with the transaction status. */
export function readyForQuery(status: 'I' | 'T' | 'E'): Buffer {
  return backendMessage('Z', Buffer.from(status, 'latin1'));
}

/** What an ErrorResponse says. */
export interface ErrorFields {
  readonly severity: 'ERROR' | 'FATAL';
  readonly code: string;
  readonly message: string;
  readonly detail?: string;
  readonly hint?: string;
}

/** ErrorResponse. */
export function errorResponse(error: ErrorFields): Buffer {
  const field = (code: string, value: string) => Buffer.concat([Buffer.from(code), cstring(value)]);
  return backendMessage(
    'E',
    Buffer.concat([
      field('S', error.severity),
      field('V', error.severity),
      field('C', error.code),
      field('M', error.message),
      ...(error.detail === undefined ? [] : [field('D', error.detail)]),
      ...(error.hint === undefined ? [] : [field('H', error.hint)]),
      Buffer.from([0]),
    ]),
  );
}
