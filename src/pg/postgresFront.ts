/**
 * `computesim serve --pg-port`: a Postgres wire-protocol server beside the HTTP API. Each client is
 * a simulated connection to the compute it names (see `ClientSession`); each branch database is an
 * embedded Postgres (see `BranchDatabases`), whose data follows the branches: a new branch starts as
 * a copy of its parent's data, a reset or restore copies its source's, a deleted branch's data goes.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { AddressInfo } from 'node:net';
import type { Subscription } from 'rxjs';
import type { PostgresAddress } from '../domain/connectionUri.js';
import { SQL_STATES } from '../domain/sqlState.js';
import { POSTGRES_FEATURE } from '../packages/optionalFeatures.js';
import { requireFeature, type OptionalFeature } from '../packages/optionalPackage.js';
import {
  BranchDatabases,
  type BranchDatabasesOptions,
  type DatabaseRef,
  type HeldDatabase,
} from './branchDatabases.js';
import type { BranchDataStore, NamedDatabase } from './branchDataStore.js';
import { findPostgresBinaries } from './postgresBinaries.js';
import { BranchDataFollower } from './branchDataFollower.js';
import { PostgresClusters } from './postgresClusters.js';
import { CancelKeys, type BackendKey } from './cancelKeys.js';
import { ClientSession } from './clientSession.js';
import type { NamedEndpoint } from './endpointRouting.js';
import type { HandshakeContext } from './handshake.js';
import { tlsIdentity, type TlsFiles, type TlsIdentity } from './tlsIdentity.js';
import { answerSql, type SqlAnswer } from './sqlOverHttp.js';
import { admitSqlClient, linkedDatabase, type SqlAdmissionContext } from './sqlAdmission.js';
import type { FrontHost } from './frontHost.js';
import { defaultClientLimits, type ClientLimits } from './clientLimits.js';
import { errorResponse } from './backendMessages.js';
import { hangUp } from './hangUp.js';
import { LoginThrottle } from './loginThrottle.js';

/** How to run the front. */
export interface PostgresFrontOptions extends BranchDatabasesOptions {
  /**
   * Wall milliseconds between clock catch-ups while clients are connected (paced clocks): what the
   * control plane does to them (a suspend, a restart) happens on time even when no API request
   * comes in to move the clock. Default 10.
   */
  readonly paceEveryMs?: number;
  /** Told of errors the front could not hand to a client (a failed copy of branch data). */
  readonly onError?: (error: unknown) => void;
  /** Told, in one line, of a client that broke the protocol (its bytes are not served). */
  readonly onLog?: (line: string) => void;
  /**
   * TLS for clients that ask for it (`sslmode=require`): a certificate from files, or (the
   * default) a self-signed one made at start for the endpoint hosts' domain; `false` declines TLS.
   */
  readonly tls?: TlsFiles | false;
  /** The domain of endpoint hosts, for the self-signed certificate (`computesim.local`). */
  readonly hostDomain?: string;
  /**
   * What the front is started for, and so which optional packages it needs (PGlite at least):
   * named in the error when one is missing. Default `serve --pg-port`'s.
   */
  readonly feature?: OptionalFeature;
  /** How many clients it takes, in all and while logging in (default: `defaultClientLimits()`). */
  readonly limits?: Partial<ClientLimits>;
  /**
   * What runs the databases: `pglite` (the default, no install: an embedded Postgres per
   * database, its clients taking turns on one backend) or `postgres` (a Postgres server per
   * branch, each client on a backend of its own; see docs/postgres-engines.md).
   */
  readonly engine?: PostgresEngine;
  /** With `engine: 'postgres'`: the folder of the server's programs (default: looked for). */
  readonly postgresBin?: string;
}

/** Above the largest process id Linux gives (`pid_max` is at most 2^22). */
const ABOVE_ANY_PID = 2 ** 22 + 1;

/** What may run the branch databases behind the front (see `PostgresFrontOptions.engine`). */
export const PG_ENGINES = ['pglite', 'postgres'] as const;

/** What runs the branch databases behind the front. */
export type PostgresEngine = (typeof PG_ENGINES)[number];

