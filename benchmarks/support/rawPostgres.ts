/**
 * The Postgres wire protocol by hand, for clients no library would be: startup and typed messages
 * built byte by byte, and a raw connection that counts what the server sends, reads its
 * ErrorResponses and notes when it hangs up.
 */
import { connect, type Socket } from 'node:net';

/** A startup message (protocol 3.0) with `parameters`. */
export function startupMessage(parameters: Readonly<Record<string, string>>): Buffer {
  const body = Buffer.from(
    `${Object.entries(parameters)
      .map(([name, value]) => `${name}\0${value}\0`)
      .join('')}\0`,
    'utf8',
  );
  const head = Buffer.alloc(8);
  head.writeInt32BE(8 + body.length, 0);
  head.writeInt32BE(196_608, 4);
  return Buffer.concat([head, body]);
}

/** The header of a typed message: its type byte, then `length` (which counts itself). */
export function typedHeader(type: string, length: number): Buffer {
  const head = Buffer.alloc(5);
  head.write(type, 0, 'latin1');
  head.writeUInt32BE(length, 1);
  return head;
}

/** A whole typed message of `type` with `payload`. */
export function typedMessage(type: string, payload: Buffer): Buffer {
  return Buffer.concat([typedHeader(type, 4 + payload.length), payload]);
}

/** A Parse message: statement `name` for `query`, no parameter types. */
export function parseMessage(name: string, query: string): Buffer {
  return typedMessage('P', Buffer.from(`${name}\0${query}\0\0\0`, 'utf8'));
}

/** A Postgres error's fields (SQLSTATE and message). */
export interface ServerError {
  readonly code: string;
  readonly message: string;
}

/** `code message`, or the words for a hang-up without one. */
export function describeError(error: ServerError | undefined): string {
  return error === undefined ? 'no ErrorResponse' : `${error.code} "${error.message}"`;
}

/** A raw connection and what it saw. */
export interface RawConnection {
  readonly socket: Socket;
  /** Bytes received. */
  received(): number;
  /** The first ErrorResponse the server sent. */
  error(): ServerError | undefined;
  /** Whether the connection has closed, and when (`performance.now()`), and why if it failed. */
  closed(): { readonly at: number; readonly cause?: string } | undefined;
  /** Resolves once the connection has closed, or after `ms` (false then). */
  closedWithin(ms: number): Promise<boolean>;
  /**
   * Writes `chunk` and waits for room in the socket's buffer (at most `ms`); false when the
   * connection is gone or the room did not come in time.
   */
  write(chunk: Buffer, ms?: number): Promise<boolean>;
}

/** Opens a TCP connection to `127.0.0.1:port`; resolves once it is connected. */
export function rawConnect(port: number, timeoutMs = 10_000): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    const connection = watch(socket);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no TCP connection to port ${port} in ${timeoutMs} ms`));
    }, timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      resolve(connection);
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

/** Follows an open socket: counts its bytes, reads the first ErrorResponse, notes its close. */
export function watch(socket: Socket): RawConnection {
  let bytes = 0;
  let pending = Buffer.alloc(0);
  let firstError: ServerError | undefined;
  let closedAt: { at: number; cause?: string } | undefined;
  let failure: string | undefined;
  const closeWaiters: (() => void)[] = [];
  socket.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    if (firstError !== undefined || pending.length > 1 << 20) return;
    pending = Buffer.concat([pending, chunk]);
    while (pending.length >= 5 && firstError === undefined) {
      const length = pending.readUInt32BE(1);
      if (pending.length < 1 + length) break;
      if (pending[0] === 0x45) firstError = errorFields(pending.subarray(5, 1 + length));
      pending = pending.subarray(1 + length);
    }
  });
  socket.on('error', (error: NodeJS.ErrnoException) => (failure = error.code ?? error.message));
  socket.on('close', () => {
    closedAt = { at: performance.now(), ...(failure === undefined ? {} : { cause: failure }) };
    for (const waiter of closeWaiters.splice(0)) waiter();
  });
  return {
    socket,
    received: () => bytes,
    error: () => firstError,
    closed: () => closedAt,
    closedWithin: (ms) =>
      closedAt !== undefined
        ? Promise.resolve(true)
        : new Promise((resolve) => {
            const timer = setTimeout(() => resolve(false), ms);
            closeWaiters.push(() => {
              clearTimeout(timer);
              resolve(true);
            });
          }),
    write: (chunk, ms = 10_000) =>
      new Promise((resolve) => {
        if (closedAt !== undefined || socket.destroyed) return resolve(false);
        if (socket.write(chunk)) return resolve(true);
        const done = (ok: boolean) => {
          clearTimeout(timer);
          socket.off('drain', onDrain);
          socket.off('close', onClose);
          resolve(ok);
        };
        const onDrain = () => done(true);
        const onClose = () => done(false);
        const timer = setTimeout(() => done(false), ms);
        socket.once('drain', onDrain);
        socket.once('close', onClose);
      }),
  };
}

/** The SQLSTATE and message of an ErrorResponse's fields. */
function errorFields(body: Buffer): ServerError {
  const fields = new Map<string, string>();
  let at = 0;
  while (at < body.length && body[at] !== 0) {
    const end = body.indexOf(0, at + 1);
    if (end < 0) break;
    fields.set(String.fromCharCode(body[at] as number), body.toString('utf8', at + 1, end));
    at = end + 1;
  }
  return { code: fields.get('C') ?? '?', message: fields.get('M') ?? '' };
}
