/**
 * One server per state file: a lock file beside it (`FILE.lock`, created exclusively, naming the
 * process that holds it). A lock left by a process that is gone (killed, crashed) is taken over.
 */
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';

/** The state file is held by another live server. */
export class StateFileInUseError extends Error {
  override readonly name = 'StateFileInUseError';
}

interface LockOwner {
  readonly pid: number;
  readonly host: string;
  readonly since: string;
}

/** A held lock on a state file; `release` it when the server stops. */
export class StateFileLock {
  #released = false;

  private constructor(
    readonly path: string,
    readonly owner: LockOwner,
    /** The owner of a stale lock this one replaced, if any. */
    readonly replaced: LockOwner | undefined,
  ) {}

  /**
   * Takes the lock of `stateFile`, or throws `StateFileInUseError` when a live process holds it
   * (this one included: two servers in one process may not share a file either).
   */
  static acquire(stateFile: string): StateFileLock {
    const path = `${stateFile}.lock`;
    const owner: LockOwner = {
      pid: process.pid,
      host: hostname(),
      since: new Date().toISOString(),
    };
    let replaced: LockOwner | undefined;
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const fd = openSync(path, 'wx');
        try {
          writeSync(fd, `${JSON.stringify(owner)}\n`);
        } finally {
          closeSync(fd);
        }
        return new StateFileLock(path, owner, replaced);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const holder = readOwner(path);
      if (holder !== undefined && isAlive(holder))
        throw new StateFileInUseError(
          `${stateFile} is in use by process ${holder.pid} on ${holder.host} since ${holder.since} ` +
            `(lock ${path}): stop that server first, or remove the lock if that process is gone`,
        );
      replaced = holder;
      try {
        unlinkSync(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    throw new StateFileInUseError(`${stateFile}: another server took the lock ${path} just now`);
  }

  /** Gives the lock up (once; later calls do nothing). Leaves a lock that is no longer ours alone. */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    const holder = readOwner(this.path);
    if (holder?.pid === this.owner.pid && holder.since === this.owner.since) {
      try {
        unlinkSync(this.path);
      } catch {
        // already gone: nothing to give up
      }
    }
  }
}

function readOwner(path: string): LockOwner | undefined {
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockOwner>;
    if (Number.isSafeInteger(value.pid) && typeof value.host === 'string')
      return { pid: value.pid as number, host: value.host, since: String(value.since) };
  } catch {
    // unreadable or gone: a lock nobody can be holding
  }
  return undefined;
}

/** Whether the lock's owner still runs (a process on another host is assumed to). */
function isAlive(owner: LockOwner): boolean {
  if (owner.host !== hostname()) return true;
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
