/**
 * A streamed log written to a file: the sink a simulation's log streams to
 * (`new Simulation({ log: LogFileSink.create('run.csimlog') })`). Writes are buffered and
 * synchronous: once `sim.log.flush()` returns, every event so far is in the file.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import type { LogSink } from '../engine/logStream.js';

/** Bytes gathered before a write to the file. */
const BUFFER_BYTES = 1 << 20;

/** A `LogSink` that writes to a file (created, or emptied if it exists). */
export class LogFileSink implements LogSink {
  #fd: number | undefined;
  readonly #buffer = Buffer.allocUnsafe(BUFFER_BYTES);
  #used = 0;
  #written = 0;

  private constructor(
    readonly path: string,
    fd: number,
  ) {
    this.#fd = fd;
  }

  /** Creates (or empties) `path` for a streamed log. Throws the file system's error. */
  static create(path: string): LogFileSink {
    return new LogFileSink(path, openSync(path, 'w'));
  }

  /** Bytes handed to the file so far. */
  get bytesWritten(): number {
    return this.#written + this.#used;
  }

  /** Buffers `bytes`, writing the buffer to the file when it fills. */
  write(bytes: Uint8Array): void {
    if (this.#fd === undefined) throw new Error(`the log file ${this.path} is closed`);
    if (this.#used + bytes.length > BUFFER_BYTES) this.#drain();
    if (bytes.length > BUFFER_BYTES) {
      this.#writeAll(bytes);
      return;
    }
    this.#buffer.set(bytes, this.#used);
    this.#used += bytes.length;
  }

  /** Writes what is buffered to the file. */
  flush(): void {
    this.#drain();
  }

  /** Writes what is buffered and closes the file (again: nothing). */
  close(): void {
    if (this.#fd === undefined) return;
    this.#drain();
    closeSync(this.#fd);
    this.#fd = undefined;
  }

  #drain(): void {
    if (this.#used === 0) return;
    this.#writeAll(this.#buffer.subarray(0, this.#used));
    this.#used = 0;
  }

  #writeAll(bytes: Uint8Array): void {
    for (let done = 0; done < bytes.length;)
      done += writeSync(this.#fd as number, bytes, done, bytes.length - done);
    this.#written += bytes.length;
  }
}
