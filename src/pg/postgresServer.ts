/**
 * One Postgres server process for `--pg-engine postgres`: a branch's cluster, started on its data
 * directory and listening only on a unix socket in a folder of its own, stopped by a fast shutdown
 * (its clients are told 57P01). Postgres refuses to run as root: a front run as root (CI machines,
 * containers) starts its servers, and makes their data, as the unprivileged `postgres` user (or
 * `nobody` where there is none), and gives them their folders.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { PostgresBinaries } from './postgresBinaries.js';

/** The user a server runs as, when not the front's own. */
export interface ServerUser {
  readonly name: string;
  readonly uid: number;
  readonly gid: number;
}

/** The superuser each cluster is made with; the front's own statements run as it. */
export const ADMIN_ROLE = 'cloud_admin';
/** The port in the socket file's name (`.s.PGSQL.5432`): every server has a folder of its own. */
const SOCKET_PORT = 5432;
/** How long a server may take to start or stop before it is given up on. */
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 30_000;
/** The end of a server's log kept to explain a failed start. */
const LOG_TAIL_BYTES = 4096;

/**
 * Settings of every server: the data is a simulation's, so durability is traded for speed (no
 * fsync); a small shared memory, as one machine runs many; room for the clients a pool opens.
 */
const SERVER_SETTINGS: Readonly<Record<string, string>> = {
  listen_addresses: '',
  fsync: 'off',
  synchronous_commit: 'off',
  full_page_writes: 'off',
  shared_buffers: '16MB',
  max_connections: '300',
  max_wal_senders: '4',
  log_min_messages: 'warning',
  unix_socket_permissions: '0777',
};

const live = new Set<ChildProcess>();
let exitHookInstalled = false;

/**
 * A watchdog's program: it waits for its input to end, which happens when the front's process
 * ends in any way (SIGKILL included, which no exit hook sees), then stops the server at once and
 * removes its socket folder.
 */
const WATCHDOG = 'read -r _; kill -QUIT "$1" 2>/dev/null; rm -rf "$2"';

/**
 * The user servers run as: none when the front is not root (they run as the front's user), else
 * `postgres` from `/etc/passwd`, or `nobody`.
 */
export function serverUser(): ServerUser | undefined {
  if (process.getuid?.() !== 0) return undefined;
  let passwd = '';
  try {
    passwd = readFileSync('/etc/passwd', 'utf8');
  } catch {
    // No user database: nobody's well-known ids below.
  }
  const entries = passwd.split('\n').map((line) => line.split(':'));
  for (const name of ['postgres', 'nobody']) {
    const entry = entries.find((fields) => fields[0] === name);
    if (entry !== undefined) return { name, uid: Number(entry[2]), gid: Number(entry[3]) };
  }
  return { name: 'nobody', uid: 65_534, gid: 65_534 };
}

/** Gives `path` and everything under it to `user` (nothing to do without one). */
export async function giveTo(path: string, user: ServerUser | undefined): Promise<void> {
  if (user === undefined) return;
  await promisify(execFile)('chown', ['-R', `${user.uid}:${user.gid}`, path]);
}

/** Makes a new cluster in `dir` (initdb): trust on the socket, `cloud_admin` its superuser. */
export async function initCluster(
  binaries: PostgresBinaries,
  dir: string,
  user: ServerUser | undefined,
): Promise<void> {
  await promisify(execFile)(
    join(binaries.dir, 'initdb'),
    ['-D', dir, '-U', ADMIN_ROLE, '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync'],
    { ...asUser(user), timeout: START_TIMEOUT_MS },
  );
}

/** The options that run a program as `user`, from a folder it may enter. */
function asUser(user: ServerUser | undefined): { uid?: number; gid?: number; cwd: string } {
  return user === undefined ? { cwd: tmpdir() } : { uid: user.uid, gid: user.gid, cwd: '/' };
}

/** A running server. */
export class PostgresServer {
  readonly #process: ChildProcess;
  readonly #watchdog: ChildProcess | undefined;
  readonly #socketDir: string;
  #exited: Promise<void>;
  /** Why the process could not be run (spawn's own error: no permission, no memory). */
  #spawnError: Error | undefined;
  #log = '';

  private constructor(child: ChildProcess, socketDir: string) {
    this.#process = child;
    this.#socketDir = socketDir;
    this.#exited = new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.once('error', (error) => {
        this.#spawnError = error;
        resolve();
      });
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      this.#log = (this.#log + chunk.toString('utf8')).slice(-LOG_TAIL_BYTES);
    });
    live.add(child);
    child.once('exit', () => live.delete(child));
    installExitHook();
    this.#watchdog = watch(child, socketDir);
  }

  /** Starts a server on the cluster in `dataDir`; resolves once it accepts clients. */
  static async start(
    binaries: PostgresBinaries,
    dataDir: string,
    user: ServerUser | undefined,
  ): Promise<PostgresServer> {
    const socketDir = await mkdtemp(join(tmpdir(), 'csim-pg-'));
    await giveTo(socketDir, user);
    const settings = { ...SERVER_SETTINGS, unix_socket_directories: socketDir };
    const args = ['-D', dataDir, '-p', String(SOCKET_PORT)];
    for (const [name, value] of Object.entries(settings)) args.push('-c', `${name}=${value}`);
    const child = spawn(join(binaries.dir, 'postgres'), args, {
      ...asUser(user),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const server = new PostgresServer(child, socketDir);
    try {
      await server.#ready(dataDir);
    } catch (error) {
      await server.stop();
      throw error;
    }
    return server;
  }

  /** The server's socket (`net.connect(path)`). */
  get socketPath(): string {
    return join(this.#socketDir, `.s.PGSQL.${SOCKET_PORT}`);
  }

  /** Whether the server process has ended. */
  get ended(): boolean {
    return (
      this.#spawnError !== undefined ||
      this.#process.exitCode !== null ||
      this.#process.signalCode !== null
    );
  }

  /** Waits until the server says it is ready (`postmaster.pid`'s status line), or fails. */
  async #ready(dataDir: string): Promise<void> {
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      if (this.ended)
        throw new Error(
          `the Postgres server did not start: ${this.#spawnError?.message ?? (this.#log.trim() || 'no output')}`,
        );
      const pid = await readFile(join(dataDir, 'postmaster.pid'), 'utf8').catch(() => '');
      if (pid.split('\n')[7]?.trim() === 'ready') return;
      if (Date.now() > deadline)
        throw new Error(`the Postgres server took over ${START_TIMEOUT_MS / 1000} s to start`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** Stops the server (a fast shutdown: clients are ended, the data checkpointed). */
  async stop(): Promise<void> {
    this.#watchdog?.kill('SIGKILL');
    if (!this.ended) {
      this.#process.kill('SIGINT');
      const killed = setTimeout(() => this.#process.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await this.#exited;
      clearTimeout(killed);
    }
    await rm(this.#socketDir, { recursive: true, force: true });
  }
}

/** A watchdog for `child`, which the front's process does not wait for. */
function watch(child: ChildProcess, socketDir: string): ChildProcess | undefined {
  if (child.pid === undefined) return undefined;
  const watchdog = spawn('sh', ['-c', WATCHDOG, 'watchdog', String(child.pid), socketDir], {
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  watchdog.on('error', () => undefined);
  watchdog.stdin?.on('error', () => undefined);
  watchdog.unref();
  (watchdog.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  child.once('exit', () => watchdog.kill('SIGKILL'));
  return watchdog;
}

/** Servers do not outlive the front: an exit that skipped `stop` ends them at once. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const child of live) child.kill('SIGQUIT');
  });
}
