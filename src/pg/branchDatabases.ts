/**
 * The data behind the Postgres front: one embedded Postgres (PGlite, Postgres in WASM) per branch
 * database, each in its own data directory under a root folder and its own worker thread. An
 * instance opens when a client of its branch connects and stays open while the branch's computes
 * are active (the front closes it when they suspend; the data stays on disk), with a cap on live
 * instances (the least recently used idle one closes first; a held one never does). A new database
 * starts as a copy of a template data directory made once (initdb takes seconds; a copy well under
 * one). Every operation on a database takes its lock in turn, so copies for new branches and
 * restores fall in order with clients.
 */
import { readFileSync } from 'node:fs';
import { cp, mkdir, rename, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { SqlError } from '../domain/sqlState.js';
import { queryMessage } from './backendMessages.js';
import { DatabaseThread, type ReplyWriter } from './databaseThread.js';
import { Listeners, type ListenChange } from './notifications.js';
import type { SessionState } from './sessionState.js';
import { switchSession } from './sessionSwitch.js';
import { ExclusiveLock, type Release } from './exclusiveLock.js';

/** How to keep the databases. */
export interface BranchDatabasesOptions {
  /** Folder holding one data directory per branch database (made if missing). */
  readonly root: string;
  /** Live instances at most; more are opened only while all of them are held. Default 4. */
  readonly maxOpen?: number;
  /**
   * Where the template data directory is made once and reused (shared by every root on the
   * machine). Default: `computesim-pglite-<version>` in the system's temporary folder.
   */
  readonly templateDir?: string;
}

/** A branch, by its project (data lives in `root/<project>/<branch>/<database>`). */
export interface BranchRef {
  readonly projectId: string;
  readonly branchId: string;
}

/** A database held by one client until it releases it: nobody else runs statements meanwhile. */
export interface HeldDatabase {
  /** The parameters the engine reports to a client at its start (`server_version`, …). */
  readonly parameters: Readonly<Record<string, string>>;
  /**
   * Puts `session` on the backend (saving the one that had it): a no-op when it is there already.
   * Resolves to the first startup setting the backend refused, on a session's first entry.
   */
  enter(session: SessionState): Promise<SqlError | undefined>;
  /** Runs raw protocol messages; the backend's reply goes to `write` chunk by chunk. */
  exec(message: Uint8Array, write: ReplyWriter): Promise<void>;
  /** Runs the front's own protocol messages and resolves to the whole reply. */
  reply(message: Uint8Array): Promise<Uint8Array>;
  /** The sessions (by process id) listening on `channel`. */
  listenersOf(channel: string): ReadonlySet<number>;
  /**
   * Records what `session`'s statements change of what it listens on (before they run, so that a
   * notification they cause reaches it); returns the channels another session still listens on
   * that an UNLISTEN of its will stop on the backend.
   */
  listen(session: SessionState, changes: readonly ListenChange[]): string[];
  /** Makes the backend listen on `channels` again (after the statements that stopped them). */
  listenAgain(channels: readonly string[]): Promise<void>;
  /** Makes new transactions read-only (a read replica) or read-write. */
  setReadOnly(readOnly: boolean): Promise<void>;
  /** Rolls back whatever transaction the holder left open, then lets the next one in. */
  release(options?: { readonly rollback?: boolean }): Promise<void>;
  /**
   * Stops the instance at once, mid-statement if one runs (a cancel, a client gone), and lets the
   * next one in: the next holder reopens it, and Postgres recovers the data as after a crash.
   */
  stop(): Promise<void>;
}

interface Slot {
  readonly key: string;
  readonly dir: string;
  readonly lock: ExclusiveLock;
  db: DatabaseThread | undefined;
  readOnly: boolean;
  lastUsed: number;
  /** The client session the backend holds now. */
  current: SessionState | undefined;
  /** Sessions whose clients have gone, their temporary relations still kept on the backend. */
  gone: SessionState[];
  /** Who listens on what; the backend listens on all of it. */
  readonly listeners: Listeners;
  /** A new backend listens on nothing yet: the listeners' channels are listened on at first use. */
  relisten: boolean;
}

const ROLLBACK = queryMessage('ROLLBACK');
const CHECKPOINT = queryMessage('CHECKPOINT');

/** The branch databases of a served simulation. */
export class BranchDatabases {
  readonly #root: string;
  readonly #maxOpen: number;
  readonly #templateDir: string;
  readonly #slots = new Map<string, Slot>();
  #template: Promise<string> | undefined;
  #uses = 0;
  #opens = 0;
  #closed = false;

  constructor(options: BranchDatabasesOptions) {
    this.#root = options.root;
    this.#maxOpen = Math.max(1, options.maxOpen ?? 4);
    this.#templateDir =
      options.templateDir ?? join(tmpdir(), `computesim-pglite-${pgliteVersion()}`);
  }

  /** Live instances now. */
  get openCount(): number {
    let open = 0;
    for (const slot of this.#slots.values()) if (slot.db !== undefined) open += 1;
    return open;
  }

  /**
   * Makes the template data directory now (once per machine and PGlite version), so that the first
   * client does not wait for initdb.
   */
  async prepare(): Promise<void> {
    await this.#ensureTemplate();
  }

  /**
   * Opens `branch`'s database `databaseName` if it is not open, and lets it go again; resolves to
   * the parameters its engine reports to clients.
   */
  async open(branch: BranchRef, databaseName: string): Promise<Readonly<Record<string, string>>> {
    const slot = this.#slot(branch, databaseName);
    const release = await slot.lock.acquire();
    try {
      return (await this.#open(slot)).parameters;
    } finally {
      release();
    }
  }

  /**
   * A client has gone: its session's temporary relations go when the backend next changes hands.
   */
  leave(branch: BranchRef, databaseName: string, session: SessionState): void {
    session.ended = true;
    const slot = this.#slots.get(keyOf(branch, databaseName));
    slot?.listeners.forget(session.id);
    if (slot === undefined || slot.current === session) return;
    if (session.relations.length > 0) slot.gone.push(session);
  }

  /** Instances opened so far (a connect to an active compute opens none). */
  get opens(): number {
    return this.#opens;
  }

  /** Waits for `branch`'s database `databaseName`, opens it if needed, and holds it. */
  async hold(branch: BranchRef, databaseName: string): Promise<HeldDatabase> {
    const slot = this.#slot(branch, databaseName);
    const release = await slot.lock.acquire();
    try {
      const db = await this.#open(slot);
      return this.#held(slot, db, release);
    } catch (error) {
      release();
      throw error;
    }
  }

  /**
   * Makes `to`'s databases copies of `from`'s as they are now (a new branch, a reset, a restore):
   * each named database that `from` has on disk is copied; the others start empty. Both databases'
   * locks are queued at once, so clients that come later see the copy.
   */
  copyBranch(from: BranchRef, to: BranchRef, databaseNames: readonly string[]): Promise<void> {
    return Promise.all(
      databaseNames.map(async (name) => {
        const source = this.#slot(from, name);
        const target = this.#slot(to, name);
        if (source === target) return;
        const [releaseSource, releaseTarget] = await Promise.all([
          source.lock.acquire(),
          target.lock.acquire(),
        ]);
        try {
          await this.#closeSlot(target);
          await rm(target.dir, { recursive: true, force: true });
          if (!(await exists(source.dir))) return;
          if (source.db !== undefined) await source.db.reply(CHECKPOINT);
          await mkdir(join(target.dir, '..'), { recursive: true });
          await cp(source.dir, target.dir, { recursive: true });
        } finally {
          releaseSource();
          releaseTarget();
          this.#trim();
        }
      }),
    ).then(() => undefined);
  }

  /**
   * Deletes data (closing its instances first): a whole project's, a branch's, or one database of
   * a branch.
   */
  async drop(
    place: { readonly projectId: string; readonly branchId?: string },
    databaseName?: string,
  ): Promise<void> {
    const parts = [place.projectId, place.branchId, databaseName].filter(
      (part): part is string => part !== undefined,
    );
    const prefix = parts.map(encodeURIComponent).join('/');
    const slots = [...this.#slots.values()].filter(
      (slot) => slot.key === prefix || slot.key.startsWith(`${prefix}/`),
    );
    const releases = await Promise.all(slots.map((slot) => slot.lock.acquire()));
    try {
      for (const slot of slots) await this.#closeSlot(slot);
      await rm(join(this.#root, ...parts.map(encodeURIComponent)), {
        recursive: true,
        force: true,
      });
    } finally {
      for (const release of releases) release();
    }
  }

  /**
   * Closes the instances of `branch`'s databases (its computes have suspended), each once nobody
   * holds it; their data stays on disk.
   */
  async closeBranch(branch: BranchRef): Promise<void> {
    const prefix = `${keyOf(branch, '')}`;
    const open = [...this.#slots.values()].filter(
      (slot) => slot.db !== undefined && slot.key.startsWith(prefix),
    );
    await Promise.all(
      open.map(async (slot) => {
        const release = await slot.lock.acquire();
        try {
          await this.#closeSlot(slot);
        } finally {
          release();
        }
      }),
    );
  }

  /** Closes every instance (waiting for holders to release); nothing opens afterwards. */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all(
      [...this.#slots.values()].map(async (slot) => {
        const release = await slot.lock.acquire();
        try {
          await this.#closeSlot(slot);
        } finally {
          release();
        }
      }),
    );
  }

  #slot(branch: BranchRef, databaseName: string): Slot {
    const key = keyOf(branch, databaseName);
    let slot = this.#slots.get(key);
    if (slot === undefined) {
      slot = {
        key,
        dir: join(this.#root, key),
        lock: new ExclusiveLock(),
        db: undefined,
        readOnly: false,
        lastUsed: 0,
        current: undefined,
        gone: [],
        listeners: new Listeners(),
        relisten: false,
      };
      this.#slots.set(key, slot);
    }
    return slot;
  }

  async #open(slot: Slot): Promise<DatabaseThread> {
    if (this.#closed) throw new Error('the databases are closed');
    slot.lastUsed = ++this.#uses;
    if (slot.db?.gone === true) slot.db = undefined;
    if (slot.db !== undefined) return slot.db;
    await this.#makeRoom();
    if (!(await exists(slot.dir))) {
      const template = await this.#ensureTemplate();
      await mkdir(join(slot.dir, '..'), { recursive: true });
      await cp(template, slot.dir, { recursive: true });
    }
    slot.db = await DatabaseThread.open(slot.dir);
    // A new backend holds no session yet (the sessions of an earlier one lost their temporary data).
    slot.current = undefined;
    slot.gone = [];
    slot.relisten = true;
    this.#opens += 1;
    slot.readOnly = false;
    return slot.db;
  }

  /**
   * Closes least recently used idle instances until there is room for `more` (one before an open;
   * none after a release, when an open that went past the cap, all others held, is undone).
   */
  async #makeRoom(more = 1): Promise<void> {
    while (this.openCount + more > this.#maxOpen) {
      const idle = [...this.#slots.values()]
        .filter((slot) => slot.db !== undefined && !slot.lock.held)
        .sort((a, b) => a.lastUsed - b.lastUsed)[0];
      if (idle === undefined) return; // all held: go past the cap rather than wait on a holder
      const release = await idle.lock.acquire();
      try {
        await this.#closeSlot(idle);
      } finally {
        release();
      }
    }
  }

  async #closeSlot(slot: Slot): Promise<void> {
    const db = slot.db;
    if (db === undefined) return;
    slot.db = undefined;
    await db.close();
  }

  #held(slot: Slot, db: DatabaseThread, release: Release): HeldDatabase {
    let released = false;
    // A holder that has let go (its client ended while it awaited something) uses it no more.
    const live = () => {
      if (released) throw new Error('the database was given back');
    };
    return {
      parameters: db.parameters,
      enter: async (session) => {
        live();
        if (slot.current === session && slot.db === db) return undefined;
        const gone = slot.gone.splice(0);
        const refused = await switchSession((m) => db.reply(m), slot.current, session, gone);
        slot.current = session;
        slot.readOnly = false; // RESET ALL put the default back
        if (slot.relisten) {
          slot.relisten = false;
          const channels = slot.listeners.channels();
          if (channels.length > 0) await db.reply(Buffer.concat(channels.map(listenMessage)));
        }
        return refused;
      },
      listenersOf: (channel) => slot.listeners.of(channel),
      listen: (session, changes) => slot.listeners.apply(session.id, changes),
      listenAgain: async (channels) => {
        live();
        if (channels.length > 0) await db.reply(Buffer.concat(channels.map(listenMessage)));
      },
      exec: (message, write) => {
        live();
        slot.lastUsed = ++this.#uses;
        return db.exec(message, write);
      },
      reply: (message) => {
        live();
        return db.reply(message);
      },
      setReadOnly: async (readOnly) => {
        live();
        if (slot.readOnly === readOnly) return;
        await db.reply(
          queryMessage(`SET default_transaction_read_only = ${readOnly ? 'on' : 'off'}`),
        );
        slot.readOnly = readOnly;
      },
      release: async (options = {}) => {
        if (released) return;
        released = true;
        try {
          if (options.rollback === true && slot.db === db && !db.gone) await db.reply(ROLLBACK);
        } finally {
          release();
          this.#trim();
        }
      },
      stop: async () => {
        if (released) return;
        released = true;
        if (slot.db === db) slot.db = undefined;
        try {
          await db.stop();
        } finally {
          release();
          this.#trim();
        }
      },
    };
  }

  /** Back under the cap once holders let go (in the background: nobody waits for it). */
  #trim(): void {
    if (this.openCount > this.#maxOpen && !this.#closed) this.#makeRoom(0).catch(() => undefined);
  }

  /** The template data directory, made once (initdb) and renamed into place whole. */
  #ensureTemplate(): Promise<string> {
    this.#template ??= (async () => {
      const dir = this.#templateDir;
      if (await exists(join(dir, 'PG_VERSION'))) return dir;
      const building = `${dir}.${process.pid}.${Date.now()}`;
      // initdb runs in the database's own thread: the server goes on meanwhile.
      const db = await DatabaseThread.open(building);
      await db.close();
      try {
        await rename(building, dir);
      } catch {
        // Another process made it first: use theirs.
        await rm(building, { recursive: true, force: true });
      }
      return dir;
    })();
    return this.#template;
  }
}

/** The installed PGlite's version: a template made by another version is not reused. */
function pgliteVersion(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const manifest = join(dirname(dirname(entry)), 'package.json');
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

/** `<project>/<branch>/<database>`, each part URI-encoded: a slot's key and its folder under the root. */
function keyOf(branch: BranchRef, databaseName: string): string {
  return [branch.projectId, branch.branchId, databaseName].map(encodeURIComponent).join('/');
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** `LISTEN "channel"` as a simple query. */
function listenMessage(channel: string): Uint8Array {
  return queryMessage(`LISTEN "${channel.replaceAll('"', '""')}"`);
}
