/**
 * Simulation: the public entry point. Binds the generic engine to the control-plane model and the
 * REST route table, and speaks in user units at its edges (ISO instants, duration strings).
 */
import type { WorkloadInput } from '../workload/workloadSpec.js';
import type { Observable } from 'rxjs';
import { parseDuration, type Duration } from '../core/duration.js';
import { parseInstant, type Instant } from '../core/instant.js';
import type { Profile } from '../domain/profile.js';
import { connectionLimits, type ConnectionLimits } from '../domain/computeSize.js';
import type { PostgresAddress } from '../domain/connectionUri.js';
import type { ApiResponse } from '../api/apiResponse.js';
import {
  answerRequest,
  type ApiRequest,
  type PipelineHooks,
  type RequestOptions,
} from '../api/requestPipeline.js';
import { keyRingOf, type ApiKey } from '../api/apiKey.js';
import type { RequestTarget } from '../api/requestTarget.js';
import { Connection } from './connection.js';
import { forkRun, type ForkOptions, type ForkSource } from './fork.js';
import { givenApiKey } from './givenApiKey.js';
import {
  newEngine,
  replayedEngine,
  type BuiltEngine,
  type ControlPlaneEngine,
} from './simulationEngine.js';
import type { SimulationOptions } from './simulationOptions.js';
import { targetOf } from './simulationTarget.js';
import type { SettingsChange } from '../model/settingsChange.js';
import type { SimEvent } from '../model/events.js';
import type { SimState } from '../model/state.js';
import type { RunOptions } from '../engine/engineOptions.js';
import { LogFormatError } from '../engine/errors.js';
import type { EventLog } from '../engine/eventLog.js';
import { parseJsonLines } from '../engine/jsonLines.js';
import type { LoggedEvent } from '../engine/loggedEvent.js';

/** Reads a simulation's live working state (set in `Simulation`'s static block). */
let readLive: (sim: Simulation) => SimState;

/**
 * The live working state of `sim`, without publishing a snapshot: for code inside the package that
 * copies what it needs at once and keeps no reference (a timeline step picking an id). It changes
 * under the reader with the next call and must never be written to. Not exported from the package.
 */
export function liveStateOf(sim: Simulation): SimState {
  return readLive(sim);
}

/** A deterministic simulation of the control plane over virtual time. */
export class Simulation {
  static {
    readLive = (sim) => sim.#engine.live;
  }

  readonly #engine: ControlPlaneEngine;
  readonly #target: RequestTarget;
  readonly #apiKeys = new Map<string, ApiKey>();
  #postgresFront: PostgresAddress | undefined;
  /** The resolved profile in force. */
  readonly profile: Profile;

  constructor(options: SimulationOptions = {}) {
    const built = (options as { [REBUILT]?: BuiltEngine })[REBUILT] ?? newEngine(options);
    this.profile = built.profile;
    this.#engine = built.engine;
    for (const key of options.apiKeys ?? []) this.addApiKey(key);
    this.#target = targetOf(this.#engine, this.profile, this.#apiKeys, () => this.#postgresFront);
  }

  /** Rebuilds a simulation from its log (header first). Its state deep-equals the original's. */
  static replay(
    log: Iterable<LoggedEvent>,
    options: Pick<SimulationOptions, 'snapshotEvery' | 'stepLimit' | 'trackedEvents' | 'log'> = {},
  ): Simulation {
    return new Simulation({ [REBUILT]: replayedEngine(log, options) } as SimulationOptions);
  }

  /**
   * Rebuilds a simulation from a log: events (as `replay` takes them) or JSON Lines text, where a
   * torn last line is refused too (`LogFormatError`). Reads well before a fork:
   * `Simulation.fromLog(log).fork(at, change)`.
   */
  static fromLog(
    log: Iterable<LoggedEvent> | string,
    options: Pick<SimulationOptions, 'snapshotEvery' | 'stepLimit' | 'trackedEvents'> = {},
  ): Simulation {
    if (typeof log !== 'string') return Simulation.replay(log, options);
    const { simulation, tornLastLine } = Simulation.fromJSONL(log, options);
    if (tornLastLine !== undefined)
      throw new LogFormatError(tornLastLine.reason, tornLastLine.line);
    return simulation;
  }

