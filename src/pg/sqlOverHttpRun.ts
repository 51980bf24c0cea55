/**
 * One statement of a `POST /sql`, run as the real service's proxy runs it and written as the JSON it
 * answers, within the proxy's response size limit. The statement runs through the extended protocol
 * in rounds: Execute with a row limit, then Flush, as many times as the portal is suspended, and
 * Sync at the end, so the backend never gets ahead of the answer by more than a round. Each round's
 * reply is read chunk by chunk as the database thread streams it: its rows become JSON at once,
 * counted against the limit, and nothing else of the reply is kept. Once the answer is past the
 * limit, the rest of the round is drained without a look and the statement is abandoned (its
 * portal closed, what it did rolled back: the real proxy drops its connection mid-result), so a
 * result of any size costs at most the limit in memory and in work on the main thread, and the
 * database stays open for its other clients.
 */
import { SLICE_MS } from '../service/slicedRun.js';
import { nextSliceTurn } from '../service/sliceTurns.js';
import { backendMessage, int16, int32 } from './backendMessages.js';
import type { HeldDatabase } from './branchDatabases.js';
import { refusalOf, type Refusal } from './refusedStatements.js';

/**
 * The largest answer, as the real proxy bounds it (`sql_over_http_max_response_size_bytes`,
 * 10 MiB by default): a row that arrives when the JSON written so far is past it fails the
 * request with {@link RESPONSE_TOO_LARGE_MESSAGE}.
 */
const MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

/** The real proxy's message for an answer past {@link MAX_RESPONSE_BYTES}. */
export const RESPONSE_TOO_LARGE_MESSAGE = `response is too large (max is ${MAX_RESPONSE_BYTES} bytes)`;

/**
 * The most parameters a statement can have: the real proxy's client counts them in a signed 16-bit
 * integer (Postgres would take 65,535), and fails to encode the Bind of more.
 */
const MAX_PARAMETERS = 32_767;

/** The real proxy's message for a statement with more than {@link MAX_PARAMETERS} parameters. */
const TOO_MANY_PARAMETERS_MESSAGE = 'error encoding message to server: value too large to transmit';

/** Reply bytes a round aims at: the rows asked of the next round follow the rows' size. */
const ROUND_BYTES = 1 << 20;
const FIRST_ROUND_ROWS = 256;
const MAX_ROUND_ROWS = 1 << 16;
/** The most of an ErrorResponse kept (the rest of a huge message is dropped). */
const MAX_ERROR_BYTES = 64 * 1024;

/** The JSON of an answer, written piece by piece into one growing buffer (its bytes are counted). */
export class JsonWriter {
  #buffer = Buffer.allocUnsafe(16 * 1024);
  #length = 0;

  /** Bytes written so far. */
  get length(): number {
    return this.#length;
  }

  write(text: string): void {
    const needed = this.#length + Buffer.byteLength(text, 'utf8');
    if (needed > this.#buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(needed, this.#buffer.length * 2));
      this.#buffer.copy(grown, 0, 0, this.#length);
      this.#buffer = grown;
    }
    this.#length += this.#buffer.write(text, this.#length, 'utf8');
  }

  /** What was written. */
  bytes(): Buffer {
    return this.#buffer.subarray(0, this.#length);
  }
}

/** One statement of a request. */
export interface Statement {
  readonly query: string;
  readonly params: readonly unknown[];
}

/** How a statement ended: its JSON written, an error of Postgres's, or an answer past the limit. */
export type RunOutcome =
  | { readonly kind: 'done' }
  | { readonly kind: 'error'; readonly fields: Record<string, string> }
  | { readonly kind: 'tooLarge' };

const SYNC = backendMessage('S');
const FLUSH = backendMessage('H');
/** Closes the unnamed portal, rolls back what the statement did, and ends the exchange. */
const ABANDON = Buffer.concat([
  backendMessage('C', Buffer.from('P\0')),
  backendMessage('P', Buffer.concat([Buffer.from('\0ROLLBACK\0'), int16(0)])),
  backendMessage('B', Buffer.concat([Buffer.from('\0\0'), int16(0), int16(0), int16(0)])),
  backendMessage('E', Buffer.concat([Buffer.from('\0'), int32(0)])),
  SYNC,
]);

/**
 * Runs `statement` on `held` (parameters as text, rows as text) and writes its result to `out` as
 * the proxy does: `{"fields":[…],"rows":[…],"command":…,"rowCount":…,"rowAsArray":…}`. On an error
 * or past the limit, what `out` holds is to be dropped.
 */