/** The Postgres front of a served simulation. */
export class PostgresFront {
  /** The branches' data, as the control plane changes it. */
  readonly databases: BranchDataStore;
  /** The embedded databases (`pglite`), or the servers (`postgres`): one of them. */
  readonly #embedded: BranchDatabases | undefined;
  readonly #clusters: PostgresClusters | undefined;
  readonly #host: FrontHost;
  readonly #options: PostgresFrontOptions;
  readonly #server: Server;
  readonly #sessions = new Set<ClientSession>();
  /** Sessions by the process id of their cancel key, with the key. */
  readonly #byProcess = new Map<number, { key: BackendKey; session: ClientSession }>();
  readonly #keys: CancelKeys;
  #tls: TlsIdentity | undefined;
  /** SQL-over-HTTP requests under way (they keep a paced clock moving, as connected clients do). */
  #httpClients = 0;
  readonly #sockets = new Set<Socket>();
  readonly #streams = new Set<Duplex>();
  readonly #unsubscribeReplaced: () => void;
  #events: Subscription | undefined;
  #wake: Array<() => void> = [];
  #pacer: ReturnType<typeof setInterval> | undefined;
  readonly #follower: BranchDataFollower;
  readonly #limits: ClientLimits;
  /** Clients logging in, by address. */
  readonly #starting = new Map<string, number>();
  #startingCount = 0;
  readonly #throttle = new LoginThrottle();