  /**
   * A new simulation that forks this one at `at`: its log up to `at` is this one's, byte for byte,
   * and from `at` it runs with `change` applied (profile values, computes' settings, workloads'
   * rates; see `SettingsChange`), as far as this one has run (or `options.until`). The same
   * sessions arrive after `at` as here, except where the change itself alters them. A change that
   * changes nothing gives this run's log. Requests and connections made by hand after `at` are not
   * repeated in a fork with a change (make them on the fork). Throws a `RangeError` for an instant
   * outside the run or a change that cannot apply at `at` (an unknown compute, a value out of
   * range), and a `LogUnavailableError` when this simulation keeps no log in memory (fork the
   * file it streamed instead: `Simulation.fromLog(LogFile.open(path).events())`); this simulation
   * does not change.
   */
  fork(at: Instant, change: SettingsChange = {}, options: ForkOptions = {}): Simulation {
    const forked = forkRun(forkSourceOf(this), at, change, options);
    return new Simulation({
      [REBUILT]: { engine: forked.engine, profile: forked.profile },
    } as SimulationOptions);
  }

  /**
   * Rebuilds a simulation from a JSON Lines log. A torn last line is ignored and reported in
   * `tornLastLine`; any other defect throws `LogFormatError` naming the line.
   */
  static fromJSONL(
    text: string,
    options: Pick<SimulationOptions, 'snapshotEvery' | 'stepLimit' | 'trackedEvents'> = {},
  ): {
    readonly simulation: Simulation;
    readonly tornLastLine?: { readonly line: number; readonly reason: string };
  } {
    const parsed = parseJsonLines(text);
    const simulation = Simulation.replay(parsed.events, options);
    return parsed.tornLastLine === undefined
      ? { simulation }
      : { simulation, tornLastLine: parsed.tornLastLine };
  }

  /**
   * The connection limits of a compute sized `[minCu, maxCu]` under this simulation's profile:
   * `max_connections`, the direct client connections admitted, and the pooler's backend pool.
   */
  connectionLimits(minCu: number, maxCu: number = minCu): ConnectionLimits {
    return connectionLimits(minCu, maxCu, this.profile.connections);
  }

  /** Virtual time, epoch milliseconds. */
  now(): number {
    return this.#engine.now;
  }

  /** The seed of this run. */
  get seed(): number {
    return this.#engine.seed;
  }

  /** Immutable snapshot of the current state. */
  get state(): SimState {
    return this.#engine.state;
  }

  /** The append-only event log, header first. */
  get log(): EventLog<SimEvent> {
    return this.#engine.log;
  }

  /** Every event as it is appended (synchronous, in order). */
  get events$(): Observable<SimEvent> {
    return this.#engine.events$;
  }

  /** The state after each public call; a new subscriber gets the current state first. */
  get state$(): Observable<SimState> {
    return this.#engine.state$;
  }

  /** Pending timers: how many, how many are foreground work, and when the next is due. */
  get pending(): {
    readonly timers: number;
    readonly foreground: number;
    readonly nextDue: number;
  } {
    return this.#engine.pending;
  }

  /** Moves virtual time forward by `duration` (ms or `'5m'`), running all work due in between. */
  advance(duration: Duration, options?: RunOptions): this {
    this.#engine.advanceTo(this.#engine.now + parseDuration(duration), options);
    return this;
  }

  /** Moves virtual time forward to `instant`, running all work due up to it. */
  advanceTo(instant: Instant, options?: RunOptions): this {
    this.#engine.advanceTo(parseInstant(instant), options);
    return this;
  }

