/**
 * One server per state file, whatever name reaches it. Two lock files (see lockFile.ts): `FILE.lock`
 * beside the file the name resolves to (symbolic links followed), which a server on another host
 * sharing the disk sees too; and one named after the file's identity (device and inode) in
 * `$TMPDIR/computesim-locks/`, which every name of the file comes to on this host, hard links
 * included. The identity lock follows the file when a reset renames a new one into place.
 */
import {
  chmodSync,
  mkdirSync,
  readlinkSync,
  realpathSync,
  statSync,
  type BigIntStats,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { LockFile, StateFileInUseError, thisProcess, type LockOwner } from './lockFile.js';

export { StateFileInUseError };

/** A file's identity on this host: its device and inode. */
export type FileIdentity = `${bigint}-${bigint}`;

/** The identity of a file, from its `stat` (with `bigint: true`: inodes may pass 2^53). */
export function identityOf(stats: BigIntStats): FileIdentity {
  return `${stats.dev}-${stats.ino}`;
}

/** The locks held on a state file; `release` them when the server stops. */
export class StateFileLock {
  #identity: LockFile | undefined;
  #identityProblem: string | undefined;

  private constructor(
    /** The file the state file's name resolves to: where it is read and written. */
    readonly file: string,
    readonly stateFile: string,
    readonly owner: LockOwner,
    readonly byName: LockFile,
  ) {}

  /** The lock file beside the state file (`FILE.lock`). */
  get path(): string {
    return this.byName.path;
  }

  /** Why the file's identity could not be locked (its folder cannot be written), if so. */
  get identityProblem(): string | undefined {
    return this.#identityProblem;
  }

  /**
   * Takes the locks of `stateFile` (the identity lock only if the file exists yet: see
   * `replaceFile`), or throws `StateFileInUseError` when a live process holds either (this one
   * included: two servers in one process may not share a file either).
   */
  static acquire(stateFile: string): StateFileLock {
    const file = realPathOf(stateFile);
    const owner = thisProcess();
    const lock = new StateFileLock(
      file,
      stateFile,
      owner,
      LockFile.take(`${file}.lock`, owner, { stateFile }),
    );
    try {
      const stats = statSync(file, { bigint: true, throwIfNoEntry: false });
      if (stats !== undefined) lock.#identity = lock.#takeIdentity(identityOf(stats));
    } catch (error) {
      lock.release();
      throw error;
    }
    return lock;
  }

  /** The owner of a stale lock this one replaced when it was taken, if any. */
  get replaced(): LockOwner | undefined {
    return this.byName.replaced ?? this.#identity?.replaced;
  }

  /**
   * Puts a new file in the state file's place: `replace` renames the file of identity `next` over
   * `file`, while the lock of `next` is held; the old file's is given up after. Throws
   * `StateFileInUseError`, and replaces nothing, when a live server holds `next`.
   */
  replaceFile(next: FileIdentity, replace: () => void): void {
    const taken = this.#takeIdentity(next);
    try {
      replace();
    } catch (error) {
      taken?.release();
      throw error;
    }
    this.#identity?.release();
    this.#identity = taken;
  }

  /** Gives the locks up (once; later calls do nothing). Leaves locks no longer ours alone. */
  release(): void {
    this.#identity?.release();
    this.byName.release();
  }

  /** The identity lock of `identity`; none when its folder cannot be written (noted). */
  #takeIdentity(identity: FileIdentity): LockFile | undefined {
    const folder = join(tmpdir(), 'computesim-locks');
    try {
      // Shared by every user of the host, as the temporary folder is.
      if (mkdirSync(folder, { recursive: true, mode: 0o1777 }) !== undefined)
        chmodSync(folder, 0o1777);
      const lock = LockFile.take(join(folder, `${identity}.lock`), this.owner, {
        stateFile: this.stateFile,
        how: 'under another name (a link to the same file)',
      });
      this.#identityProblem = undefined;
      return lock;
    } catch (error) {
      if (error instanceof StateFileInUseError) throw error;
      this.#identityProblem = `cannot lock it in ${folder} (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
      return undefined;
    }
  }
}

/**
 * The path of the file `path` names, every symbolic link followed, for a file not made yet too (a
 * link to a missing file names where the file will be).
 */
function realPathOf(path: string): string {
  let name = path;
  for (let hops = 0; hops < 40; hops++) {
    try {
      return realpathSync(name);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    let target: string;
    try {
      target = readlinkSync(name);
    } catch {
      return join(realpathSync(dirname(name)), basename(name)); // not a link: not made yet
    }
    name = resolve(dirname(name), target);
  }
  return realpathSync(name);
}
