/**
 * A client's own backend on a real Postgres server (`--pg-engine postgres`): a connection over the
 * server's unix socket, logged in (the server trusts its socket; the front has checked the
 * password), with what the backend announced at its start: its parameters and its cancel key.
 * After that the front either passes the client's bytes through (`proxiedTraffic.ts`) or, for SQL
 * over HTTP, runs exchanges on it one at a time (`exec`).
 */
import { connect, type Socket } from 'node:net';
import type { SqlError } from '../domain/sqlState.js';
import { cancelRequest, type BackendKey } from './cancelKeys.js';
import { ReplyFrames } from './replyFrames.js';
import { HEADER_BYTES, TERMINATE } from './messageTypes.js';

/** A backend logged in for one client. */
export interface BackendLink {
  /** The connection to the backend, after its ReadyForQuery. */
  readonly socket: Socket;
  /** The parameters the backend reported at its start (`server_version`, …). */
  readonly parameters: Readonly<Record<string, string>>;
  /** The backend's process id and secret, as a cancel request names them. */
  readonly key: BackendKey;
  /**
   * Sends `message` (protocol messages, one exchange) and streams the reply to `write` until it
   * is answered: a ReadyForQuery for each Sync or Query in it, else (it ends with a Flush) the
   * end of each Execute's result or an error. Resolves early if the backend goes.
   */
  exec(message: Uint8Array, write: (chunk: Uint8Array) => unknown): Promise<void>;
  /** Asks the server to cancel the backend's running statement (as a CancelRequest does). */
  cancel(): void;
  /** Says goodbye (Terminate) and closes the connection. */
  close(): void;
}

const PROTOCOL_3_0 = 196_608;
const TERMINATE_MESSAGE = Buffer.from([TERMINATE, 0, 0, 0, 4]);

/**
 * Opens a backend on the server listening at `socketPath` with the startup parameters `startup`
 * (`user`, `database`, settings); resolves to the link, or to the server's refusal (its FATAL).
 */
export function openBackendLink(
  socketPath: string,
  startup: Readonly<Record<string, string>>,
): Promise<BackendLink | SqlError> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath);
    socket.setNoDelay(true);
    const parameters: Record<string, string> = {};
    let key: BackendKey = { processId: 0, secret: 0 };
    let buffered: Buffer = Buffer.alloc(0);
    let settled = false;
    const settle = (outcome: BackendLink | SqlError | Error) => {
      if (settled) return;
      settled = true;
      socket.off('data', onData);
      if (outcome instanceof Error) {
        socket.destroy();
        reject(outcome);
      } else resolve(outcome);
    };
    const onData = (chunk: Buffer) => {
      buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
      let offset = 0;
      while (offset + HEADER_BYTES <= buffered.length) {
        const length = buffered.readUInt32BE(offset + 1);
        if (offset + 1 + length > buffered.length) break;
        const type = String.fromCharCode(buffered[offset] as number);
        const body = buffered.subarray(offset + HEADER_BYTES, offset + 1 + length);
        offset += 1 + length;
        if (type === 'R' && body.readInt32BE(0) !== 0) {
          settle(new Error(`the server asked for authentication ${body.readInt32BE(0)}`));
          return;
        }
        if (type === 'S') {
          const [name = '', value = ''] = body.toString('utf8').split('\0');
          parameters[name] = value;
        } else if (type === 'K') {
          key = { processId: body.readInt32BE(0), secret: body.readInt32BE(4) };
        } else if (type === 'E') {
          const fields = errorFields(body);
          socket.destroy();
          settle({ sqlstate: fields.get('C') ?? 'XX000', message: fields.get('M') ?? 'refused' });
          return;
        } else if (type === 'Z') {
          settle(linkOver(socket, socketPath, parameters, key));
          return;
        }
      }
      buffered = buffered.subarray(offset);
    };
    socket.on('data', onData);
    socket.once('error', (error) => settle(error));
    socket.once('close', () => settle(new Error('the server closed the connection at its start')));
    socket.write(startupMessage(startup));
  });
}

function linkOver(
  socket: Socket,
  socketPath: string,
  parameters: Readonly<Record<string, string>>,
  key: BackendKey,
): BackendLink {
  socket.on('error', () => undefined);
  return {
    socket,
    parameters,
    key,
    exec: (message, write) => exchange(socket, message, write),
    cancel: () => {
      const canceller = connect(socketPath, () => canceller.end(cancelRequest(key)));
      canceller.on('error', () => undefined);
    },
    close: () => {
      if (!socket.destroyed && socket.writable) socket.end(TERMINATE_MESSAGE);
      else socket.destroy();
    },
  };
}

/** One exchange on a logged-in backend: see `BackendLink.exec`. */
function exchange(
  socket: Socket,
  message: Uint8Array,
  write: (chunk: Uint8Array) => unknown,
): Promise<void> {
  const sent = messageTypes(message);
  let readies = sent.filter((type) => type === 'S' || type === 'Q').length;
  let results = readies > 0 ? 0 : sent.filter((type) => type === 'E').length;
  return new Promise((resolve) => {
    if (socket.destroyed) return resolve();
    const frames = new ReplyFrames();
    const finish = () => {
      socket.off('data', onData);
      socket.off('close', finish);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      const whole = frames.take(chunk);
      let done = false;
      for (const type of messageTypes(whole)) {
        if (type === 'Z') done = --readies <= 0 || done;
        else if (readies === 0 && 'CsIE'.includes(type)) done = --results <= 0 || type === 'E';
      }
      if (whole.length > 0) write(whole);
      if (done || frames.fatal !== undefined) finish();
    };
    socket.on('data', onData);
    socket.once('close', finish);
    socket.write(message);
  });
}

/** The types of the whole messages in `data`, in order. */
function messageTypes(data: Uint8Array): string[] {
  const types: string[] = [];
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  for (let offset = 0; offset + HEADER_BYTES <= bytes.length;) {
    types.push(String.fromCharCode(bytes[offset] as number));
    offset += 1 + bytes.readUInt32BE(offset + 1);
  }
  return types;
}

/** A StartupMessage of protocol 3.0 with `parameters`. */
function startupMessage(parameters: Readonly<Record<string, string>>): Buffer {
  const pairs = Object.entries(parameters).flatMap(([name, value]) => [
    Buffer.from(`${name}\0`, 'utf8'),
    Buffer.from(`${value}\0`, 'utf8'),
  ]);
  const body = Buffer.concat([...pairs, Buffer.from([0])]);
  const header = Buffer.alloc(8);
  header.writeInt32BE(8 + body.length, 0);
  header.writeInt32BE(PROTOCOL_3_0, 4);
  return Buffer.concat([header, body]);
}

/** An ErrorResponse's fields by their one-letter codes. */
export function errorFields(body: Uint8Array): Map<string, string> {
  const fields = new Map<string, string>();
  for (const field of Buffer.from(body).toString('utf8').split('\0'))
    if (field.length > 0) fields.set(field[0] as string, field.slice(1));
  return fields;
}