  /**
   * One slice of a long advance: fires at most `maxTimers` of the timers due up to `instant`, and
   * moves the clock to `instant` once none is left. Returns whether `instant` was reached. Calling it
   * until it returns true gives the same log as one `advanceTo`, while a server stays free to answer
   * other requests between slices.
   */
  advanceToward(instant: Instant, maxTimers: number): boolean {
    return this.#engine.advanceToward(parseInstant(instant), maxTimers);
  }

  /**
   * One slice of `runUntilIdle`: fires at most `maxTimers` timers. Returns `idle` once only
   * background work is pending, `deadline` when foreground work is still pending but the next timer
   * is due after `deadline`, and `more` when the slice ran out first.
   */
  runTowardIdle(deadline: Instant, maxTimers: number): 'idle' | 'deadline' | 'more' {
    return this.#engine.runTowardIdle(parseInstant(deadline), maxTimers);
  }

  /**
   * Runs until an instant (like `advanceTo`) or until `predicate(state)` holds. With a predicate it
   * throws when the condition is false and nothing is pending, or past the step guard.
   */
  runUntil(target: Instant | ((state: SimState) => boolean), options?: RunOptions): this {
    if (typeof target === 'function') this.#engine.runUntilState(target, options);
    else this.#engine.advanceTo(parseInstant(target), options);
    return this;
  }

  /**
   * Runs until no foreground work is pending: operations settled, idle computes suspended. Periodic
   * background work does not count, but what it starts does (a check that wakes a compute). Work
   * that never settles (checks on many branches waking computes more often than they suspend, an
   * operation that keeps failing) throws `StepLimitError` once `within` (default 30 days) of
   * virtual time has passed; use `advance` to run a fixed span instead.
   */
  runUntilIdle(options?: RunOptions): this {
    this.#engine.runUntilIdle(options);
    return this;
  }

