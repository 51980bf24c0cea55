/**
 * The data behind the front on a real Postgres (`--pg-engine postgres`): a cluster per branch in
 * `<root>/<project>/<branch>/postgres`, holding the branch's databases under the names the control
 * plane gives them, served by its own server while any compute of the branch is active. Each
 * client gets a backend of its own on it (`link`); the roles and databases a client names are made
 * at its first connect. A new branch's cluster is a `pg_basebackup` of its parent's running server
 * (its clients go on undisturbed), or a copy of the parent's stopped data; a new cluster is a copy
 * of a template made once per machine (initdb takes seconds, a copy a fraction of one).
 */
import { execFile } from 'node:child_process';
import { chown, cp, mkdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { SqlError } from '../domain/sqlState.js';
import { dropListedDatabases, makeDatabase, makeRole, updateDatabase } from './clusterCatalog.js';
import { openBackendLink, type BackendLink } from './backendLink.js';
import type { BranchDataStore, DatabaseCopy } from './branchDataStore.js';
import {
  dataDir,
  dataParts,
  type BranchRef,
  type DatabaseRef,
  type DataPlace,
} from './dataPaths.js';
import { ExclusiveLock } from './exclusiveLock.js';
import type { PostgresBinaries } from './postgresBinaries.js';
import {
  ADMIN_ROLE,
  giveTo,
  initCluster,
  PostgresServer,
  serverUser,
  type ServerUser,
} from './postgresServer.js';
import { holdsDataDirectory, templateDirectory } from './templateDirectory.js';

/** How to keep the clusters. */
export interface PostgresClustersOptions {
  /** Folder holding the branches' data (made if missing). */
  readonly root: string;
  readonly binaries: PostgresBinaries;
  /** The control plane's name of a database. */
  readonly nameOf: (ref: DatabaseRef) => string | undefined;
  /** The role that owns a database (made with it). */
  readonly ownerOf: (ref: DatabaseRef) => string | undefined;
  /** Where the template cluster is made once. Default: `computesim-postgres-<version>` in tmp. */
  readonly templateDir?: string;
}

interface Cluster {
  readonly key: string;
  readonly dir: string;
  /** Starts, stops, copies and the front's own statements take it in turn. */
  readonly lock: ExclusiveLock;
  server: PostgresServer | undefined;
  /** Roles and databases known to exist on the running server (`role:…`, `db:…`). */
  readonly made: Set<string>;
}

/** The folder of a branch's cluster under its branch folder. */
const CLUSTER_FOLDER = 'postgres';

/** The clusters of a served simulation. */
export class PostgresClusters implements BranchDataStore {
  readonly #options: PostgresClustersOptions;
  readonly #user: ServerUser | undefined = serverUser();
  readonly #clusters = new Map<string, Cluster>();
  readonly #templateDir: string;
  #template: Promise<string> | undefined;
  #opens = 0;
  #closed = false;

  constructor(options: PostgresClustersOptions) {
    this.#options = options;
    this.#templateDir =
      options.templateDir ??
      join(tmpdir(), `computesim-postgres-${options.binaries.version}-${this.#user?.uid ?? 'own'}`);
  }

  get opens(): number {
    return this.#opens;
  }

  get openCount(): number {
    let open = 0;
    for (const cluster of this.#clusters.values())
      if (cluster.server !== undefined && !cluster.server.ended) open += 1;
    return open;
  }

  /** The version of the server's programs (`15.14`). */
  get version(): string {
    return this.#options.binaries.version;
  }

  async prepare(): Promise<void> {
    if (this.#user !== undefined) await reachableBy(this.#options.root, this.#user);
    await this.#ensureTemplate();
  }

  /** Nothing to move: clusters have only ever been kept by id. */
  adoptLegacyLayout(): Promise<void> {
    return Promise.resolve();
  }

  /**
   * A backend of its own for a client of the database `ref` names (by `name` when the control
   * plane does not list it: `postgres`, `template1`) as `role`, with its startup `settings`: the
   * branch's server started if it is not, the role and a listed database made if they are new.
   * Resolves to the server's refusal when it refuses the client (a database it does not have).
   */
  async link(
    ref: DatabaseRef & { readonly name: string },
    role: string,
    settings: Readonly<Record<string, string>>,
  ): Promise<BackendLink | SqlError> {
    const listed = ref.databaseId >= 0 ? this.#options.nameOf(ref) : undefined;
    const database = listed ?? ref.name;
    const owner = (listed === undefined ? undefined : this.#options.ownerOf(ref)) ?? role;
    const cluster = this.#cluster(ref);
    const release = await cluster.lock.acquire();
    let server: PostgresServer;
    try {
      server = await this.#start(cluster);
      await this.#make(cluster, server, [owner, role], listed, owner);
    } finally {
      release();
    }
    return openBackendLink(server.socketPath, { ...settings, user: role, database });
  }

  copyDatabases(copies: readonly DatabaseCopy[]): Promise<void> {
    const byTarget = new Map<string, { to: BranchRef; from?: BranchRef }>();
    for (const { from, to } of copies) {
      const key = this.#keyOf(to);
      const known = byTarget.get(key);
      if (known?.from === undefined)
        byTarget.set(key, { to, ...(from === undefined ? {} : { from }) });
    }
    return Promise.all(
      [...byTarget.values()].map(({ from, to }) => this.#copyCluster(from, to)),
    ).then(() => undefined);
  }

  async drop(place: DataPlace): Promise<void> {
    if (place.databaseId !== undefined && place.branchId !== undefined) {
      const ref = { ...place, branchId: place.branchId, databaseId: place.databaseId };
      const name = this.#options.nameOf(ref);
      if (name !== undefined) await this.#dropDatabases(ref, (database) => database === name);
      return;
    }
    const prefix = dataParts(place).join('/');
    const chosen = [...this.#clusters.values()].filter(
      (cluster) => cluster.key === prefix || cluster.key.startsWith(`${prefix}/`),
    );
    const releases = await Promise.all(chosen.map((cluster) => cluster.lock.acquire()));
    try {
      for (const cluster of chosen) await this.#stop(cluster);
      await rm(dataDir(this.#options.root, place), { recursive: true, force: true });
    } finally {
      for (const release of releases) release();
    }
  }

  async dropOthers(branch: BranchRef, keep: readonly number[]): Promise<void> {
    const kept = new Set(keep.map((databaseId) => this.#options.nameOf({ ...branch, databaseId })));
    await this.#dropDatabases(branch, (database) => !kept.has(database));
  }

  /**
   * A database the control plane renamed or gave another owner: the same on the server (its
   * clients are ended first, as Postgres renames only a database nobody is connected to).
   */
  async updateDatabase(
    branch: BranchRef,
    name: string,
    changes: { readonly name?: string; readonly ownerName?: string },
  ): Promise<void> {
    await this.#onServer(branch, async (cluster, server) => {
      const owner = changes.ownerName;
      if (owner !== undefined) await this.#make(cluster, server, [owner], undefined, owner);
      await this.#asAdmin(server, async (link) => {
        if (await updateDatabase(link, name, changes)) cluster.made.delete(`db:${name}`);
      });
    });
  }

  async closeBranch(branch: BranchRef): Promise<void> {
    const cluster = this.#clusters.get(this.#keyOf(branch));
    if (cluster?.server === undefined) return;
    await cluster.lock.holding(() => this.#stop(cluster));
  }

  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all(
      [...this.#clusters.values()].map((cluster) =>
        cluster.lock.holding(() => this.#stop(cluster)),
      ),
    );
  }

  #keyOf(branch: BranchRef): string {
    return dataParts({ projectId: branch.projectId, branchId: branch.branchId }).join('/');
  }

  #cluster(branch: BranchRef): Cluster {
    const key = this.#keyOf(branch);
    let cluster = this.#clusters.get(key);
    if (cluster === undefined) {
      const place = { projectId: branch.projectId, branchId: branch.branchId };
      cluster = {
        key,
        dir: join(dataDir(this.#options.root, place), CLUSTER_FOLDER),
        lock: new ExclusiveLock(),
        server: undefined,
        made: new Set(),
      };
      this.#clusters.set(key, cluster);
    }
    return cluster;
  }

  /** The cluster's running server, started (its data made from the template first) if need be. */
  async #start(cluster: Cluster): Promise<PostgresServer> {
    if (cluster.server !== undefined && !cluster.server.ended) return cluster.server;
    await this.#stop(cluster); // a server that ended on its own leaves its socket folder
    if (this.#closed) throw new Error('the databases are closed');
    if (!(await holdsDataDirectory(cluster.dir))) {
      const template = await this.#ensureTemplate();
      await rm(cluster.dir, { recursive: true, force: true });
      await this.#makeBranchFolder(cluster);
      await cp(template, cluster.dir, { recursive: true });
      await giveTo(cluster.dir, this.#user);
    }
    cluster.made.clear();
    cluster.server = await PostgresServer.start(this.#options.binaries, cluster.dir, this.#user);
    this.#opens += 1;
    return cluster.server;
  }

  /**
   * Makes the folders above a cluster's, each the server's user's to enter (when it is not the
   * front's own: they are the front's to write).
   */
  async #makeBranchFolder(cluster: Cluster): Promise<void> {
    const branchDir = dirname(cluster.dir);
    await mkdir(branchDir, { recursive: true });
    const user = this.#user;
    if (user === undefined) return;
    for (const dir of [this.#options.root, dirname(branchDir), branchDir])
      await chown(dir, user.uid, user.gid);
  }

  async #stop(cluster: Cluster): Promise<void> {
    const server = cluster.server;
    cluster.server = undefined;
    await server?.stop();
  }

  /** Makes the roles and the database a client names, where they are new. */
  async #make(
    cluster: Cluster,
    server: PostgresServer,
    roles: readonly string[],
    database: string | undefined,
    owner: string,
  ): Promise<void> {
    const newRoles = [...new Set(roles)].filter((role) => !cluster.made.has(`role:${role}`));
    if (newRoles.length === 0 && (database === undefined || cluster.made.has(`db:${database}`)))
      return;
    const major = this.#options.binaries.major;
    await this.#asAdmin(server, async (link) => {
      for (const role of newRoles) {
        await makeRole(link, role, major);
        cluster.made.add(`role:${role}`);
      }
      if (database === undefined || cluster.made.has(`db:${database}`)) return;
      await makeDatabase(link, database, owner);
      cluster.made.add(`db:${database}`);
    });
  }

  /** Runs `work` on a link as the cluster's superuser, closed after. */
  async #asAdmin(
    server: PostgresServer,
    work: (link: BackendLink) => Promise<void>,
  ): Promise<void> {
    const link = await openBackendLink(server.socketPath, {
      user: ADMIN_ROLE,
      database: 'postgres',
    });
    if (!('socket' in link)) throw new Error(`the server refused its superuser: ${link.message}`);
    try {
      await work(link);
    } finally {
      link.close();
    }
  }

  /** Drops the databases of `branch`'s cluster that `chosen` picks. */
  async #dropDatabases(branch: BranchRef, chosen: (database: string) => boolean): Promise<void> {
    await this.#onServer(branch, (cluster, server) =>
      this.#asAdmin(server, async (link) => {
        for (const database of await dropListedDatabases(link, chosen))
          cluster.made.delete(`db:${database}`);
      }),
    );
  }

  /**
   * Runs `work` with `branch`'s server, under its lock: started for it (and stopped again after)
   * if it was not running; nothing when the branch has no data yet.
   */
  async #onServer(
    branch: BranchRef,
    work: (cluster: Cluster, server: PostgresServer) => Promise<void>,
  ): Promise<void> {
    const cluster = this.#cluster(branch);
    await cluster.lock.holding(async () => {
      if (!(await holdsDataDirectory(cluster.dir))) return;
      const wasRunning = cluster.server !== undefined && !cluster.server.ended;
      await work(cluster, await this.#start(cluster));
      if (!wasRunning) await this.#stop(cluster);
    });
  }

  /**
   * Makes `to`'s cluster a copy of `from`'s as it is now (none, or no data yet: `to` starts anew
   * from the template at its first client). `to`'s server, if running, stops first.
   */
  async #copyCluster(from: BranchRef | undefined, to: BranchRef): Promise<void> {
    const target = this.#cluster(to);
    const source = from === undefined ? undefined : this.#cluster(from);
    if (source === target) return;
    const [releaseSource, releaseTarget] = await Promise.all([
      source?.lock.acquire(),
      target.lock.acquire(),
    ]);
    try {
      await this.#stop(target);
      await rm(target.dir, { recursive: true, force: true });
      if (source === undefined || !(await holdsDataDirectory(source.dir))) return;
      await this.#makeBranchFolder(target);
      const running =
        source.server !== undefined && !source.server.ended ? source.server : undefined;
      try {
        if (running === undefined)
          await cp(source.dir, target.dir, {
            recursive: true,
            filter: (path) => basename(path) !== 'postmaster.pid',
          });
        else await this.#baseBackup(running, target.dir);
        await giveTo(target.dir, this.#user);
      } catch (error) {
        // Half a copy is no cluster: the branch starts anew rather than failing every start.
        await rm(target.dir, { recursive: true, force: true });
        throw error;
      }
    } finally {
      releaseSource?.();
      releaseTarget();
    }
  }

  /** A copy of a running server's cluster into `dir`, its clients undisturbed. */
  async #baseBackup(server: PostgresServer, dir: string): Promise<void> {
    await promisify(execFile)(
      join(this.#options.binaries.dir, 'pg_basebackup'),
      [
        ...['-D', dir, '-h', dirname(server.socketPath), '-p', '5432', '-U', ADMIN_ROLE],
        ...['-X', 'stream', '-c', 'fast', '--no-sync', '-w'],
      ],
      { timeout: 600_000, cwd: tmpdir() },
    );
  }

  /** The template cluster, made once (initdb) and renamed into place whole. */
  #ensureTemplate(): Promise<string> {
    this.#template ??= (async () => {
      return templateDirectory(this.#templateDir, async (building) => {
        await mkdir(building, { recursive: true, mode: 0o700 });
        await giveTo(building, this.#user);
        await initCluster(this.#options.binaries, building, this.#user);
      });
    })();
    return this.#template;
  }
}

/**
 * Fails, naming the folder, when `user` could not reach a folder inside `root` (a folder above it
 * that others may not enter, as `/root` is): the server could not open its data.
 */
async function reachableBy(root: string, user: ServerUser): Promise<void> {
  await mkdir(root, { recursive: true });
  for (let dir = dirname(resolve(root)); ; dir = dirname(dir)) {
    const info = await stat(dir);
    const enters =
      info.uid === user.uid
        ? (info.mode & 0o100) !== 0
        : info.gid === user.gid
          ? (info.mode & 0o010) !== 0
          : (info.mode & 0o001) !== 0;
    if (!enters)
      throw new Error(
        `the Postgres servers run as the user ${user.name} (Postgres refuses to run as root), who ` +
          `cannot enter ${dir}: keep the data (--pg-data) in a folder they can reach`,
      );
    if (dirname(dir) === dir) return;
  }
}
