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

/** Appends a simulation's new events to a file. */
export class StateFileWriter {
  #written: number;

  /** `written`: how many of the log's events the file already holds. */
  constructor(
    readonly path: string,
    written: number,
  ) {
    this.#written = written;
  }

  /** Appends the events of `sim` the file does not hold yet (synchronously). */
  flush(sim: Simulation): void {
    const length = sim.log.length;
    if (length <= this.#written) return;
    const lines = sim.log
      .slice(this.#written, length)
      .map((event) => JSON.stringify(event))
      .join('\n');
    appendFileSync(this.path, `${lines}\n`);
    this.#written = length;
  }

  /** Replaces the file with the whole log of `sim` (after a reset), atomically. */
  rewrite(sim: Simulation): void {
    const next = `${this.path}.next`;
    writeFileSync(next, sim.toJSONL());
    renameSync(next, this.path);
    this.#written = sim.log.length;
  }
}