  /** Throws a `MissingPackageError` when a package of `options.feature` is not installed. */
  constructor(host: FrontHost, options: PostgresFrontOptions) {
    this.#host = host;
    this.#options = options;
    const databaseOf = (ref: DatabaseRef) =>
      host.sim.state.projects[ref.projectId]?.branches[ref.branchId]?.databases.find(
        (database) => database.id === ref.databaseId,
      );
    if (options.engine === 'postgres') {
      this.#clusters = new PostgresClusters({
        root: options.root,
        binaries: findPostgresBinaries(options.postgresBin),
        nameOf: (ref) => databaseOf(ref)?.name,
        ownerOf: (ref) => databaseOf(ref)?.ownerName,
      });
      this.databases = this.#clusters;
    } else {
      requireFeature(options.feature ?? POSTGRES_FEATURE);
      this.#embedded = new BranchDatabases({ nameOf: (ref) => databaseOf(ref)?.name, ...options });
      this.databases = this.#embedded;
    }
    // On a real Postgres, sessions go by their backends' pids once logged in: the front's own
    // keys (for clients still logging in) are drawn where no pid can be.
    this.#keys = new CancelKeys(options.engine === 'postgres' ? ABOVE_ANY_PID : undefined);
    this.#follower = new BranchDataFollower(host, this.databases, (error) =>
      this.#options.onError?.(error),
    );
    this.#limits = { ...defaultClientLimits(), ...options.limits };
    this.#server = createServer((socket) => this.#accept(socket));
    this.#watch();
    this.#unsubscribeReplaced = host.onReplaced(() => {
      for (const session of [...this.#sessions]) session.terminate(SQL_STATES.terminated);
      this.#watch();
    });
  }

  /**
   * Makes what the first client would otherwise wait for (the template database, once per machine)
   * before anyone connects.
   */
  async prepare(): Promise<void> {
    const tls = this.#options.tls;
    const [identity] = await Promise.all([
      tls === false ? undefined : tlsIdentity(this.#options.hostDomain ?? 'localhost', tls),
      this.databases.prepare(),
      this.databases.adoptLegacyLayout(this.#namedDatabases()),
    ]);
    this.#tls = identity;
  }

  /** Listens on `host:port` (0: any free port); resolves to the address clients connect to. */
  listen(port: number, host = '127.0.0.1'): Promise<PostgresAddress> {
    return new Promise((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(port, host, () => {
        this.#server.off('error', reject);
        const address = this.#server.address() as AddressInfo;
        resolve({ host: address.address, port: address.port });
      });
    });
  }

  /**
   * Stops listening, gives clients `graceMs` to finish what they are saying (a pool ending its
   * clients sends their goodbyes after it has returned), ends the rest with 57P01, and closes the
   * databases (their data stays).
   */
  async close(graceMs = 250): Promise<void> {
    this.#unsubscribeReplaced();
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    const deadline = Date.now() + graceMs;
    while (this.#sessions.size > 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 10));
    this.#events?.unsubscribe();
    for (const session of [...this.#sessions]) session.terminate(SQL_STATES.terminated);
    this.#stopPacing();
    // A client that does not hang up after its FATAL is cut off: closing never waits on a client.
    for (const socket of this.#sockets) socket.destroy();
    for (const stream of this.#streams) stream.destroy();
    await this.#follower.settled();
    await this.databases.close();
    await closed;
  }

  /** Clients connected now (TCP and WebSocket), logged in or not. */
  get clientCount(): number {
    return this.#sockets.size + this.#streams.size;
  }

  #accept(socket: Socket): void {
    socket.on('error', () => undefined);
    if (!this.#admits(socket.remoteAddress)) return refuseTooMany(socket);
    socket.setNoDelay(true);
    this.#sockets.add(socket);
    socket.once('close', () => this.#sockets.delete(socket));
    this.#serve(socket, undefined, socket.remoteAddress ?? '');
  }

  /** Whether one more client, from `address`, is within the limits. */
  #admits(address: string | undefined): boolean {
    const limits = this.#limits;
    return (
      this.clientCount < limits.maxClients &&
      this.#startingCount < limits.maxStarting &&
      (this.#starting.get(address ?? '') ?? 0) < limits.maxStartingPerAddress
    );
  }

  /** A client from `address` starts logging in; the returned function says it has finished. */
  #startLogin(address: string): () => void {
    this.#startingCount += 1;
    this.#starting.set(address, (this.#starting.get(address) ?? 0) + 1);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.#startingCount -= 1;
      const left = (this.#starting.get(address) ?? 1) - 1;
      if (left === 0) this.#starting.delete(address);
      else this.#starting.set(address, left);
    };
  }

  /**
   * Serves a client whose Postgres protocol arrives over another stream (a WebSocket at `/v2`,
   * the serverless driver's `Pool` and `Client`): the stream names the compute (`address`), and the
   * password is taken in clear, as the real proxy takes it over its encrypted WebSocket.
   */
  acceptStream(stream: Duplex, endpoint: NamedEndpoint | undefined, address = ''): void {
    if (!this.#admits(address)) return refuseTooMany(stream);
    this.#streams.add(stream);
    stream.once('close', () => this.#streams.delete(stream));
    this.#serve(stream, { endpoint, cleartext: true }, address);
  }

  #serve(socket: Duplex, carried: HandshakeContext['carried'], address: string): void {
    const loginEnded = this.#startLogin(address);
    const key = this.#keys.issue();
    const clusters = this.#clusters;
    const session: ClientSession = new ClientSession(socket, {
      host: this.#host,
      hold: (ref) => this.#hold(ref),
      leave: (ref, left) => this.#embedded?.leave(ref, left),
      ...(clusters === undefined
        ? {}
        : {
            link: (ref, role, settings) => clusters.link(ref, role, settings),
            rekey: (backend) => {
              this.#byProcess.delete(key.processId);
              this.#byProcess.set(backend.processId, { key: backend, session });
            },
          }),
      notify: (processId, message) => this.#byProcess.get(processId)?.session.notify(message),
      key,
      handshake: this.#handshakeContext(carried, address),
      loginEnded,
      changed: () => new Promise((resolve) => this.#wake.push(resolve)),
      ended: (ended) => this.#ended(ended),
    });
    this.#sessions.add(session);
    this.#byProcess.set(key.processId, { key, session });
    this.#pace();
  }

  /** Holds an embedded database (there are none on a real Postgres: its clients have backends). */
  #hold(ref: DatabaseRef): Promise<HeldDatabase> {
    if (this.#embedded === undefined) return Promise.reject(new Error('no embedded databases'));
    return this.#embedded.hold(ref);
  }

  /** A session ended (its database stays open while its branch's computes are active). */
  #ended(session: ClientSession): void {
    this.#sessions.delete(session);
    this.#pace();
    for (const [processId, entry] of this.#byProcess)
      if (entry.session === session) this.#byProcess.delete(processId);
  }

  #handshakeContext(carried: HandshakeContext['carried'], address: string): HandshakeContext {
    return {
      loginFailed: () => this.#throttle.failed(address),
      loginSucceeded: () => this.#throttle.succeeded(address),
      ...(carried === undefined ? {} : { carried }),
      // TLS over a WebSocket would be a second encryption: the stream is declined it.
      tls: carried === undefined ? this.#tls : undefined,
      passwordOf: (endpoint, user) => this.#passwordOf(endpoint, user),
      cancel: (target) => this.#cancel(target),
      log: (line) => this.#options.onLog?.(line),
    };
  }

  /**
   * The password of `user` on the compute named; `undefined` when there is no such role or no such
   * compute: the real proxy answers both as a wrong password, so a client cannot probe for them.
   */
  #passwordOf(named: NamedEndpoint, user: string): string | undefined {
    const state = this.#host.sim.state;
    const projectId = state.endpointOwners[named.endpointId];
    const project = projectId === undefined ? undefined : state.projects[projectId];
    const endpoint = project?.endpoints[named.endpointId];
    const branch = endpoint === undefined ? undefined : project?.branches[endpoint.branchId];
    return branch?.roles.find((role) => role.name === user)?.password;
  }

  /** A CancelRequest: the session it names cancels its statement, if the secret matches. */
  #cancel(target: BackendKey): void {
    const entry = this.#byProcess.get(target.processId);
    if (entry !== undefined && entry.key.secret === target.secret) entry.session.cancel();
  }

  /** Follows the served simulation's events: wakes waiting sessions, keeps branch data in step. */
  #watch(): void {
    this.#events?.unsubscribe();
    this.#events = this.#host.sim.events$.subscribe((event) => {
      this.#follower.follow(event);
      this.#notify();
    });
  }

  /** Every database of the served state, by id and name. */
  #namedDatabases(): NamedDatabase[] {
    const named: NamedDatabase[] = [];
    for (const project of Object.values(this.#host.sim.state.projects))
      for (const branch of Object.values(project.branches))
        for (const database of branch.databases)
          named.push({
            ref: { projectId: project.id, branchId: branch.id, databaseId: database.id },
            name: database.name,
          });
    return named;
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = [];
    for (const resolve of wake) resolve();
  }

  /** Keeps a paced clock following the wall while any client is connected, and only then. */
  #pace(): void {
    const clients = this.#sessions.size + this.#httpClients;
    if (clients > 0 && this.#host.paced && this.#pacer === undefined) {
      this.#pacer = setInterval(() => {
        try {
          this.#host.act(() => undefined);
        } catch {
          // The store refuses writes for now: connected clients wait on.
        }
        this.#notify();
      }, this.#options.paceEveryMs ?? 10);
    }
    if (clients === 0) this.#stopPacing();
  }

  /**
   * Answers `POST /sql` (the serverless driver's SQL over HTTP): the request is a client of the
   * compute its connection string names, for the length of the request.
   */
  answerSql(header: (name: string) => string | undefined, body: unknown): Promise<SqlAnswer> {
    return answerSql(
      {
        processId: () => this.#keys.issue().processId,
        admit: (endpoint, user, password, database, session) =>
          admitSqlClient(this.#sqlAdmission(), endpoint, user, password, database, session),
      },
      header,
      body,
    );
  }

  /** What admitting a `/sql` client needs of the front. */
  #sqlAdmission(): SqlAdmissionContext {
    const clusters = this.#clusters;
    return {
      host: this.#host,
      passwordOf: (named, user) => this.#passwordOf(named, user),
      arrived: () => {
        this.#httpClients += 1;
        this.#pace();
        return () => {
          this.#httpClients -= 1;
          this.#pace();
        };
      },
      changed: () => new Promise((resolve) => this.#wake.push(resolve)),
      database: async (place, user, session, readOnly) => {
        if (clusters === undefined) return this.#hold(place);
        const settings: Record<string, string> = Object.fromEntries(session.settings);
        if (readOnly) settings['default_transaction_read_only'] = 'on';
        const link = await clusters.link(place, user, settings);
        return 'socket' in link ? linkedDatabase(link) : link;
      },
      leave: (place, session) => this.#embedded?.leave(place, session),
    };
  }

  #stopPacing(): void {
    if (this.#pacer !== undefined) clearInterval(this.#pacer);
    this.#pacer = undefined;
  }
}

/** A client over the limits: told as Postgres tells it, and closed. */
function refuseTooMany(socket: Duplex): void {
  const { sqlstate, message } = SQL_STATES.tooManyConnections;
  socket.on('error', () => undefined);
  socket.write(errorResponse({ severity: 'FATAL', code: sqlstate, message }));
  hangUp(socket);
}
