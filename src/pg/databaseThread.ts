/**
 * One embedded Postgres in its own worker thread (see `databaseWorker.ts`), seen from the main
 * thread: open it on a data directory, run protocol messages on it one at a time with the reply
 * streamed to a writer, close it, or stop it at once. A reply's chunks are counted as unsent until
 * the writer has them out, and the backend waits while more than the bound is unsent, so a client
 * that reads slowly holds back its own statement and costs at most that much memory.
 */
import type { Worker } from 'node:worker_threads';
import { startThread } from '../programs/threadArgv.js';
import { threadProgram } from '../programs/threadProgram.js';
import type { DatabaseReply, DatabaseRequest, DatabaseThreadData } from './databaseWorker.js';

/** Reply bytes a database may have on their way to a client before its backend waits. */
const MAX_UNSENT_BYTES = 1 << 20;

/** Takes one chunk of a reply; resolves once it is written out (or dropped). */
export type ReplyWriter = (chunk: Uint8Array) => Promise<void> | void;

interface Pending {
  readonly write: ReplyWriter;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

/** An embedded Postgres running in a worker thread. */
export class DatabaseThread {
  /** The parameters the engine reports to a client at its start (`server_version`, …). */
  readonly parameters: Readonly<Record<string, string>>;
  readonly #thread: Worker;
  readonly #unsent: Int32Array;
  readonly #pending: Pending[] = [];
  #gone: Error | undefined;

  private constructor(
    thread: Worker,
    unsent: Int32Array,
    parameters: Readonly<Record<string, string>>,
  ) {
    this.#thread = thread;
    this.parameters = parameters;
    this.#unsent = unsent;
    thread.on('message', (reply: DatabaseReply) => this.#hear(reply));
    thread.on('error', (error) => this.#lose(error));
    thread.on('exit', (code) => this.#lose(new Error(`the database thread exited (code ${code})`)));
  }

  /**
   * Opens the database in `dir` (made from nothing if empty) in a new thread, under `name` (its
   * database renamed so first if it is named otherwise).
   */
  static async open(
    dir: string,
    name?: string,
    maxUnsent = MAX_UNSENT_BYTES,
  ): Promise<DatabaseThread> {
    const unsent = new SharedArrayBuffer(4);
    const data: DatabaseThreadData = {
      dir,
      unsent,
      maxUnsent,
      ...(name === undefined ? {} : { database: name }),
    };
    const thread = startThread(await threadProgram('./databaseWorker', import.meta.url), {
      workerData: data,
    });
    const parameters = await new Promise<Readonly<Record<string, string>>>((resolve, reject) => {
      const heard = (reply: DatabaseReply) => {
        thread.off('message', heard);
        thread.off('error', reject);
        if (reply.kind === 'ready') resolve(reply.parameters);
        else {
          void thread.terminate();
          reject(new Error(reply.kind === 'failed' ? reply.message : 'the database did not open'));
        }
      };
      thread.on('message', heard);
      thread.once('error', reject);
    });
    return new DatabaseThread(thread, new Int32Array(unsent), parameters);
  }

  /** Whether the thread is gone (closed, stopped or failed). */
  get gone(): boolean {
    return this.#gone !== undefined;
  }

  /**
   * Runs raw protocol messages; each chunk of the reply goes to `write` as the backend writes it
   * (the thread puts a `CopyFail` after them, see `databaseWorker.ts`). With `handOver`, a message
   * that owns its whole buffer is moved to the thread, not copied: the caller must not read it
   * again.
   */
  exec(message: Uint8Array, write: ReplyWriter, handOver = false): Promise<void> {
    // A large message the caller is done with moves to the thread instead of being copied.
    const whole = message.byteOffset === 0 && message.byteLength === message.buffer.byteLength;
    const transfer =
      handOver && whole && message.buffer instanceof ArrayBuffer ? [message.buffer] : [];
    return this.#ask({ kind: 'exec', message }, write, transfer);
  }

  /** Runs raw protocol messages and resolves with the whole reply (for the front's own statements). */
  async reply(message: Uint8Array): Promise<Uint8Array> {
    const chunks: Uint8Array[] = [];
    await this.exec(message, (chunk) => void chunks.push(chunk));
    return chunks.length === 1 ? (chunks[0] as Uint8Array) : Buffer.concat(chunks);
  }

  /** Closes the database cleanly (after what is asked already) and ends the thread. */
  async close(): Promise<void> {
    if (this.#gone !== undefined) return;
    await this.#ask({ kind: 'close' }, () => undefined).catch(() => undefined);
    await this.#thread.terminate();
  }

  /**
   * Ends the thread at once, mid-statement if one runs (a cancel, or a client gone): the data
   * directory is left as a crash leaves it, and the next open recovers it as Postgres does.
   */
  async stop(): Promise<void> {
    await this.#thread.terminate();
    this.#lose(new Error('the database was stopped'));
  }

  #ask(request: DatabaseRequest, write: ReplyWriter, transfer: ArrayBuffer[] = []): Promise<void> {
    if (this.#gone !== undefined) return Promise.reject(this.#gone);
    return new Promise<void>((resolve, reject) => {
      this.#pending.push({ write, resolve, reject });
      this.#thread.postMessage(request, transfer);
    });
  }

  #hear(reply: DatabaseReply): void {
    const pending = this.#pending[0];
    if (pending === undefined) return;
    switch (reply.kind) {
      case 'chunk':
        void this.#forward(pending, reply.data);
        return;
      case 'done':
        this.#pending.shift();
        pending.resolve();
        return;
      case 'failed':
        this.#pending.shift();
        pending.reject(new Error(reply.message));
        return;
      default:
        return;
    }
  }

  async #forward(pending: Pending, chunk: Uint8Array): Promise<void> {
    try {
      await pending.write(chunk);
    } catch {
      // The client is gone: the rest of the reply has nowhere to go.
    } finally {
      Atomics.sub(this.#unsent, 0, chunk.byteLength);
      Atomics.notify(this.#unsent, 0);
    }
  }

  #lose(error: Error): void {
    this.#gone ??= error;
    for (const pending of this.#pending.splice(0)) pending.reject(this.#gone);
  }
}