export async function runStatement(
  held: HeldDatabase,
  statement: Statement,
  out: JsonWriter,
  arrayMode: boolean,
): Promise<RunOutcome> {
  const refusal = refusalOf(statement.query);
  if (refusal !== undefined) return { kind: 'error', fields: refusalFields(refusal) };
  const params = statement.params.map(paramText);
  if (params.length > MAX_PARAMETERS) {
    // The proxy parses the statement before it binds: a statement Postgres refuses fails as such.
    const parsed = new ResultReader(out, arrayMode);
    await held.exec(Buffer.concat([parseMessage(statement.query), SYNC]), parsed.writer);
    await parsed.drained();
    if (parsed.error !== undefined) return { kind: 'error', fields: parsed.error };
    return { kind: 'error', fields: { code: '08P01', message: TOO_MANY_PARAMETERS_MESSAGE } };
  }
  const reader = new ResultReader(out, arrayMode);
  let round = Buffer.concat([
    parseMessage(statement.query),
    bindMessage(params),
    backendMessage('D', Buffer.from('P\0')),
    executeMessage(FIRST_ROUND_ROWS),
    FLUSH,
  ]);
  for (;;) {
    reader.startRound();
    await held.exec(round, reader.writer);
    await reader.drained();
    if (reader.tooLarge) {
      await held.exec(ABANDON, () => undefined);
      return { kind: 'tooLarge' };
    }
    if (reader.error !== undefined) {
      if (!(await synced(held))) return STOPPED_ANSWERING;
      return { kind: 'error', fields: reader.error };
    }
    if (!reader.suspended) break;
    round = Buffer.concat([executeMessage(reader.nextRoundRows()), FLUSH]);
  }
  if (!(await synced(held))) return STOPPED_ANSWERING;
  reader.finish();
  return { kind: 'done' };
}

/**
 * Ends the exchange with a Sync; false when the backend did not even say it was ready (it is
 * broken, as an embedded Postgres is after `COPY … PROGRAM` run by text built at run time): then it
 * is stopped, and the next client opens it again.
 */
async function synced(held: HeldDatabase): Promise<boolean> {
  let ready = false;
  await held.exec(SYNC, (chunk) => {
    if (Buffer.from(chunk).includes(READY_FOR_QUERY)) ready = true;
  });
  if (!ready) await held.stop();
  return ready;
}

const READY_FOR_QUERY = backendMessage('Z', Buffer.from('I')).subarray(0, 5);

const STOPPED_ANSWERING: RunOutcome = {
  kind: 'error',
  fields: {
    code: '08006',
    message:
      'computesim could not serve the connection: the database stopped answering; it was restarted',
  },
};

/** A refusal as the fields of the error the answer carries. */
function refusalFields(refusal: Refusal): Record<string, string> {
  return {
    code: refusal.sqlstate,
    message: refusal.message,
    ...(refusal.detail === undefined ? {} : { detail: refusal.detail }),
    ...(refusal.hint === undefined ? {} : { hint: refusal.hint }),
  };
}

/** A parameter as the proxy sends it: text, or NULL. */
function paramText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

function parseMessage(query: string): Buffer {
  return backendMessage('P', Buffer.concat([Buffer.from(`\0${query}\0`, 'utf8'), int16(0)]));
}

function bindMessage(params: readonly (string | null)[]): Buffer {
  const bind: Buffer[] = [Buffer.from('\0\0'), int16(0), int16(params.length)];
  for (const param of params) {
    if (param === null) bind.push(int32(-1));
    else {
      const bytes = Buffer.from(param, 'utf8');
      bind.push(int32(bytes.length), bytes);
    }
  }
  bind.push(int16(0));
  return backendMessage('B', Buffer.concat(bind));
}

function executeMessage(maxRows: number): Buffer {
  return backendMessage('E', Buffer.concat([Buffer.from('\0'), int32(maxRows)]));
}

interface Field {
  readonly name: string;
  readonly tableID: number;
  readonly columnID: number;
  readonly dataTypeID: number;
  readonly dataTypeSize: number;
  readonly dataTypeModifier: number;
}

/**
 * Reads a statement's reply as it streams, message by message across chunks: the row description
 * and rows go to the JSON at once; the rest is skipped unread but for the command tag and an error.
 */
class ResultReader {
  readonly #out: JsonWriter;
  readonly #arrayMode: boolean;
  /** Each column's `"name":` (object mode). */
  #keys: string[] = [];
  #columns = 0;
  #opened = false;
  #rows = 0;
  #rowBytes = 0;
  #tag = '';
  #suspensions = 0;
  #unreadable = false;
  readonly #queue: { readonly chunk: Uint8Array; readonly read: () => void }[] = [];
  #pumping: Promise<void> | undefined;
  #sliceStarted = performance.now();
  /** The Postgres error the statement ended with. */
  error: Record<string, string> | undefined;
  /** Whether the answer went past the limit. */
  tooLarge = false;
  /** Whether the last round ended with the portal suspended (more rows to ask for). */
  suspended = false;

