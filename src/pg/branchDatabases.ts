/**
 * The data behind the Postgres front: one embedded Postgres (PGlite, Postgres in WASM) per branch
 * database, each in its own data directory under a root folder (named by ids, see `dataPaths.ts`)
 * and its own worker thread. An instance opens when a client of its branch connects and stays open
 * while the branch's computes are active (the front closes it when they suspend; the data stays on
 * disk), with a cap on live instances: the least recently used one with no client connected closes
 * first; one that a client holds or is connected to never does (its sessions live in it). A new database
 * starts as a copy of a template data directory made once (initdb takes seconds; a copy well under
 * one). Every operation on a database takes its lock in turn, so copies for new branches and
 * restores fall in order with clients.
 */
import { readFileSync } from 'node:fs';
import { cp, mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
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
import type { BranchDataStore, DatabaseCopy, NamedDatabase } from './branchDataStore.js';
import {
  databaseFolder,
  dataDir,
  dataParts,
  legacyDatabaseDir,
  type BranchRef,
  type DatabaseRef,
  type DataPlace,
} from './dataPaths.js';
import { exists, holdsDataDirectory, templateDirectory } from './templateDirectory.js';

export type { BranchRef, DatabaseRef } from './dataPaths.js';

/** How to keep the databases. */
export interface BranchDatabasesOptions {
  /** Folder holding one data directory per branch database (made if missing). */
  readonly root: string;
  /**
   * Live instances at most, as far as some can close: one that a client holds or is connected to
   * is never closed to make room (that would end the client's session, its settings, prepared
   * statements and temporary tables), so more are open while more databases have clients.
   * Default 4.
   */
  readonly maxOpen?: number;
  /**
   * Where the template data directory is made once and reused (shared by every root on the
   * machine). Default: `computesim-pglite-<version>` in the system's temporary folder.
   */
  readonly templateDir?: string;
  /**
   * The control plane's name of a database (`neondb`, …): its instance opens under it, so
   * `current_database()` says it. None: the name its data has.
   */
  readonly nameOf?: (ref: DatabaseRef) => string | undefined;
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
  /**
   * Runs raw protocol messages; the backend's reply goes to `write` chunk by chunk. With
   * `handOver` the message may be moved to the database's thread (the caller reads it no more).
   */
  exec(message: Uint8Array, write: ReplyWriter, handOver?: boolean): Promise<void>;
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
  readonly ref: DatabaseRef;
  readonly dir: string;
  readonly lock: ExclusiveLock;
  db: DatabaseThread | undefined;
  readOnly: boolean;
  lastUsed: number;
  /** The client session the backend holds now. */
  current: SessionState | undefined;
  /** Sessions whose clients have gone, their temporary relations still kept on the backend. */
  gone: SessionState[];
  /** Sessions of clients still connected that have been on this backend (it keeps their state). */
  readonly sessions: Set<SessionState>;
  /** Who listens on what; the backend listens on all of it. */
  readonly listeners: Listeners;
  /** A new backend listens on nothing yet: the listeners' channels are listened on at first use. */
  relisten: boolean;
}

const ROLLBACK = queryMessage('ROLLBACK');
/** The file that marks a root as laid out by id, and the layout's version in it. */
const LAYOUT_MARKER = '.layout';
const LAYOUT_VERSION = 'computesim branch data by id, 1';
/** The suffix of a folder on its way to its new name. */
const MOVING = '.moving';
const CHECKPOINT = queryMessage('CHECKPOINT');

/** The branch databases of a served simulation. */
export class BranchDatabases implements BranchDataStore {
  readonly #root: string;
  readonly #maxOpen: number;
  readonly #templateDir: string;
  readonly #nameOf: ((ref: DatabaseRef) => string | undefined) | undefined;
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
    this.#nameOf = options.nameOf;
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
   * Moves databases kept by name (`<project>/<branch>/<URI-encoded name>`, the layout before
   * folders were named by id) to their ids' folders, once per root: a root marked as laid out by
   * id is left alone. `databases` are those of the control plane's state now.
   */
  async adoptLegacyLayout(databases: readonly NamedDatabase[]): Promise<void> {
    const marker = join(this.#root, LAYOUT_MARKER);
    if (await exists(marker)) return;
    await mkdir(this.#root, { recursive: true });
    const moves: { from: string; to: string }[] = [];
    for (const { ref, name } of databases) {
      const legacy = legacyDatabaseDir(this.#root, ref, name);
      if (legacy !== undefined && (await holdsDataDirectory(legacy)))
        moves.push({ from: legacy, to: dataDir(this.#root, ref) });
    }
    // Through a temporary name first: an old name may be another database's new folder name.
    for (const move of moves) await rename(move.from, `${move.to}${MOVING}`);
    for (const move of moves) await rename(`${move.to}${MOVING}`, move.to);
    await writeFile(marker, `${LAYOUT_VERSION}\n`);
  }

  /** Opens a database if it is not open, and lets it go again; resolves to what its engine reports. */
  async open(ref: DatabaseRef): Promise<Readonly<Record<string, string>>> {
    const slot = this.#slot(ref);
    return slot.lock.holding(async () => (await this.#open(slot)).parameters);
  }

  /**
   * A client has gone: its session's temporary relations go when the backend next changes hands.
   */
  leave(ref: DatabaseRef, session: SessionState): void {
    session.ended = true;
    const slot = this.#slots.get(keyOf(ref));
    if (slot === undefined) return;
    slot.sessions.delete(session);
    slot.listeners.forget(session.id);
    this.#trim();
    if (slot.current === session) return;
    if (session.relations.length > 0) slot.gone.push(session);
  }

  /** Instances opened so far (a connect to an active compute opens none). */
  get opens(): number {
    return this.#opens;
  }

  /** Waits for a database, opens it if needed, and holds it. */
  async hold(ref: DatabaseRef): Promise<HeldDatabase> {
    const slot = this.#slot(ref);
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
   * Makes databases copies of others as they are now (a new branch, a reset, a restore), or empty:
   * each `to` gets its `from`'s data when that has any on disk. Both databases' locks are queued at
   * once, so clients that come later see the copy.
   */
  copyDatabases(copies: readonly DatabaseCopy[]): Promise<void> {
    return Promise.all(
      copies.map(async ({ from, to }) => {
        const source = from === undefined ? undefined : this.#slot(from);
        const target = this.#slot(to);
        if (source === target) return;
        const [releaseSource, releaseTarget] = await Promise.all([
          source?.lock.acquire(),
          target.lock.acquire(),
        ]);
        try {
          await this.#closeSlot(target);
          await rm(target.dir, { recursive: true, force: true });
          if (source === undefined || !(await exists(source.dir))) return;
          if (source.db !== undefined) await source.db.reply(CHECKPOINT);
          await mkdir(join(target.dir, '..'), { recursive: true });
          await cp(source.dir, target.dir, { recursive: true });
        } finally {
          releaseSource?.();
          releaseTarget();
          this.#trim();
        }
      }),
    ).then(() => undefined);
  }

  /**
   * Deletes data (closing its instances first): a whole project's, a branch's, or one database's.
   */
  async drop(place: DataPlace): Promise<void> {
    const prefix = dataParts(place).join('/');
    await this.#remove(
      (key) => key === prefix || key.startsWith(`${prefix}/`),
      [dataDir(this.#root, place)],
    );
  }

  /**
   * Deletes the databases of `branch` other than those with ids `keep` (a database deleted by
   * the control plane, whose event names it by a name the state no longer has).
   */
  async dropOthers(branch: BranchRef, keep: readonly number[]): Promise<void> {
    const kept = new Set(keep.map((id) => keyOf({ ...branch, databaseId: id })));
    const prefix = `${dataParts(branch).join('/')}/`;
    const branchDir = dataDir(this.#root, branch);
    const folders = await readdir(branchDir).catch(() => [] as string[]);
    const keptFolders = new Set(keep.map(databaseFolder));
    await this.#remove(
      (key) => key.startsWith(prefix) && !kept.has(key),
      folders.filter((folder) => !keptFolders.has(folder)).map((folder) => join(branchDir, folder)),
    );
  }

  /** Closes the instances of the slots `chosen` picks, then removes `dirs`. */
  async #remove(chosen: (key: string) => boolean, dirs: readonly string[]): Promise<void> {
    const slots = [...this.#slots.values()].filter((slot) => chosen(slot.key));
    const releases = await Promise.all(slots.map((slot) => slot.lock.acquire()));
    try {
      for (const slot of slots) await this.#closeSlot(slot);
      for (const dir of dirs) await rm(dir, { recursive: true, force: true });
    } finally {
      for (const release of releases) release();
    }
  }

  /**
   * Closes the instances of `branch`'s databases (its computes have suspended), each once nobody
   * holds it; their data stays on disk.
   */
  async closeBranch(branch: BranchRef): Promise<void> {
    const prefix = `${dataParts(branch).join('/')}/`;
    const open = [...this.#slots.values()].filter(
      (slot) => slot.db !== undefined && slot.key.startsWith(prefix),
    );
    await Promise.all(open.map((slot) => slot.lock.holding(() => this.#closeSlot(slot))));
  }

  /** Closes every instance (waiting for holders to release); nothing opens afterwards. */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all(
      [...this.#slots.values()].map((slot) => slot.lock.holding(() => this.#closeSlot(slot))),
    );
  }

  #slot(ref: DatabaseRef): Slot {
    const key = keyOf(ref);
    let slot = this.#slots.get(key);
    if (slot === undefined) {
      slot = {
        key,
        ref,
        dir: dataDir(this.#root, ref),
        lock: new ExclusiveLock(),
        db: undefined,
        readOnly: false,
        lastUsed: 0,
        current: undefined,
        gone: [],
        sessions: new Set(),
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
    slot.db = await DatabaseThread.open(slot.dir, this.#nameOf?.(slot.ref));
    // A new backend holds no session yet (the sessions of an earlier one lost their temporary data).
    slot.current = undefined;
    slot.gone = [];
    slot.sessions.clear();
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
        .filter((slot) => slot.db !== undefined && !slot.lock.held && slot.sessions.size === 0)
        .sort((a, b) => a.lastUsed - b.lastUsed)[0];
      // All in use: go past the cap rather than wait on a holder or end a client's session.
      if (idle === undefined) return;
      await idle.lock.holding(() => this.#closeSlot(idle));
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
        if (!session.ended) slot.sessions.add(session);
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
      exec: (message, write, handOver) => {
        live();
        slot.lastUsed = ++this.#uses;
        return db.exec(message, write, handOver);
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
      return templateDirectory(this.#templateDir, async (building) => {
        // initdb runs in the database's own thread: the server goes on meanwhile.
        const db = await DatabaseThread.open(building);
        await db.close();
      });
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

/** `<project>/<branch>/db-<id>`: a slot's key, and its folder under the root. */
function keyOf(ref: DatabaseRef): string {
  return dataParts(ref).join('/');
}

/** `LISTEN "channel"` as a simple query. */
function listenMessage(channel: string): Uint8Array {
  return queryMessage(`LISTEN "${channel.replaceAll('"', '""')}"`);
}
