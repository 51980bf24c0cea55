/**
 * The durable event log of a served simulation (format: `logfiles/logFile.ts`, promises:
 * docs/durability.md). Opening locks the file, keeps its whole committed requests, repairs a torn
 * tail (or adds a last commit line's lost newline) and replays it as a stream; serving appends each request's events and their commit line
 * before the response goes out, so a crash (even SIGKILL) loses no acknowledged change.
 */
import {
  appendFileSync,
  closeSync,
  constants,
  existsSync,
  fstatSync,
  ftruncateSync,
  fsyncSync,
  openSync,
  renameSync,
  statfsSync,
  statSync,
  truncateSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { Simulation } from '../simulation/simulation.js';
import {
  commitLine,
  LogFile,
  STATE_FILE_FIRST_LINE,
  type DroppedTail,
} from '../logfiles/logFile.js';
import { StateFileError } from '../service/stateFileError.js';
import { writeAll, writeLines } from '../logfiles/writeLines.js';
import { identityOf, StateFileLock } from './stateFileLock.js';

/** What opening a state file found and did. */
export interface StateFileRecovery {
  /** The unfinished request (or torn line, or blank lines) cut off the end. */
  readonly dropped?: DroppedTail;
  /** The last commit line lacked only its newline (the file cut by one byte): it was added. */
  readonly addedNewline?: boolean;
  /** The file was a plain log (or an older state file) and was rewritten as a state file. */
  readonly converted?: boolean;
  /** The process whose stale lock was taken over. */
  readonly staleLockOf?: number;
  /** Why the file is not locked by identity (so a hard link to it is not refused), if so. */
  readonly unlockedIdentity?: string;
}

/** An open, locked state file. */
export class StateFile {
  #written: number;
  /** The size of the file's durable part, in bytes. */
  #bytes: number;
  /** Whether a failed write may have left a partial tail after `#bytes`. */
  #dirty = false;

  private constructor(
    /** The state file as it was named (a link is followed to the file it names: `lock.file`). */
    readonly path: string,
    /** The simulation the file held (`undefined` for a new or empty file). */
    readonly simulation: Simulation | undefined,
    readonly recovery: StateFileRecovery,
    readonly lock: StateFileLock,
  ) {
    this.#written = simulation?.log.length ?? 0;
    this.#bytes = statSync(lock.file).size;
  }

  /**
   * Locks `path` (throws `StateFileInUseError` if a live server holds it), creates it if missing,
   * and replays what it holds. A torn tail is cut off and reported in `recovery`; a file damaged
   * before its last commit throws `LogFormatError` naming the line, and is left as it was.
   */
  static open(path: string): StateFile {
    const lock = StateFileLock.acquire(path);
    try {
      const staleLockOf = lock.replaced === undefined ? {} : { staleLockOf: lock.replaced.pid };
      const found = StateFile.#openLocked(lock);
      const problem = lock.identityProblem;
      const unlocked = problem === undefined ? {} : { unlockedIdentity: problem };
      return new StateFile(
        path,
        found.simulation,
        { ...found.did, ...staleLockOf, ...unlocked },
        lock,
      );
    } catch (error) {
      lock.release();
      throw error;
    }
  }

  /** Creates, repairs or converts the locked file as it needs, and replays what it holds. */
  static #openLocked(lock: StateFileLock): {
    simulation: Simulation | undefined;
    did: StateFileRecovery;
  } {
    const path = lock.file;
    if (!existsSync(path)) {
      writeWhole(lock, undefined);
      return { simulation: undefined, did: {} };
    }
    const file = LogFile.open(path);
    const dropped = file.scan.dropped === undefined ? {} : { dropped: file.scan.dropped };
    if (file.scan.kind === 'empty') {
      writeWhole(lock, undefined);
      return { simulation: undefined, did: dropped };
    }
    const simulation = Simulation.replay(file.events());
    if (file.scan.kind === 'log' || file.scan.kind === 'stream') {
      writeWhole(lock, simulation);
      return { simulation, did: { ...dropped, converted: true } };
    }
    if (file.scan.dropped !== undefined) truncateSync(path, file.scan.keptBytes);
    if (file.scan.missingNewline === true) {
      appendFileSync(path, '\n');
      return { simulation, did: { ...dropped, addedNewline: true } };
    }
    return { simulation, did: dropped };
  }

  /** How many of the log's events the file holds durably. */
  get written(): number {
    return this.#written;
  }

  /**
   * Appends the events of `sim` the file does not hold yet, then their commit line, synchronously.
   * A failed write throws `StateFileError` and leaves the file's durable part as it was (a partly
   * written tail is cut off before the next write, and a restart would ignore it anyway).
   */
  flush(sim: Simulation): void {
    const length = sim.log.length;
    if (length <= this.#written) return;
    let fd: number | undefined;
    let added: number;
    try {
      // Never created here: a state file removed under a running server is a failure to report,
      // not a new file to start (it would begin in the middle of the log).
      fd = openSync(this.lock.file, constants.O_WRONLY | constants.O_APPEND);
      if (this.#dirty) ftruncateSync(fd, this.#bytes);
      this.#dirty = true;
      added = writeLines(
        fd,
        sim.log.jsonLines(this.#written, length),
        (crc) => `${commitLine(length, crc)}\n`,
      );
      this.#dirty = false;
    } catch (error) {
      if (fd !== undefined && cutBack(fd, this.#bytes)) this.#dirty = false;
      throw new StateFileError(`cannot write the state file ${this.path}: ${reason(error)}`, {
        cause: error,
      });
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
    this.#bytes += added;
    this.#written = length;
  }

  /**
   * Whether the file looks writable again after a failure: it opens for appending and its disk has
   * room (at least 1 MiB). A write may still fail (a file size limit, an I/O error).
   */
  looksWritable(): boolean {
    try {
      closeSync(openSync(this.lock.file, constants.O_WRONLY | constants.O_APPEND));
      const disk = statfsSync(dirname(this.lock.file));
      return disk.bavail * disk.bsize >= 1 << 20;
    } catch {
      return false;
    }
  }

  /** Replaces the file with the whole log of `sim` (after a reset), atomically. */
  rewrite(sim: Simulation): void {
    try {
      writeWhole(this.lock, sim);
    } catch (error) {
      throw new StateFileError(`cannot write the state file ${this.path}: ${reason(error)}`, {
        cause: error,
      });
    }
    this.#dirty = false;
    this.#bytes = statSync(this.lock.file).size;
    this.#written = sim.log.length;
  }

  /** Releases the lock (the file stays). */
  close(): void {
    this.lock.release();
  }
}

/**
 * Writes a whole state file (the first line, then `sim`'s log as one committed request) beside the
 * locked file and renames it over that file, so a crash leaves either the old file or the new one.
 * The lock moves to the new file with the rename (it is another file: another inode).
 */
function writeWhole(lock: StateFileLock, sim: Simulation | undefined): void {
  const next = `${lock.file}.next`;
  const fd = openSync(next, 'w');
  let written;
  try {
    writeAll(fd, Buffer.from(`${STATE_FILE_FIRST_LINE}\n`));
    if (sim !== undefined)
      writeLines(fd, sim.log.jsonLines(), (crc) => `${commitLine(sim.log.length, crc)}\n`);
    fsyncSync(fd);
    written = fstatSync(fd, { bigint: true });
  } finally {
    closeSync(fd);
  }
  lock.replaceFile(identityOf(written), () => renameSync(next, lock.file));
}

/**
 * After a failed write, cuts the file back to its durable part at once (best effort: if that fails
 * too, the next write tries again, and a start would cut the unfinished request anyway).
 */
function cutBack(fd: number, bytes: number): boolean {
  try {
    ftruncateSync(fd, bytes);
    return true;
  } catch {
    return false;
  }
}

function reason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code ?? (error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error));
}
