/**
 * One lock file, held by one process: created exclusively, naming the process that holds it, with
 * that process's start time where the system tells it. A lock whose process is gone (killed,
 * crashed, or its id since reused by another process) is taken over, one taker at a time; so is one
 * whose process has exited but is not yet reaped by its parent (a zombie, on Linux).
 */
import {
  closeSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';

/** The state file is held by another live server. */
export class StateFileInUseError extends Error {
  override readonly name = 'StateFileInUseError';
}

/** Who holds a lock, as its file says. */
export interface LockOwner {
  readonly pid: number;
  readonly host: string;
  readonly since: string;
  /** The process's start time (Linux: clock ticks after boot, with the boot's id), if known. */
  readonly started?: string;
}

/** What a lock guards, for the messages of a refusal. */
export interface LockSubject {
  /** The state file, as it was named. */
  readonly stateFile: string;
  /** How the holder reaches it, when by another name (`under another name`). */
  readonly how?: string;
}

/** Lock files this process holds, so its own id in a lock means "held here" only when true. */
const heldHere = new Set<string>();
/** How young an unreadable lock may be and still be one a live process is writing. */
const BEING_WRITTEN_MS = 2_000;
/** How old a half-done takeover may get before another taker may clear it. */
const STALE_TAKEOVER_MS = 10_000;

/** This process, as a lock names its owner. */
export function thisProcess(): LockOwner {
  const started = startTimeOf(process.pid);
  return {
    pid: process.pid,
    host: hostname(),
    since: new Date().toISOString(),
    ...(started === undefined ? {} : { started }),
  };
}

/** A held lock file; `release` it when done. */
export class LockFile {
  #released = false;

  private constructor(
    readonly path: string,
    readonly owner: LockOwner,
    /** The owner of a stale lock this one replaced, if any. */
    readonly replaced: LockOwner | undefined,
  ) {}

  /**
   * Takes the lock file `path` for `owner`, or throws `StateFileInUseError` when a live process
   * holds it (this one included: two servers in one process may not share a file either).
   */
  static take(path: string, owner: LockOwner, subject: LockSubject): LockFile {
    const { stateFile } = subject;
    const how = subject.how === undefined ? '' : ` ${subject.how}`;
    let replaced: LockOwner | undefined;
    for (let attempt = 0; attempt < 3; attempt++) {
      if (create(path, owner)) {
        heldHere.add(path);
        return new LockFile(path, owner, replaced);
      }
      const seen = readText(path);
      const holder = ownerIn(seen);
      if (holder === undefined && ageOf(path) < BEING_WRITTEN_MS)
        throw new StateFileInUseError(
          `${stateFile}: another server is taking its lock${how} just now`,
        );
      if (holder !== undefined && isAlive(holder, path))
        throw new StateFileInUseError(
          `${stateFile} is in use${how} by process ${holder.pid} on ${holder.host} since ${holder.since} ` +
            `(lock ${path}): stop that server first, or remove the lock if that process is gone`,
        );
      replaced = holder;
      takeOver(path, seen, stateFile);
    }
    throw new StateFileInUseError(`${stateFile}: another server took the lock ${path} just now`);
  }

  /** Gives the lock up (once; later calls do nothing). Leaves a lock that is no longer ours alone. */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    heldHere.delete(this.path);
    const holder = ownerIn(readText(this.path));
    if (holder?.pid === this.owner.pid && holder.since === this.owner.since)
      removeQuietly(this.path);
  }
}

/** Creates the lock file exclusively; false when it exists. */
function create(path: string, owner: LockOwner): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, `${JSON.stringify(owner)}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * Removes a stale lock, one taker at a time: a `LOCK.takeover` file is taken exclusively first,
 * and the lock is removed only if it still reads `seen`, the text judged stale (another taker may
 * have replaced it with a live lock since).
 */
function takeOver(path: string, seen: string | undefined, stateFile: string): void {
  const takeover = `${path}.takeover`;
  let fd: number;
  try {
    fd = openSync(takeover, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    if (ageOf(takeover) < STALE_TAKEOVER_MS)
      throw new StateFileInUseError(
        `${stateFile}: another server is taking over its lock just now`,
      );
    removeQuietly(takeover); // left by a taker that died midway: the next attempt may take over
    return;
  }
  closeSync(fd);
  try {
    if (readText(path) === seen) removeQuietly(path);
  } finally {
    removeQuietly(takeover);
  }
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function ownerIn(text: string | undefined): LockOwner | undefined {
  if (text === undefined) return undefined;
  try {
    const value = JSON.parse(text) as Partial<LockOwner>;
    if (Number.isSafeInteger(value.pid) && typeof value.host === 'string')
      return {
        pid: value.pid as number,
        host: value.host,
        since: String(value.since),
        ...(typeof value.started === 'string' ? { started: value.started } : {}),
      };
  } catch {
    // unreadable or gone: a lock nobody can be holding
  }
  return undefined;
}

/**
 * Whether the lock's owner still runs. A process on another host is assumed to; this process's own
 * id counts only if this process took the lock; another id must run and, where the system says,
 * have started when the lock's owner did (an id reused by a new process does not hold the lock),
 * and not have exited (a zombie its parent has not reaped yet holds nothing).
 */
function isAlive(owner: LockOwner, path: string): boolean {
  if (owner.host !== hostname()) return true;
  if (owner.pid === process.pid) return heldHere.has(path);
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const started = startTimeOf(owner.pid);
  if (owner.started !== undefined && started !== undefined && started !== owner.started)
    return false;
  return !hasExited(owner.pid);
}

/** A process's start time as Linux tells it (`/proc`), with the boot it belongs to; else undefined. */
function startTimeOf(pid: number): string | undefined {
  const fields = statFields(`/proc/${pid}/stat`);
  if (fields === undefined) return undefined;
  try {
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    return `${boot}:${fields[19]}`; // field 22 of the file: the start time
  } catch {
    return undefined;
  }
}

/**
 * Whether Linux says the process `pid` has exited, though its id is still taken: a zombie (state
 * `Z`) its parent has not reaped yet, or one being reaped (`X`). A process whose first thread ended
 * while others still run shows `Z` too: it has exited only once every thread has. False where the
 * system does not say (no `/proc`, or one that cannot be read): the process counts as running.
 */
function hasExited(pid: number): boolean {
  if (!isExitedState(statFields(`/proc/${pid}/stat`)?.[0])) return false;
  let threads: string[];
  try {
    threads = readdirSync(`/proc/${pid}/task`);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT'; // reaped meanwhile: gone
  }
  // A thread whose file is gone has ended since the listing.
  return threads.every((thread) => {
    const state = statFields(`/proc/${pid}/task/${thread}/stat`)?.[0];
    return state === undefined || isExitedState(state);
  });
}

function isExitedState(state: string | undefined): boolean {
  return state === 'Z' || state === 'X';
}

/**
 * The fields of a `/proc` `stat` file from its third on (the state first: fields are counted after
 * the command name, which may hold spaces and parentheses), or undefined where there is none.
 */
function statFields(path: string): string[] | undefined {
  let stat: string;
  try {
    stat = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

function ageOf(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return Infinity;
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // gone already
  }
}
