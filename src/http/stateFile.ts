/**
 * The durable event log of a served simulation: on start, replay the file (a torn last line, left by
 * a crash mid-write, is reported and cut off); while serving, append every new event before the
 * response that caused it is sent. A write reaches the operating system before the client hears
 * back, so killing the server (even with SIGKILL) loses no acknowledged change.
 */
import {
  appendFileSync,
  existsSync,
  readFileSync,
  renameSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { Simulation } from '../engine/simulation.js';

/** What opening a state file found. */
export interface OpenedStateFile {
  readonly simulation: Simulation | undefined;
  /** The torn last line that was cut off, if any. */
  readonly tornLastLine?: { readonly line: number; readonly reason: string };
}

/** Replays `path` if it exists and has events; cuts off a torn last line. */
export function openStateFile(path: string): OpenedStateFile {
  if (!existsSync(path)) return { simulation: undefined };
  const text = readFileSync(path, 'utf8');
  if (text.trim() === '') return { simulation: undefined };
  const { simulation, tornLastLine } = Simulation.fromJSONL(text);
  if (tornLastLine === undefined) return { simulation };
  truncateSync(path, Buffer.byteLength(text.slice(0, text.lastIndexOf('\n') + 1)));
  return { simulation, tornLastLine };
}

/** A state file could not be written: the change it was to hold is not durable. */
export class StateFileError extends Error {}

/**
 * Appends a simulation's new events to a file. A failed write throws `StateFileError` and leaves
 * the file's durable part as it was (a partly written tail is cut off before the next write).
 */
export class StateFileWriter {
  #written: number;
  /** The size of the file's durable part, in bytes. */
  #bytes: number;
  /** Whether a failed write may have left a partial tail after `#bytes`. */
  #dirty = false;

  /** `written`: how many of the log's events the file already holds. */
  constructor(
    readonly path: string,
    written: number,
  ) {
    this.#written = written;
    this.#bytes = existsSync(path) ? statSync(path).size : 0;
  }

  /** How many of the log's events the file holds durably. */
  get written(): number {
    return this.#written;
  }

  /** Appends the events of `sim` the file does not hold yet (synchronously). */
  flush(sim: Simulation): void {
    const length = sim.log.length;
    if (length <= this.#written) return;
    const text = `${sim.log
      .slice(this.#written, length)
      .map((event) => JSON.stringify(event))
      .join('\n')}\n`;
    try {
      if (this.#dirty) {
        truncateSync(this.path, this.#bytes);
        this.#dirty = false;
      }
      this.#dirty = true;
      appendFileSync(this.path, text);
      this.#dirty = false;
    } catch (error) {
      throw new StateFileError(`cannot write the state file ${this.path}: ${reason(error)}`, {
        cause: error,
      });
    }
    this.#bytes += Buffer.byteLength(text);
    this.#written = length;
  }

  /** Replaces the file with the whole log of `sim` (after a reset), atomically. */
  rewrite(sim: Simulation): void {
    const next = `${this.path}.next`;
    const text = sim.toJSONL();
    try {
      writeFileSync(next, text);
      renameSync(next, this.path);
    } catch (error) {
      throw new StateFileError(`cannot write the state file ${this.path}: ${reason(error)}`, {
        cause: error,
      });
    }
    this.#dirty = false;
    this.#bytes = Buffer.byteLength(text);
    this.#written = sim.log.length;
  }
}

function reason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code ?? (error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error));
}