  // The message being read: its header, then its body (kept, or skipped when `#body` is undefined).
  readonly #header = Buffer.alloc(5);
  #headerLength = 0;
  #inBody = false;
  #type = '';
  #left = 0;
  #body: Buffer | undefined;
  #filled = 0;

  constructor(out: JsonWriter, arrayMode: boolean) {
    this.#out = out;
    this.#arrayMode = arrayMode;
  }

  /**
   * Takes a chunk of the reply; resolves once it is read (the database thread waits meanwhile when
   * enough is unread). Chunks are read in slices of the event loop's time, so a result of many small
   * rows does not hold up the server's other clients.
   */
  readonly writer = (chunk: Uint8Array): Promise<void> =>
    new Promise<void>((read) => {
      this.#queue.push({ chunk, read });
      this.#startPump();
    });

  /** Resolves once every chunk given to {@link writer} has been read. */
  async drained(): Promise<void> {
    while (this.#pumping !== undefined) await this.#pumping;
  }

  #startPump(): void {
    if (this.#pumping !== undefined) return;
    this.#pumping = this.#pump().finally(() => {
      this.#pumping = undefined;
      if (this.#queue.length > 0) this.#startPump();
    });
  }

  async #pump(): Promise<void> {
    for (let next = this.#queue.shift(); next !== undefined; next = this.#queue.shift()) {
      if (performance.now() - this.#sliceStarted >= SLICE_MS) {
        await nextSliceTurn();
        this.#sliceStarted = performance.now();
      }
      if (!this.#unreadable) {
        try {
          this.#read(Buffer.from(next.chunk.buffer, next.chunk.byteOffset, next.chunk.byteLength));
        } catch (cause) {
          // A reply this reader cannot follow: the statement fails with it, whatever comes after.
          this.#unreadable = true;
          this.error = {
            code: 'XX000',
            message: `computesim could not read the reply: ${cause instanceof Error ? cause.message : String(cause)}`,
          };
        }
      }
      next.read();
    }
  }

  startRound(): void {
    this.suspended = false;
  }

  /** Rows to ask for next: about a round's bytes of them, and not many past the limit. */
  nextRoundRows(): number {
    const perRow = this.#rows === 0 ? 16 : Math.max(1, this.#rowBytes / this.#rows);
    const room = Math.max(0, MAX_RESPONSE_BYTES - this.#out.length);
    const rows = Math.min(ROUND_BYTES / perRow, room / perRow + 2, MAX_ROUND_ROWS);
    return Math.max(1, Math.floor(rows));
  }

  /** Closes the statement's JSON: its command, row count and row form. */
  finish(): void {
    this.#open([]);
    // As the proxy reads a tag: its first word, and the number after it (after the OID of INSERT).
    const words = this.#tag.split(' ');
    const name = words[0] ?? '';
    const counted = words[name === 'INSERT' ? 2 : 1];
    // A suspended portal's tag counts only the rows of its last Execute.
    const count =
      this.#suspensions > 0
        ? this.#rows
        : counted !== undefined && /^\d+$/.test(counted)
          ? Number(counted)
          : null;
    this.#out.write(
      `],"command":${JSON.stringify(name)},"rowCount":${JSON.stringify(count)},"rowAsArray":${String(this.#arrayMode)}}`,
    );
  }

  #read(data: Buffer): void {
    let at = 0;
    while (at < data.length || (this.#inBody && this.#left === 0)) {
      if (!this.#inBody) {
        const take = Math.min(5 - this.#headerLength, data.length - at);
        data.copy(this.#header, this.#headerLength, at, at + take);
        this.#headerLength += take;
        at += take;
        if (this.#headerLength < 5) return;
        this.#headerLength = 0;
        this.#begin(
          String.fromCharCode(this.#header[0] as number),
          this.#header.readUInt32BE(1) - 4,
        );
        continue;
      }
      const take = Math.min(this.#left, data.length - at);
      if (this.#body !== undefined && this.#filled < this.#body.length) {
        const kept = Math.min(take, this.#body.length - this.#filled);
        data.copy(this.#body, this.#filled, at, at + kept);
        this.#filled += kept;
      }
      this.#left -= take;
      at += take;
      if (this.#left === 0) {
        this.#inBody = false;
        this.#end(this.#type, this.#body?.subarray(0, this.#filled));
      }
    }
  }

  /** A message starts: decides whether its body is kept. */
  #begin(type: string, length: number): void {
    if (length < 0) throw new Error(`a message ${type} of length ${length + 4}`);
    this.#type = type;
    this.#left = length;
    this.#inBody = true;
    this.#filled = 0;
    this.#body = undefined;
    if (type === 'D') {
      // As the proxy: a row that comes when the answer is past the limit fails it. A row whose
      // values alone would take the answer past it again is not read either (memory stays bounded).
      if (!this.tooLarge && this.error === undefined) {
        const values = length - 2 - 4 * this.#columns;
        if (this.#out.length > MAX_RESPONSE_BYTES || values > MAX_RESPONSE_BYTES)
          this.tooLarge = true;
        else this.#body = Buffer.allocUnsafe(length);
      }
    } else if (type === 'T' || type === 'C') this.#body = Buffer.allocUnsafe(length);
    else if (type === 'E') this.#body = Buffer.allocUnsafe(Math.min(length, MAX_ERROR_BYTES));
  }

  /** A message has been read whole (`body` when kept). */
  #end(type: string, body: Buffer | undefined): void {
    switch (type) {
      case 'T':
        if (body !== undefined) this.#open(rowDescription(body));
        return;
      case 'n':
        this.#open([]);
        return;
      case 'D':
        if (body !== undefined) this.#row(body);
        return;
      case 'C':
        if (body !== undefined) this.#tag = body.toString('utf8', 0, Math.max(0, body.length - 1));
        return;
      case 'I':
        this.#tag = '';
        return;
      case 's':
        this.suspended = true;
        this.#suspensions += 1;
        return;
      case 'E':
        if (body !== undefined && this.error === undefined) this.error = errorFields(body);
        return;
      default:
        return;
    }
  }

  /** Starts the statement's JSON with its fields (once). */
  #open(fields: readonly Field[]): void {
    if (this.#opened) return;
    this.#opened = true;
    this.#columns = fields.length;
    this.#keys = fields.map((field) => `${JSON.stringify(field.name)}:`);
    const described = fields.map((field) =>
      JSON.stringify({
        name: field.name,
        dataTypeID: field.dataTypeID,
        tableID: field.tableID,
        columnID: field.columnID,
        dataTypeSize: field.dataTypeSize,
        dataTypeModifier: field.dataTypeModifier,
        format: 'text',
      }),
    );
    this.#out.write(`{"fields":[${described.join(',')}],"rows":[`);
  }

  #row(body: Buffer): void {
    const parts: string[] = [];
    let at = 2;
    const count = body.readInt16BE(0);
    for (let i = 0; i < count; i++) {
      const length = body.readInt32BE(at);
      at += 4;
      let value = 'null';
      if (length >= 0) {
        value = JSON.stringify(body.toString('utf8', at, at + length));
        at += length;
      }
      parts.push(this.#arrayMode ? value : `${this.#keys[i] ?? '"":'}${value}`);
    }
    const text = this.#arrayMode ? `[${parts.join(',')}]` : `{${parts.join(',')}}`;
    const before = this.#out.length;
    this.#out.write(this.#rows === 0 ? text : `,${text}`);
    this.#rowBytes += this.#out.length - before;
    this.#rows += 1;
  }
}

function rowDescription(body: Buffer): Field[] {
  const fields: Field[] = [];
  let at = 2;
  for (let i = 0; i < body.readInt16BE(0); i++) {
    const end = body.indexOf(0, at);
    fields.push({
      name: body.toString('utf8', at, end),
      tableID: body.readUInt32BE(end + 1),
      columnID: body.readInt16BE(end + 5),
      dataTypeID: body.readUInt32BE(end + 7),
      dataTypeSize: body.readInt16BE(end + 11),
      dataTypeModifier: body.readInt32BE(end + 13),
    });
    at = end + 19;
  }
  return fields;
}

/** An ErrorResponse's fields, by the names the driver gives them. */
const ERROR_FIELDS: Readonly<Record<string, string>> = {
  S: 'severity',
  C: 'code',
  M: 'message',
  D: 'detail',
  H: 'hint',
  P: 'position',
  p: 'internalPosition',
  q: 'internalQuery',
  W: 'where',
  s: 'schema',
  t: 'table',
  c: 'column',
  d: 'dataType',
  n: 'constraint',
  F: 'file',
  L: 'line',
  R: 'routine',
};

/** The fields of an ErrorResponse's body (of what was kept of it). */
function errorFields(body: Buffer): Record<string, string> {
  const fields: Record<string, string> = {};
  for (let at = 0; at < body.length && body[at] !== 0;) {
    const found = body.indexOf(0, at + 1);
    const end = found < 0 ? body.length : found;
    const name = ERROR_FIELDS[String.fromCharCode(body[at] as number)];
    if (name !== undefined) fields[name] = body.toString('utf8', at + 1, end);
    at = end + 1;
  }
  return fields;
}