  /**
   * One REST request, path relative to `/api/v2` (a leading `/api/v2` is accepted too). Never throws:
   * errors are responses with a `{ code, message, request_id? }` body. The body is the API's JSON,
   * typed `any` by default like `fetch`'s `json()`; pass `B` to type it.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  request<B = any>(
    method: string,
    path: string,
    body?: unknown,
    options?: RequestOptions,
  ): ApiResponse<B> {
    // Without added routes every answer comes in this turn.
    return answerRequest(this.#target, { ...options, method, path, body }) as ApiResponse<B>;
  }

  /**
   * One request through the API's pipeline with an adapter's additions (a server's control routes
   * and rate limits, a test's injected faults): what `computesim serve` and the testing toolkit
   * answer through, so that every transport gives the answers `request` gives. An added route's
   * handler may take time; the REST routes answer in this turn.
   */
  answer<A extends ApiResponse, C>(
    request: ApiRequest,
    hooks: PipelineHooks<A, C>,
  ): ApiResponse | A | Promise<ApiResponse | A> {
    return answerRequest(this.#target, request, hooks);
  }

  /** The keys given to `addApiKey` (or the `apiKeys` option), by key. */
  get apiKeys(): ReadonlyMap<string, ApiKey> {
    return this.#apiKeys;
  }

  /**
   * A client connects to a compute (directly, or through the pooler with `pooled: true`). The handle
   * is `connecting` while an idle compute wakes, then `open`; a refusal is a state (`refused`, with a
   * SQLSTATE in `error`), never an exception. Connecting resets the compute's scale-to-zero timer,
   * but an idle connection does not keep the compute up: it scales to zero after its timeout with no
   * statement running and no transaction open (`connection.query`, `begin`/`commit`), closing idle
   * connections with 57P01.
   */
  connect(endpointId: string, options: { readonly pooled?: boolean } = {}): Connection {
    const pooled = options.pooled === true;
    const result = this.#engine.execute({
      type: 'OpenConnection',
      endpointId,
      pooled,
      tracked: true,
    });
    const first = result.ok ? result.value[0] : undefined;
    if (first === undefined || !('connectionId' in first))
      throw new Error('OpenConnection produced no connection event');
    const engine = this.#engine;
    return new Connection(first.connectionId, endpointId, pooled, {
      get state() {
        return engine.state;
      },
      close: (connectionId) => {
        engine.execute({ type: 'CloseConnection', connectionId });
      },
      query: (connectionId, durationMs) => {
        engine.execute({ type: 'RunQuery', connectionId, durationMs });
      },
      transaction: (connectionId, open) => {
        engine.execute({ type: 'SetTransaction', connectionId, open });
      },
    });
  }

  /**
   * Drops the open connections of a compute from outside (SQLSTATE 57P01), as the network or an
   * operator might: a fault for testing clients. The compute stays up; returns how many were
   * dropped. Throws a `RangeError` for an unknown compute.
   */
  dropConnections(endpointId: string): number {
    const result = this.#engine.execute({ type: 'DropConnections', endpointId });
    if (!result.ok) throw new RangeError(result.error.message);
    const dropped = result.value[0];
    return dropped?.type === 'ConnectionsDropped' ? dropped.connectionIds.length : 0;
  }

  /**
   * Attaches a workload from now on and returns its id (`w1`, `w2`, … in order): Poisson sessions
   * following the clock, cron jobs, long-held workers, a burst, or a recorded trace (see
   * `WorkloadInput`). Its sessions connect like clients, put CPU and memory demand on the compute
   * while open (autoscaling follows it) and close after their hold time. Sessions are drawn from the
   * seed and the workload's id alone, so the same seed gives the same sessions under any profile.
   * Throws a `RangeError` naming the problem for a wrong spec or a missing compute; nothing changes.
   */
  addWorkload(workload: WorkloadInput): string {
    const result = this.#engine.execute({ type: 'AttachWorkload', workload });
    if (!result.ok) throw new RangeError(result.error.message);
    const attached = result.value[0];
    if (attached?.type !== 'WorkloadAttached') throw new Error('AttachWorkload attached nothing');
    return attached.workloadId;
  }

  /**
   * Requires API keys from now on (the first key switches authentication on). A project-scoped key
   * reaches only its project. Returns the key string (generated from the seed when not given). Keys
   * belong to this simulation object, not to its log: a replay starts without them.
   */
  addApiKey(key: {
    readonly kind: ApiKey['kind'];
    readonly key?: string;
    readonly projectId?: string;
  }): string {
    const given = givenApiKey(key, {
      given: this.#apiKeys.size,
      seed: this.seed,
      state: () => this.state,
    });
    this.#apiKeys.set(given.key, given);
    return given.key;
  }

  /**
   * Where a Postgres front serves this simulation's computes (`computesim serve --pg-port`): from
   * now on the connection URIs the API answers point at it, naming the compute in
   * `options=endpoint%3D<id>`. `undefined` goes back to the computes' own hosts. Not logged: it is
   * where the simulation is served, not part of what it simulates.
   */
  servePostgresAt(address: PostgresAddress | undefined): void {
    this.#postgresFront = address;
  }

  /** Whether `key` is a live API key of this simulation (given, or created through the API). */
  knowsApiKey(key: string): boolean {
    return keyRingOf(this.#apiKeys, this.#target.state).find(key) !== undefined;
  }

  /** State as it stood at a past instant. */
  stateAt(instant: Instant): SimState {
    return this.#engine.stateAt(parseInstant(instant));
  }

  /** The log as JSON Lines (one event a line). */
  toJSONL(): string {
    return this.#engine.log.toJSONL();
  }
}

/** Key of the private construction path used by `replay`. */
const REBUILT = Symbol('rebuilt');

/** What a fork reads of a simulation (past states by epoch ms). */
function forkSourceOf(sim: Simulation): ForkSource {
  return { log: sim.log, now: () => sim.now(), stateAt: (t) => sim.stateAt(t) };
}
