/**
 * Reading a statement's reply for `POST /sql` as the database thread streams it, message by message
 * across chunks: the row description and each row become the answer's JSON at once, counted
 * against the proxy's response size limit; the rest is skipped unread but for the command tag, a
 * suspended portal and an error.
 */
import { SLICE_MS } from '../service/slicedRun.js';
import { nextSliceTurn } from '../service/sliceTurns.js';
import type { JsonWriter } from './sqlOverHttpJson.js';

/**
 * The largest answer, as the real proxy bounds it (`sql_over_http_max_response_size_bytes`,
 * 10 MiB by default): a row that arrives when the JSON written so far is past it fails the
 * request with {@link RESPONSE_TOO_LARGE_MESSAGE}.
 */
const MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

/** The real proxy's message for an answer past {@link MAX_RESPONSE_BYTES}. */
export const RESPONSE_TOO_LARGE_MESSAGE = `response is too large (max is ${MAX_RESPONSE_BYTES} bytes)`;

/** Reply bytes a round aims at: the rows asked of the next round follow the rows' size. */
const ROUND_BYTES = 1 << 20;
const MAX_ROUND_ROWS = 1 << 16;
/** The most of an ErrorResponse kept (the rest of a huge message is dropped). */
const MAX_ERROR_BYTES = 64 * 1024;

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
export class ResultReader {
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

  /** A round starts: the portal is not suspended until its reply says so. */
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
